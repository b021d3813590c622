"""An open navigation drawer's edge (vision/panels.py) and the row bands it ends."""

from __future__ import annotations

import numpy as np

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.panels import drawer_edge
from screenpilot.vision.targets import with_targets

W, H = 1080, 2400


def _drawer(edge: int = 760) -> np.ndarray:
    """A white drawer with grey rows of text over a grey scrim on darkened content."""
    px = np.full((H, W, 3), 250, np.uint8)
    px[:, edge:] = 96
    px[600:700, edge + 100 : W - 50] = 60  # a card of the page under the scrim
    for y in range(400, 2000, 160):
        px[y : y + 40, 150:500] = 70  # a row's text
    return px


def test_an_open_drawers_edge_is_found() -> None:
    edge = drawer_edge(_drawer(760))
    assert edge is not None and abs(edge - 760) <= 6


def test_no_drawer_on_a_plain_page_a_thin_line_or_a_photos_edge() -> None:
    assert drawer_edge(np.full((H, W, 3), 250, np.uint8)) is None
    line = np.full((H, W, 3), 250, np.uint8)
    line[:, 700:702] = 80  # a full-height divider is no drawer
    assert drawer_edge(line) is None
    photo = np.zeros((H, W, 3), np.uint8)
    rng = np.random.default_rng(0)
    photo[:, 40:900] = rng.integers(60, 255, (H, 860, 3), dtype=np.uint8)  # a photo on black
    assert drawer_edge(photo) is None


def test_a_row_on_an_open_drawer_ends_at_its_edge() -> None:
    px = _drawer(760)
    rows = [
        Element(0, ElementKind.TEXT, Box(150, y, 500, y + 40), text=f"Item {y}") for y in (400, 560)
    ]
    out = with_targets(rows, W, H, pixels=px, drawer=drawer_edge(px))
    band = out[0].target
    assert band is not None and band.x1 == 0 and abs(band.x2 - 760) <= 6
    page = np.full((H, W, 3), 250, np.uint8)
    plain = with_targets(rows, W, H, pixels=page, drawer=drawer_edge(page))
    assert plain[0].target is not None and plain[0].target.x2 == W
