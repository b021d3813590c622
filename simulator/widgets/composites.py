"""Composites apps build most pages from: list rows, section headers, cards, lists."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from screenpilot.model import BlockKind
from screenpilot.simulator.widgets.base import Widget
from screenpilot.simulator.widgets.layout import Column, Pad, Row
from screenpilot.simulator.widgets.text import Icon, Text


def list_item(
    title: str,
    subtitle: str = "",
    *,
    icon: str = "",
    icon_color: str = "",
    trailing: Widget | None = None,
    key: str = "",
    leading: Widget | None = None,
    enabled: bool = True,
) -> Row:
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
    texts: list[Widget] = [
        Text(text=title, size=16, color="primary" if enabled else "disabled", max_lines=2)
    ]
    if subtitle:
        texts.append(Text(text=subtitle, size=14, color="secondary", max_lines=2))
    children.append(Column(children=texts, weight=1, spacing=2))
    if trailing is not None:
        children.append(trailing)
    return Row(
        children=children,
        key=key if enabled else "",
        spacing=16,
        padding=(16, 12, 24 if trailing is not None else 16, 12),
        min_height=72 if subtitle else 56,
    )


def section(title: str) -> Text:
    """A list section header in the accent colour."""
    return Text(text=title, size=14, color="accent", font_weight=500, height=44)


def card(
    children: Sequence[Widget],
    *,
    key: str = "",
    padding: Pad = 16.0,
    spacing: float = 8.0,
    caption: str = "",
) -> Column:
    """A rounded surface grouping its children (a CARD block)."""
    return Column(
        children=children,
        key=key,
        padding=padding,
        spacing=spacing,
        background="surface_variant",
        radius=16,
        block=BlockKind.CARD,
        caption=caption,
    )


def list_view(
    children: Sequence[Widget], *, caption: str = "", dividers: bool = False, inset: float = 0.0
) -> Column:
    """Rows forming a LIST block (scrollable when the page scrolls)."""
    return Column(
        children=children,
        block=BlockKind.LIST,
        caption=caption,
        dividers=dividers,
        divider_inset=inset,
    )
