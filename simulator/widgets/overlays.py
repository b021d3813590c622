"""Widgets drawn over the page: the floating action button and modal dialogs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from screenpilot.model import BlockKind, ElementKind
from screenpilot.simulator import draw
from screenpilot.simulator.theme import mix
from screenpilot.simulator.widgets.base import Widget
from screenpilot.simulator.widgets.context import RenderCtx, Size
from screenpilot.simulator.widgets.controls import Button
from screenpilot.simulator.widgets.layout import Column, Row
from screenpilot.simulator.widgets.text import Icon, Text


@dataclass(eq=False)
class Fab(Widget):
    """A floating action button (bottom right), with an optional text label."""

    icon: str = "plus"
    label: str = ""

    def natural(self, rc: RenderCtx, max_w: float) -> Size:
        lw = draw.text_width(self.label, rc.sp(14), 500) + rc.dp(20) if self.label else 0.0
        return (rc.dp(56) + lw, rc.dp(56))

    def paint(self, rc: RenderCtx, x: float, y: float, w: float, h: float) -> None:
        rc.painter.rounded(
            (x + rc.dp(1), y + rc.dp(2), x + w + rc.dp(1), y + h + rc.dp(2)),
            rc.dp(16),
            mix(rc.color("background"), (0, 0, 0), 0.18),
        )
        rc.painter.rounded((x, y, x + w, y + h), rc.dp(16), rc.color("accent_container"))
        fg = rc.color("on_accent_container")
        rc.painter.icon(self.icon, x + rc.dp(28), y + h / 2, round(rc.dp(24)), fg)
        if self.label:
            size = rc.sp(14)
            rc.painter.text(
                x + rc.dp(52), y + (h - draw.line_height(size)) / 2, self.label, size, fg, 500
            )
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
            parts.append(
                Text(
                    text=self.title, size=24, max_lines=2, align="center" if self.icon else "start"
                )
            )
        if isinstance(self.body, str):
            if self.body:
                parts.append(Text(text=self.body, size=14, color="secondary", max_lines=12))
        else:
            parts.append(self.body)
        if self.buttons:
            parts.append(
                Row(
                    children=[
                        Button(text=label, key=key, style="text") for label, key in self.buttons
                    ],
                    justify="end",
                    spacing=8,
                )
            )
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
