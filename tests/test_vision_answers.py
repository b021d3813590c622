"""The icon model's answer checked against the drawing (vision/answers.py)."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from screenpilot.model import Box
from screenpilot.vision.answers import checked_answer, mirror_match

PAGE = (230, 230, 230)
INK = (240, 100, 60)
BOX = Box(90, 90, 170, 170)


def _page(draw: str) -> np.ndarray:
    img = Image.new("RGB", (300, 300), PAGE)
    d = ImageDraw.Draw(img)
    if draw == "cross":
        d.line((100, 100, 160, 160), fill=INK, width=7)
        d.line((100, 160, 160, 100), fill=INK, width=7)
    elif draw == "ring cross":
        d.ellipse((96, 96, 164, 164), outline=INK, width=5)
        d.line((115, 115, 145, 145), fill=INK, width=5)
        d.line((115, 145, 145, 115), fill=INK, width=5)
    elif draw == "slashed triangle":  # mobile data blocked: a signal triangle, slashed
        d.polygon([(160, 100), (160, 160), (100, 160)], fill=INK)
        d.line((100, 100, 160, 160), fill=PAGE, width=9)
        d.line((104, 100, 164, 160), fill=INK, width=5)
    return np.asarray(img)


def test_a_cross_matches_its_mirror_and_stays_close() -> None:
    for draw in ("cross", "ring cross"):
        px = _page(draw)
        assert (mirror_match(px, BOX) or 0) >= 0.8
        assert checked_answer(px, BOX, "close") == "close"


def test_a_slashed_triangle_is_no_close() -> None:
    px = _page("slashed triangle")
    assert (mirror_match(px, BOX) or 1) < 0.57
    assert checked_answer(px, BOX, "close") == ""
    assert checked_answer(px, BOX, "signal") == "signal"  # other answers are not judged


def test_no_ink_keeps_the_answer() -> None:
    px = np.full((300, 300, 3), 230, np.uint8)
    assert mirror_match(px, BOX) is None
    assert checked_answer(px, BOX, "close") == "close"
