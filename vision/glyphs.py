"""The magnifier glyph read as a letter: OCR reads a search icon as "Q" (or "O", "q").

A lone one-letter text of those, about square and of an icon's size, standing in
the top bar or at the left of a search field (a text field, or a text starting
with "Search", just right of it), is the search button: it is reported as an icon
labelled ``search`` (or, when a detected picture holds it, that picture is labelled
``search``). A field's text that starts with the glyph ("Q Search contacts") loses it.

    >>> texts, widgets = search_glyphs(texts, widgets, width, height)   # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.density import short_side

#: The letters OCR reads a magnifier as.
GLYPHS = frozenset({"Q", "q", "O"})
LABEL = "search"
#: An icon's side as a share of the screen's width (24 dp on 320-480 dp is 5-7.5 %;
#: the OCR box is tight around the glyph, so smaller).
MIN_SIDE, MAX_SIDE = 0.025, 0.09
#: The top bar ends this far down the screen (status bar + an app bar).
TOP_BAR = 0.12
#: The status bar ends this far down (its letters are not a search button).
STATUS_BAR = 0.03
#: Words that start a search field's hint (everyday English and Chinese).
_HINT = re.compile(r"^(search|find|搜索|查找)", re.IGNORECASE)
_PREFIX = re.compile(r"^[QqO]\s+(?=(search|find|搜索|查找))", re.IGNORECASE)
PICTURES = frozenset({ElementKind.IMAGE, ElementKind.ICON, ElementKind.BUTTON})


def _same_row(a: Box, b: Box) -> bool:
    return min(a.y2, b.y2) - max(a.y1, b.y1) >= 0.5 * min(a.height, b.height)


def _icon_sized(box: Box, width: int) -> bool:
    side = max(box.width, box.height)
    return MIN_SIDE * width <= side <= MAX_SIDE * width and 0.6 <= box.width / box.height <= 1.6


def _left_of_field(box: Box, texts: Sequence[Element], widgets: Sequence[Element]) -> bool:
    """Inside or just left of a text field, or just left of a "Search..." text."""
    reach = 3 * box.width
    for w in widgets:
        if (
            w.kind is ElementKind.EDIT_TEXT
            and _same_row(box, w.box)
            and w.box.x1 - reach <= box.x1
            and box.x2 <= w.box.x1 + 0.25 * w.box.width
        ):
            return True
    return any(
        _same_row(box, t.box)
        and 0 <= t.box.x1 - box.x2 <= reach
        and _HINT.match(t.text.strip()) is not None
        for t in texts
    )


def is_search_glyph(
    text: Element, texts: Sequence[Element], widgets: Sequence[Element], width: int, height: int
) -> bool:
    """Whether the text ``text`` is a magnifier read as a letter (module docstring)."""
    b = text.box
    if text.text.strip() not in GLYPHS or not _icon_sized(b, short_side(width, height)):
        return False
    in_top_bar = STATUS_BAR * height <= b.center[1] <= TOP_BAR * height
    return in_top_bar or _left_of_field(b, texts, widgets)


def search_glyphs(
    texts: Sequence[Element], widgets: Sequence[Element], width: int, height: int
) -> tuple[list[Element], list[Element]]:
    """``(texts, widgets)`` with magnifier glyphs made search icons (module docstring)."""
    out_texts: list[Element] = []
    out_widgets = list(widgets)
    for t in texts:
        if not is_search_glyph(t, texts, widgets, width, height):
            stripped = _PREFIX.sub("", t.text)
            out_texts.append(t if stripped == t.text else dataclasses.replace(t, text=stripped))
            continue
        holder = next(
            (
                i
                for i, w in enumerate(out_widgets)
                if w.kind in PICTURES
                and not w.text
                and w.box.intersection(t.box) >= 0.6 * t.box.area
                and w.box.area <= 16 * t.box.area
            ),
            None,
        )
        if holder is not None:
            out_widgets[holder] = dataclasses.replace(
                out_widgets[holder], icon_label=LABEL, clickable=True
            )
        else:
            out_widgets.append(
                Element(
                    0,
                    ElementKind.ICON,
                    t.box,
                    icon_label=LABEL,
                    clickable=True,
                    confidence=t.confidence,
                )
            )
    return out_texts, out_widgets
