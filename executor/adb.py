"""The only module that talks adb: ``AdbDevice`` on adbutils, and device discovery.

Errors from adbutils and sockets leave this module as ``DeviceError`` with a
message that says what to do. Only captures and read-only queries are retried;
a tap, swipe or typed text is never sent twice (a lost answer does not mean the
phone did not act).
"""

from __future__ import annotations

import functools
import logging
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from PIL import Image

from screenpilot.errors import DeviceError
from screenpilot.executor import screencap, wake
from screenpilot.executor.device import DeviceInfo, Gesture
from screenpilot.executor.recording import GestureParser, parse_ranges
from screenpilot.executor.textinput import (
    ADB_KEYBOARD_HELP,
    ADB_KEYBOARD_IME,
    adb_keyboard_command,
    input_text_commands,
    is_plain_ascii,
)

if TYPE_CHECKING:
    import adbutils

log = logging.getLogger(__name__)
T = TypeVar("T")

KEYCODES = {
    "BACK": 4,
    "HOME": 3,
    "ENTER": 66,
    "DEL": 67,
    "APP_SWITCH": 187,
    "TAB": 61,
    "MOVE_END": 123,
    "MOVE_HOME": 122,
    "FORWARD_DEL": 112,
    "SEARCH": 84,
    "MENU": 82,
    "VOLUME_UP": 24,
    "VOLUME_DOWN": 25,
    "POWER": 26,
    "ESCAPE": 111,
}
_FOCUS = re.compile(r"mCurrentFocus=Window\{\S+ \S+ ([\w.]+)(?:/([\w.$]+))?")
_CAPTURE_RETRIES = 2


def _client() -> adbutils.AdbClient:
    import adbutils

    return adbutils.AdbClient()


def _adb_errors() -> tuple[type[BaseException], ...]:
    import adbutils

    return (adbutils.AdbError, OSError, socket.timeout, EOFError)


def list_devices() -> list[DeviceInfo]:
    """Every phone adb sees, with model and screen size for those that are ready."""
    try:
        infos = _client().list(extended=True)
    except _adb_errors() as exc:
        raise DeviceError(
            f"cannot reach the adb server: {exc}", hint="is adb installed? try `adb start-server`"
        ) from exc
    out = []
    for info in infos:
        model, size = info.tags.get("model", "").replace("_", " "), None
        if info.state == "device":
            try:
                size = AdbDevice(info.serial).size()
            except DeviceError:
                size = None
        out.append(DeviceInfo(info.serial, info.state, model, size))
    return out


def choose_serial(serial: str | None = None) -> str:
    """The serial to use: the one given, else the only phone connected; never a guess."""
    devices = list_devices()
    if serial:
        match = [d for d in devices if d.serial == serial]
        if not match:
            known = ", ".join(d.serial for d in devices) or "none"
            raise DeviceError(
                f"no device with serial {serial} (connected: {known})",
                hint="check `screenpilot devices`; for a phone over Wi-Fi run "
                f"`adb connect {serial}` first",
            )
        _check_state(match[0])
        return serial
    ready = [d for d in devices if d.state == "device"]
    if not devices:
        raise DeviceError(
            "no phone connected",
            hint="plug the phone in with USB debugging on (Settings > Developer "
            "options), or start the virtual phone: `screenpilot phone`",
        )
    if len(ready) > 1:
        raise DeviceError(
            f"{len(ready)} phones connected: {', '.join(d.serial for d in ready)}",
            hint="choose one with --device SERIAL",
        )
    if not ready:
        _check_state(devices[0])
    return ready[0].serial


def _check_state(info: DeviceInfo) -> None:
    if info.state == "unauthorized":
        raise DeviceError(
            f"phone {info.serial} has not authorised this computer",
            hint="unlock the phone and accept the 'Allow USB debugging?' prompt",
        )
    if info.state != "device":
        raise DeviceError(
            f"phone {info.serial} is {info.state}",
            hint="reconnect the cable or run `adb reconnect`",
        )


class AdbDevice:
    """A phone driven over adb (real, or the virtual phone)."""

    def __init__(self, serial: str, *, timeout: float = 20.0, capture: str = "auto") -> None:
        """``capture``: how screenshots are taken, ``auto``, ``raw`` or ``png``
        (``executor.screencap``; the config key ``device.capture``)."""
        import adbutils

        self._serial = serial
        self._timeout = timeout
        self._dev = adbutils.AdbDevice(_client(), serial=serial)
        self._size: tuple[int, int] | None = None
        self._density: int | None = None
        self.formats = screencap.FormatChooser(capture)

    @classmethod
    def connect(cls, serial: str | None = None, *, capture: str = "auto") -> AdbDevice:
        """The phone with this serial, or the only one connected."""
        return cls(choose_serial(serial), capture=capture)

    @property
    def serial(self) -> str:
        return self._serial

    # --- plumbing ---------------------------------------------------------------------
    def _call(self, what: str, fn: Callable[[], T]) -> T:
        try:
            return fn()
        except _adb_errors() as exc:
            text = str(exc)
            if "not found" in text or "offline" in text or isinstance(exc, OSError | EOFError):
                raise DeviceError(
                    f"phone {self._serial} disconnected while trying to {what}",
                    hint="reconnect it and check `screenpilot devices`; an "
                    "interrupted tap may or may not have happened",
                ) from exc
            if "unauthorized" in text:
                raise DeviceError(
                    f"phone {self._serial} is not authorised",
                    hint="accept the 'Allow USB debugging?' prompt",
                ) from exc
            raise DeviceError(f"adb failed to {what}: {text}") from exc

    def shell(self, cmd: str, *, what: str = "", timeout: float | None = None) -> str:
        """Run a shell command on the phone and return its output (never retried)."""
        out: Any = self._call(
            what or f"run `{cmd[:40]}`",
            lambda: self._dev.shell(cmd, timeout=timeout or self._timeout),
        )
        return str(out)

    # --- the screen -------------------------------------------------------------------
    def capture(self) -> Image.Image:
        """The screen as RGB (retried: a capture has no side effects), as raw pixels or
        PNG, whichever this phone delivers faster (``executor.screencap``)."""
        last: Exception | None = None
        attempt = 0
        while attempt <= _CAPTURE_RETRIES:
            fmt = self.formats.next()
            cmd = screencap.command(fmt)
            started = time.perf_counter()
            try:
                read = functools.partial(screencap.read_exec, self._dev, cmd, self._timeout)
                data = self._call(f"run `{cmd}`", read)
                image = screencap.decode(fmt, data)
            except (ValueError, OSError, DeviceError) as exc:
                last = exc
                if isinstance(exc, ValueError) and self.formats.unreadable(fmt, str(exc)):
                    continue  # auto turned to PNG: try it at once
                attempt += 1
                time.sleep(0.2 * attempt)
                continue
            self.formats.record(fmt, time.perf_counter() - started)
            self._notice_size(image.size)
            return image
        raise DeviceError(
            f"screencap failed on {self._serial}: {last}",
            hint="is the screen on and unlocked? try `adb exec-out screencap -p > shot.png`"
            + ("; or set device.capture to png" if self.formats.mode == "raw" else ""),
        )

    def _notice_size(self, size: tuple[int, int]) -> None:
        if self._size is not None and size != self._size:
            log.info("screen of %s is now %dx%d (orientation changed)", self._serial, *size)
        self._size = size

    def size(self) -> tuple[int, int]:
        if self._size is None:
            self._size = self._query_size()
        return self._size

    def _query_size(self) -> tuple[int, int]:
        text = self.shell("wm size", what="read the screen size")
        found = re.findall(r"(\d+)x(\d+)", text)
        if not found:
            raise DeviceError(f"cannot read the screen size from `wm size`: {text!r}")
        w, h = map(int, found[-1])  # "Override size" comes last when set
        rotation = self.shell("dumpsys input", what="read the orientation")
        m = re.search(r"SurfaceOrientation:\s*(\d)", rotation)
        return (h, w) if m and int(m.group(1)) % 2 else (w, h)

    def density(self) -> int:
        if self._density is None:
            text = self.shell("wm density", what="read the density")
            found = re.findall(r"(\d+)", text)
            self._density = int(found[-1]) if found else 420
        return self._density

    # --- input --------------------------------------------------------------------------
    def tap(self, x: int, y: int) -> None:
        self._check_point(x, y)
        self.shell(f"input tap {x} {y}", what="tap")

    def long_press(self, x: int, y: int, duration_ms: int = 800) -> None:
        self._check_point(x, y)
        self.shell(f"input swipe {x} {y} {x} {y} {duration_ms}", what="long-press")

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        self._check_point(x1, y1)
        self._check_point(x2, y2)
        self.shell(f"input swipe {x1} {y1} {x2} {y2} {duration_ms}", what="swipe")

    def _check_point(self, x: int, y: int) -> None:
        w, h = self.size()
        if not (0 <= x < w and 0 <= y < h):
            raise DeviceError(f"point ({x}, {y}) is outside the {w}x{h} screen")

    def type_text(self, text: str) -> None:
        """Type ``text``: ASCII through ``input text``, the rest through ADB Keyboard."""
        if not text:
            return
        if is_plain_ascii(text):
            for cmd in input_text_commands(text):
                self.shell(cmd, what="type text")
            return
        imes = self.shell("ime list -s", what="list input methods")
        if ADB_KEYBOARD_IME not in imes.split():
            raise DeviceError(
                "this text needs the ADB Keyboard input method, which is not "
                "installed on the phone",
                hint=ADB_KEYBOARD_HELP,
            )
        previous = self.shell("settings get secure default_input_method").strip()
        if previous != ADB_KEYBOARD_IME:
            self.shell(f"ime set {ADB_KEYBOARD_IME}", what="switch to ADB Keyboard")
        try:
            out = self.shell(adb_keyboard_command(text), what="type text")
            if "result=0" not in out and "Broadcast completed" not in out:
                raise DeviceError(f"ADB Keyboard did not take the text: {out.strip()}")
        finally:
            if previous and previous != "null" and previous != ADB_KEYBOARD_IME:
                self.shell(f"ime set {previous}", what="restore the keyboard")

    def clear_text(self) -> None:
        """Select all (Ctrl+A) and delete; older phones: move to the end and delete."""
        out = self.shell("input keycombination 113 29", what="select all")
        if "Error" in out or "Unknown" in out or "usage" in out.lower():
            self.shell("input keyevent MOVE_END", what="clear text")
            self.shell("input keyevent " + " ".join(["DEL"] * 80), what="clear text")
            return
        self.shell("input keyevent DEL", what="clear text")

    def key(self, name: str) -> None:
        code = KEYCODES.get(name.upper().removeprefix("KEYCODE_"))
        if code is None:
            raise DeviceError(f"unknown key {name!r}", hint=f"one of {', '.join(KEYCODES)}")
        self.shell(f"input keyevent {code}", what=f"press {name}")

    # --- apps ---------------------------------------------------------------------------
    def launch(self, package: str) -> None:
        if not re.fullmatch(r"[A-Za-z][\w.]*", package):
            raise DeviceError(f"{package!r} is not an Android package name")
        out = self.shell(
            f"monkey -p {package} -c android.intent.category.LAUNCHER 1", what=f"open {package}"
        )
        if "No activities found" in out or "monkey aborted" in out:
            raise DeviceError(
                f"app {package} is not installed on {self._serial}",
                hint="check the package name with `adb shell pm list packages`",
            )

    def screen_awake(self) -> bool | None:
        """Whether the display is on, by ``dumpsys power`` (None: it does not say)."""
        return wake.parse_awake(self.shell("dumpsys power", what="read whether the screen is on"))

    def wake(self) -> None:
        """Turn the display on (``KEYCODE_WAKEUP``: it does not unlock a locked phone)."""
        self.shell(f"input keyevent {wake.WAKEUP}", what="wake the screen")

    def current_app(self) -> str:
        text = self.shell("dumpsys window", what="read the app in front")
        m = _FOCUS.search(text)
        return m.group(1) if m else ""

    # --- recording ------------------------------------------------------------------------
    def touch_events(
        self, *, stop: threading.Event | None = None, started: threading.Event | None = None
    ) -> Iterator[Gesture]:
        """Stream the person's gestures (``getevent -lt``) until the caller stops iterating
        or ``stop`` is set; ``started`` is set once the stream is open."""
        ranges = parse_ranges(self.shell("getevent -lp", what="read the touchscreen"))
        slop = max(8, round(8 * self.density() / 160))
        parser = GestureParser(size=self.size(), ranges=ranges, slop_px=slop)
        conn: Any = self._call(
            "stream touches", lambda: self._dev.shell("getevent -lt", stream=True)
        )
        if started is not None:
            started.set()
        try:
            for line in _lines(conn, stop):
                gesture = parser.feed(line)
                if gesture is not None:
                    yield gesture
        finally:
            conn.close()


def _lines(conn: Any, stop: threading.Event | None = None) -> Iterator[str]:
    """Lines of a streaming shell connection as they arrive, until it closes (or, within
    a fraction of a second, until ``stop`` is set)."""
    sock = conn.conn
    sock.settimeout(0.25 if stop is not None else 1.0)
    buf = b""
    while True:
        if stop is not None and stop.is_set():
            return
        try:
            chunk = sock.recv(4096)
        except TimeoutError:
            continue
        except (OSError, EOFError):
            chunk = b""
        if not chunk:
            if buf:
                yield buf.decode("utf-8", "replace")
            return
        buf += chunk
        *lines, buf = buf.split(b"\n")
        for line in lines:
            yield line.decode("utf-8", "replace")
