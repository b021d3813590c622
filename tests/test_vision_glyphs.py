"""The magnifier read as "Q" (vision/glyphs.py) becomes a search icon."""

from __future__ import annotations

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.glyphs import search_glyphs

K = ElementKind
W, H = 1080, 2400


def _text(text: str, box: tuple[int, int, int, int]) -> Element:
    return Element(0, K.TEXT, Box(*box), text=text)


def test_a_q_in_the_top_bar_is_the_search_button() -> None:
    texts = [_text("Messages", (33, 135, 315, 204)), _text("Q", (849, 138, 904, 192))]
    out_texts, widgets = search_glyphs(texts, [], W, H)
    assert [t.text for t in out_texts] == ["Messages"]
    assert [(w.kind, w.icon_label, w.box, w.clickable) for w in widgets] == [
        (K.ICON, "search", Box(849, 138, 904, 192), True)
    ]


def test_a_picture_holding_the_q_is_labelled_search() -> None:
    image = Element(0, K.IMAGE, Box(805, 99, 938, 231))
    out_texts, widgets = search_glyphs([_text("Q", (849, 138, 904, 192))], [image], W, H)
    assert out_texts == [] and len(widgets) == 1
    assert widgets[0].icon_label == "search" and widgets[0].kind is K.IMAGE


def test_a_q_at_the_left_of_a_search_field() -> None:
    field = Element(0, K.EDIT_TEXT, Box(58, 1265, 1042, 1395))
    _, widgets = search_glyphs([_text("O", (84, 1306, 141, 1357))], [field], W, H)
    assert [w.icon_label for w in widgets] == ["", "search"]
    hint = _text("Search notes", (170, 1306, 480, 1357))
    _, widgets = search_glyphs([_text("Q", (84, 1306, 141, 1357)), hint], [], W, H)
    assert [w.icon_label for w in widgets] == ["search"]


def test_a_field_text_loses_its_leading_glyph() -> None:
    out_texts, _ = search_glyphs([_text("Q Search contacts", (84, 306, 500, 357))], [], W, H)
    assert [t.text for t in out_texts] == ["Search contacts"]


def test_letters_that_are_not_the_glyph_stay_text() -> None:
    texts = [
        _text("O", (75, 1316, 136, 1388)),  # an avatar's initial in a list
        _text("Q", (849, 10, 870, 30)),  # too small, in the status bar
        _text("Q", (100, 150, 400, 200)),  # not square
        _text("A", (849, 138, 904, 192)),  # another letter in the top bar
        _text("Quiet hours", (60, 140, 400, 200)),
    ]
    out_texts, widgets = search_glyphs(texts, [], W, H)
    assert out_texts == texts and widgets == []
