"""Chevrons named by their pixels (vision/chevrons.py, vision/glyphrules.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.chevrons import chevron_label
from screenpilot.vision.glyphrules import name_drawn_glyphs

PAGE = (250, 250, 250)
INK = (90, 90, 90)
REAL = Path(__file__).resolve().parents[2] / "shared" / "data" / "real-screens"
BOX = Box(80, 80, 160, 160)


def _drawn(points: list[tuple[int, int]], *, width: int = 5, fill: bool = False) -> np.ndarray:
    """A 1080 x 600 page with a stroke (or a filled polygon) through ``points``."""
    img = Image.new("RGB", (1080, 600), PAGE)
    d = ImageDraw.Draw(img)
    if fill:
        d.polygon(points, fill=INK)
    else:
        d.line(points, fill=INK, width=width, joint="curve")
    return np.asarray(img)


@pytest.mark.parametrize(
    ("points", "label"),
    [
        ([(95, 105), (120, 130), (145, 105)], "expand"),
        ([(95, 130), (120, 105), (145, 130)], "collapse"),
        ([(108, 95), (133, 120), (108, 145)], "next"),
        ([(133, 95), (108, 120), (133, 145)], "previous"),
    ],
)
def test_a_chevron_is_named_by_where_it_points(points: list[tuple[int, int]], label: str) -> None:
    assert chevron_label(_drawn(points), BOX) == label
    # as a blob's box gives it: the ink's own box
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    tight = Box(min(xs) - 2, min(ys) - 2, max(xs) + 3, max(ys) + 3)
    assert chevron_label(_drawn(points), tight) == label


@pytest.mark.parametrize(
    "points",
    [
        [(95, 115), (110, 130), (145, 95)],  # a check mark: one arm short
        [(95, 110), (145, 110)],  # a line
        [(95, 130), (145, 105)],  # a slope
    ],
)
def test_other_strokes_are_not_chevrons(points: list[tuple[int, int]]) -> None:
    assert chevron_label(_drawn(points), BOX) == ""


def test_ink_round_the_box_is_not_the_chevrons() -> None:
    # a tall row button: its chevron at the top, the next row's word just under the box
    px = _drawn([(95, 105), (120, 130), (145, 105)]).copy()
    px[172:182, 82:160] = INK
    assert chevron_label(px, Box(80, 80, 160, 168)) == "expand"
    # ... but a stroke that reaches into the box is the box's own
    px[150:182, 150:154] = INK
    assert chevron_label(px, Box(80, 80, 160, 168)) == ""


def test_a_filled_triangle_an_arc_and_a_blank_are_not_chevrons() -> None:
    # a drop-down's (and a play button's) filled triangle
    assert chevron_label(_drawn([(95, 105), (145, 105), (120, 130)], fill=True), BOX) == ""
    assert chevron_label(_drawn([(130, 95), (130, 145), (105, 120)], fill=True), BOX) == ""
    # an outlined triangle (a play sign, a drop-down's outline): two strokes across
    img = Image.new("RGB", (1080, 600), PAGE)
    ImageDraw.Draw(img).polygon([(105, 95), (105, 145), (145, 120)], outline=INK, width=4)
    assert chevron_label(np.asarray(img), BOX) == ""
    img = Image.new("RGB", (1080, 600), PAGE)
    ImageDraw.Draw(img).polygon([(95, 105), (145, 105), (120, 130)], outline=INK, width=3)
    assert chevron_label(np.asarray(img), BOX) == ""
    # the lower half of a ring (its upper half too faint to count)
    img = Image.new("RGB", (1080, 600), PAGE)
    ImageDraw.Draw(img).arc((95, 85, 145, 135), 0, 180, fill=INK, width=4)
    assert chevron_label(np.asarray(img), BOX) == ""
    assert chevron_label(np.full((300, 300, 3), 250, np.uint8), BOX) == ""
    # two chevrons side by side are not one
    two = _drawn([(85, 105), (100, 120), (115, 105)]).copy()
    two[100:125, 120:155] = _drawn([(85, 105), (100, 120), (115, 105)])[100:125, 85:120]
    assert chevron_label(two, Box(75, 90, 165, 135)) == ""


def test_describe_names_unlabelled_pictures_only() -> None:
    px = _drawn([(95, 105), (120, 130), (145, 105)])
    els = [
        Element(id=1, kind=ElementKind.ICON, box=BOX),
        Element(id=2, kind=ElementKind.IMAGE, box=BOX, text="v"),
        Element(id=3, kind=ElementKind.IMAGE, box=BOX, icon_label="arrow_down"),
        Element(id=4, kind=ElementKind.TEXT, box=BOX, text="v"),
        Element(id=5, kind=ElementKind.BUTTON, box=BOX, text="Show"),
    ]
    out = name_drawn_glyphs(px, els)
    assert [(e.text, e.icon_label) for e in out[:2]] == [("", "expand"), ("", "expand")]
    assert out[2:] == els[2:]


@pytest.mark.skipif(
    not (REAL / "NetGuard" / "01-main.png").exists(), reason="../shared/data absent"
)
def test_real_expand_chevrons() -> None:
    from screenpilot.vision.image import load_image

    px = load_image(REAL / "NetGuard" / "01-main.png")  # each app row's expander
    assert chevron_label(px, Box(24, 328, 72, 358)) == "expand"
    assert (
        chevron_label(load_image(REAL / "NetGuard" / "02-main-details.png"), Box(24, 322, 72, 352))
        == "collapse"
    )
