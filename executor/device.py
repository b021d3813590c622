"""The phone as the agent sees it: a small protocol, whatever carries it.

``executor/adb.py``'s ``AdbDevice`` is the implementation for real phones (and
for the virtual phone, which speaks the same ADB protocol). Everything above
executor/ — the run loop, the recorder — talks to a ``Device`` only.

Coordinates are screen pixels in the current orientation.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from PIL import Image

GestureKind = Literal["tap", "long_press", "swipe"]


@dataclass(frozen=True, slots=True)
class DeviceInfo:
    """One phone adb can see."""

    serial: str
    state: str
    model: str = ""
    size: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class Gesture:
    """A finger gesture as a person made it: where, how long, and where it ended."""

    kind: GestureKind
    x: int
    y: int
    end_x: int
    end_y: int
    start: float
    duration_ms: int


@runtime_checkable
class Device(Protocol):
    """What the agent needs from a phone."""

    @property
    def serial(self) -> str: ...

    def capture(self) -> Image.Image:
        """The screen now, as an RGB image (safe to retry)."""

    def size(self) -> tuple[int, int]:
        """(width, height) of the screen in the current orientation."""

    def density(self) -> int:
        """Screen density in dpi."""

    def tap(self, x: int, y: int) -> None: ...
    def long_press(self, x: int, y: int, duration_ms: int = 800) -> None: ...
    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None: ...

    def type_text(self, text: str) -> None:
        """Type into the focused field; any language."""

    def clear_text(self) -> None:
        """Delete everything in the focused field."""

    def key(self, name: str) -> None:
        """Press a key by name: BACK, HOME, ENTER, DEL, APP_SWITCH..."""

    def launch(self, package: str) -> None: ...

    def current_app(self) -> str:
        """Package name of the app in front."""

    def touch_events(
        self, *, stop: threading.Event | None = None, started: threading.Event | None = None
    ) -> Iterator[Gesture]:
        """Gestures the person makes on the phone, as they finish (for recording).

        The stream ends soon after ``stop`` is set; ``started`` is set once the phone
        is being listened to (touches before that are not seen)."""
