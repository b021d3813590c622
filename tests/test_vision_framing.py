"""The page round a glyph its box cuts tight, for the icon model (vision/framing.py)."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from screenpilot.model import Box
from screenpilot.vision.framing import ink_colours, model_box

PAGE = (250, 250, 250)
INK = (60, 60, 60)


def _page(draw: list[tuple[str, tuple[int, int, int, int], tuple[int, int, int]]]) -> np.ndarray:
    """A 1080 x 1600 page with ``draw``'s shapes ("rect" or "ring") in their colours."""
    img = Image.new("RGB", (1080, 1600), PAGE)
    d = ImageDraw.Draw(img)
    for shape, xy, colour in draw:
        if shape == "rect":
            d.rectangle(xy, fill=colour)
        else:
            d.ellipse(xy, outline=colour, width=6)
    return np.asarray(img)


# a bell-like glyph: a ring with a bar under it, 60 px (23 dp on a 1080-wide phone)
GLYPH = [("ring", (500, 500, 560, 548), INK), ("rect", (500, 552, 559, 559), INK)]
TIGHT = Box(500, 500, 560, 560)


def test_a_glyph_cut_at_its_ink_is_shown_with_the_page_round_it() -> None:
    grown = model_box(_page(GLYPH), TIGHT)
    assert grown == Box(488, 488, 572, 572)  # 0.2 of 60 px on every side


def test_a_box_with_room_round_its_glyph_is_left_as_it_is() -> None:
    loose = Box(485, 485, 575, 575)
    assert model_box(_page(GLYPH), loose) == loose


def test_a_glyph_with_a_neighbour_in_the_band_round_it_is_left_as_it_is() -> None:
    px = _page([*GLYPH, ("rect", (500, 566, 560, 570), INK)])  # a word's top just under it
    assert model_box(px, TIGHT) == TIGHT


def test_a_colour_swatch_and_a_large_picture_are_left_as_they_are() -> None:
    swatch = Box(300, 300, 360, 360)
    assert model_box(_page([("rect", (300, 300, 359, 359), (0, 100, 200))]), swatch) == swatch
    big = Box(400, 400, 540, 540)  # 53 dp: a list's app icon, not a glyph
    assert model_box(_page([("ring", (400, 400, 539, 539), INK)]), big) == big


def test_a_picture_of_several_colours_is_left_as_it_is() -> None:
    px = _page(
        [
            ("rect", (500, 500, 524, 524), (220, 40, 40)),
            ("rect", (536, 500, 559, 524), (40, 160, 60)),
            ("rect", (500, 536, 524, 559), (40, 80, 220)),
            ("rect", (536, 536, 559, 559), (240, 190, 20)),
        ]
    )
    assert model_box(px, TIGHT) == TIGHT
    assert ink_colours(np.array([[220, 40, 40]] * 5 + [[40, 80, 220]] * 5)) == 2
