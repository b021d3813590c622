"""The frames of a recording: the screen captured every ``interval`` seconds on a
thread (and once more just after each touch), kept when it changed, with when each
capture began, so that the frame *before* a touch never shows the touch's effect."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from PIL import Image

from screenpilot.errors import DeviceError
from screenpilot.executor.device import Device
from screenpilot.model import (
    Screen,
)

#: A capture shows the screen as it was at most this long after the capture began.
CAPTURE_LAG_S = 0.05
#: A capture starts this long after each touch (the screen has reacted by then) ...
POST_TOUCH_S = 0.1
#: ... unless this many captures are in flight already.
MAX_IN_FLIGHT = 2


@dataclass
class Frame:
    """A distinct screen image, when its capture had finished (host clock) and when the
    capture that first showed it began (``begun``: when the screen looked like this)."""

    seen: float
    image: Image.Image
    small: np.ndarray
    screen: Screen | None = None
    path: str = ""
    begun: float = -1.0


def small_image(image: Image.Image) -> np.ndarray:
    return np.asarray(
        image.convert("L").resize((max(1, image.width // 8), max(1, image.height // 8))),
        dtype=np.int16,
    )


def changed(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape != b.shape or float(np.mean(np.abs(a - b) > 12)) > 0.0005


@dataclass
class Frames:
    """Captures the screen every ``interval`` s on a thread; keeps the distinct frames."""

    device: Device
    interval: float
    stop: threading.Event
    clock: Callable[[], float]
    frames: list[Frame] = field(default_factory=list)
    last_change: float = 0.0
    error: BaseException | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)
    first: threading.Event = field(default_factory=threading.Event)
    grabbed: threading.Condition = field(default_factory=threading.Condition)
    #: When the capture that finished last had started.
    last_start: float = -1.0
    #: Set after a touch: capture again at once instead of after ``interval``.
    wake: threading.Event = field(default_factory=threading.Event)
    #: When each capture still in flight began.
    in_flight: list[float] = field(default_factory=list)

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                self.grab()
                if self.wake.wait(self.interval):
                    self.wake.clear()
        except DeviceError as exc:
            self.error = exc
            self.stop.set()
        finally:
            self.stop.set()

    def after_touch(self) -> None:
        """A capture of the screen as the touch left it, started now beside the periodic
        one (when captures are slow, the next touch may come before the periodic one)."""
        with self.grabbed:
            if len(self.in_flight) >= MAX_IN_FLIGHT:
                self.wake.set()
                return

        def grab() -> None:
            if self.stop.wait(POST_TOUCH_S):
                return
            with contextlib.suppress(DeviceError):
                self.grab()

        threading.Thread(target=grab, daemon=True, name="record-after-touch").start()

    def grab(self) -> Frame:
        begun = self.clock()
        with self.grabbed:
            self.in_flight.append(begun)
        try:
            image = self.device.capture()
            seen = self.clock()
            small = small_image(image)
            with self.lock:
                older = [f for f in self.frames if f.begun <= begun]
                newer = [f for f in self.frames if f.begun > begun]
                if older and not changed(older[-1].small, small):
                    frame = older[-1]
                elif newer and not changed(newer[0].small, small):
                    frame = newer[0]  # the same screen, seen earlier
                    frame.begun = begun
                else:
                    frame = Frame(seen, image, small, begun=begun)
                    self.frames = [*older, frame, *newer]
                    self.last_change = max(self.last_change, seen)
        finally:
            with self.grabbed:
                self.in_flight.remove(begun)
                self.last_start = max(self.last_start, begun)
                self.grabbed.notify_all()
        self.first.set()
        return frame

    def landed(self, moment: float, timeout: float) -> bool:
        """Wait until every capture begun before ``moment`` has finished (its frame kept)."""
        with self.grabbed:
            return self.grabbed.wait_for(
                lambda: all(b + CAPTURE_LAG_S >= moment for b in self.in_flight), timeout
            )

    def wait_after(self, moment: float, timeout: float) -> bool:
        """Wait until a capture that started after ``moment`` has finished."""
        with self.grabbed:
            return self.grabbed.wait_for(
                lambda: self.last_start > moment or self.stop.is_set(), timeout
            )

    def before(self, moment: float) -> Frame | None:
        """The last frame whose capture began before ``moment`` (else the oldest kept)."""
        with self.lock:
            found = [f for f in self.frames if f.begun + CAPTURE_LAG_S < moment]
            return found[-1] if found else (self.frames[0] if self.frames else None)

    def between(self, start: float, end: float) -> list[Frame]:
        """Frames whose capture began after ``start`` and before ``end``, newest first."""
        with self.lock:
            return [
                f
                for f in reversed(self.frames)
                if start < f.begun and f.begun + CAPTURE_LAG_S < end
            ]

    def prune(self, keep_from: Frame) -> None:
        with self.lock:
            self.frames = [f for f in self.frames if f.begun >= keep_from.begun]
