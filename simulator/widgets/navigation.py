"""Navigation widgets: the bottom tab bar and a pager's page indicator."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from screenpilot.model import BlockKind, ElementKind
from screenpilot.simulator import draw
from screenpilot.simulator.widgets.base import Widget
from screenpilot.simulator.widgets.context import RenderCtx, Size


@dataclass(frozen=True, slots=True)
class Tab:
    """One destination of a bottom tab bar."""

    label: str
    icon: str
    key: str


@dataclass(eq=False)
class TabBar(Widget):
    """Material 3 bottom navigation; the active tab is in the accent colour."""

    tabs: Sequence[Tab] = ()
    active: int = 0

    def natural(self, rc: RenderCtx, max_w: float) -> Size:
        return (max_w, rc.dp(80))

    def paint(self, rc: RenderCtx, x: float, y: float, w: float, h: float) -> None:
        rc.painter.rect((x, y, x + w, y + h), rc.color("surface_variant"))
        cell = w / max(1, len(self.tabs))
        with rc.block(BlockKind.TAB_BAR, (x, y, x + w, y + h)) as block:
            active_el = None
            for i, tab in enumerate(self.tabs):
                cx = x + cell * (i + 0.5)
                on = i == self.active
                rc.target((cx - cell / 2, y, cx + cell / 2, y + h), tab.key)
                with rc.clickable(tab.key):
                    if on:
                        rc.painter.rounded(
                            (cx - rc.dp(32), y + rc.dp(12), cx + rc.dp(32), y + rc.dp(44)),
                            rc.dp(16),
                            rc.color("accent_container"),
                        )
                    box = rc.painter.icon(
                        tab.icon,
                        cx,
                        y + rc.dp(28),
                        round(rc.dp(24)),
                        rc.color("on_accent_container" if on else "secondary"),
                    )
                    rc.add(ElementKind.ICON, box, icon=tab.icon, selected=on)
                    size = rc.sp(12)
                    label = draw.ellipsize(tab.label, size, 500, cell - rc.dp(8))
                    tw = draw.text_width(label, size, 500)
                    ink = rc.painter.text(
                        cx - tw / 2,
                        y + rc.dp(50),
                        label,
                        size,
                        rc.color("accent" if on else "secondary"),
                        500,
                    )
                    idx = rc.add(ElementKind.TEXT, ink, text=label, selected=on)
                    if on:
                        active_el = idx
            rc.set_active(block, active_el)


@dataclass(eq=False)
class PageIndicator(Widget):
    """Dots for a pager, the current one in the accent colour."""

    count: int = 3
    index: int = 0

    def natural(self, rc: RenderCtx, max_w: float) -> Size:
        return (rc.dp(16) * self.count, rc.dp(16))

    def paint(self, rc: RenderCtx, x: float, y: float, w: float, h: float) -> None:
        step = rc.dp(16)
        x0 = x + (w - step * self.count) / 2
        for i in range(self.count):
            on = i == self.index
            rc.painter.circle(
                x0 + step * (i + 0.5),
                y + h / 2,
                rc.dp(4 if on else 3),
                rc.color("accent" if on else "disabled"),
            )
        rc.add(
            ElementKind.PAGE_INDICATOR,
            (x0, y, x0 + step * self.count, y + h),
            text=f"{self.index + 1}/{self.count}",
        )
