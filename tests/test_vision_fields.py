"""Input fields the pixels confirm (vision/fields.py): a detected edit text must be a
container (filled, outlined or underlined), not an app bar's title or a bare row."""

from __future__ import annotations

import numpy as np
import pytest

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.fields import confirmed_fields
from screenpilot.vision.ocr import TextLine
from screenpilot.vision.pipeline import Observations, assemble

W, H = 1080, 2400
BG = 250


def _screen() -> np.ndarray:
    return np.full((H, W, 3), BG, np.uint8)


def _text(pixels: np.ndarray, box: Box) -> None:
    """Dark strokes where a text line is (the masked part of a field)."""
    pixels[box.y1 + 8 : box.y2 - 8 : 6, box.x1 : box.x2] = 40


FIELD = Box(60, 300, 1020, 430)
HINT = Box(100, 340, 500, 390)


def _field(pixels: np.ndarray, style: str) -> None:
    x1, y1, x2, y2 = FIELD.as_tuple()
    if style == "filled":
        pixels[y1:y2, x1:x2] = 225
    elif style == "outlined":
        pixels[y1 : y1 + 3, x1:x2] = 120
        pixels[y2 - 3 : y2, x1:x2] = 120
        pixels[y1:y2, x1 : x1 + 3] = 120
        pixels[y1:y2, x2 - 3 : x2] = 120
    elif style == "underlined":
        pixels[y2 + 10 : y2 + 13, x1:x2] = 110  # the detector's box stops short of it
    _text(pixels, HINT)


@pytest.mark.parametrize("style", ["filled", "outlined", "underlined"])
def test_a_field_drawn_as_a_container_is_kept(style: str) -> None:
    pixels = _screen()
    _field(pixels, style)
    field = Element(0, ElementKind.EDIT_TEXT, FIELD, confidence=0.4)
    assert confirmed_fields(pixels, [field], [HINT]) == [field]


def test_a_title_on_a_plain_app_bar_is_no_field_and_other_kinds_are_untouched() -> None:
    pixels = _screen()
    title = Box(150, 150, 500, 220)
    _text(pixels, title)
    bar = Element(0, ElementKind.EDIT_TEXT, Box(40, 110, 1040, 260), confidence=0.6)
    button = Element(1, ElementKind.BUTTON, Box(40, 110, 1040, 260), confidence=0.6)
    assert confirmed_fields(pixels, [bar, button], [title]) == [button]


def test_describe_reports_the_title_as_text_and_the_filled_field_as_a_field() -> None:
    pixels = _screen()
    _field(pixels, "filled")
    title = Box(150, 150, 500, 220)
    _text(pixels, title)
    widgets = (
        Element(0, ElementKind.EDIT_TEXT, Box(40, 110, 1040, 260), confidence=0.6),
        Element(1, ElementKind.EDIT_TEXT, FIELD, confidence=0.5),
    )
    lines = (TextLine("Shop", title, 0.99), TextLine("Search products", HINT, 0.99))
    screen = assemble(pixels, Observations(lines, widgets), ("detect",), icons=None, reports={})
    fields = [e for e in screen.elements if e.kind is ElementKind.EDIT_TEXT]
    assert [e.box for e in fields] == [FIELD]
    assert "Search products" in (fields[0].text or "")
    assert any(e.kind is ElementKind.TEXT and e.text == "Shop" for e in screen.elements)
