"""A list found from its rows: three or more full-width tap extents stacked one under the
other, whatever draws them apart.

``vision.blocks`` finds a list where lines bound its rows (dividers round every row).
Most lists have none: a settings page, a contact list, a chat list are rows of text and
icons on the page's colour. Their rows are still there after ``targets.with_targets``:
each row's elements have tap extents across the list's width. The tap extents that
share most of their height make one band; a band at least ``ROW_WIDTH`` of the screen
wide, ``ROW_DP`` tall and mostly one extent (not keys or tiles side by side) is a row.
Three or more rows of the same left and right edges, each within ``GAP_DP`` of the one
above, are a list; a narrower band right under the last row (a row whose parts took
short extents) closes it. Fields (a form stacks them as rows) and what lies in a bar
or a dialog make no row.

The list is the region its rows scroll in: from its first row's top to its last row's
bottom, and on to the bar under it (a navigation, tab or bottom bar, the keyboard) where
nothing lies between but a floating button (a page of rows that ends before the screen
does still scrolls in the whole of it), and likewise up to the bar above it. A list
that overlaps one found by its lines, or by another run of rows, joins it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from screenpilot.model import BlockKind, Box, Element, ElementKind
from screenpilot.vision.blocks import Region, dp_size

#: A row's tap extent spans at least this share of the screen's width ...
ROW_WIDTH = 0.6
#: ... and is this tall (dp): one line of 32 dp to a three-line row with a picture.
ROW_DP = (32.0, 200.0)
#: A row's widest tap extent spans at least this share of it.
ROW_PART = 0.5
#: Rows of one list start and end within this of each other, across (dp).
EDGE_DP = 8.0
#: A row starts at most this far under the one above it (dp); it may overlap it by
#: as much.
GAP_DP = 24.0
#: A list has at least this many rows.
MIN_ROWS = 3
#: A floating action button sits within this of a list's right and bottom (dp) ...
FLOAT_DP = 40.0
#: ... and is at most this share of its width.
FLOAT_WIDTH = 0.5
#: An element's tap extent reaches this share of it into a bar: the bar's, not a row.
BAR_SHARE = 0.3
#: Blocks a list stops at, above and below it.
BARS = (
    BlockKind.STATUS_BAR,
    BlockKind.TOOLBAR,
    BlockKind.TAB_BAR,
    BlockKind.NAVIGATION_BAR,
    BlockKind.KEYBOARD,
)
#: Elements that make no row of a list: a form's fields stack as rows do.
NOT_ROW_KINDS = (ElementKind.EDIT_TEXT,)
#: Blocks whose rows make no list of the page (a dialog's choices are the dialog).
NOT_ROWS = (*BARS, BlockKind.DIALOG)


def with_row_lists(
    elements: Sequence[Element], regions: Sequence[Region], width: int, height: int
) -> list[Region]:
    """``regions`` with a LIST for every run of rows (see the module docstring); a list
    that overlaps one already there joins it."""
    dp = dp_size(width, height)
    members = page_elements(elements, regions)
    out = list(regions)
    for run in _runs(_bands(members), width, dp):
        found = Region(reach(Box.around(run), members, regions, height, dp), BlockKind.LIST, "rows")
        joined = [r for r in out if r.kind is BlockKind.LIST and r.box.intersection(found.box) > 0]
        if joined:  # one list, found twice (by its lines, or by two runs of rows)
            first = joined[0]
            box = Box.around([found.box, *(r.box for r in joined)])
            out = [r for r in out if all(r is not j for j in joined)]
            found = Region(box, BlockKind.LIST, first.source)
        out.append(found)
    return out


def page_elements(elements: Sequence[Element], regions: Sequence[Region]) -> list[Element]:
    """The elements of the page itself: not fields, not in a bar or a dialog, their tap
    extents not reaching into one."""
    covered = [r.box for r in regions if r.kind in NOT_ROWS]
    return [
        e
        for e in elements
        if e.kind not in NOT_ROW_KINDS
        and all(c.intersection(e.box) < 0.5 * e.box.area for c in covered)
        and all(
            c.intersection(e.target or e.box) < BAR_SHARE * (e.target or e.box).area
            for c in covered
        )
    ]


class Band(NamedTuple):
    """A row of the screen: the span of its parts' tap extents, and the widest of them."""

    box: Box
    widest: int


def _bands(elements: Sequence[Element]) -> list[Band]:
    """The screen's rows: the elements' tap extents (their boxes where they have none)
    joined where they share most of their height, top to bottom."""
    groups: list[tuple[Box, list[Element]]] = []
    for e in sorted(elements, key=lambda e: ((e.target or e.box).y1, (e.target or e.box).x1)):
        box = e.target or e.box
        for k, (band, parts) in enumerate(groups):
            shared = min(band.y2, box.y2) - max(band.y1, box.y1)
            if shared >= 0.5 * min(band.height, box.height):
                groups[k] = (Box.around([band, box]), [*parts, e])
                break
        else:
            groups.append((box, [e]))
    bands = [Band(box, max((e.target or e.box).width for e in parts)) for box, parts in groups]
    return sorted(bands, key=lambda b: (b.box.y1, b.box.x1))


def _is_row(band: Band, width: int, dp: float) -> bool:
    """Whether a band is a list's row: wide, of a row's height, mostly one tap extent
    (not a row of keys or tiles side by side)."""
    return (
        band.box.width >= ROW_WIDTH * width
        and ROW_DP[0] * dp <= band.box.height <= ROW_DP[1] * dp
        and band.widest >= ROW_PART * band.box.width
    )


def _runs(bands: Sequence[Band], width: int, dp: float) -> list[list[Box]]:
    """Rows that follow one another with the same edges, each close under the last and
    nothing else between; runs of ``MIN_ROWS`` or more, each with the narrower bands
    right under its last row (a row whose parts took short tap extents)."""
    runs: list[list[Box]] = []
    current: list[Box] = []
    for band in bands:
        box = band.box
        if current and -GAP_DP * dp <= box.y1 - current[-1].y2 <= GAP_DP * dp:
            last = current[-1]
            same = abs(box.x1 - last.x1) <= EDGE_DP * dp and abs(box.x2 - last.x2) <= EDGE_DP * dp
            if _is_row(band, width, dp) and same:
                current.append(box)
                continue
            if len(current) >= MIN_ROWS and last.x1 - 1 <= box.x1 and box.x2 <= last.x2 + 1:
                current.append(box)  # a short row closes the list
        if len(current) >= MIN_ROWS:
            runs.append(current)
        current = [box] if _is_row(band, width, dp) else []
    if len(current) >= MIN_ROWS:
        runs.append(current)
    return runs


def reach(
    box: Box, elements: Sequence[Element], regions: Sequence[Region], height: int, dp: float
) -> Box:
    """``box`` stretched up to the bar above it and down to the bar below it, where no
    element lies in between (a floating button over the list's foot aside)."""
    middle = box.center[1]
    tops = [r.box.y2 for r in regions if r.kind in BARS and r.box.center[1] < middle]
    bottoms = [r.box.y1 for r in regions if r.kind in BARS and r.box.center[1] > middle]
    y1, y2 = box.y1, box.y2
    if tops:
        top = max(tops)
        if top > y1 or not any(top < e.box.center[1] < y1 for e in elements if _across(e.box, box)):
            y1 = top
    bottom = min(bottoms) if bottoms else height
    if bottom < y2 or not any(
        y2 < e.box.center[1] < bottom
        for e in elements
        if _across(e.box, box) and not _floating(e.box, box, bottom, dp)
    ):
        y2 = bottom
    return Box(box.x1, y1, box.x2, y2)


def _floating(button: Box, rows: Box, bottom: int, dp: float) -> bool:
    """Whether ``button`` floats over a list's foot: at its right, within ``FLOAT_DP`` of
    the bar under it, at most ``FLOAT_WIDTH`` of its width across."""
    return (
        button.width <= FLOAT_WIDTH * rows.width
        and button.x2 >= rows.x2 - FLOAT_DP * dp
        and button.y2 >= bottom - FLOAT_DP * dp
    )


def _across(a: Box, b: Box) -> bool:
    """Whether ``a`` overlaps ``b``'s columns."""
    return a.x1 < b.x2 and b.x1 < a.x2
