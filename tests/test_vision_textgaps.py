"""OCR lines split at wide gaps (vision/textgaps.py), on text drawn with the phone's font."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from screenpilot.model import Box
from screenpilot.simulator.draw import text_font
from screenpilot.vision.ocr import TextLine
from screenpilot.vision.textgaps import split_line, split_wide_gaps

SIZE = 40


def _drawn(words: list[tuple[str, int]]) -> tuple[np.ndarray, Box]:
    """Words drawn at the given x on one baseline; the box around all of them."""
    image = Image.new("RGB", (1080, 120), (250, 250, 250))
    draw = ImageDraw.Draw(image)
    font = text_font(SIZE)
    right = 0
    for word, x in words:
        draw.text((x, 40), word, fill=(30, 30, 30), font=font)
        right = max(right, int(draw.textbbox((x, 40), word, font=font)[2]))
    return np.asarray(image), Box(words[0][1] - 4, 36, right + 4, 36 + int(SIZE * 1.25))


def test_widely_spaced_words_become_one_text_each() -> None:
    pixels, box = _drawn([("Fri", 160), ("Sat", 410), ("Sun", 660)])
    out = split_wide_gaps(pixels, [TextLine("Fri Sat Sun", box, 0.98)])
    assert [t.text for t in out] == ["Fri", "Sat", "Sun"]
    assert [t.box.x1 // 10 for t in out] == [16, 41, 66]
    assert all(t.box.y1 == box.y1 and t.box.y2 == box.y2 and t.score == 0.98 for t in out)
    assert out[0].box.x2 < 230 and out[1].box.x2 < 480


def test_a_sentence_stays_one_line() -> None:
    pixels, box = _drawn([("Are we still on for lunch tomorrow?", 40)])
    line = TextLine("Are we still on for lunch tomorrow?", box, 0.99)
    assert split_line(pixels, line) == [line]


def test_several_words_share_a_segment_by_their_characters() -> None:
    pixels, box = _drawn([("Alarm name", 40), ("7:00 AM", 700)])
    out = split_wide_gaps(pixels, [TextLine("Alarm name 7:00 AM", box, 0.95)])
    assert [t.text for t in out] == ["Alarm name", "7:00 AM"]


def test_a_line_whose_words_do_not_fit_its_segments_stays() -> None:
    pixels, box = _drawn([("W", 100), ("ord", 400)])  # one word torn apart
    line = TextLine("Word", box, 0.9)
    assert split_line(pixels, line) == [line]
    pixels, box = _drawn([("a", 100), ("longer phrase here", 400)])
    line = TextLine("longer phrase here a", box, 0.9)  # widths disagree with the words
    assert split_line(pixels, line) == [line]
