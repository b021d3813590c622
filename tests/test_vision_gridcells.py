"""Empty cells of a ruled grid (a week calendar's hours) are no widgets."""

from __future__ import annotations

import numpy as np

from screenpilot.model import Box
from screenpilot.vision.gridcells import is_grid_cell

#: A 1080 x 2160 screen (2.63 px a dp).
W, H = 1080, 2160


def _calendar() -> np.ndarray:
    """A white page with a week grid of light grey lines from x=250 on: a column every
    139 px, an hour every 68 px, as EtarCalendar's week view."""
    pixels = np.full((H, W, 3), 255, np.uint8)
    pixels[:, :250] = 242  # the hours' column
    for x in range(250, W, 139):
        pixels[300:2000, x : x + 2] = 210
    for y in range(300, 2000, 68):
        pixels[y : y + 2, 250:] = 210
    return pixels


def test_empty_cells_that_the_grid_crosses_are_grid_cells() -> None:
    pixels = _calendar()
    assert is_grid_cell(pixels, Box(392, 440, 800, 505))  # three days of one hour
    assert is_grid_cell(pixels, Box(805, 1100, W, 1166))  # up to the screen's edge
    assert is_grid_cell(pixels, Box(385, 436, 794, 506))  # the hour's lines on its edges
    pixels[2000:2002, 250:] = 210  # the grid's last line ...
    pixels[2002:] = 0  # ... on the navigation bar, whose first row the box takes too
    assert is_grid_cell(pixels, Box(392, 1930, 800, 2003))


def test_a_cell_with_something_in_it_is_no_grid_cell() -> None:
    pixels = _calendar()
    pixels[460:490, 420:520] = (0, 90, 200)  # an event
    assert not is_grid_cell(pixels, Box(392, 440, 800, 505))
    assert not is_grid_cell(pixels, Box(415, 455, 525, 495))  # the event's own box


def test_an_outlined_field_is_no_grid_cell_and_a_blank_patch_of_page_is() -> None:
    pixels = np.full((H, W, 3), 255, np.uint8)
    pixels[600:602, 100:900] = 120  # a field's outline: its lines stop at its corners
    pixels[738:740, 100:900] = 120
    pixels[600:740, 100:102] = 120
    pixels[600:740, 898:900] = 120
    assert not is_grid_cell(pixels, Box(98, 598, 902, 742))
    assert is_grid_cell(pixels, Box(200, 1000, 600, 1100))  # nothing drawn at all
    pixels[1500:1560, 300:400] = 241  # a light grey placeholder, 14 levels off the page
    assert not is_grid_cell(pixels, Box(300, 1500, 400, 1560))
    pixels[1200:1202, :] = 120  # a divider under a box that the divider alone runs across
    assert is_grid_cell(pixels, Box(200, 1140, 600, 1201))


def test_a_filled_square_on_a_plain_page_is_no_grid_cell() -> None:
    pixels = np.full((H, W, 3), 225, np.uint8)
    pixels[1412:1474, 43:103] = (0, 100, 200)  # a colour chip, its box a pixel wider
    assert not is_grid_cell(pixels, Box(41, 1410, 105, 1476))
