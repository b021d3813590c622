"""The interactive widgets of the detector's classes: buttons, text fields, switches,
check boxes, radio groups, seek bars, rating bars and spinners."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal

from screenpilot.model import ElementKind
from screenpilot.simulator import draw
from screenpilot.simulator.draw import BoxF
from screenpilot.simulator.widgets.base import Widget
from screenpilot.simulator.widgets.context import RenderCtx, Size
from screenpilot.simulator.widgets.text import Text


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
        rc.add(
            ElementKind.BUTTON,
            box,
            text=label,
            icon=self.icon,
            clickable=self.enabled and bool(self.key),
        )


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
            rc.painter.rect(
                (box[0], box[3] - line_h, box[2], box[3]),
                rc.color("accent" if focused else "outline"),
            )
        else:
            rc.painter.outline(
                box,
                rc.dp(4),
                rc.dp(2 if focused else 1),
                rc.color("accent" if focused else "outline"),
            )

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
            rc.painter.icon(
                self.icon, tx + rc.dp(12), y + h / 2, round(rc.dp(24)), rc.color("secondary")
            )
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
            rc.painter.rect(
                (end + rc.dp(1), y + (h - cur_h) / 2, end + rc.dp(3), y + (h + cur_h) / 2),
                rc.color("accent"),
            )
        del ink
        rc.add(
            ElementKind.EDIT_TEXT,
            box,
            text=shown or self.hint,
            hint=not shown and bool(self.hint),
            password=self.password,
            editable=True,
            clickable=True,
            field=self.field,
            selected=focused,
            caption=self.caption,
            icon=self.icon,
        )


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
        rc.add(
            ElementKind.SWITCH,
            box,
            checked=self.checked,
            caption=self.caption,
            clickable=bool(self.key),
        )


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
            rc.painter.icon(
                "check_bold", bx + s / 2, by + s / 2, round(rc.dp(15)), rc.color("on_accent")
            )
        else:
            rc.painter.outline(box, rc.dp(2), rc.dp(2), rc.color("secondary"))
        pad = rc.dp(3)
        rc.add(
            ElementKind.CHECK_BOX,
            (bx - pad, by - pad, bx + s + pad, by + s + pad),
            checked=self.checked,
            caption=self.caption or self.label,
            clickable=bool(self.key),
        )
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
        rc.add(
            ElementKind.RADIO_GROUP,
            (x, y, x + w, y + h),
            text=chosen,
            caption=self.caption,
            clickable=bool(self.key),
        )
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
            ink = rc.painter.text(
                x + rc.dp(40),
                ry + (row - draw.line_height(size)) / 2,
                label,
                size,
                rc.color("primary"),
            )
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
        rc.painter.rounded((x1, cy - th / 2, x2, cy + th / 2), th / 2, rc.color("accent_container"))
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
            name = (
                "star"
                if self.rating >= i + 1
                else "star_half_full"
                if self.rating > i
                else "star_outline"
            )
            rc.painter.icon(
                name, x + step * (i + 0.5), y + h / 2, round(rc.dp(self.size)), rc.color("star")
            )
        box = (x, y, x + step * self.stars, y + h)
        rc.add(ElementKind.RATING_BAR, box, text=f"{self.rating:g}", clickable=bool(self.key))
        if self.key:
            rc.target(box, self.key, "rating", track=(round(x), round(box[2])), steps=self.stars)


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
        rc.painter.text(
            x + rc.dp(12), y + (h - draw.line_height(size)) / 2, label, size, rc.color("primary")
        )
        rc.painter.icon(
            "menu_down", x + w - rc.dp(22), y + h / 2, round(rc.dp(24)), rc.color("secondary")
        )
        rc.add(ElementKind.SPINNER, box, text=label, caption=self.caption, clickable=bool(self.key))
