"""Serve a virtual phone to the real adb binary: start adbd, ``adb connect``, clean up.

    with serve_phone(VirtualPhone()) as serial:
        AdbDevice(serial).capture()

Used by ``screenpilot run --virtual`` / ``demo``, the benchmarks and the tests.
``serve_phone(phone, auth="refuse")`` serves a phone that never accepts the computer's
key: adb lists it as ``unauthorized`` (what ``screenpilot doctor`` must explain).
"""

from __future__ import annotations

import contextlib
import subprocess
import time
from collections.abc import Iterator

from screenpilot.errors import DeviceError
from screenpilot.simulator.adbd import AdbDaemon, AuthMode
from screenpilot.simulator.backend import PhoneBackend

CONNECT_TIMEOUT_S = 15.0


def start_adb_server() -> None:
    """Start the adb server (adbutils' bundled binary) if none is running."""
    import adbutils

    subprocess.run(
        [adbutils.adb_path(), "start-server"], check=True, capture_output=True, timeout=60
    )


@contextlib.contextmanager
def serve_phone(
    phone: PhoneBackend, *, host: str = "127.0.0.1", port: int = 0, auth: AuthMode = "none"
) -> Iterator[str]:
    """Run adbd for ``phone``, connect adb to it, yield its serial once adb lists it (as
    ``device``, or ``unauthorized`` with ``auth="refuse"``); disconnect and stop after."""
    import adbutils

    start_adb_server()
    client = adbutils.AdbClient()
    daemon = AdbDaemon(phone, host=host, port=port, auth=auth).start()
    state = "device" if auth == "none" else "unauthorized"
    try:
        client.connect(daemon.serial, timeout=CONNECT_TIMEOUT_S)
        deadline = time.monotonic() + CONNECT_TIMEOUT_S
        while not any(d.serial == daemon.serial and d.state == state for d in client.list()):
            if time.monotonic() > deadline:
                raise DeviceError(
                    f"the virtual phone {daemon.serial} never came up in adb as {state}",
                    hint="check `adb devices`; restart adb with `adb kill-server`",
                )
            time.sleep(0.1)
        yield daemon.serial
    finally:
        with contextlib.suppress(adbutils.AdbError, OSError):
            client.disconnect(daemon.serial)
        daemon.stop()
