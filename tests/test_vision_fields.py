"""Input fields the pixels confirm (vision/fields.py): a detected edit text must be a
container (filled, outlined or underlined), not an app bar's title or a bare row."""

from __future__ import annotations

import numpy as np
import pytest

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.fields import _underlined_fill, confirmed_fields
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


def test_a_filled_card_with_a_title_and_a_subtitle_is_no_field() -> None:
    pixels = _screen()
    card = Box(40, 700, 1040, 920)
    pixels[card.y1 : card.y2, card.x1 : card.x2] = 232
    title, subtitle = Box(80, 740, 300, 800), Box(80, 820, 380, 870)
    _text(pixels, title)
    _text(pixels, subtitle)
    found = Element(0, ElementKind.EDIT_TEXT, card, confidence=0.5)
    assert confirmed_fields(pixels, [found], [title, subtitle]) == []


def _describe(pixels: np.ndarray, lines: tuple[TextLine, ...]) -> list[Element]:
    screen = assemble(pixels, Observations(lines, ()), ("detect",), icons=None, reports={})
    return [e for e in screen.elements if e.kind is ElementKind.EDIT_TEXT]


@pytest.mark.parametrize("style", ["outlined", "tinted"])
def test_a_field_the_detector_missed_is_found_around_its_hint(style: str) -> None:
    pixels = _screen()
    x1, y1, x2, y2 = FIELD.as_tuple()
    if style == "outlined":
        _field(pixels, "outlined")
    else:  # Material's filled field: a tint 8 grey levels off the page, a dark underline
        pixels[y1:y2, x1:x2] = BG - 8
        pixels[y2 : y2 + 3, x1:x2] = 90
        _text(pixels, HINT)
    fields = _describe(pixels, (TextLine("Type a name", HINT, 0.99),))
    assert len(fields) == 1
    assert fields[0].box.iou(FIELD) >= 0.8
    assert fields[0].text == "Type a name"


def test_a_centred_label_in_an_outline_and_a_plain_row_are_not_found_as_fields() -> None:
    pixels = _screen()
    _field(pixels, "outlined")
    label = Box(420, 340, 660, 390)  # an outlined button's label, centred
    row = Box(100, 1000, 400, 1050)  # a list row's text, no outline
    for box in (label, row):
        _text(pixels, box)
    found = _describe(pixels, (TextLine("Continue", label, 0.99), TextLine("Wi-Fi", row, 0.99)))
    assert found == []


def test_an_outlined_field_with_a_floating_label_over_its_text_is_kept() -> None:
    pixels = _screen()
    _field(pixels, "outlined")
    label, value = Box(100, 310, 260, 340), Box(100, 360, 520, 410)  # small over large
    _text(pixels, label)
    _text(pixels, value)
    field = Element(0, ElementKind.EDIT_TEXT, FIELD, confidence=0.4)
    assert confirmed_fields(pixels, [field], [label, value]) == [field]


def test_a_list_row_with_a_title_over_a_smaller_subtitle_is_no_field() -> None:
    pixels = _screen()
    row = Box(40, 700, 1040, 900)
    pixels[row.y2 : row.y2 + 3, :] = 200  # the divider under it
    pixels[row.y1 - 3 : row.y1, :] = 200
    title, subtitle = Box(80, 730, 400, 790), Box(80, 810, 500, 855)
    _text(pixels, title)
    _text(pixels, subtitle)
    found = Element(0, ElementKind.EDIT_TEXT, row, confidence=0.5)
    assert confirmed_fields(pixels, [found], [title, subtitle]) == []


def test_a_card_s_flat_button_over_its_divider_is_no_field() -> None:
    """LoopHabits' "EDIT", alone in the middle of its card's last strip."""
    pixels = _screen()
    strip = Box(11, 262, 1066, 387)
    pixels[strip.y2 - 2 : strip.y2 + 1, :] = 200  # the divider under it
    label = Box(513, 302, 598, 340)
    _text(pixels, label)
    found = Element(0, ElementKind.EDIT_TEXT, strip, confidence=0.34)
    assert confirmed_fields(pixels, [found], [label]) == []
    hint = Box(60, 302, 300, 340)  # the same strip with a hint at its left: a field
    pixels = _screen()
    pixels[strip.y2 - 2 : strip.y2 + 1, :] = 200
    _text(pixels, hint)
    assert confirmed_fields(pixels, [found], [hint]) == [found]


def test_a_panel_s_shadow_is_no_underline() -> None:
    pixels = _screen()
    panel = Box(400, 200, 1060, 900)
    pixels[panel.y1 : panel.y2, panel.x1 : panel.x2] = 255
    for i in range(16):  # a soft shadow under and left of the panel
        pixels[panel.y2 + i, panel.x1 : panel.x2] = 215 + 2 * i
        pixels[panel.y1 : panel.y2, panel.x1 - 1 - i] = 235 + i
    item = Box(440, 800, 800, 860)
    _text(pixels, item)
    assert _describe(pixels, (TextLine("Open terminal", item, 0.99),)) == []


def _faint_field(pixels: np.ndarray) -> Box:
    """Material's filled field a few grey levels off the page, a dark underline under
    it; returns the hint's line."""
    x1, y1, x2, y2 = FIELD.as_tuple()
    pixels[y1:y2, x1:x2] = BG - 4
    pixels[y2 : y2 + 3, x1:x2] = 90
    _text(pixels, HINT)
    return HINT


def test_a_faint_filled_field_is_found_by_its_underline() -> None:
    pixels = _screen()
    line = _faint_field(pixels)
    grey = pixels[..., 0].astype(np.float32)
    box = _underlined_fill(grey, line)
    assert box is not None
    assert (box.x1, box.x2, box.y2) == (FIELD.x1, FIELD.x2, FIELD.y2 + 1)


def test_no_faint_field_when_something_else_lies_between_the_line_and_an_underline() -> None:
    pixels = _screen()
    line = _faint_field(pixels)
    pixels[HINT.y2 + 12 : HINT.y2 + 14, HINT.x1 : HINT.x1 + 200] = 160  # another line's ink
    assert _underlined_fill(pixels[..., 0].astype(np.float32), line) is None
    pixels = _screen()
    line = _faint_field(pixels)
    pixels[FIELD.y2 : FIELD.y2 + 3, FIELD.x1 : FIELD.x2] = BG - 4  # no underline at all
    assert _underlined_fill(pixels[..., 0].astype(np.float32), line) is None


def test_a_row_holding_two_controls_is_no_field() -> None:
    """A list row tinted and underlined like a filled field, its title at the left and a
    row of check cells to the right (LoopHabits' habits), is a row; one trailing button
    in a field keeps it a field."""
    from screenpilot.vision.fields import found_fields

    pixels = _screen()
    x1, y1, x2, y2 = FIELD.as_tuple()
    pixels[y1:y2, x1:x2] = BG - 8
    pixels[y2 : y2 + 3, x1:x2] = 90
    _text(pixels, HINT)
    hint = Element(1, ElementKind.TEXT, HINT, text="Track time")
    cells = [
        Element(2 + k, ElementKind.BUTTON, Box(x, 320, x + 90, 410), clickable=True)
        for k, x in enumerate((700, 900))
    ]
    assert found_fields(pixels, [hint], cells, {}) == []
    (field,) = found_fields(pixels, [hint], cells[1:], {})
    assert field.kind is ElementKind.EDIT_TEXT and field.box.iou(FIELD) >= 0.8


def test_a_card_with_a_shadow_under_it_is_no_field() -> None:
    """A white card on a grey page holding one line at its left, its bottom edge a
    shadow fading into the page (TrackerControl's tip), is no field; the same card with
    a solid line under it is an underlined field."""
    from screenpilot.vision.fields import found_fields

    def card(under: list[int]) -> list[Element]:
        pixels = np.full((H, W, 3), 245, np.uint8)
        x1, y1, x2, y2 = FIELD.as_tuple()
        pixels[y1:y2, x1:x2] = 255
        for k, grey in enumerate(under):
            pixels[y2 + k, x1:x2] = grey
        _text(pixels, HINT)
        hint = Element(1, ElementKind.TEXT, HINT, text="Tip: disable if it fails")
        return found_fields(pixels, [hint], [], {HINT: FIELD})

    assert card([204, 220, 229, 237, 242]) == []  # a shadow fading over five rows
    (field,) = card([120, 120])  # a solid underline
    assert field.box == FIELD
