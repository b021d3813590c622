"""The declarative widget tree apps build their pages from, and its ground truth.

A page is a tree of small dataclasses, in dp and sp like an Android layout:

    Column([
        list_item("Wi-Fi", "HomeNet", icon="wifi", trailing=Switch(on, key="wifi")),
        Divider(),
        Row([Text("Brightness", weight=1), Spinner("Auto", key="mode")], padding=16),
    ], block=BlockKind.LIST)

Layout is one pass of ``measure(rc, max_w)`` (width constraint in, size out) and
one of ``render(rc, x, y, w, h)``. ``Column`` stacks vertically and stretches its
children to its width; ``Row`` lays out horizontally, giving ``weight`` children
the width left over; ``Grid`` makes equal cells. Sizes (``width``, ``height``,
``padding``, ``spacing``) are dp; font sizes are sp; ``RenderCtx.dp`` converts.

Every widget with a ``key`` is clickable: a tap on it sends an ``Event`` with
that key to the app (see ``apps/base.py``). While rendering, widgets report the
ground truth to ``RenderCtx``: ``TruthElement`` (kind, box, text, icon, flags,
block), ``TruthBlock`` (toolbar, list, card, dialog...) and ``Target`` (the hit
areas the phone tests taps against; last drawn is topmost).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import ClassVar, Literal

from screenpilot.model import BlockKind, Box, ElementKind
from screenpilot.simulator import draw
from screenpilot.simulator.draw import BoxF, Painter
from screenpilot.simulator.theme import RGB, Theme, mix

Size = tuple[float, float]
Pad = float | tuple[float, float, float, float]
TargetRole = Literal["tap", "field", "seek", "rating", "key"]
Align = Literal["start", "center", "end", "stretch"]
Justify = Literal["start", "center", "end", "between"]


# --- ground truth ---------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TruthElement:
    """One element as drawn: what a perfect detector + OCR would report."""

    kind: ElementKind
    box: Box
    text: str = ""
    icon: str = ""
    caption: str = ""
    key: str = ""
    field: str = ""
    clickable: bool = False
    editable: bool = False
    checked: bool | None = None
    selected: bool = False
    password: bool = False
    hint: bool = False
    block: int | None = None


@dataclass(frozen=True, slots=True)
class TruthBlock:
    """A region grouping elements; ``active`` indexes the selected element (tab bars)."""

    kind: BlockKind
    box: Box
    caption: str = ""
    scrollable: bool = False
    active: int | None = None


@dataclass(frozen=True, slots=True)
class Target:
    """A hit area: ``role`` says what a touch there does, ``key`` whom it tells."""

    box: Box
    key: str
    role: TargetRole = "tap"
    field: str = ""
    value: float | None = None
    track: tuple[int, int] | None = None
    steps: int = 0
    layer: int = 0


def _pad4(p: Pad) -> tuple[float, float, float, float]:
    """dp padding as (left, top, right, bottom)."""
    return (p, p, p, p) if isinstance(p, int | float) else p


class RenderCtx:
    """State of one rendering pass: painter, theme, density, truth collected so far."""

    def __init__(self, painter: Painter, theme: Theme, scale: float, *,
                 fields: Mapping[str, str] | None = None, focus: str | None = None,
                 font_scale: float = 1.0) -> None:
        self.painter = painter
        self.theme = theme
        self.scale = scale
        self.font_scale = font_scale
        self.fields: Mapping[str, str] = fields or {}
        self.focus = focus
        self.width, self.height = painter.image.size
        self.clip: tuple[float, float] = (0.0, float(self.height))
        self.layer = 0
        self.scrollable = False
        self.elements: list[TruthElement] = []
        self.blocks: list[TruthBlock] = []
        self.targets: list[Target] = []
        self._block_stack: list[int] = []
        self._keys: list[str] = []
        self._measured: dict[tuple[int, int], Size] = {}

    # --- units and colours -------------------------------------------------------------
    def dp(self, v: float) -> float:
        return v * self.scale

    def sp(self, v: float) -> int:
        return max(1, round(v * self.scale * self.font_scale))

    def color(self, role: str) -> RGB:
        return self.theme.color(role)

    def measure(self, widget: Widget, max_w: float) -> Size:
        """A widget's size for a width constraint (memoised for the pass)."""
        k = (id(widget), round(max_w * 4))
        if k not in self._measured:
            self._measured[k] = widget.measure(self, max_w)
        return self._measured[k]

    # --- truth -------------------------------------------------------------------------
    def visible(self, y1: float, y2: float) -> bool:
        return y2 > self.clip[0] and y1 < self.clip[1]

    def clip_box(self, box: BoxF) -> Box | None:
        """``box`` clipped to the screen and the current vertical clip; None when hidden."""
        x1, y1 = max(0.0, box[0]), max(self.clip[0], box[1])
        x2, y2 = min(float(self.width), box[2]), min(self.clip[1], box[3])
        if x2 - x1 < 1 or y2 - y1 < 1:
            return None
        return Box.of(x1, y1, x2, y2)

    def add(self, kind: ElementKind, box: BoxF, *, text: str = "", icon: str = "",
            caption: str = "", field: str = "", editable: bool = False,
            checked: bool | None = None, selected: bool = False, password: bool = False,
            hint: bool = False, clickable: bool = False) -> int | None:
        """Record a drawn element; returns its index (None when clipped away)."""
        clipped = self.clip_box(box)
        if clipped is None:
            return None
        self.elements.append(TruthElement(
            kind=kind, box=clipped, text=text, icon=icon, caption=caption,
            key=self._keys[-1] if self._keys else "", field=field,
            clickable=clickable or bool(self._keys), editable=editable, checked=checked,
            selected=selected, password=password, hint=hint,
            block=self._block_stack[-1] if self._block_stack else None))
        return len(self.elements) - 1

    def target(self, box: BoxF, key: str, role: TargetRole = "tap", *, field: str = "",
               value: float | None = None, track: tuple[int, int] | None = None,
               steps: int = 0) -> None:
        clipped = self.clip_box(box)
        if clipped is not None and (key or field):
            self.targets.append(Target(clipped, key, role, field, value, track, steps,
                                       self.layer))

    @contextmanager
    def block(self, kind: BlockKind, box: BoxF, caption: str = "",
              scrollable: bool = False) -> Iterator[int]:
        """Elements recorded inside belong to this block; yields its index."""
        clipped = self.clip_box(box) or Box(0, 0, 1, 1)
        self.blocks.append(TruthBlock(kind, clipped, caption, scrollable))
        index = len(self.blocks) - 1
        self._block_stack.append(index)
        try:
            yield index
        finally:
            self._block_stack.pop()

    def set_active(self, block: int, element: int | None) -> None:
        self.blocks[block] = dataclasses.replace(self.blocks[block], active=element)

    @contextmanager
    def clickable(self, key: str) -> Iterator[None]:
        """Elements recorded inside are clickable and carry ``key``."""
        self._keys.append(key)
        try:
            yield
        finally:
            self._keys.pop()


# --- base -------------------------------------------------------------------------------
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


# --- containers ---------------------------------------------------------------------------
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
        pl, pt, pr, pb = (rc.dp(v) for v in _pad4(self.padding))
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
        pl, pt, pr, pb = (rc.dp(v) for v in _pad4(self.padding))
        sizes = self._sizes(rc, max(0.0, max_w - pl - pr))
        gaps = max(0, len(sizes) - 1) * (rc.dp(self.spacing) + (self._div(rc)
                                                                 if self.dividers else 0))
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
            cx = {"start": ix1, "center": ix1 + (ix2 - ix1 - width) / 2,
                  "end": ix2 - width}.get(self.align, ix1)
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
        pl, pt, pr, pb = (rc.dp(v) for v in _pad4(self.padding))
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
            cy = {"start": iy1, "center": iy1 + (iy2 - iy1 - ch) / 2,
                  "end": iy2 - ch}[self.align]
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
        return [self.children[i:i + n] for i in range(0, len(self.children), n)]

    def _cell_w(self, rc: RenderCtx, inner_w: float) -> float:
        n = max(1, self.columns)
        return (inner_w - rc.dp(self.spacing) * (n - 1)) / n

    def natural(self, rc: RenderCtx, max_w: float) -> Size:
        pl, pt, pr, pb = (rc.dp(v) for v in _pad4(self.padding))
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


# --- text and icons -------------------------------------------------------------------------
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
            last = " ".join(lines[self.max_lines - 1:])
            lines = [*lines[:self.max_lines - 1],
                     draw.ellipsize(last, size, self.font_weight, max_w)]
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
            box = rc.painter.text(lx, top + i * lh, line, size, rc.color(self.color),
                                  self.font_weight)
            ink = box if ink is None else (min(ink[0], box[0]), min(ink[1], box[1]),
                                           max(ink[2], box[2]), max(ink[3], box[3]))
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


# --- widgets of the 12 classes -------------------------------------------------------------
@dataclass(eq=False)
class Button(Widget):
    """A Material button: ``filled``, ``tonal``, ``outlined`` or ``text``."""

    text: str = ""
    style: Literal["filled", "tonal", "outlined", "text"] = "filled"
    icon: str = ""
    enabled: bool = True

    def natural(self, rc: RenderCtx, max_w: float) -> Size:
        tw = draw.text_width(self.text, rc.sp(14), 500)
        extra = rc.dp(26) if self.icon else 0.0
        pad = rc.dp(12 if self.style == "text" else 24)
        return (min(max_w, tw + extra + 2 * pad), rc.dp(40))

    def render(self, rc: RenderCtx, x: float, y: float, w: float, h: float) -> None:
        if not self.enabled and self.key:
            self.paint(rc, x, y, w, h)
            return
        super().render(rc, x, y, w, h)

    def paint(self, rc: RenderCtx, x: float, y: float, w: float, h: float) -> None:
        box = (x, y, x + w, y + h)
        fg = {"filled": "on_accent", "tonal": "on_accent_container"}.get(self.style, "accent")
        if self.style == "filled":
            rc.painter.rounded(box, h / 2, rc.color("accent" if self.enabled else "divider"))
        elif self.style == "tonal":
            rc.painter.rounded(box, h / 2, rc.color("accent_container"))
        elif self.style == "outlined":
            rc.painter.outline(box, h / 2, rc.dp(1), rc.color("outline"))
        fg_rgb = rc.color(fg if self.enabled else "disabled")
        size = rc.sp(14)
        tw = draw.text_width(self.text, size, 500)
        content = tw + (rc.dp(26) if self.icon else 0.0)
        cx = x + (w - content) / 2
        if self.icon:
            rc.painter.icon(self.icon, cx + rc.dp(9), y + h / 2, round(rc.dp(18)), fg_rgb)
            cx += rc.dp(26)
        label = draw.ellipsize(self.text, size, 500, w - rc.dp(16))
        rc.painter.text(cx, y + (h - draw.line_height(size)) / 2, label, size, fg_rgb, 500)
        rc.add(ElementKind.BUTTON, box, text=label, icon=self.icon,
               clickable=self.enabled and bool(self.key))


@dataclass(eq=False)
class EditText(Widget):
    """A text field bound to the page's field ``field``; tapping it focuses it.

    The value lives in the phone (``ctx.field(name)`` in apps), so page functions
    need not pass it. ``submit`` is the key sent when ENTER is pressed in it. With
    a ``key`` it is a search box that opens something instead of taking focus.
    """

    field: str = ""
    hint: str = ""
    password: bool = False
    icon: str = ""
    submit: str = ""
    style: Literal["outlined", "filled", "search"] = "outlined"
    caption: str = ""
    auto_target: ClassVar[bool] = False

    def natural(self, rc: RenderCtx, max_w: float) -> Size:
        return (max_w, rc.dp(48 if self.style == "search" else 56))

    def _shape(self, rc: RenderCtx, box: BoxF, focused: bool) -> None:
        if self.style == "search":
            rc.painter.rounded(box, (box[3] - box[1]) / 2, rc.color("surface_high"))
        elif self.style == "filled":
            rc.painter.rounded(box, rc.dp(4), rc.color("surface_variant"))
            line_h = rc.dp(2 if focused else 1)
            rc.painter.rect((box[0], box[3] - line_h, box[2], box[3]),
                            rc.color("accent" if focused else "outline"))
        else:
            rc.painter.outline(box, rc.dp(4), rc.dp(2 if focused else 1),
                               rc.color("accent" if focused else "outline"))

    def paint(self, rc: RenderCtx, x: float, y: float, w: float, h: float) -> None:
        box = (x, y, x + w, y + h)
        focused = rc.focus == self.field
        self._shape(rc, box, focused)
        if self.key:
            rc.target(box, self.key)
        else:
            rc.target(box, self.submit, "field", field=self.field)
        tx = x + rc.dp(16)
        if self.icon:
            rc.painter.icon(self.icon, tx + rc.dp(12), y + h / 2, round(rc.dp(24)),
                            rc.color("secondary"))
            tx += rc.dp(40)
        value = rc.fields.get(self.field, "")
        shown = "•" * len(value) if self.password else value
        size = rc.sp(16)
        avail = x + w - rc.dp(16) - tx
        top = y + (h - draw.line_height(size)) / 2
        if shown:
            shown = draw.tail_fit(shown, size, 400, avail - rc.dp(4))
            ink = rc.painter.text(tx, top, shown, size, rc.color("primary"))
            end = tx + draw.text_width(shown, size, 400)
        else:
            hint = draw.ellipsize(self.hint, size, 400, avail)
            ink = rc.painter.text(tx, top, hint, size, rc.color("hint")) if hint else box
            end = tx
        if focused:
            cur_h = draw.line_height(size) * 0.8
            rc.painter.rect((end + rc.dp(1), y + (h - cur_h) / 2, end + rc.dp(3),
                             y + (h + cur_h) / 2), rc.color("accent"))
        del ink
        rc.add(ElementKind.EDIT_TEXT, box, text=shown or self.hint, hint=not shown and
               bool(self.hint), password=self.password, editable=True, clickable=True,
               field=self.field, selected=focused, caption=self.caption, icon=self.icon)


@dataclass(eq=False)
class Switch(Widget):
    """A Material 3 switch."""

    checked: bool = False
    caption: str = ""

    def natural(self, rc: RenderCtx, max_w: float) -> Size:
        return (rc.dp(52), rc.dp(32))

    def paint(self, rc: RenderCtx, x: float, y: float, w: float, h: float) -> None:
        tw, th = rc.dp(52), rc.dp(32)
        tx, ty = x + (w - tw) / 2, y + (h - th) / 2
        box = (tx, ty, tx + tw, ty + th)
        p = rc.painter
        if self.checked:
            p.rounded(box, th / 2, rc.color("accent"))
            cx, r = tx + tw - th / 2, rc.dp(12)
            p.circle(cx, ty + th / 2, r, rc.color("on_accent"))
            p.icon("check", cx, ty + th / 2, round(rc.dp(16)), rc.color("accent"))
        else:
            p.rounded(box, th / 2, rc.color("switch_off_track"))
            p.outline(box, th / 2, rc.dp(2), rc.color("outline"))
            p.circle(tx + th / 2, ty + th / 2, rc.dp(8), rc.color("switch_off_thumb"))
        rc.add(ElementKind.SWITCH, box, checked=self.checked, caption=self.caption,
               clickable=bool(self.key))


@dataclass(eq=False)
class CheckBox(Widget):
    """A check box with an optional label to its right."""

    checked: bool = False
    label: str = ""
    caption: str = ""

    def natural(self, rc: RenderCtx, max_w: float) -> Size:
        lw = draw.text_width(self.label, rc.sp(16), 400) + rc.dp(8) if self.label else 0.0
        return (min(max_w, rc.dp(40) + lw), rc.dp(40))

    def paint(self, rc: RenderCtx, x: float, y: float, w: float, h: float) -> None:
        s = rc.dp(18)
        bx, by = x + rc.dp(11), y + (h - s) / 2
        box = (bx, by, bx + s, by + s)
        if self.checked:
            rc.painter.rounded(box, rc.dp(2), rc.color("accent"))
            rc.painter.icon("check_bold", bx + s / 2, by + s / 2, round(rc.dp(15)),
                            rc.color("on_accent"))
        else:
            rc.painter.outline(box, rc.dp(2), rc.dp(2), rc.color("secondary"))
        pad = rc.dp(3)
        rc.add(ElementKind.CHECK_BOX, (bx - pad, by - pad, bx + s + pad, by + s + pad),
               checked=self.checked, caption=self.caption or self.label,
               clickable=bool(self.key))
        if self.label:
            Text(text=self.label, size=16).render(rc, x + rc.dp(48), y, w - rc.dp(48), h)


@dataclass(eq=False)
class RadioGroup(Widget):
    """Options as radio buttons, one per row; a tap sends ``key`` with the option index."""

    options: Sequence[str] = ()
    selected: int = -1
    caption: str = ""
    auto_target: ClassVar[bool] = False

    def natural(self, rc: RenderCtx, max_w: float) -> Size:
        return (max_w, rc.dp(48) * len(self.options))

    def paint(self, rc: RenderCtx, x: float, y: float, w: float, h: float) -> None:
        row = rc.dp(48)
        chosen = self.options[self.selected] if 0 <= self.selected < len(self.options) else ""
        rc.add(ElementKind.RADIO_GROUP, (x, y, x + w, y + h), text=chosen,
               caption=self.caption, clickable=bool(self.key))
        for i, option in enumerate(self.options):
            ry = y + i * row
            cx, cy = x + rc.dp(12), ry + row / 2
            on = i == self.selected
            rc.painter.ring(cx, cy, rc.dp(10), rc.dp(2), rc.color("accent" if on else "secondary"))
            if on:
                rc.painter.circle(cx, cy, rc.dp(5), rc.color("accent"))
            if self.key:
                rc.target((x, ry, x + w, ry + row), self.key, value=float(i))
            size = rc.sp(16)
            label = draw.ellipsize(option, size, 400, w - rc.dp(40))
            ink = rc.painter.text(x + rc.dp(40), ry + (row - draw.line_height(size)) / 2,
                                  label, size, rc.color("primary"))
            rc.add(ElementKind.TEXT, ink, text=label, selected=on, clickable=bool(self.key))


@dataclass(eq=False)
class SeekBar(Widget):
    """A slider, ``value`` in [0, 1]; touching or dragging it sends ``key`` with the fraction."""

    value: float = 0.0
    caption: str = ""
    auto_target: ClassVar[bool] = False

    def natural(self, rc: RenderCtx, max_w: float) -> Size:
        return (max_w, rc.dp(40))

    def paint(self, rc: RenderCtx, x: float, y: float, w: float, h: float) -> None:
        r = rc.dp(10)
        x1, x2, cy = x + r, x + w - r, y + h / 2
        v = min(1.0, max(0.0, self.value))
        pos = x1 + (x2 - x1) * v
        th = rc.dp(4)
        rc.painter.rounded((x1, cy - th / 2, x2, cy + th / 2), th / 2,
                           rc.color("accent_container"))
        if pos > x1:
            rc.painter.rounded((x1, cy - th / 2, pos, cy + th / 2), th / 2, rc.color("accent"))
        rc.painter.circle(pos, cy, r, rc.color("accent"))
        box = (x, cy - rc.dp(12), x + w, cy + rc.dp(12))
        rc.add(ElementKind.SEEK_BAR, box, caption=self.caption, clickable=bool(self.key))
        if self.key:
            rc.target((x, y, x + w, y + h), self.key, "seek", track=(round(x1), round(x2)))


@dataclass(eq=False)
class RatingBar(Widget):
    """Stars; a tap sends ``key`` with the number of stars under the finger."""

    rating: float = 0.0
    stars: int = 5
    size: float = 28.0
    auto_target: ClassVar[bool] = False

    def natural(self, rc: RenderCtx, max_w: float) -> Size:
        return (rc.dp(self.size + 4) * self.stars, rc.dp(self.size + 4))

    def paint(self, rc: RenderCtx, x: float, y: float, w: float, h: float) -> None:
        step = rc.dp(self.size + 4)
        for i in range(self.stars):
            name = ("star" if self.rating >= i + 1 else
                    "star_half_full" if self.rating > i else "star_outline")
            rc.painter.icon(name, x + step * (i + 0.5), y + h / 2, round(rc.dp(self.size)),
                            rc.color("star"))
        box = (x, y, x + step * self.stars, y + h)
        rc.add(ElementKind.RATING_BAR, box, text=f"{self.rating:g}", clickable=bool(self.key))
        if self.key:
            rc.target(box, self.key, "rating", track=(round(x), round(box[2])),
                      steps=self.stars)


@dataclass(eq=False)
class Spinner(Widget):
    """A drop-down showing its current ``text``; its key usually opens a choice dialog."""

    text: str = ""
    caption: str = ""

    def natural(self, rc: RenderCtx, max_w: float) -> Size:
        tw = draw.text_width(self.text, rc.sp(16), 400)
        return (min(max_w, max(rc.dp(120), tw + rc.dp(56))), rc.dp(48))

    def paint(self, rc: RenderCtx, x: float, y: float, w: float, h: float) -> None:
        box = (x, y + rc.dp(4), x + w, y + h - rc.dp(4))
        rc.painter.outline(box, rc.dp(4), rc.dp(1), rc.color("outline"))
        size = rc.sp(16)
        label = draw.ellipsize(self.text, size, 400, w - rc.dp(56))
        rc.painter.text(x + rc.dp(12), y + (h - draw.line_height(size)) / 2, label, size,
                        rc.color("primary"))
        rc.painter.icon("menu_down", x + w - rc.dp(22), y + h / 2, round(rc.dp(24)),
                        rc.color("secondary"))
        rc.add(ElementKind.SPINNER, box, text=label, caption=self.caption,
               clickable=bool(self.key))


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
            rc.painter.circle(x0 + step * (i + 0.5), y + h / 2, rc.dp(4 if on else 3),
                              rc.color("accent" if on else "disabled"))
        rc.add(ElementKind.PAGE_INDICATOR, (x0, y, x0 + step * self.count, y + h),
               text=f"{self.index + 1}/{self.count}")


def _seed_colors(seed: int) -> tuple[RGB, RGB]:
    palette: list[RGB] = [(0x42, 0x85, 0xF4), (0x0F, 0x9D, 0x58), (0xF4, 0xB4, 0x00),
                          (0xDB, 0x44, 0x37), (0xAB, 0x47, 0xBC), (0x00, 0xAC, 0xC1),
                          (0xFF, 0x70, 0x43), (0x5C, 0x6B, 0xC0)]
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
        sub.circle(iw * (0.25 + 0.5 * ((self.seed * 7) % 10) / 10), ih * 0.32, ih * 0.12,
                   mix(top, (255, 255, 255), 0.8))
        hill = mix(bottom, (0, 0, 0), 0.35)
        sub.polygon([(0, ih), (0, ih * 0.7), (iw * 0.3, ih * 0.45), (iw * 0.6, ih * 0.75),
                     (iw * 0.8, ih * 0.55), (iw, ih * 0.7), (iw, ih)], hill)
        mask = draw.shape_mask("rrect", iw, ih, min(round(rc.dp(self.radius)), iw // 2,
                                                     ih // 2), 0)
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
        rc.painter.text(cx - tw / 2, cy - draw.line_height(size) / 2, initial, size,
                        (255, 255, 255), 500)
        rc.add(ElementKind.IMAGE, (cx - r, cy - r, cx + r, cy + r), caption=self.name)


# --- bars and overlays positioned by the page -----------------------------------------------
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
                        rc.painter.rounded((cx - rc.dp(32), y + rc.dp(12), cx + rc.dp(32),
                                            y + rc.dp(44)), rc.dp(16),
                                           rc.color("accent_container"))
                    box = rc.painter.icon(tab.icon, cx, y + rc.dp(28), round(rc.dp(24)),
                                          rc.color("on_accent_container" if on else "secondary"))
                    rc.add(ElementKind.ICON, box, icon=tab.icon, selected=on)
                    size = rc.sp(12)
                    label = draw.ellipsize(tab.label, size, 500, cell - rc.dp(8))
                    tw = draw.text_width(label, size, 500)
                    ink = rc.painter.text(cx - tw / 2, y + rc.dp(50), label, size,
                                          rc.color("accent" if on else "secondary"), 500)
                    idx = rc.add(ElementKind.TEXT, ink, text=label, selected=on)
                    if on:
                        active_el = idx
            rc.set_active(block, active_el)


@dataclass(eq=False)
class Fab(Widget):
    """A floating action button (bottom right), with an optional text label."""

    icon: str = "plus"
    label: str = ""

    def natural(self, rc: RenderCtx, max_w: float) -> Size:
        lw = draw.text_width(self.label, rc.sp(14), 500) + rc.dp(20) if self.label else 0.0
        return (rc.dp(56) + lw, rc.dp(56))

    def paint(self, rc: RenderCtx, x: float, y: float, w: float, h: float) -> None:
        rc.painter.rounded((x + rc.dp(1), y + rc.dp(2), x + w + rc.dp(1), y + h + rc.dp(2)),
                           rc.dp(16), mix(rc.color("background"), (0, 0, 0), 0.18))
        rc.painter.rounded((x, y, x + w, y + h), rc.dp(16), rc.color("accent_container"))
        fg = rc.color("on_accent_container")
        rc.painter.icon(self.icon, x + rc.dp(28), y + h / 2, round(rc.dp(24)), fg)
        if self.label:
            size = rc.sp(14)
            rc.painter.text(x + rc.dp(52), y + (h - draw.line_height(size)) / 2, self.label,
                            size, fg, 500)
        rc.add(ElementKind.BUTTON, (x, y, x + w, y + h), text=self.label, icon=self.icon)


@dataclass(eq=False)
class Dialog(Widget):
    """A modal dialog: title, body (text or widgets) and text buttons ``(label, key)``."""

    title: str = ""
    body: str | Widget = ""
    buttons: Sequence[tuple[str, str]] = ()
    icon: str = ""

    def _content(self) -> Column:
        parts: list[Widget] = []
        if self.icon:
            parts.append(Icon(name=self.icon, color="accent"))
        if self.title:
            parts.append(Text(text=self.title, size=24, max_lines=2,
                              align="center" if self.icon else "start"))
        if isinstance(self.body, str):
            if self.body:
                parts.append(Text(text=self.body, size=14, color="secondary", max_lines=12))
        else:
            parts.append(self.body)
        if self.buttons:
            parts.append(Row(children=[Button(text=label, key=key, style="text")
                                       for label, key in self.buttons],
                             justify="end", spacing=8))
        return Column(children=parts, padding=(24, 24, 24, 18), spacing=16)

    def natural(self, rc: RenderCtx, max_w: float) -> Size:
        w = min(max_w - rc.dp(48), rc.dp(560))
        return (w, rc.measure(self._content(), w)[1])

    def render(self, rc: RenderCtx, x: float, y: float, w: float, h: float) -> None:
        rc.painter.rounded((x, y, x + w, y + h), rc.dp(28), rc.color("surface_high"))
        with rc.block(BlockKind.DIALOG, (x, y, x + w, y + h), self.title):
            content = self._content()
            content.render(rc, x, y, w, rc.measure(content, w)[1])

    def paint(self, rc: RenderCtx, x: float, y: float, w: float, h: float) -> None:
        self.render(rc, x, y, w, h)


# --- composites ----------------------------------------------------------------------------
def list_item(title: str, subtitle: str = "", *, icon: str = "", icon_color: str = "",
              trailing: Widget | None = None, key: str = "", leading: Widget | None = None,
              enabled: bool = True) -> Row:
    """A one- or two-line list row: optional leading icon (round badge when
    ``icon_color`` is given) or widget, title, subtitle, and a trailing widget."""
    if trailing is not None and hasattr(trailing, "caption") and not trailing.caption:
        trailing = dataclasses.replace(trailing, caption=title)  # type: ignore[call-arg]
    children: list[Widget] = []
    if leading is not None:
        children.append(leading)
    elif icon and icon_color:
        children.append(Icon(name=icon, size=22, box=40, color="white", background=icon_color))
    elif icon:
        children.append(Icon(name=icon, size=24, box=40, color="secondary"))
    texts: list[Widget] = [Text(text=title, size=16, color="primary" if enabled else "disabled",
                                max_lines=2)]
    if subtitle:
        texts.append(Text(text=subtitle, size=14, color="secondary", max_lines=2))
    children.append(Column(children=texts, weight=1, spacing=2))
    if trailing is not None:
        children.append(trailing)
    return Row(children=children, key=key if enabled else "", spacing=16,
               padding=(16, 12, 24 if trailing is not None else 16, 12),
               min_height=72 if subtitle else 56)


def section(title: str) -> Text:
    """A list section header in the accent colour."""
    return Text(text=title, size=14, color="accent", font_weight=500,
                height=44)


def card(children: Sequence[Widget], *, key: str = "", padding: Pad = 16.0,
         spacing: float = 8.0, caption: str = "") -> Column:
    """A rounded surface grouping its children (a CARD block)."""
    return Column(children=children, key=key, padding=padding, spacing=spacing,
                  background="surface_variant", radius=16, block=BlockKind.CARD,
                  caption=caption)


def list_view(children: Sequence[Widget], *, caption: str = "", dividers: bool = False,
              inset: float = 0.0) -> Column:
    """Rows forming a LIST block (scrollable when the page scrolls)."""
    return Column(children=children, block=BlockKind.LIST, caption=caption,
                  dividers=dividers, divider_inset=inset)


__all__ = [
    "Avatar", "Button", "CheckBox", "Column", "Dialog", "Divider", "EditText", "Fab", "Grid",
    "Icon", "Image", "PageIndicator", "RadioGroup", "RatingBar", "RenderCtx", "Row",
    "SeekBar", "Spacer", "Spinner", "Switch", "Tab", "TabBar", "Target", "Text",
    "TruthBlock", "TruthElement", "Widget", "card", "list_item", "list_view", "section",
]
