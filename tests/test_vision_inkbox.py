"""vision/inkbox.py: a text line's box is set by its ink, whatever margin the detector gave."""

from __future__ import annotations

import numpy as np

from screenpilot.model import Box
from screenpilot.vision.inkbox import PAD, settle_boxes, settled
from screenpilot.vision.ocr import TextLine

INK = Box(200, 100, 400, 140)  # 40 px of ink high


def _page() -> np.ndarray:
    img = np.full((300, 600, 3), 245, np.uint8)
    img[INK.y1 : INK.y2, INK.x1 : INK.x2 : 4] = 20  # letters as thin strokes
    img[INK.y1 : INK.y2, INK.x2 - 1] = 20
    return img


def _expected() -> Box:
    left, top, right, bottom = (round(p * INK.height) for p in PAD)
    return Box(INK.x1 - left, INK.y1 - top, INK.x2 + right, INK.y2 + bottom)


def test_two_margins_around_the_same_ink_give_one_box() -> None:
    pixels = _page()
    tight, loose = Box(190, 92, 410, 150), Box(170, 80, 440, 165)
    a, b = settle_boxes(pixels, [TextLine("Apps", tight, 0.9), TextLine("Apps", loose, 0.8)])
    assert a.box == b.box == _expected()
    assert (a.text, a.score, b.score) == ("Apps", 0.9, 0.8)


def test_a_border_across_the_line_is_not_ink() -> None:
    pixels = _page()
    pixels[60:200, 180:182] = 20  # a field's border runs down the line's left edge
    assert settled(pixels, Box(178, 80, 440, 165)) == _expected()


def test_ink_cut_by_the_box_keeps_the_detectors_edge() -> None:
    pixels = _page()
    out = settled(pixels, Box(300, 80, 440, 165))  # the line's box starts inside the word
    assert out.x1 == 300
    assert (out.y1, out.x2, out.y2) == (_expected().y1, _expected().x2, _expected().y2)


def test_a_line_with_no_ink_or_too_little_keeps_its_box() -> None:
    pixels = _page()
    empty = Box(450, 200, 580, 260)
    assert settled(pixels, empty) == empty
    pixels[230:233, 460:560] = 20  # a rule 3 px high: nothing to measure a height on
    assert settled(pixels, empty) == empty


def _icon_and_word(gap: int) -> tuple[np.ndarray, Box]:
    """A 36 px icon, ``gap`` px of page, then a word of strokes (40 px of ink high)."""
    img = np.full((300, 700, 3), 245, np.uint8)
    img[102:138, 100:136] = 30  # the icon: a filled square
    x0 = 136 + gap
    img[INK.y1 : INK.y2, x0 : x0 + 200 : 4] = 20
    return img, Box(x0, INK.y1, x0 + 197, INK.y2)


def test_an_icon_read_as_a_first_letter_leaves_the_line() -> None:
    pixels, word = _icon_and_word(gap=50)  # 1.25 ink heights: an icon beside the words
    (line,) = settle_boxes(pixels, [TextLine("X Airplane mode", Box(90, 92, 345, 148), 0.9)])
    assert line.text == "Airplane mode"
    assert line.box.x1 == word.x1 - round(PAD[0] * INK.height)
    assert line.score == 0.9


def test_an_icon_read_as_a_last_letter_leaves_the_line() -> None:
    pixels = np.fliplr(_icon_and_word(gap=50)[0]).copy()
    (line,) = settle_boxes(pixels, [TextLine("New York □", Box(355, 92, 610, 148), 0.9)])
    assert line.text == "New York"
    assert line.box.x2 < 700 - 136 - 40  # ends at the words' ink, before the icon


def test_a_one_letter_word_a_word_space_away_stays() -> None:
    pixels, _ = _icon_and_word(gap=12)  # 0.3 ink heights: a word space ("5 apps")
    (line,) = settle_boxes(pixels, [TextLine("5 apps", Box(90, 92, 345, 148), 0.9)])
    assert line.text == "5 apps"
    assert line.box.x1 == 100 - round(PAD[0] * INK.height)


def test_the_corner_of_a_buttons_outline_is_not_ink() -> None:
    pixels = _page()
    loose = Box(180, 60, 430, 165)
    pixels[60:62, 180:200] = 20  # the outline's rounded corner, inside the loose box
    assert settled(pixels, loose) == _expected()


def test_ink_that_ends_at_the_boxs_bottom_is_padded_as_if_the_box_were_looser() -> None:
    """A box whose bottom is the ink's last row cuts nothing: it gets the box a looser
    one gives (the int8 text detector's boxes now and then end on a descender's last
    row); ink that runs on below the edge keeps the detector's edge."""
    pixels = _page()
    flush = Box(190, 92, 410, INK.y2)  # nothing below the edge: the ink ends there
    assert settled(pixels, flush) == settled(pixels, Box(190, 92, 410, INK.y2 + 12))
    assert settled(pixels, flush) == _expected()
    pixels[INK.y2 : INK.y2 + 6, 260:263] = 20  # a tail the edge cut off
    assert settled(pixels, flush).y2 == INK.y2
