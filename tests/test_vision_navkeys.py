"""The navigation bar's keys named by their shape (vision/navkeys.py)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from PIL import Image, ImageDraw

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.navkeys import (
    BACK,
    HOME,
    RECENTS,
    drawn_bottom,
    key_shape,
    name_nav_keys,
)

W, H = 1080, 2160
BAR = (20, 20, 20)
KEY = (200, 200, 200)
CY = H - 63  # the middle of a 48 dp bar (2.63 px a dp)
S = 20  # half a key's size


def _keys(
    *, outline: bool = False, xs: tuple[int, int, int] = (328, 540, 750), home_r: int = S
) -> np.ndarray:
    """A dark navigation bar with back, home and recents keys at ``xs``."""
    img = Image.new("RGB", (W, H), (250, 250, 250))
    d = ImageDraw.Draw(img)
    d.rectangle((0, H - 126, W, H), fill=BAR)
    width = 4 if outline else 0
    back, home, recents = xs
    tri = [(back - S, CY), (back + 0.8 * S, CY - S), (back + 0.8 * S, CY + S)]
    if outline:
        d.polygon(tri, outline=KEY, width=width)
        d.ellipse(
            (home - home_r, CY - home_r, home + home_r, CY + home_r), outline=KEY, width=width
        )
        d.rectangle((recents - S, CY - S, recents + S, CY + S), outline=KEY, width=width)
    else:
        d.polygon(tri, fill=KEY)
        d.ellipse((home - home_r, CY - home_r, home + home_r, CY + home_r), fill=KEY)
        d.rounded_rectangle((recents - S, CY - S, recents + S, CY + S), radius=4, fill=KEY)
    return np.asarray(img)


def _icons(xs: tuple[int, int, int], home_r: int = S) -> list[Element]:
    sizes = (S + 2, home_r + 2, S + 2)
    return [
        Element(id=i, kind=ElementKind.ICON, box=Box(x - s, CY - s, x + s, CY + s))
        for i, (x, s) in enumerate(zip(xs, sizes, strict=True))
    ]


@pytest.mark.parametrize("outline", [False, True])
def test_the_three_keys_are_named_by_their_shape(outline: bool) -> None:
    xs = (328, 540, 750)
    px = _keys(outline=outline, xs=xs)
    named = name_nav_keys(px, _icons(xs))
    assert [e.icon_label for e in named] == [BACK, HOME, RECENTS]
    assert all(e.clickable for e in named)


def test_a_recents_key_found_as_a_check_box_becomes_an_icon() -> None:
    xs = (328, 540, 750)
    elements = _icons(xs)
    elements[2] = Element(id=2, kind=ElementKind.CHECK_BOX, box=elements[2].box, checked=False)
    named = name_nav_keys(_keys(xs=xs), elements)
    assert named[2].kind is ElementKind.ICON and named[2].checked is None
    assert named[2].icon_label == RECENTS


def test_shapes_off_the_middle_or_large_are_not_keys() -> None:
    # the same shapes with no circle at the screen's middle: a toolbar's glyphs
    xs = (200, 400, 600)
    assert [e.icon_label for e in name_nav_keys(_keys(xs=xs), _icons(xs))] == ["", "", ""]
    # a large disc at the middle (a camera's shutter, a floating button) is no home key
    xs = (328, 540, 750)
    big = name_nav_keys(_keys(xs=xs, home_r=60), _icons(xs, home_r=60))
    assert [e.icon_label for e in big] == ["", "", ""]


def test_a_key_with_text_or_higher_up_is_left_alone() -> None:
    xs = (328, 540, 750)
    px = _keys(xs=xs)
    elements = _icons(xs)
    elements[0] = Element(id=0, kind=ElementKind.ICON, box=elements[0].box, text="<")
    assert [e.icon_label for e in name_nav_keys(px, elements)] == ["", HOME, RECENTS]
    up = [Element(id=e.id, kind=e.kind, box=Box(e.box.x1, 1000, e.box.x2, 1044)) for e in elements]
    assert key_shape(px, up[1].box) == ""  # no ink there


def test_keys_above_black_rows_at_the_bottom_are_named() -> None:
    """DroidBot's captures of F-Droid apps: the keyboard's window left black under the
    navigation bar, whose black bar and keys end ~570 px above the bottom."""
    xs = (328, 540, 750)
    bar = _keys(xs=xs).copy()
    bar[H - 126 :][bar[H - 126 :].max(axis=2) < 100] = 0  # the bar as black as under it
    px = np.concatenate([bar, np.zeros((570, W, 3), np.uint8)])
    assert drawn_bottom(px) == CY + S + 1
    assert drawn_bottom(np.zeros((200, 40, 3), np.uint8)) == 200  # nothing drawn at all
    named = name_nav_keys(px, _icons(xs))
    assert [e.icon_label for e in named] == [BACK, HOME, RECENTS]
    grey = px.copy()
    grey[H:] = 40  # not black: a page of its own under the keys, whose bottom band is empty
    assert drawn_bottom(grey) == H + 570
    assert [e.icon_label for e in name_nav_keys(grey, _icons(xs))] == ["", "", ""]


def test_one_key_alone_is_not_named() -> None:
    xs = (328, 540, 750)
    named = name_nav_keys(_keys(xs=xs), _icons(xs)[1:2])
    assert named[0].icon_label == ""


def test_while_the_keyboard_is_up_back_points_down_and_the_switcher_is_no_key() -> None:
    xs = (328, 540, 750)
    img = Image.fromarray(_keys(outline=True, xs=xs))
    d = ImageDraw.Draw(img)
    d.rectangle((300, CY - S - 2, 356, CY + S + 2), fill=BAR)  # the back key's place
    d.polygon([(308, CY - 16), (348, CY - 16), (328, CY + 18)], outline=KEY, width=4)
    d.rounded_rectangle((985, CY - 14, 1025, CY + 14), radius=3, fill=KEY)  # the switcher
    elements = [
        *_icons(xs),
        Element(id=3, kind=ElementKind.ICON, box=Box(983, CY - 16, 1027, CY + 16)),
    ]
    named = name_nav_keys(np.asarray(img), elements)
    assert [e.icon_label for e in named] == [BACK, HOME, RECENTS, ""]


def test_a_row_of_the_keys_is_the_navigation_bar_not_a_tab_bar() -> None:
    from screenpilot.model import BlockKind
    from screenpilot.vision.layout import build_screen

    xs = (240, 540, 840)  # spread as NetGuard's keys are: a row that reads as tabs
    px = _keys(xs=xs)
    keys = name_nav_keys(px, _icons(xs))
    screen = build_screen(px, keys, [])
    kinds = {b.kind for b in screen.blocks}
    assert BlockKind.TAB_BAR not in kinds
    (bar,) = [b for b in screen.blocks if b.kind is BlockKind.NAVIGATION_BAR]
    assert all(e.block_id == bar.id for e in screen.elements)
    # the same row unnamed (no home key found) stays what it was
    plain = build_screen(px, _icons(xs), [])
    assert BlockKind.NAVIGATION_BAR not in {b.kind for b in plain.blocks}


def test_keys_under_a_larger_block_get_their_own_bar() -> None:
    from screenpilot.model import BlockKind
    from screenpilot.vision import blocks as blocks_mod
    from screenpilot.vision.layout import build_screen

    xs = (328, 540, 750)
    px = _keys(xs=xs)
    keys = name_nav_keys(px, _icons(xs))
    sheet = blocks_mod.Region(Box(0, 1700, W, H), BlockKind.TAB_BAR, "tabs")
    screen = build_screen(px, keys, [sheet])
    bars = {b.id: b.kind for b in screen.blocks}
    assert all(
        e.block_id is not None and bars[e.block_id] is BlockKind.NAVIGATION_BAR
        for e in screen.elements
    )


@pytest.mark.parametrize("outline", [False, True])
def test_keys_inside_the_detected_bar_are_found_from_its_pixels(outline: bool) -> None:
    """The detector's navigation bar hides its keys from the icon finder: they are found
    in it as ink off the bar's colour, and named."""
    from screenpilot.vision.navkeys import keys_of_bar

    xs = (328, 540, 750)
    px = _keys(outline=outline, xs=xs)
    bar = Box(0, H - 126, W, H)
    found = keys_of_bar(px, bar, [])
    assert sorted((e.icon_label, e.box.center[0] // 10) for e in found) == [
        (BACK, 32),
        (HOME, 54),
        (RECENTS, 75),
    ]
    assert all(e.kind is ElementKind.ICON and e.clickable for e in found)
    on_a_key = Element(id=1, kind=ElementKind.TEXT, box=Box(520, CY - 15, 560, CY + 15), text="o")
    assert keys_of_bar(px, bar, [on_a_key]) == []  # something read there already
    named = [dataclasses.replace(found[0], id=1)]
    assert keys_of_bar(px, bar, named) == []  # the keys are elements already


def test_a_picture_found_on_one_key_stands_for_it_and_the_others_are_found() -> None:
    """The simulator's shop results: the detector's bar missed the back key, which the
    detector found as a weak picture; with the bar run across the screen the home and
    recents keys are still found (named with the back key), and the picture stays the
    back key's element; a larger box over a key still stops the search."""
    from screenpilot.vision.navkeys import keys_of_bar

    xs = (328, 540, 750)
    px = _keys(xs=xs)
    bar = Box(0, H - 126, W, H)
    back = Element(1, ElementKind.IMAGE, Box(328 - S - 8, CY - S - 8, 328 + S + 8, CY + S + 8))
    found = keys_of_bar(px, bar, [back])
    assert sorted(e.icon_label for e in found) == [HOME, RECENTS]
    card = Element(1, ElementKind.IMAGE, Box(200, CY - 3 * S, 460, CY + 3 * S))
    assert keys_of_bar(px, bar, [card]) == []


def test_no_keys_in_a_bar_without_the_home_circle() -> None:
    from screenpilot.vision.navkeys import keys_of_bar

    px = _keys(xs=(328, 540, 750)).copy()
    px[CY - S - 2 : CY + S + 3, 540 - S - 2 : 540 + S + 3] = BAR  # the home key wiped out
    assert keys_of_bar(px, Box(0, H - 126, W, H), []) == []
