"""Thin crosses named by their pixels (vision/crosses.py, vision/glyphrules.py)."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.crosses import cross_label
from screenpilot.vision.glyphrules import name_drawn_glyphs

PAGE = (250, 250, 250)
INK = (70, 70, 70)
BOX = Box(80, 80, 160, 160)


def _lines(lines: list[tuple[int, int, int, int]], *, width: int = 4) -> np.ndarray:
    """A 1080 x 600 page with straight strokes."""
    img = Image.new("RGB", (1080, 600), PAGE)
    d = ImageDraw.Draw(img)
    for x1, y1, x2, y2 in lines:
        d.line((x1, y1, x2, y2), fill=INK, width=width)
    return np.asarray(img)


TIMES = [(100, 100, 140, 140), (100, 140, 140, 100)]
PLUS = [(120, 98, 120, 142), (98, 120, 142, 120)]


@pytest.mark.parametrize("width", [2, 4, 7])
def test_a_thin_times_is_close_and_a_plus_is_add(width: int) -> None:
    assert cross_label(_lines(TIMES, width=width), BOX) == "close"
    assert cross_label(_lines(PLUS, width=width), BOX) == "add"
    # as a blob's box gives it: the ink's own box
    assert cross_label(_lines(TIMES, width=width), Box(97, 97, 144, 144)) == "close"


@pytest.mark.parametrize(
    "lines",
    [
        [*TIMES, (120, 96, 120, 144)],  # an asterisk
        [(100, 125, 112, 138), (112, 138, 142, 102)],  # a check mark
        TIMES[:1],  # one stroke
        [(100, 100, 140, 140), (100, 140, 118, 122)],  # a cross with one arm short
        [(120, 98, 120, 142), (98, 105, 142, 105)],  # a "T", not a "+"
        [(100, 110, 140, 110), (100, 130, 140, 130)],  # "="
    ],
)
def test_other_strokes_are_not_crosses(lines: list[tuple[int, int, int, int]]) -> None:
    assert cross_label(_lines(lines), BOX) == ""


def test_filled_shapes_rings_and_blanks_are_not_crosses() -> None:
    img = Image.new("RGB", (1080, 600), PAGE)
    ImageDraw.Draw(img).rectangle((100, 100, 140, 140), fill=INK)
    assert cross_label(np.asarray(img), BOX) == ""
    # a cross in a ring (cancel): the ring is ink of the box too
    img = Image.new("RGB", (1080, 600), PAGE)
    d = ImageDraw.Draw(img)
    d.ellipse((86, 86, 154, 154), outline=INK, width=3)
    for line in TIMES:
        d.line(line, fill=INK, width=4)
    assert cross_label(np.asarray(img), BOX) == ""
    assert cross_label(np.full((300, 300, 3), 250, np.uint8), BOX) == ""


def test_describe_names_crosses_and_drops_their_read() -> None:
    px = _lines(PLUS)
    els = [
        Element(id=1, kind=ElementKind.BUTTON, box=BOX, text="X"),  # a "+" read as a cross
        Element(id=2, kind=ElementKind.BUTTON, box=BOX, text="Add"),
    ]
    out = name_drawn_glyphs(px, els)
    assert (out[0].text, out[0].icon_label) == ("", "add")
    assert out[1] == els[1]
