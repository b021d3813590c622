"""Rating bars from a row of equal stars (vision/stars.py); dots and a toolbar's
icons are no rating bar."""

from __future__ import annotations

import math

import cv2
import numpy as np

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.pipeline import Observations, assemble
from screenpilot.vision.stars import star_rows

W, H = 1080, 2400
GOLD = (240, 180, 0)
SIZE = 32


def _star(pixels: np.ndarray, x: int, y: int) -> Box:
    r_out, r_in = SIZE / 2, SIZE / 5
    points = [
        (
            x + SIZE / 2 + (r_out if k % 2 == 0 else r_in) * math.sin(k * math.pi / 5),
            y + SIZE / 2 - (r_out if k % 2 == 0 else r_in) * math.cos(k * math.pi / 5),
        )
        for k in range(10)
    ]
    cv2.fillPoly(pixels, [np.array(points, np.int32)], GOLD)
    return Box(x, y, x + SIZE, y + SIZE)


def _icons(boxes: list[Box]) -> list[Element]:
    return [Element(0, ElementKind.ICON, b, confidence=0.3) for b in boxes]


def test_five_stars_in_a_row_are_one_rating_bar() -> None:
    pixels = np.full((H, W, 3), 250, np.uint8)
    stars = [_star(pixels, 340 + 48 * k, 730) for k in range(5)]
    out = star_rows(pixels, _icons(stars))
    assert [e.kind for e in out] == [ElementKind.RATING_BAR]
    assert out[0].box.intersection(Box.around(stars)) == Box.around(stars).area  # all in
    assert out[0].box.iou(Box.around(stars)) >= 0.5  # with a margin, as a view has
    screen = assemble(pixels, Observations((), ()), ("detect",), icons=None, reports={})
    bars = [e for e in screen.elements if e.kind is ElementKind.RATING_BAR]
    assert len(bars) == 1 and bars[0].box.iou(Box.around(stars)) >= 0.5


def test_dots_and_spaced_icons_are_no_rating_bar() -> None:
    pixels = np.full((H, W, 3), 250, np.uint8)
    dots = []
    for k in range(5):
        x = 340 + 48 * k
        cv2.circle(pixels, (x + SIZE // 2, 530), SIZE // 2 - 1, (60, 60, 60), -1)
        dots.append(Box(x, 530 - SIZE // 2, x + SIZE, 530 + SIZE // 2))
    assert star_rows(pixels, _icons(dots)) == _icons(dots)
    spaced = [_star(pixels, 100 + 80 * k, 1200) for k in range(5)]  # two widths apart
    assert star_rows(pixels, _icons(spaced)) == _icons(spaced)
