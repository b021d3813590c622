"""Text and icon glyphs, the two leaf widgets every page is mostly made of."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from screenpilot.model import ElementKind
from screenpilot.simulator import draw
from screenpilot.simulator.draw import BoxF
from screenpilot.simulator.widgets.base import Widget
from screenpilot.simulator.widgets.context import RenderCtx, Size


@dataclass(eq=False)
class Text(Widget):
    """Text in Roboto (Noto CJK for Chinese); ``max_lines`` > 1 wraps, the last line ellipsizes."""

    text: str = ""
    size: float = 14.0
    color: str = "primary"
    font_weight: int = 400
    align: Literal["start", "center", "end"] = "start"
    max_lines: int = 1

    def _lines(self, rc: RenderCtx, max_w: float) -> list[str]:
        size = rc.sp(self.size)
        if self.max_lines <= 1:
            return [draw.ellipsize(self.text, size, self.font_weight, max_w)]
        lines = draw.wrap(self.text, size, self.font_weight, max_w)
        if len(lines) > self.max_lines:
            last = " ".join(lines[self.max_lines - 1 :])
            lines = [
                *lines[: self.max_lines - 1],
                draw.ellipsize(last, size, self.font_weight, max_w),
            ]
        return lines

    def natural(self, rc: RenderCtx, max_w: float) -> Size:
        size = rc.sp(self.size)
        lines = self._lines(rc, max_w)
        w = max(draw.text_width(line, size, self.font_weight) for line in lines)
        return (min(max_w, w), float(draw.line_height(size) * len(lines)))

    def paint(self, rc: RenderCtx, x: float, y: float, w: float, h: float) -> None:
        if not self.text:
            return
        size = rc.sp(self.size)
        lh = draw.line_height(size)
        ink: BoxF | None = None
        lines = self._lines(rc, w + 0.5)
        top = y + (h - lh * len(lines)) / 2
        for i, line in enumerate(lines):
            lw = draw.text_width(line, size, self.font_weight)
            lx = {"start": x, "center": x + (w - lw) / 2, "end": x + w - lw}[self.align]
            box = rc.painter.text(
                lx, top + i * lh, line, size, rc.color(self.color), self.font_weight
            )
            ink = (
                box
                if ink is None
                else (
                    min(ink[0], box[0]),
                    min(ink[1], box[1]),
                    max(ink[2], box[2]),
                    max(ink[3], box[3]),
                )
            )
        if ink is not None:
            rc.add(ElementKind.TEXT, ink, text="\n".join(lines).replace("\n", " "))


@dataclass(eq=False)
class Icon(Widget):
    """An MDI glyph of ``size`` dp, centred in a ``box`` dp square (48 makes a touch target)."""

    name: str = ""
    size: float = 24.0
    color: str = "secondary"
    box: float = 0.0
    background: str | None = None

    def natural(self, rc: RenderCtx, max_w: float) -> Size:
        side = rc.dp(max(self.box, self.size))
        return (side, side)

    def paint(self, rc: RenderCtx, x: float, y: float, w: float, h: float) -> None:
        cx, cy = x + w / 2, y + h / 2
        if self.background is not None:
            r = rc.dp(max(self.box, self.size)) / 2
            rc.painter.circle(cx, cy, r, rc.color(self.background))
        box = rc.painter.icon(self.name, cx, cy, round(rc.dp(self.size)), rc.color(self.color))
        rc.add(ElementKind.ICON, box, icon=self.name)
