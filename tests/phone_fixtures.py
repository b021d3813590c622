"""Pytest fixtures: a phone reachable through the real adb binary.

``phone`` (module scope) starts an adb server if none runs (adbutils' bundled
binary), starts the phone and its adbd on a free port, ``adb connect``s it and
yields a ``PhoneSession``; teardown ``adb disconnect``s and stops adbd.

The phone is ``screenpilot.simulator.phone.VirtualPhone``; ``StubPhone`` below
(a plain image, counters, no apps) serves the shell tests that need exact,
app-free answers. Either way it is wrapped in ``RecordingBackend``, which forwards
every call and keeps a log, so tests can check what reached the phone without
knowing its internals, and counts the touch listeners it holds (``listening``).

``wait_until`` is how every test waits for something to happen: it polls a condition
instead of sleeping a fixed time.
"""

from __future__ import annotations

import contextlib
import io
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import adbutils
import pytest
from PIL import Image

from screenpilot.simulator import serve
from screenpilot.simulator.adbd import AdbDaemon
from screenpilot.simulator.backend import TouchEvent, TouchListener

if TYPE_CHECKING:
    from screenpilot.simulator.phone import VirtualPhone

CONNECT_TIMEOUT_S = 15.0
T = TypeVar("T")


def wait_until(condition: Callable[[], T], timeout: float, interval: float = 0.02) -> T:
    """Poll ``condition`` until it returns something true or ``timeout`` seconds pass;
    returns its last answer (so ``assert wait_until(...)`` fails on a timeout)."""
    deadline = time.monotonic() + timeout
    while True:
        answer = condition()
        if answer or time.monotonic() >= deadline:
            return answer
        time.sleep(interval)


class StubPhone:
    """A minimal but real ``PhoneBackend``: a 1080x2400 frame, settings, a contact."""

    def __init__(self, width: int = 1080, height: int = 2400) -> None:
        self._size = (width, height)
        self._lock = threading.Lock()
        self._listeners: list[TouchListener] = []
        self._boot = time.monotonic() - 1000.0
        self.image = Image.new("RGB", self._size, (250, 250, 250))
        self.focus = ("com.android.launcher3", "com.android.launcher3.Launcher")
        self.typed = ""
        self.settings: dict[str, dict[str, str]] = {
            "global": {"wifi_on": "1", "airplane_mode_on": "0"},
            "secure": {"default_input_method": "com.android.inputmethod.latin/.LatinIME"},
            "system": {"screen_brightness": "128"},
        }

    def size(self) -> tuple[int, int]:
        return self._size

    def density(self) -> int:
        return 420

    def rotation(self) -> int:
        return 0

    def getprop(self, name: str) -> str:
        return {
            "ro.product.model": "Pixel 7",
            "ro.product.name": "panther",
            "ro.product.device": "panther",
            "ro.build.version.release": "14",
            "ro.build.version.sdk": "34",
        }.get(name, "")

    def uptime(self) -> float:
        return time.monotonic() - self._boot

    def screencap_png(self) -> bytes:
        buf = io.BytesIO()
        self.image.save(buf, format="PNG", compress_level=1)
        return buf.getvalue()

    def screencap_raw(self) -> tuple[int, int, bytes]:
        return (*self._size, self.image.convert("RGBA").tobytes())

    def _emit(self, phase: str, x: int, y: int) -> None:
        event = TouchEvent(phase, x, y, self.uptime())  # type: ignore[arg-type]
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            listener(event)

    def touch_down(self, x: int, y: int) -> None:
        self._emit("down", x, y)

    def touch_move(self, x: int, y: int) -> None:
        self._emit("move", x, y)

    def touch_up(self, x: int, y: int) -> None:
        self._emit("up", x, y)

    def tap(self, x: int, y: int) -> None:
        self.touch_down(x, y)
        self.touch_up(x, y)

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int) -> None:
        self.touch_down(x1, y1)
        self.touch_move((x1 + x2) // 2, (y1 + y2) // 2)
        self.touch_up(x2, y2)

    def input_text(self, text: str) -> None:
        self.typed += text

    def keyevent(self, keycode: int, *, longpress: bool = False) -> None:
        if keycode == 3:
            self.focus = ("com.android.launcher3", "com.android.launcher3.Launcher")

    def add_touch_listener(self, listener: TouchListener) -> Callable[[], None]:
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def listener_count(self) -> int:
        with self._lock:
            return len(self._listeners)

    def packages(self) -> list[str]:
        return ["com.android.settings", "com.android.contacts", "com.android.launcher3"]

    def launch(self, package: str, activity: str | None = None) -> bool:
        if package not in self.packages():
            return False
        self.focus = (package, activity or f"{package}.Main")
        return True

    def current_focus(self) -> tuple[str, str]:
        return self.focus

    def broadcast(self, action: str, extras: dict[str, str]) -> str:
        if action == "ADB_INPUT_TEXT":
            self.typed += extras.get("msg", "")
        return ""

    def ime_list(self) -> list[str]:
        return ["com.android.inputmethod.latin/.LatinIME", "com.android.adbkeyboard/.AdbIME"]

    def settings_get(self, namespace: str, key: str) -> str | None:
        return self.settings.get(namespace, {}).get(key)

    def settings_put(self, namespace: str, key: str, value: str) -> None:
        self.settings.setdefault(namespace, {})[key] = value

    def settings_list(self, namespace: str) -> dict[str, str]:
        return dict(self.settings.get(namespace, {}))

    def content_query(self, uri: str) -> list[dict[str, str]] | None:
        if uri.startswith("content://com.android.contacts/"):
            return [{"_id": "1", "display_name": "Alice", "number": "2122000000"}]
        return None

    def dumpsys(self, service: str, args: list[str]) -> str | None:
        if service == "window":
            pkg, act = self.focus
            return f"  mCurrentFocus=Window{{1a2b3c u0 {pkg}/{act}}}\n"
        if service == "input":
            return "    SurfaceOrientation: 0\n"
        if service == "display":
            w, h = self._size
            return (
                f'  mOverrideDisplayInfo=DisplayInfo{{"Built-in Screen", '
                f"real {w} x {h}, rotation 0, orientation=0}}\n"
            )
        return None


@dataclass
class RecordingBackend:
    """Forwards every ``PhoneBackend`` call to ``inner`` and logs (name, args)."""

    inner: Any
    calls: list[tuple[str, tuple[Any, ...]]] = field(default_factory=list)
    listening: int = 0

    def __getattr__(self, name: str) -> Any:
        target = getattr(self.inner, name)
        if not callable(target):
            return target

        def recorded(*args: Any, **kwargs: Any) -> Any:
            self.calls.append((name, args))
            return target(*args, **kwargs)

        return recorded

    def add_touch_listener(self, listener: TouchListener) -> Callable[[], None]:
        """Logged like every call; ``listening`` counts the listener once it is registered
        and until it unsubscribes, so a test can wait for the phone to be listened to."""
        self.calls.append(("add_touch_listener", (listener,)))
        unsubscribe = self.inner.add_touch_listener(listener)
        self.listening += 1

        def done() -> None:
            unsubscribe()
            self.listening -= 1

        return done

    def named(self, name: str) -> list[tuple[Any, ...]]:
        """The arguments of every logged call to ``name``."""
        return [args for called, args in list(self.calls) if called == name]


def make_backend() -> tuple[Any, str]:
    """(phone, which): the real VirtualPhone (a failure to build it fails the test)."""
    from screenpilot.simulator.phone import VirtualPhone

    return VirtualPhone(), "VirtualPhone"


def start_adb_server() -> adbutils.AdbClient:
    """An adb server on the default port (started with adbutils' binary if needed)."""
    serve.start_adb_server()
    return adbutils.AdbClient(host="127.0.0.1", port=5037, socket_timeout=30)


def wait_online(client: adbutils.AdbClient, serial: str) -> None:
    if not wait_until(
        lambda: any(d.serial == serial and d.state == "device" for d in client.list()),
        CONNECT_TIMEOUT_S,
        interval=0.1,
    ):
        raise RuntimeError(f"{serial} never came online in adb")


@dataclass
class PhoneSession:
    """What the ``phone`` fixture yields."""

    client: adbutils.AdbClient
    device: adbutils.AdbDevice
    adbd: AdbDaemon
    backend: RecordingBackend
    kind: str

    @property
    def serial(self) -> str:
        return self.adbd.serial

    def reconnect(self) -> None:
        """``adb disconnect`` then ``adb connect`` again, waiting until it is online."""
        self.client.disconnect(self.serial)
        self.client.connect(self.serial, timeout=CONNECT_TIMEOUT_S)
        wait_online(self.client, self.serial)


@pytest.fixture(scope="module")
def phone() -> Iterator[PhoneSession]:
    inner, kind = make_backend()
    backend = RecordingBackend(inner)
    client = start_adb_server()
    daemon = AdbDaemon(backend).start()
    try:
        client.connect(daemon.serial, timeout=CONNECT_TIMEOUT_S)
        wait_online(client, daemon.serial)
        yield PhoneSession(client, client.device(daemon.serial), daemon, backend, kind)
    finally:
        with contextlib.suppress(adbutils.AdbError):
            client.disconnect(daemon.serial)
        daemon.stop()


@pytest.fixture()
def vp(phone: PhoneSession) -> VirtualPhone:
    """The virtual phone behind ``phone``, reset to how it was built."""
    from screenpilot.simulator.phone import VirtualPhone

    inner: Any = phone.backend.inner
    assert isinstance(inner, VirtualPhone)
    inner.reset()
    return inner
