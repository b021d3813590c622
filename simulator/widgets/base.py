"""``Widget``: the base of every widget, its sizing rules and the render/paint split.

Layout is one pass of ``measure(rc, max_w)`` (width constraint in, size out) and
one of ``render(rc, x, y, w, h)``. A widget with a ``key`` is clickable: ``render``
adds a tap target and marks what ``paint`` records as clickable with that key.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from screenpilot.simulator.widgets.context import RenderCtx, Size


@dataclass(eq=False, kw_only=True)
class Widget:
    """Base of every widget: an optional action ``key`` and layout overrides in dp."""

    key: str = ""
    width: float | None = None
    height: float | None = None
    weight: float = 0.0

    #: Whether ``render`` adds a plain tap target for ``key`` (widgets with their own
    #: hit logic, such as seek bars, turn this off).
    auto_target: ClassVar[bool] = True

    def measure(self, rc: RenderCtx, max_w: float) -> Size:
        fixed_w = None if self.width is None else min(max_w, rc.dp(self.width))
        w, h = self.natural(rc, max_w if fixed_w is None else fixed_w)
        if fixed_w is not None:
            w = fixed_w
        if self.height is not None:
            h = rc.dp(self.height)
        return (min(w, max_w), h)

    def natural(self, rc: RenderCtx, max_w: float) -> Size:
        """The size the widget wants within ``max_w`` pixels."""
        raise NotImplementedError

    def render(self, rc: RenderCtx, x: float, y: float, w: float, h: float) -> None:
        """Draw in the box and record truth (skipped when outside the clip)."""
        if not rc.visible(y, y + h) or w <= 0 or h <= 0:
            return
        if self.key and self.auto_target:
            rc.target((x, y, x + w, y + h), self.key)
            with rc.clickable(self.key):
                self.paint(rc, x, y, w, h)
        else:
            self.paint(rc, x, y, w, h)

    def paint(self, rc: RenderCtx, x: float, y: float, w: float, h: float) -> None:
        raise NotImplementedError
