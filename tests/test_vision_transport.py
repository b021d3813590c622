"""A media player's transport glyphs named from their pixels (vision/transport.py), and
inside the glyph rules (vision/glyphrules.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.blocks import dp_size
from screenpilot.vision.glyphrules import name_drawn_glyphs
from screenpilot.vision.image import glyph_ink
from screenpilot.vision.transport import drop_down_in, largest_glyph, transport_in

REAL = Path(__file__).resolve().parents[2] / "shared" / "data" / "real-screens"
PAGE, INK = (33, 33, 33), (255, 255, 255)
BOX = Box(100, 100, 220, 200)


def _right(d: ImageDraw.ImageDraw, x: int, w: int = 40) -> None:
    d.polygon([(x, 120), (x + w, 150), (x, 180)], fill=INK)


def _left(d: ImageDraw.ImageDraw, x: int, w: int = 40) -> None:
    d.polygon([(x + w, 120), (x, 150), (x + w, 180)], fill=INK)


def _bar(d: ImageDraw.ImageDraw, x: int, w: int = 10) -> None:
    d.rectangle((x, 120, x + w - 1, 180), fill=INK)


def _page(*draw: tuple[str, int]) -> np.ndarray:
    image = Image.new("RGB", (1080, 1920), PAGE)
    d = ImageDraw.Draw(image)
    for shape, x in draw:
        {"right": _right, "left": _left, "bar": _bar}[shape](d, x)
    return np.asarray(image)


def _label(pixels: np.ndarray) -> str:
    return transport_in(glyph_ink(pixels, BOX), largest_glyph(pixels))


@pytest.mark.parametrize(
    ("shapes", "label"),
    [
        ([("right", 140)], "play"),
        ([("right", 120), ("right", 160)], "fast_forward"),  # touching tip to base
        ([("left", 120), ("left", 160)], "fast_rewind"),
        ([("right", 130), ("bar", 172)], "skip_next"),
        ([("bar", 130), ("left", 144)], "skip_previous"),
        ([("bar", 140), ("bar", 165)], "pause"),
    ],
)
def test_transport_glyphs(shapes: list[tuple[str, int]], label: str) -> None:
    assert _label(_page(*shapes)) == label


def test_shapes_that_are_no_transport_glyph() -> None:
    assert _label(_page(("left", 140))) == ""  # a back key or a "previous" chevron
    assert _label(_page(("bar", 140))) == ""  # one bar
    assert _label(_page(("right", 120), ("left", 165))) == ""  # ▶◀
    image = Image.new("RGB", (1080, 1920), PAGE)
    d = ImageDraw.Draw(image)
    d.rectangle((130, 120, 190, 180), fill=INK)  # a stop square: other rules' business
    assert _label(np.asarray(image)) == ""
    image = Image.new("RGB", (1080, 1920), PAGE)
    d = ImageDraw.Draw(image)
    d.polygon([(130, 130), (190, 130), (160, 175)], fill=INK)  # pointing down: expand
    assert _label(np.asarray(image)) == ""
    image = Image.new("RGB", (1080, 1920), PAGE)
    d = ImageDraw.Draw(image)  # an arrow: a head with a shaft
    d.polygon([(130, 150), (160, 120), (160, 180)], fill=INK)
    d.rectangle((160, 144, 200, 156), fill=INK)
    assert _label(np.asarray(image)) == ""


def _triangle(points: list[tuple[int, int]], box: Box = BOX) -> str:
    """What :func:`drop_down_in` makes of a solid polygon drawn in ``box`` on a phone."""
    image = Image.new("RGB", (1080, 1920), PAGE)
    ImageDraw.Draw(image).polygon(points, fill=INK)
    pixels = np.asarray(image)
    return drop_down_in(glyph_ink(pixels, box), dp_size(1080, 1920))


def test_a_drop_downs_arrow() -> None:
    """Material's arrow_drop_down, 10 dp wide and 5 high (27 by 13 px at 2.6 px a dp)."""
    box = Box(140, 140, 180, 170)
    assert _triangle([(146, 148), (173, 148), (159, 161)], box) == "expand"
    assert _triangle([(146, 161), (173, 161), (159, 148)], box) == "collapse"
    assert _triangle([(130, 130), (190, 130), (160, 175)], BOX) == "expand"  # 23 dp wide
    assert _triangle([(146, 148), (160, 155), (146, 162)], box) == ""  # pointing right
    assert _triangle([(146, 148), (173, 148), (173, 161), (146, 161)], box) == ""  # a bar
    wide = Box(100, 100, 260, 220)  # a triangle of 46 dp: a picture, not an arrow
    assert _triangle([(110, 110), (230, 110), (170, 200)], wide) == ""
    image = Image.new("RGB", (1080, 1920), PAGE)
    d = ImageDraw.Draw(image)  # a chevron: two strokes, not a solid triangle
    d.line([(146, 148), (159, 161), (173, 148)], fill=INK, width=4)
    assert drop_down_in(glyph_ink(np.asarray(image), box), dp_size(1080, 1920)) == ""


def test_a_triangle_a_text_follows_is_a_legends_mark() -> None:
    """NetGuard's traffic notification: "KB/s ▼ 73/4096", the triangle a legend's."""
    box = Box(140, 140, 180, 170)
    image = Image.new("RGB", (1080, 1920), PAGE)
    ImageDraw.Draw(image).polygon([(146, 148), (173, 148), (159, 161)], fill=INK)
    pixels = np.asarray(image)
    arrow = Element(0, ElementKind.ICON, box, clickable=True, confidence=0.3)
    assert name_drawn_glyphs(pixels, [arrow])[0].icon_label == "expand"
    ends = Element(1, ElementKind.TEXT, Box(20, 140, 130, 170), text="Week")
    assert name_drawn_glyphs(pixels, [arrow, ends])[0].icon_label == "expand"
    follows = Element(1, ElementKind.TEXT, Box(200, 138, 300, 172), text="73/4096")
    assert name_drawn_glyphs(pixels, [arrow, follows])[0].icon_label == ""
    far = Element(1, ElementKind.TEXT, Box(240, 138, 340, 172), text="73/4096")
    assert name_drawn_glyphs(pixels, [arrow, far])[0].icon_label == "expand"


def test_the_glyph_rules_name_an_unlabelled_icon() -> None:
    icon = Element(0, ElementKind.ICON, BOX, clickable=True, confidence=0.3)
    named = name_drawn_glyphs(_page(("right", 130), ("bar", 172)), [icon])
    assert named[0].icon_label == "skip_next"


@pytest.mark.skipif(not (REAL / "NewPipe" / "05.png").exists(), reason="../shared/data absent")
def test_newpipes_player() -> None:
    from screenpilot.vision.pipeline import analyse

    screen = analyse(REAL / "NewPipe" / "05.png").screen
    player = sorted(
        (e for e in screen.elements if 1600 < e.box.center[1] < 1720 and e.icon_label),
        key=lambda e: e.box.x1,
    )
    assert [e.icon_label for e in player] == [
        "repeat",
        "skip_previous",
        "fast_rewind",
        "pause",
        "fast_forward",
        "skip_next",
        "shuffle",
    ]
