"""``Box``: an axis-aligned box in screen pixels, with its size, centre, overlap and IoU."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from screenpilot.model.record import Record, fail


@dataclass(frozen=True, slots=True)
class Box(Record):
    """An axis-aligned box in screen pixels: left, top, right (exclusive), bottom (exclusive)."""

    x1: int
    y1: int
    x2: int
    y2: int

    def __post_init__(self) -> None:
        for name in ("x1", "y1", "x2", "y2"):
            if type(getattr(self, name)) is not int:
                fail(Box, f"{name} must be an int, got {getattr(self, name)!r}")
        if self.x2 <= self.x1 or self.y2 <= self.y1:
            fail(Box, f"empty box {self.as_tuple()}")

    @classmethod
    def of(cls, x1: float, y1: float, x2: float, y2: float) -> Box:
        """Round float coordinates to a box (at least one pixel each way)."""
        a, b = round(x1), round(y1)
        return cls(a, b, max(a + 1, round(x2)), max(b + 1, round(y2)))

    @classmethod
    def around(cls, boxes: Sequence[Box]) -> Box:
        """The smallest box that holds every one of ``boxes`` (at least one)."""
        return cls(
            min(b.x1 for b in boxes),
            min(b.y1 for b in boxes),
            max(b.x2 for b in boxes),
            max(b.y2 for b in boxes),
        )

    def as_tuple(self) -> tuple[int, int, int, int]:
        return (self.x1, self.y1, self.x2, self.y2)

    @property
    def width(self) -> int:
        return self.x2 - self.x1

    @property
    def height(self) -> int:
        return self.y2 - self.y1

    @property
    def area(self) -> int:
        return self.width * self.height

    @property
    def center(self) -> tuple[int, int]:
        return ((self.x1 + self.x2) // 2, (self.y1 + self.y2) // 2)

    def intersection(self, other: Box) -> int:
        w = min(self.x2, other.x2) - max(self.x1, other.x1)
        h = min(self.y2, other.y2) - max(self.y1, other.y1)
        return max(0, w) * max(0, h)

    def iou(self, other: Box) -> float:
        inter = self.intersection(other)
        return inter / (self.area + other.area - inter)

    def contains(self, x: float, y: float) -> bool:
        return self.x1 <= x < self.x2 and self.y1 <= y < self.y2

    def beside(self, other: Box, reach: float) -> str:
        """``"left"`` or ``"right"`` when this box stands just left or right of ``other``
        on its row (overlapping 40 % of the lower one's height, at most ``reach``
        pixels apart), else ``""``: a stepper's "-" and "+" beside its number."""
        if min(self.y2, other.y2) - max(self.y1, other.y1) < 0.4 * min(self.height, other.height):
            return ""
        if self.x2 <= other.x1 + 2 and other.x1 - self.x2 <= reach:
            return "left"
        if self.x1 >= other.x2 - 2 and self.x1 - other.x2 <= reach:
            return "right"
        return ""
