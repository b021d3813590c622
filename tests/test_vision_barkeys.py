"""The navigation bar's keys (vision/layout.py): a square outline there is the recents
key, not a check box."""

from __future__ import annotations

from vision_pages import NAV, plain_page

from screenpilot.model import BlockKind, Box, Element, ElementKind
from screenpilot.vision.blocks import Region
from screenpilot.vision.layout import build_screen


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
