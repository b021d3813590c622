"""Layout containers: ``Column``, ``Row`` and ``Grid``, and the ``Spacer`` and ``Divider``.

``Column`` stacks vertically and stretches its children to its width; ``Row`` lays
out horizontally, giving ``weight`` children the width left over; ``Grid`` makes
equal cells. A container with a ``block`` kind reports a ``TruthBlock`` around them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from screenpilot.model import BlockKind
from screenpilot.simulator.draw import BoxF
from screenpilot.simulator.widgets.base import Widget
from screenpilot.simulator.widgets.context import RenderCtx, Size

Pad = float | tuple[float, float, float, float]

Align = Literal["start", "center", "end", "stretch"]
Justify = Literal["start", "center", "end", "between"]


def pad4(p: Pad) -> tuple[float, float, float, float]:
    """dp padding as (left, top, right, bottom)."""
    return (p, p, p, p) if isinstance(p, int | float) else p


@dataclass(eq=False, kw_only=True)
class _Container(Widget):
    padding: Pad = 0.0
    spacing: float = 0.0
    background: str | None = None
    radius: float = 0.0
    border: str | None = None
    block: BlockKind | None = None
    caption: str = ""

    def _frame(self, rc: RenderCtx, x: float, y: float, w: float, h: float) -> None:
        box = (x, y, x + w, y + h)
        if self.background is not None:
            rc.painter.rounded(box, rc.dp(self.radius), rc.color(self.background))
        if self.border is not None:
            rc.painter.outline(box, rc.dp(self.radius), rc.dp(1), rc.color(self.border))

    def _inner(self, rc: RenderCtx, x: float, y: float, w: float, h: float) -> BoxF:
        pl, pt, pr, pb = (rc.dp(v) for v in pad4(self.padding))
        return (x + pl, y + pt, x + w - pr, y + h - pb)

    def render(self, rc: RenderCtx, x: float, y: float, w: float, h: float) -> None:
        if not rc.visible(y, y + h):
            return
        if self.block is None:
            super().render(rc, x, y, w, h)
            return
        scrollable = self.block is BlockKind.LIST and rc.scrollable
        with rc.block(self.block, (x, y, x + w, y + h), self.caption, scrollable):
            super().render(rc, x, y, w, h)


@dataclass(eq=False)
class Column(_Container):
    """Children top to bottom; ``align`` places them across (default: stretch)."""

    children: Sequence[Widget] = ()
    align: Align = "stretch"
    dividers: bool = False
    divider_inset: float = 0.0
    wrap: bool = False

    def _sizes(self, rc: RenderCtx, inner_w: float) -> list[Size]:
        return [rc.measure(c, inner_w) for c in self.children]

    def natural(self, rc: RenderCtx, max_w: float) -> Size:
        pl, pt, pr, pb = (rc.dp(v) for v in pad4(self.padding))
        sizes = self._sizes(rc, max(0.0, max_w - pl - pr))
        gaps = max(0, len(sizes) - 1) * (
            rc.dp(self.spacing) + (self._div(rc) if self.dividers else 0)
        )
        h = sum(s[1] for s in sizes) + gaps + pt + pb
        w = (max((s[0] for s in sizes), default=0.0) + pl + pr) if self.wrap else max_w
        return (w, h)

    def _div(self, rc: RenderCtx) -> float:
        return float(max(1, round(rc.dp(1))))

    def paint(self, rc: RenderCtx, x: float, y: float, w: float, h: float) -> None:
        self._frame(rc, x, y, w, h)
        ix1, iy1, ix2, _iy2 = self._inner(rc, x, y, w, h)
        sizes = self._sizes(rc, ix2 - ix1)
        extra = h - self.natural(rc, w)[1]
        total_weight = sum(c.weight for c in self.children)
        cy = iy1
        for i, (child, (cw, ch)) in enumerate(zip(self.children, sizes, strict=True)):
            if total_weight > 0 and extra > 0 and child.weight > 0:
                ch += extra * child.weight / total_weight
            if i and self.dividers:
                inset = rc.dp(self.divider_inset)
                rc.painter.rect((ix1 + inset, cy, ix2, cy + self._div(rc)), rc.color("divider"))
                cy += self._div(rc)
            width = ix2 - ix1 if self.align == "stretch" else cw
            cx = {"start": ix1, "center": ix1 + (ix2 - ix1 - width) / 2, "end": ix2 - width}.get(
                self.align, ix1
            )
            if cy > rc.clip[1]:
                break
            child.render(rc, cx, cy, width, ch)
            cy += ch + rc.dp(self.spacing)


@dataclass(eq=False)
class Row(_Container):
    """Children left to right; ``weight`` children share the width left over."""

    children: Sequence[Widget] = ()
    align: Literal["start", "center", "end"] = "center"
    justify: Justify = "start"
    wrap: bool = False
    min_height: float = 0.0

    def _widths(self, rc: RenderCtx, inner_w: float) -> list[Size]:
        gaps = max(0, len(self.children) - 1) * rc.dp(self.spacing)
        remaining = inner_w - gaps
        sizes: dict[int, Size] = {}
        for i, c in enumerate(self.children):
            if c.weight <= 0:
                sizes[i] = rc.measure(c, max(0.0, remaining))
                remaining -= sizes[i][0]
        total = sum(c.weight for c in self.children)
        for i, c in enumerate(self.children):
            if c.weight > 0:
                share = max(0.0, remaining) * c.weight / total
                sizes[i] = (share, rc.measure(c, share)[1])
        return [sizes[i] for i in range(len(self.children))]

    def natural(self, rc: RenderCtx, max_w: float) -> Size:
        pl, pt, pr, pb = (rc.dp(v) for v in pad4(self.padding))
        sizes = self._widths(rc, max(0.0, max_w - pl - pr))
        h = max([s[1] for s in sizes] + [rc.dp(self.min_height) - pt - pb]) + pt + pb
        if self.wrap:
            gaps = max(0, len(sizes) - 1) * rc.dp(self.spacing)
            return (sum(s[0] for s in sizes) + gaps + pl + pr, h)
        return (max_w, h)

    def paint(self, rc: RenderCtx, x: float, y: float, w: float, h: float) -> None:
        self._frame(rc, x, y, w, h)
        ix1, iy1, ix2, iy2 = self._inner(rc, x, y, w, h)
        sizes = self._widths(rc, ix2 - ix1)
        gap = rc.dp(self.spacing)
        used = sum(s[0] for s in sizes) + gap * max(0, len(sizes) - 1)
        free = max(0.0, ix2 - ix1 - used)
        cx = ix1 + {"start": 0.0, "center": free / 2, "end": free, "between": 0.0}[self.justify]
        if self.justify == "between" and len(sizes) > 1:
            gap += free / (len(sizes) - 1)
        for child, (cw, ch) in zip(self.children, sizes, strict=True):
            cy = {"start": iy1, "center": iy1 + (iy2 - iy1 - ch) / 2, "end": iy2 - ch}[self.align]
            child.render(rc, cx, cy, cw, ch)
            cx += cw + gap


@dataclass(eq=False)
class Grid(_Container):
    """Equal cells, ``columns`` per row, filled left to right."""

    children: Sequence[Widget] = ()
    columns: int = 4
    row_spacing: float = 0.0

    def _rows(self) -> list[Sequence[Widget]]:
        n = max(1, self.columns)
        return [self.children[i : i + n] for i in range(0, len(self.children), n)]

    def _cell_w(self, rc: RenderCtx, inner_w: float) -> float:
        n = max(1, self.columns)
        return (inner_w - rc.dp(self.spacing) * (n - 1)) / n

    def natural(self, rc: RenderCtx, max_w: float) -> Size:
        pl, pt, pr, pb = (rc.dp(v) for v in pad4(self.padding))
        cell = self._cell_w(rc, max_w - pl - pr)
        rows = self._rows()
        h = sum(max(rc.measure(c, cell)[1] for c in row) for row in rows)
        h += rc.dp(self.row_spacing) * max(0, len(rows) - 1)
        return (max_w, h + pt + pb)

    def paint(self, rc: RenderCtx, x: float, y: float, w: float, h: float) -> None:
        self._frame(rc, x, y, w, h)
        ix1, cy, ix2, _ = self._inner(rc, x, y, w, h)
        cell = self._cell_w(rc, ix2 - ix1)
        for row in self._rows():
            rh = max(rc.measure(c, cell)[1] for c in row)
            for i, child in enumerate(row):
                child.render(rc, ix1 + i * (cell + rc.dp(self.spacing)), cy, cell, rh)
            cy += rh + rc.dp(self.row_spacing)


@dataclass(eq=False)
class Spacer(Widget):
    """Empty space: give ``width``/``height`` in dp, or a ``weight`` to fill."""

    def natural(self, rc: RenderCtx, max_w: float) -> Size:
        return (0.0, 0.0)

    def paint(self, rc: RenderCtx, x: float, y: float, w: float, h: float) -> None:
        return None


@dataclass(eq=False)
class Divider(Widget):
    """A one-dp horizontal rule, optionally inset from the left."""

    inset: float = 0.0

    def natural(self, rc: RenderCtx, max_w: float) -> Size:
        return (max_w, float(max(1, round(rc.dp(1)))))

    def paint(self, rc: RenderCtx, x: float, y: float, w: float, h: float) -> None:
        rc.painter.rect((x + rc.dp(self.inset), y, x + w, y + h), rc.color("divider"))
