"""A phone page drawn in numpy for the vision tests of what lies over a page (dialogs,
sheets, drawers, menus, the navigation bar's keys): 1080 x 2400, its bars as blocks."""

from __future__ import annotations

import numpy as np

from screenpilot.model import Block, BlockKind, Box

W, H = 1080, 2400
STATUS = Block(1, Box(0, 0, W, 60), BlockKind.STATUS_BAR)
NAV = Block(2, Box(0, 2270, W, H), BlockKind.NAVIGATION_BAR)


def plain_page() -> np.ndarray:
    """A white page with dark text rows, under a status and a navigation bar."""
    px = np.full((H, W, 3), 250, np.uint8)
    px[:60] = 40
    px[2270:] = 0
    for y in range(300, 2200, 200):
        px[y : y + 40, 80:600] = 60
    return px
