"""What part of a picture's box the icon model sees (vision.discs.glyph_crop): a button's
plain fill round its glyph is cut away, also where the box holds the page round it."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from screenpilot.model import Box
from screenpilot.vision.discs import glyph_crop

PAGE = (250, 250, 250)
TEAL = (29, 193, 171)


def _fab(
    *, shadow: bool = True, glyph: str = "plus", page: tuple[int, int, int] = PAGE
) -> np.ndarray:
    """A 600 x 600 page with a 130 px floating action button at (300, 300), its glyph in
    white, with a soft shadow under it."""
    img = Image.new("RGB", (600, 600), page)
    if shadow:
        shade = Image.new("L", (600, 600), 0)
        ImageDraw.Draw(shade).ellipse((237, 243, 367, 373), fill=90)
        shade = shade.filter(ImageFilter.GaussianBlur(6))
        img = Image.composite(Image.new("RGB", img.size, (120, 120, 120)), img, shade)
    d = ImageDraw.Draw(img)
    d.ellipse((235, 235, 365, 365), fill=TEAL)
    if glyph == "plus":
        d.rectangle((296, 272, 304, 328), fill=(255, 255, 255))
        d.rectangle((272, 296, 328, 304), fill=(255, 255, 255))
    elif glyph == "wide":  # a mark reaching past the disc's middle, out to its rim
        d.rectangle((240, 296, 360, 304), fill=(255, 255, 255))
    return np.asarray(img)


def test_a_floating_button_in_a_loose_box_is_cut_to_its_glyph() -> None:
    px = _fab()
    box = Box(225, 225, 378, 380)  # the detector's box: the disc, its shadow, the page
    inner = glyph_crop(px, box)
    assert inner != box
    assert inner.x1 > box.x1 and inner.x2 < box.x2 and inner.y1 > box.y1 and inner.y2 < box.y2
    # the whole "+" (272-328) stays inside the cut
    assert inner.x1 <= 272 and inner.x2 >= 328 and inner.y1 <= 272 and inner.y2 >= 328


def test_the_disc_as_its_own_box_is_cut_as_before() -> None:
    px = _fab(shadow=False)
    box = Box(235, 235, 365, 365)
    assert glyph_crop(px, box) != box


def test_a_mark_out_to_the_rim_is_not_cut() -> None:
    # a line from rim to rim is the picture itself: the cut would halve it
    assert glyph_crop(_fab(glyph="wide"), Box(225, 225, 378, 380)) == Box(225, 225, 378, 380)


def test_a_white_glyph_on_a_white_page_with_no_button_is_left_whole() -> None:
    img = Image.new("RGB", (400, 400), PAGE)
    ImageDraw.Draw(img).rectangle((150, 196, 250, 204), fill=(40, 40, 40))
    box = Box(140, 140, 260, 260)
    assert glyph_crop(np.asarray(img), box) == box  # no fill round it: nothing to cut
