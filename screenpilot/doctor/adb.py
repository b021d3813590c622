"""Doctor checks of the adb side: which adb binary and server, and which phone to use.

The binary is the one adbutils runs (``$ADBUTILS_ADB_PATH``, else ``adb`` on the PATH,
else the platform-tools adbutils bundles). A server started by another adb of another
version is the classic "adb server version doesn't match this client" fight. The
devices check picks the phone the other checks look at: the one ``--device`` or
``device.serial`` names, else the only one adb lists; several, an unauthorised one or
an offline one each get a line that says what to do.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass

from screenpilot.doctor.report import Check, fail, ok, warn
from screenpilot.errors import DeviceError
from screenpilot.executor.device import DeviceInfo

ADB = "adb"
DEVICES = "devices"
VERSION_TIMEOUT_S = 20.0
PICK_FIX = (
    "pick one: `screenpilot doctor --device {serial}`, and for runs "
    "`screenpilot --set device.serial={serial} run ...` (or `run --device {serial}`)"
)
UNAUTHORIZED_FIX = (
    "unlock the phone and accept the prompt on the phone ('Allow USB debugging?'; tick "
    "'Always allow from this computer')\n"
    "no prompt? Developer options > Revoke USB debugging authorisations, then unplug and "
    "plug the cable back in"
)
OFFLINE_FIX = (
    "reconnect the cable (a data cable, not a charge-only one) or run "
    "`adb reconnect offline`; for a phone over Wi-Fi: `adb connect HOST:PORT`"
)
NONE_FIX = (
    "plug the phone in with USB debugging on (Settings > About phone: tap "
    "'Build number' 7 times; then Developer options > USB debugging), or try "
    "`screenpilot doctor --virtual`"
)


def adb_source() -> tuple[str, str]:
    """(path of the adb binary adbutils runs, where it comes from)."""
    import adbutils

    try:
        path = str(adbutils.adb_path())
    except adbutils.AdbError as exc:
        raise DeviceError(f"no adb binary: {exc}") from exc
    if os.environ.get("ADBUTILS_ADB_PATH"):
        return path, "$ADBUTILS_ADB_PATH"
    on_path = shutil.which("adb")
    if on_path and os.path.realpath(on_path) == os.path.realpath(path):
        return path, "on the PATH"
    return path, "bundled with adbutils"


def check_adb() -> Check:
    """The adb binary's version, and the server it talks to (started when none runs)."""
    try:
        path, source = adb_source()
    except DeviceError as exc:
        return fail(
            ADB,
            exc.message,
            "install the Android platform-tools, or `pip install adbutils` (it bundles adb)",
        )
    try:
        out = subprocess.run(
            [path, "version"],
            capture_output=True,
            text=True,
            timeout=VERSION_TIMEOUT_S,
            check=False,
        ).stdout
    except (OSError, subprocess.TimeoutExpired) as exc:
        return fail(
            ADB,
            f"{path} does not run: {exc}",
            "reinstall platform-tools, or point ADBUTILS_ADB_PATH at a working adb",
        )
    protocol = re.search(r"version \d+\.\d+\.(\d+)", out)
    release = re.search(r"^Version (\S+)", out, re.MULTILINE)
    if protocol is None:
        return fail(
            ADB,
            f"{path} is not adb (`adb version` said {out.strip()[:80]!r})",
            "point ADBUTILS_ADB_PATH at the platform-tools adb",
        )
    version = f"adb {release.group(1) if release else '1.0.' + protocol.group(1)}"
    server, started = _server_version(path)
    where = f"{version} at {path} ({source})"
    if server is None:
        return fail(
            ADB,
            f"{where}; its server does not start",
            f"run `{path} start-server` and read what it says; another program may hold port 5037",
        )
    note = ", server started now" if started else ""
    if server != int(protocol.group(1)):
        return warn(
            ADB,
            f"{where}; the running server is another adb (protocol {server}, "
            f"this one {protocol.group(1)}): two adb installations take turns "
            "killing each other's server and the phone drops",
            "use one adb: `adb kill-server` with the other one and keep this one, "
            "or set ADBUTILS_ADB_PATH to the other's path",
        )
    return ok(ADB, f"{where}; server protocol {server}{note}")


def _server_version(path: str) -> tuple[int | None, bool]:
    """(the running server's protocol version or None, whether it was started here)."""
    import adbutils

    def ask() -> int | None:
        try:
            return int(adbutils.AdbClient().server_version())
        except (adbutils.AdbError, OSError, ValueError):
            return None

    version = ask()
    if version is not None:
        return version, False
    try:
        subprocess.run([path, "start-server"], capture_output=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None, False
    return ask(), True


@dataclass(frozen=True, slots=True)
class Pick:
    """The devices check and the phone the phone checks look at (None: none usable)."""

    check: Check
    serial: str | None


def pick_device(serial: str | None) -> Pick:
    """Which phone to check: ``serial`` (``--device`` / ``device.serial``), else the only
    one adb lists; explained when there is none, several, or it is not ready."""
    from screenpilot.executor.adb import list_devices

    try:
        devices = list_devices()
    except DeviceError as exc:
        return Pick(fail(DEVICES, exc.message, exc.hint or "run `adb start-server`"), None)
    if serial:
        match = [d for d in devices if d.serial == serial]
        if not match:
            known = ", ".join(f"{d.serial} ({d.state})" for d in devices) or "none"
            return Pick(
                fail(
                    DEVICES,
                    f"no phone {serial} (adb lists: {known})",
                    f"check the cable; for a phone over Wi-Fi: `adb connect {serial}`",
                ),
                None,
            )
        return _state(match[0], others=len(devices) - 1)
    if not devices:
        return Pick(fail(DEVICES, "no phone connected", NONE_FIX), None)
    ready = [d for d in devices if d.state == "device"]
    if len(ready) > 1:
        listed = ", ".join(_name(d) for d in devices)
        return Pick(
            fail(
                DEVICES,
                f"{len(devices)} phones connected ({listed}): which one should screenpilot use?",
                PICK_FIX.format(serial=ready[0].serial),
            ),
            None,
        )
    if len(ready) == 1:
        return _state(ready[0], others=len(devices) - 1)
    return _state(devices[0], others=len(devices) - 1)


def _name(d: DeviceInfo) -> str:
    return f"{d.serial} {d.model}, {d.state}" if d.model else f"{d.serial} {d.state}"


def _state(d: DeviceInfo, *, others: int) -> Pick:
    """The line for the phone that will be checked, by its state in ``adb devices``."""
    if d.state == "unauthorized":
        return Pick(
            fail(
                DEVICES,
                f"phone {d.serial} has not authorised this computer (adb lists it as unauthorized)",
                UNAUTHORIZED_FIX,
            ),
            None,
        )
    if d.state == "offline":
        return Pick(fail(DEVICES, f"phone {d.serial} is offline", OFFLINE_FIX), None)
    if d.state != "device":
        return Pick(
            fail(
                DEVICES,
                f"phone {d.serial} is in state '{d.state}'",
                "boot the phone normally (not recovery or bootloader) and reconnect",
            ),
            None,
        )
    more = f"; {others} other{'s' * (others != 1)} connected" if others else ""
    return Pick(ok(DEVICES, f"{d.serial} ({d.model or 'model unknown'}){more}"), d.serial)
