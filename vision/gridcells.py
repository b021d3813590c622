"""Empty cells of a ruled grid, and blank patches of the page, found as widgets.

A week calendar's hours, a table or a timetable is a grid of thin lines on a plain
page. The detector takes a run of its empty cells for a button or a text field
(EtarCalendar's week view had four: an "edit text" over three empty days, three
unnamed "buttons"). Such a box holds nothing but parts of the grid's lines, and each
of those lines runs on past the box at one end at least: a field's or a button's
outline stops at its corners. A box with nothing drawn in it, on a page of its own colour
(the same calendar's empty hours taken for "spinners"), is no widget either: a filled
shape or a placeholder differs from the page round it. :func:`is_grid_cell` tells
both, and describe leaves the box out.

    >>> widgets = [e for e in widgets if not is_grid_cell(pixels, e.box)]  # doctest: +SKIP
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from screenpilot.model import Box
from screenpilot.vision.blocks import dp_size
from screenpilot.vision.image import RGB, box_pixels, off_median
from screenpilot.vision.shapes import RULE_INK

#: A pixel further than this from the box's median colour (in some channel) is ink: the
#: divider test's (``shapes.is_rule``), so one mask serves both.
INK = RULE_INK
#: A grid line is at most this thick (dp)...
LINE_DP = 1.5
#: ... inked across this share of the box's side it runs along...
ACROSS = 0.9
#: ... and goes on past the box at one end at least, over this many dp...
PAST_DP = 4.0
#: ... from this many dp beyond the box's edge (a detector's box may end short of a
#: line or run past it by a pixel or two).
GAP_DP = 2.0
#: The page round the box (a ring this many dp wide) has the box's own colour on at
#: least ``AROUND`` of it: the box is a part of the page, not a filled shape on it.
RING_DP = 3.0
AROUND = 0.5
#: ... within this many levels in every channel (a light grey placeholder on a white
#: page, 14 levels apart, is a shape, not the page; JPEG's noise is a few levels).
PAGE_NEAR = 8
#: A box within this many dp of the screen's edge has no room for a line to go on
#: past it there.
EDGE_DP = 4.0


def is_grid_cell(pixels: RGB, box: Box, ink: npt.NDArray[np.bool_] | None = None) -> bool:
    """Whether ``box`` of ``pixels`` is a part of the page: the page's colour round it
    (``_on_page``) and in it nothing drawn, or only thin lines across it, each going on
    past the box (``_goes_on``). ``ink`` is the box's ``off_median(pixels, box, INK)``
    where the caller has it already."""
    if ink is None:
        ink = off_median(pixels, box, INK)
    if ink is None or ink.shape[0] < 4 or ink.shape[1] < 4:
        return False
    dp = dp_size(pixels.shape[1], pixels.shape[0])
    rows = np.flatnonzero(ink.mean(axis=1) >= ACROSS)
    cols = np.flatnonzero(ink.mean(axis=0) >= ACROSS)
    if rows.size == 0 and cols.size == 0:  # nothing drawn: a patch of the page or a swatch
        return not ink.any() and _on_page(pixels, box, dp)
    rest = ink.copy()
    rest[rows, :] = False
    rest[:, cols] = False
    if rest.any():  # something besides the lines: a label, a glyph, a corner's curve
        return False
    if not _on_page(pixels, box, dp):
        return False
    thick = max(2.0, LINE_DP * dp)
    lines = [(y1, y2, True) for y1, y2 in _bands(rows, max(0, box.y1))]
    lines += [(x1, x2, False) for x1, x2 in _bands(cols, max(0, box.x1))]
    return all(  # each row (column) of a band on its own: a grid's last line and the
        # navigation bar's first row below it make one band of two colours
        hi - lo <= thick and all(_goes_on(pixels, k, box, dp, across=across) for k in range(lo, hi))
        for lo, hi, across in lines
    )


def _on_page(pixels: RGB, box: Box, dp: float) -> bool:
    """Whether the ring round ``box`` mostly has the box's median colour."""
    h, w = pixels.shape[:2]
    ring = max(2, round(RING_DP * dp))
    x1, y1 = max(0, box.x1 - ring), max(0, box.y1 - ring)
    x2, y2 = min(w, box.x2 + ring), min(h, box.y2 + ring)
    inner = box_pixels(pixels, box)
    colour = np.median(inner.reshape(-1, inner.shape[-1]), axis=0)
    near = (np.abs(pixels[y1:y2, x1:x2].astype(np.int16) - colour) <= PAGE_NEAR).all(axis=-1)
    inside = near[max(0, box.y1) - y1 : box.y2 - y1, max(0, box.x1) - x1 : box.x2 - x1]
    outside = near.size - inside.size
    return bool(outside > 0 and (int(near.sum()) - int(inside.sum())) >= AROUND * outside)


def _bands(index: npt.NDArray[np.intp], offset: int) -> list[tuple[int, int]]:
    """The runs of consecutive ``index`` values, as ``(first, last + 1)`` shifted by
    ``offset`` (from the box's rows or columns to the screen's)."""
    if index.size == 0:
        return []
    runs = np.split(index, np.flatnonzero(np.diff(index) > 1) + 1)
    return [(offset + int(run[0]), offset + int(run[-1]) + 1) for run in runs]


def _goes_on(pixels: RGB, at: int, box: Box, dp: float, *, across: bool) -> bool:
    """Whether the line in row (``across``) or column ``at`` goes on past ``box`` in the
    line's own colour, at one end at least (a grid's last cell, next to the hours'
    column, has its lines go on one way only), or ``box`` spans the screen."""
    h, w = pixels.shape[:2]
    gap, past, edge = round(GAP_DP * dp), max(2, round(PAST_DP * dp)), EDGE_DP * dp
    start, end, limit = (box.x1, box.x2, w) if across else (box.y1, box.y2, h)
    line = pixels[at, max(0, start) : end] if across else pixels[max(0, start) : end, at]
    colour = np.median(line.reshape(-1, line.shape[-1]), axis=0)
    ends = (
        (start - gap - past, start - gap, start <= edge),
        (end + gap, end + gap + past, end >= limit - edge),
    )
    if all(at_edge for _, _, at_edge in ends):
        return True
    for a, b, at_edge in ends:
        a, b = max(0, a), min(limit, b)
        beyond = pixels[at, a:b] if across else pixels[a:b, at]
        if not at_edge and b - a >= 2 and _same(beyond, colour):
            return True
    return False


def _same(part: npt.NDArray[np.uint8], colour: npt.NDArray[np.floating]) -> bool:
    """Whether most of ``part`` has ``colour`` (the line seen on, not the page)."""
    near = (np.abs(part.astype(np.int16) - colour) <= INK).all(axis=-1)
    return bool(near.mean() >= ACROSS)
