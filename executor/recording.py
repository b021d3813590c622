"""Turn the raw touchscreen events of ``getevent -lt`` into taps, long presses and swipes.

A touch arrives as multi-touch protocol B lines::

    [   12345.678901] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   00000001
    [   12345.678901] /dev/input/event2: EV_ABS       ABS_MT_POSITION_X    0000021c
    [   12345.678901] /dev/input/event2: EV_ABS       ABS_MT_POSITION_Y    000004b0
    [   12345.678901] /dev/input/event2: EV_SYN       SYN_REPORT           00000000
    ...
    [   12345.790000] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   ffffffff
    [   12345.790000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000

Raw axis values are scaled to screen pixels with the ranges ``getevent -lp``
reports. Only the first finger is followed (pinches are not gestures we replay).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from screenpilot.executor.device import Gesture

LONG_PRESS_MS = 500
_LINE = re.compile(
    r"^\[\s*(?P<t>\d+\.\d+)\]\s+(?P<dev>\S+):\s+(?P<type>\w+)\s+(?P<code>\w+)"
    r"\s+(?P<value>\S+)\s*$"
)
_RANGE = re.compile(r"(ABS_MT_POSITION_[XY])\s*:\s*value\s+-?\d+,\s*min\s+(-?\d+),\s*max\s+(-?\d+)")


@dataclass(frozen=True, slots=True)
class AxisRanges:
    """Raw touchscreen ranges, to scale raw values to screen pixels."""

    x_min: int = 0
    x_max: int = 0
    y_min: int = 0
    y_max: int = 0

    def scale(self, raw_x: int, raw_y: int, size: tuple[int, int]) -> tuple[int, int]:
        """Raw axis values -> screen pixels (identity when the ranges are unknown)."""
        w, h = size
        x = (
            raw_x
            if self.x_max <= self.x_min
            else (raw_x - self.x_min) * (w - 1) / (self.x_max - self.x_min)
        )
        y = (
            raw_y
            if self.y_max <= self.y_min
            else (raw_y - self.y_min) * (h - 1) / (self.y_max - self.y_min)
        )
        return round(x), round(y)


def parse_ranges(text: str) -> AxisRanges:
    """The X/Y ranges of the touchscreen from ``getevent -lp`` output."""
    found = {m.group(1): (int(m.group(2)), int(m.group(3))) for m in _RANGE.finditer(text)}
    x = found.get("ABS_MT_POSITION_X", (0, 0))
    y = found.get("ABS_MT_POSITION_Y", (0, 0))
    return AxisRanges(x[0], x[1], y[0], y[1])


@dataclass
class _Touch:
    start: float
    points: list[tuple[int, int]] = field(default_factory=list)


@dataclass
class GestureParser:
    """Feed ``getevent -lt`` lines; finished gestures come out of ``feed``."""

    size: tuple[int, int]
    ranges: AxisRanges = field(default_factory=AxisRanges)
    slop_px: int = 24
    _raw_x: int | None = None
    _raw_y: int | None = None
    _down: bool = False
    _lifting: bool = False
    _touch: _Touch | None = None
    _time: float = 0.0

    def feed(self, line: str) -> Gesture | None:
        m = _LINE.match(line.strip())
        if not m:
            return None
        self._time = float(m.group("t"))
        code, value = m.group("code"), m.group("value")
        if code == "ABS_MT_TRACKING_ID":
            if value.lower() == "ffffffff":
                self._lifting = True
            elif not self._down:
                self._down, self._touch = True, _Touch(start=self._time)
        elif code == "ABS_MT_POSITION_X":
            self._raw_x = int(value, 16)
        elif code == "ABS_MT_POSITION_Y":
            self._raw_y = int(value, 16)
        elif code == "BTN_TOUCH" and value == "UP":
            self._lifting = True
        elif code == "SYN_REPORT":
            return self._report()
        return None

    def _report(self) -> Gesture | None:
        touch = self._touch
        if touch is None:
            return None
        if self._raw_x is not None and self._raw_y is not None:
            touch.points.append(self.ranges.scale(self._raw_x, self._raw_y, self.size))
        if not self._lifting:
            return None
        self._down, self._lifting, self._touch = False, False, None
        return (
            classify(touch.points, touch.start, self._time, self.slop_px) if touch.points else None
        )


def classify(points: list[tuple[int, int]], start: float, end: float, slop_px: int) -> Gesture:
    """A tap, long press or swipe from the path of one finger."""
    (x, y), (ex, ey) = points[0], points[-1]
    travel = max(math.dist(points[0], p) for p in points)
    duration = max(0, round((end - start) * 1000))
    if travel <= slop_px:
        if duration >= LONG_PRESS_MS:
            return Gesture("long_press", x, y, x, y, start, duration)
        return Gesture("tap", x, y, x, y, start, duration)
    return Gesture("swipe", x, y, ex, ey, start, duration)


def gestures(
    lines: Iterable[str], size: tuple[int, int], ranges: AxisRanges | None = None, slop_px: int = 24
) -> Iterator[Gesture]:
    """Every finished gesture in a stream of ``getevent -lt`` lines."""
    parser = GestureParser(size=size, ranges=ranges or AxisRanges(), slop_px=slop_px)
    for line in lines:
        g = parser.feed(line)
        if g is not None:
            yield g
