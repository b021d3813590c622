"""vision/caret.py: a coloured text cursor read as a last letter is taken off."""

from __future__ import annotations

import numpy as np

from screenpilot.model import Box
from screenpilot.vision.caret import strip_carets
from screenpilot.vision.ocr import TextLine


def _field(caret: tuple[int, int, int] | None, last_letter: bool = False) -> np.ndarray:
    """A white strip with six black 'letters' (blocks 14 px wide, 8 px apart) at
    x=20..144, then a 3 px bar 6 px after the last one (coloured: a cursor; black: an l)."""
    img = np.full((60, 300, 3), 250, np.uint8)
    for i in range(6):
        x = 20 + i * 22
        img[15:45, x : x + 14] = (30, 30, 30)
    if caret is not None:
        img[12:48, 158:161] = caret
    if last_letter:
        img[15:45, 158:161] = (30, 30, 30)
    return img


LINE = TextLine("Walkerl", Box(18, 10, 162, 50), 0.9)


def test_an_accent_bar_after_the_text_is_a_cursor() -> None:
    (line,) = strip_carets(_field((33, 115, 230)), [LINE])
    assert line.text == "Walker"
    assert line.box.x2 == 144  # where the last black letter ends
    assert (line.box.x1, line.box.y1, line.box.y2) == (18, 10, 50)


def test_a_black_letter_stays() -> None:
    assert strip_carets(_field(None, last_letter=True), [LINE]) == [LINE]


def test_a_word_that_ends_otherwise_is_not_touched() -> None:
    other = TextLine("Walker", Box(18, 10, 162, 50), 0.9)
    assert strip_carets(_field((33, 115, 230)), [other]) == [other]


def test_coloured_text_keeps_its_last_letter() -> None:
    img = _field((33, 115, 230))
    img[img[..., 0] == 30] = (200, 30, 30)  # red text: a coloured link, not a field's value
    assert strip_carets(img, [LINE]) == [LINE]
