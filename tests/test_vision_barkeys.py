"""The navigation bar's keys (vision/layout.py): a square outline there is the recents
key, not a check box."""

from __future__ import annotations

import dataclasses

from vision_pages import NAV, plain_page

from screenpilot.model import BlockKind, Box, Element, ElementKind
from screenpilot.vision.blocks import Region
from screenpilot.vision.layout import across, build_screen, one_per_kind


def test_a_check_box_in_the_navigation_bar_is_its_recents_key() -> None:
    """The navigation bar's recents key is a square outline: where the detector did not
    find the bar, the check box finder takes it for an unticked box; in the bar's block
    it is an icon."""
    px = plain_page()
    elements = [
        Element(1, ElementKind.CHECK_BOX, Box(780, 2310, 840, 2370), checked=False),
        Element(2, ElementKind.CHECK_BOX, Box(960, 500, 1020, 560), checked=True),
    ]
    regions = [Region(NAV.box, BlockKind.NAVIGATION_BAR, "bar")]
    screen = build_screen(px, elements, regions)
    key, box = screen.elements
    assert key.kind is ElementKind.ICON and key.checked is None
    assert box.kind is ElementKind.CHECK_BOX and box.checked is True


def test_a_guessed_bar_with_a_line_of_text_in_it_is_no_navigation_bar() -> None:
    """A navigation bar guessed from the bottom rows' colours that holds a line of text is
    the page's last row (Seal's format cards, a drawer's last item), not a bar: no block;
    the detector's bar, or a key read as "<", keeps it."""
    px = plain_page()
    y = NAV.box.y1 + 20
    words = Element(1, ElementKind.TEXT, Box(60, y, 420, y + 50), text="1.61 M 68.8 Kbps")
    key = Element(2, ElementKind.TEXT, Box(250, y, 290, y + 50), text="<")
    guessed = Region(NAV.box, BlockKind.NAVIGATION_BAR, "bar")
    kinds = [b.kind for b in build_screen(px, [words], [guessed]).blocks]
    assert BlockKind.NAVIGATION_BAR not in kinds
    kinds = [b.kind for b in build_screen(px, [key], [guessed]).blocks]
    assert BlockKind.NAVIGATION_BAR in kinds
    detected = Region(NAV.box, BlockKind.NAVIGATION_BAR, "detect")
    kinds = [b.kind for b in build_screen(px, [words], [detected]).blocks]
    assert BlockKind.NAVIGATION_BAR in kinds


def test_a_guessed_bar_holding_a_picture_wider_than_a_key_is_no_navigation_bar() -> None:
    """Markor's logo at the foot of its page (0.64 of the width) made the bottom rows'
    colours look like a bar; a key-sized picture there stays a key."""
    px = plain_page()
    y = NAV.box.y1
    logo = Element(1, ElementKind.IMAGE, Box(90, y - 40, 730, y + 130))
    home = Element(2, ElementKind.ICON, Box(510, y + 30, 570, y + 90))
    guessed = Region(NAV.box, BlockKind.NAVIGATION_BAR, "bar")
    kinds = [b.kind for b in build_screen(px, [logo], [guessed]).blocks]
    assert BlockKind.NAVIGATION_BAR not in kinds
    kinds = [b.kind for b in build_screen(px, [home], [guessed]).blocks]
    assert BlockKind.NAVIGATION_BAR in kinds


def test_a_bar_found_in_part_runs_the_screens_width() -> None:
    """NetGuard's navigation bar was found from its home key rightwards (a popup menu
    over its left part), and its back key fell outside it: a bar at the top or bottom
    edge is the screen's width; a bar down the side of a phone in landscape, or a small
    box near the bottom, stays as found."""
    w, h = 1080, 1920
    assert across(Box(424, 1778, 1080, 1920), w, h) == Box(0, 1778, 1080, 1920)
    assert across(Box(0, 0, 700, 73), w, h) == Box(0, 0, 1080, 73)
    side = Box(1900, 0, 2040, 1080)
    assert across(side, 2040, 1080) == side  # taller than wide
    small = Box(900, 1800, 1000, 1920)
    assert across(small, w, h) == small  # under BAR_PART of the width
    middle = Box(424, 900, 1080, 1000)
    assert across(middle, w, h) == middle  # at no edge


def test_a_navigation_bar_of_many_items_and_no_keys_is_a_toolbar() -> None:
    """Markor's formatting bar (bold, italic, code, picture, link, more) on a screenshot
    with no navigation bar was found as one, so no task would tap its buttons: a
    "navigation bar" of four or more elements, none of them a key, is a toolbar; the
    three keys stay a navigation bar."""
    px = plain_page()
    top, bottom = NAV.box.y1 + 10, NAV.box.y2 - 10
    tools = [
        Element(i + 1, ElementKind.ICON, Box(40 + 170 * i, top, 120 + 170 * i, bottom))
        for i in range(6)
    ]
    bar = Region(NAV.box, BlockKind.NAVIGATION_BAR, "detect")
    kinds = [b.kind for b in build_screen(px, tools, [bar]).blocks]
    assert BlockKind.NAVIGATION_BAR not in kinds  # a toolbar (here a tab bar: six alike)
    keys = [
        dataclasses.replace(tools[k], icon_label=name)
        for k, name in ((1, "back"), (3, "home"), (5, "recent apps"))
    ]
    keys.append(tools[0])
    kinds = [b.kind for b in build_screen(px, keys, [bar]).blocks]
    assert BlockKind.NAVIGATION_BAR in kinds


def test_bars_of_one_kind_that_overlap_are_one() -> None:
    """EtarCalendar's month view had two status bars, one over the other: overlapping bars
    of one kind are their union; a navigation bar beside them stays."""
    first = Region(Box(0, 3, 1080, 62), BlockKind.STATUS_BAR, "detect")
    second = Region(Box(0, 33, 1080, 70), BlockKind.STATUS_BAR, "detect")
    nav = Region(Box(0, 2034, 1080, 2160), BlockKind.NAVIGATION_BAR, "detect")
    merged = one_per_kind([first, second, nav])
    assert [r.box for r in merged] == [Box(0, 3, 1080, 70), nav.box]
    assert one_per_kind([nav, nav]) == [nav]
