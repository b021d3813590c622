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
