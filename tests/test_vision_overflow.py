"""The overflow menu's three dots, found by their pixels (vision/overflow.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.glyphrules import name_drawn_glyphs
from screenpilot.vision.overflow import is_dots_glyph

PAGE = (250, 250, 250)
INK = (60, 60, 60)
REAL = Path(__file__).resolve().parents[2] / "shared" / "data" / "real-screens"
BOX = Box(90, 90, 170, 170)


def _dots(
    centres: list[tuple[int, int]],
    r: int = 5,
    inks: list[tuple[int, int, int]] | None = None,
    page: tuple[int, int, int] = PAGE,
) -> np.ndarray:
    """A 1080 x 600 page with discs of radius ``r`` at ``centres``."""
    img = Image.new("RGB", (1080, 600), page)
    d = ImageDraw.Draw(img)
    for k, (x, y) in enumerate(centres):
        d.ellipse((x - r, y - r, x + r, y + r), fill=(inks or [INK] * len(centres))[k])
    return np.asarray(img)


COLUMN = [(130, 110), (130, 130), (130, 150)]
ROW = [(110, 130), (130, 130), (150, 130)]


@pytest.mark.parametrize("centres", [COLUMN, ROW])
def test_three_dots_in_a_line_are_the_overflow_glyph(centres: list[tuple[int, int]]) -> None:
    assert is_dots_glyph(_dots(centres), BOX)
    # white dots on a coloured toolbar, and a blob's tight box
    assert is_dots_glyph(_dots(centres, page=(0, 120, 200), inks=[(255,) * 3] * 3), BOX)
    xs, ys = [c[0] for c in centres], [c[1] for c in centres]
    assert is_dots_glyph(_dots(centres), Box(min(xs) - 6, min(ys) - 6, max(xs) + 6, max(ys) + 6))


@pytest.mark.parametrize(
    "centres",
    [
        COLUMN[:2],  # two dots
        [(130, 100), (130, 120), (130, 140), (130, 160)],  # four dots
        [(110, 130), (130, 130), (165, 130)],  # uneven steps
        [(110, 120), (130, 130), (150, 140)],  # on a slope
        [(100, 130), (130, 130), (160, 130)],  # far apart: a row of separate marks
    ],
)
def test_other_dots_are_not_the_overflow_glyph(centres: list[tuple[int, int]]) -> None:
    assert not is_dots_glyph(_dots(centres), BOX)


def test_tiny_square_dots_are_the_glyph_and_larger_squares_are_not() -> None:
    """Dots of 5 px (Markor's "⋯" on a 530 px screenshot) are squares of pixels; three
    squares of 12 px are no dots."""
    for side, step, found in ((5, 8, True), (12, 20, False)):
        img = Image.new("RGB", (1080, 600), PAGE)
        for x in (110, 110 + step, 110 + 2 * step):
            ImageDraw.Draw(img).rectangle((x, 128, x + side - 1, 128 + side - 1), fill=INK)
        assert is_dots_glyph(np.asarray(img), BOX) is found


def test_a_page_indicator_dashes_and_a_blank_are_not_the_glyph() -> None:
    # a page indicator: the current page's dot darker than the others
    assert not is_dots_glyph(_dots(ROW, inks=[INK, (190, 190, 190), (190, 190, 190)]), BOX)
    # three dashes, not dots
    img = Image.new("RGB", (1080, 600), PAGE)
    for x in (100, 125, 150):
        ImageDraw.Draw(img).rectangle((x, 127, x + 16, 132), fill=INK)
    assert not is_dots_glyph(np.asarray(img), BOX)
    # dots of three sizes
    px = _dots(ROW[:1], r=3).copy()
    px[120:141, 120:141] = _dots([(130, 130)], r=8)[120:141, 120:141]
    assert not is_dots_glyph(px, BOX)
    assert not is_dots_glyph(_dots([]), BOX)


def test_describe_names_the_dots_more_options_and_drops_their_read() -> None:
    px = _dots(COLUMN)
    els = [
        Element(id=1, kind=ElementKind.BUTTON, box=BOX, text=":"),
        Element(id=2, kind=ElementKind.IMAGE, box=BOX, text="Menu"),
    ]
    out = name_drawn_glyphs(px, els)
    assert (out[0].text, out[0].icon_label) == ("", "more_options")
    assert out[1] == els[1]


@pytest.mark.skipif(
    not (REAL / "NetGuard" / "20-traffic-log.png").exists(), reason="../shared/data absent"
)
def test_real_toolbar_dots() -> None:
    from screenpilot.vision.image import load_image

    # NetGuard's traffic log: the toolbar's "⋮", read by OCR as "• •"
    px = load_image(REAL / "NetGuard" / "20-traffic-log.png")
    assert is_dots_glyph(px, Box(959, 86, 1078, 229))
