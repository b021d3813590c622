"""Pictures: generated images (sky, sun and hills) and round name-initial avatars."""

from __future__ import annotations

from dataclasses import dataclass

from screenpilot.model import ElementKind
from screenpilot.simulator import draw
from screenpilot.simulator.draw import Painter
from screenpilot.simulator.theme import RGB, mix
from screenpilot.simulator.widgets.base import Widget
from screenpilot.simulator.widgets.context import RenderCtx, Size


def _seed_colors(seed: int) -> tuple[RGB, RGB]:
    palette: list[RGB] = [
        (0x42, 0x85, 0xF4),
        (0x0F, 0x9D, 0x58),
        (0xF4, 0xB4, 0x00),
        (0xDB, 0x44, 0x37),
        (0xAB, 0x47, 0xBC),
        (0x00, 0xAC, 0xC1),
        (0xFF, 0x70, 0x43),
        (0x5C, 0x6B, 0xC0),
    ]
    return palette[seed % len(palette)], palette[(seed * 3 + 5) % len(palette)]


@dataclass(eq=False)
class Image(Widget):
    """A picture: a gradient sky with a sun and hills, fixed by ``seed``."""

    seed: int = 0
    label: str = ""
    radius: float = 12.0
    aspect: float = 0.56

    def natural(self, rc: RenderCtx, max_w: float) -> Size:
        return (max_w, max_w * self.aspect)

    def paint(self, rc: RenderCtx, x: float, y: float, w: float, h: float) -> None:
        top, bottom = _seed_colors(self.seed)
        iw, ih = max(1, round(w)), max(1, round(h))
        pic = draw.gradient(iw, ih, mix(top, (255, 255, 255), 0.35), bottom).copy()
        sub = Painter(pic)
        sub.circle(
            iw * (0.25 + 0.5 * ((self.seed * 7) % 10) / 10),
            ih * 0.32,
            ih * 0.12,
            mix(top, (255, 255, 255), 0.8),
        )
        hill = mix(bottom, (0, 0, 0), 0.35)
        sub.polygon(
            [
                (0, ih),
                (0, ih * 0.7),
                (iw * 0.3, ih * 0.45),
                (iw * 0.6, ih * 0.75),
                (iw * 0.8, ih * 0.55),
                (iw, ih * 0.7),
                (iw, ih),
            ],
            hill,
        )
        mask = draw.shape_mask("rrect", iw, ih, min(round(rc.dp(self.radius)), iw // 2, ih // 2), 0)
        rc.painter.paste(pic, x, y, mask)
        rc.add(ElementKind.IMAGE, (x, y, x + w, y + h), caption=self.label)


@dataclass(eq=False)
class Avatar(Widget):
    """A round avatar: the name's initial on a colour derived from the name."""

    name: str = ""
    size: float = 40.0

    def natural(self, rc: RenderCtx, max_w: float) -> Size:
        return (rc.dp(self.size), rc.dp(self.size))

    def paint(self, rc: RenderCtx, x: float, y: float, w: float, h: float) -> None:
        r = min(w, h) / 2
        cx, cy = x + w / 2, y + h / 2
        color, _ = _seed_colors(sum(ord(c) for c in self.name))
        rc.painter.circle(cx, cy, r, color)
        initial = self.name[:1].upper() or "?"
        size = rc.sp(self.size * 0.45)
        tw = draw.text_width(initial, size, 500)
        rc.painter.text(
            cx - tw / 2, cy - draw.line_height(size) / 2, initial, size, (255, 255, 255), 500
        )
        rc.add(ElementKind.IMAGE, (cx - r, cy - r, cx + r, cy + r), caption=self.name)
