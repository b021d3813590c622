"""The navigation drawer's three bars, found by their pixels (vision/hamburger.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.glyphrules import name_drawn_glyphs
from screenpilot.vision.hamburger import is_menu_glyph

PAGE = (250, 250, 250)
INK = (40, 40, 40)
REAL = Path(__file__).resolve().parents[2] / "shared" / "data" / "real-screens"


def _screen(
    draw: list[tuple[int, int, int, int]],
    *,
    page: tuple[int, int, int] = PAGE,
    ink: tuple[int, int, int] = INK,
) -> np.ndarray:
    """A 1080 x 600 page with ``draw``'s rectangles in ``ink``."""
    img = Image.new("RGB", (1080, 600), page)
    d = ImageDraw.Draw(img)
    for x1, y1, x2, y2 in draw:
        d.rectangle((x1, y1, x2 - 1, y2 - 1), fill=ink)
    return np.asarray(img)


def _bars(
    x: int, y: int, widths: tuple[int, ...], h: int = 6, gap: int = 10
) -> list[tuple[int, int, int, int]]:
    return [(x, y + k * (h + gap), x + w, y + k * (h + gap) + h) for k, w in enumerate(widths)]


# the glyph's box as a detector gives it (with a margin) and as a blob's ink gives it
BOX = Box(90, 90, 170, 160)
TIGHT = Box(100, 100, 160, 138)


@pytest.mark.parametrize("box", [BOX, TIGHT])
def test_three_equal_bars_are_the_menu_glyph(box: Box) -> None:
    assert is_menu_glyph(_screen(_bars(100, 100, (60, 60, 60))), box)
    # white bars on a coloured toolbar, thin and close
    px = _screen(_bars(100, 100, (60, 60, 60), h=3, gap=5), page=(0, 150, 136), ink=(255,) * 3)
    assert is_menu_glyph(px, Box(90, 90, 170, 130))


@pytest.mark.parametrize(
    "draw",
    [
        _bars(100, 100, (60, 45, 30)),  # a sort glyph: three lengths
        _bars(100, 100, (60, 60)),  # a drag handle: two bars
        _bars(100, 100, (60, 60, 60, 60), gap=4),  # four bars
        [
            *_bars(112, 100, (48, 48, 48)),
            (100, 100, 106, 106),
            (100, 116, 106, 122),
            (100, 132, 106, 138),
        ],  # a list: bullets
        _bars(100, 100, (60, 60, 60), gap=40),  # three rules far apart
        _bars(100, 100, (60, 60, 60), h=14, gap=6),  # three blocks, not bars
    ],
)
def test_other_glyphs_are_not_the_menu_glyph(draw: list[tuple[int, int, int, int]]) -> None:
    assert not is_menu_glyph(_screen(draw), Box(90, 90, 172, 200))


def test_bars_with_boxes_in_them_are_a_checklist() -> None:
    px = _screen(_bars(100, 100, (60, 60, 60), h=10, gap=8)).copy()
    for k in range(3):
        px[102 + 18 * k : 108 + 18 * k, 104:110] = PAGE  # a box cut in each bar
    assert not is_menu_glyph(px, Box(90, 90, 170, 160))
    assert is_menu_glyph(_screen(_bars(100, 100, (60, 60, 60), h=10, gap=8)), Box(90, 90, 170, 160))


def test_a_line_across_the_whole_crop_is_not_the_glyphs() -> None:
    # a toolbar's bottom line runs through the button's box and past its margin
    px = _screen([*_bars(100, 100, (60, 60, 60)), (0, 158, 1080, 159)])
    assert is_menu_glyph(px, BOX)
    # a line that ends inside the crop is ink of the box
    px = _screen([*_bars(100, 100, (60, 60, 60)), (95, 156, 165, 159)])
    assert not is_menu_glyph(px, BOX)


def test_thin_anti_aliased_bars_are_the_menu_glyph() -> None:
    # a low-density screen: 3 px bars whose edge rows are half inked
    px = _screen(_bars(100, 100, (24, 24, 24), h=3, gap=5)).copy()
    for k in range(3):
        for row in (100 + 8 * k, 102 + 8 * k):
            px[row, 100:124:2] = PAGE
    assert is_menu_glyph(px, Box(92, 92, 132, 130))


def test_a_plain_or_tiny_box_is_not_the_menu_glyph() -> None:
    assert not is_menu_glyph(_screen([]), BOX)
    assert not is_menu_glyph(_screen(_bars(100, 100, (60, 60, 60))), Box(100, 100, 106, 106))


def _el(i: int, kind: ElementKind, box: Box, text: str = "", icon: str = "") -> Element:
    return Element(id=i, kind=kind, box=box, text=text, icon_label=icon)


def test_describe_names_the_bars_menu_and_drops_their_read() -> None:
    px = _screen([*_bars(100, 100, (60, 60, 60)), (250, 100, 300, 150)])
    els = [
        _el(1, ElementKind.BUTTON, BOX, text="三"),
        _el(2, ElementKind.ICON, Box(245, 95, 305, 155)),  # a square, not bars
        _el(3, ElementKind.TEXT, BOX, text="三"),  # a text is not a picture
        _el(4, ElementKind.IMAGE, BOX, icon="list"),  # a label given before stays
        _el(5, ElementKind.BUTTON, BOX, text="Menu"),  # a button with a word keeps it
    ]
    out = name_drawn_glyphs(px, els)
    assert (out[0].text, out[0].icon_label) == ("", "menu")
    assert out[1:] == els[1:]


@pytest.mark.skipif(not (REAL / "NewPipe" / "03.png").exists(), reason="../shared/data absent")
def test_real_toolbars_menu_buttons() -> None:
    from screenpilot.vision.image import load_image

    # NewPipe's white bars on a dark toolbar, boxed by their ink; Etar's in a button box
    assert is_menu_glyph(load_image(REAL / "NewPipe" / "03.png"), Box(56, 136, 112, 174))
    assert is_menu_glyph(load_image(REAL / "EtarCalendar" / "p2.png"), Box(36, 98, 113, 170))
    # NewPipe's search and overflow buttons are not
    assert not is_menu_glyph(load_image(REAL / "NewPipe" / "00.png"), Box(694, 130, 746, 182))
    assert not is_menu_glyph(load_image(REAL / "NewPipe" / "03.png"), Box(983, 113, 1057, 197))


@pytest.mark.parametrize(
    ("draw", "label"),
    [
        (_bars(100, 100, (60, 42, 24)), "sort"),  # Material's sort: left ends in line
        ([(100, 100, 160, 106), (109, 116, 151, 122), (121, 132, 139, 138)], "filter"),
        (_bars(100, 100, (24, 42, 60)), "sort"),  # rising
    ],
)
def test_bars_of_falling_lengths_are_the_sort_or_filter_glyph(
    draw: list[tuple[int, int, int, int]], label: str
) -> None:
    from screenpilot.vision.hamburger import sort_in
    from screenpilot.vision.image import glyph_ink

    box = Box(90, 90, 172, 150)
    assert sort_in(glyph_ink(_screen(draw), box), box) == label
    assert not is_menu_glyph(_screen(draw), box)


@pytest.mark.parametrize(
    "draw",
    [
        _bars(100, 100, (60, 60, 60)),  # the menu glyph
        _bars(100, 100, (60, 55, 50)),  # lengths too close
        [(100, 100, 160, 106), (130, 116, 160, 122), (100, 132, 120, 138)],  # ends out of line
        _bars(100, 100, (60, 30)),  # two bars
    ],
)
def test_other_bars_are_not_the_sort_glyph(draw: list[tuple[int, int, int, int]]) -> None:
    from screenpilot.vision.hamburger import sort_in
    from screenpilot.vision.image import glyph_ink

    box = Box(90, 90, 172, 150)
    assert sort_in(glyph_ink(_screen(draw), box), box) == ""


def test_describe_names_the_sort_glyph() -> None:
    px = _screen(_bars(100, 100, (60, 42, 24)))
    e = Element(id=0, kind=ElementKind.BUTTON, box=Box(90, 90, 170, 150))
    assert name_drawn_glyphs(px, [e])[0].icon_label == "sort"
