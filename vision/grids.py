"""A grid found from its cells: pictures or tiles of one size, side by side in two or
more columns, row under row with their columns aligned (a photo picker, a launcher's
apps, a keypad, a week's days).

Each cell is an element's tap extent (its box where it has none) at most half the
screen wide and ``CELL_DP`` tall. Cells whose centres lie on one line, of similar
sizes (within ``SIZE_RATIO``), evenly spaced (steps within ``STEP_RATIO``) and with
nothing between them make a row; rows whose cells sit in the first row's columns
(within ``ALIGN_DP``), each within ``GAP_DP`` (or half a row) under the last, make a
grid. The last row may hold fewer cells, each in a column. Like a list
(``vision.lists``), the grid reaches the bars above and below it where nothing lies
between.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from screenpilot.model import BlockKind, Box, Element
from screenpilot.vision.blocks import Region, dp_size
from screenpilot.vision.lists import page_elements, reach

#: A cell is at most half the screen's width and this tall (dp), at least ``MIN_DP``.
CELL_DP, MIN_DP = 320.0, 24.0
#: Cells of a row differ in width and height at most by this ratio ...
SIZE_RATIO = 1.5
#: ... and their steps apart by this one.
STEP_RATIO = 1.3
#: A cell sits in a column when its centre is this close to the column's (dp).
ALIGN_DP = 8.0
#: A row starts at most this far under the last (dp), or half a row.
GAP_DP = 24.0
#: A grid has at least this many rows and columns.
MIN_ROWS, MIN_COLUMNS = 2, 2


def with_grids(
    elements: Sequence[Element], regions: Sequence[Region], width: int, height: int
) -> list[Region]:
    """``regions`` with a GRID for every grid of cells (see the module docstring) that
    no list or grid already holds."""
    dp = dp_size(width, height)
    members = page_elements(elements, regions)
    out = list(regions)
    boxes = [e.box for e in elements]
    rows = [r for r in _rows(_cells(members, width, dp)) if _clear(r, boxes)]
    for grid in _grids(rows, dp):
        box = reach(Box.around([c for row in grid for c in row]), members, regions, height, dp)
        held = [r.box for r in out if r.kind in (BlockKind.LIST, BlockKind.GRID)]
        if all(h.intersection(box) < 0.5 * box.area for h in held):
            out.append(Region(box, BlockKind.GRID, "grid"))
    return out


def _cells(elements: Sequence[Element], width: int, dp: float) -> list[Box]:
    """The distinct tap extents that may be a grid's cells."""
    cells: list[Box] = []
    for e in elements:
        box = e.target or e.box
        wide = MIN_DP * dp <= box.width <= 0.5 * width
        if (
            wide
            and MIN_DP * dp <= box.height <= CELL_DP * dp
            and all(box.iou(c) < 0.5 for c in cells)
        ):
            cells.append(box)
    return cells


def _similar(a: float, b: float, ratio: float) -> bool:
    return max(a, b) <= ratio * max(min(a, b), 1.0)


def _rows(cells: Sequence[Box]) -> list[list[Box]]:
    """Cells on one line, of similar sizes, side by side: left to right, top to bottom."""
    rows: list[list[Box]] = []
    for cell in sorted(cells, key=lambda c: (c.center[1], c.x1)):
        for row in rows:
            first = row[0]
            if (
                abs(cell.center[1] - first.center[1]) <= 0.25 * first.height
                and _similar(cell.height, first.height, SIZE_RATIO)
                and _similar(cell.width, first.width, SIZE_RATIO)
                and not any(cell.x1 < o.x2 and o.x1 < cell.x2 for o in row)
            ):
                row.append(cell)
                break
        else:
            rows.append([cell])
    for row in rows:
        row.sort(key=lambda c: c.x1)
    return sorted(rows, key=lambda r: r[0].y1)


def _clear(row: Sequence[Box], boxes: Sequence[Box]) -> bool:
    """Whether nothing lies between two cells of ``row`` (a field between a stepper's
    minus and plus makes them no row of cells)."""
    for a, b in itertools.pairwise(row):
        top, bottom = max(a.y1, b.y1), min(a.y2, b.y2)
        if any(a.x2 <= x.center[0] <= b.x1 and top <= x.center[1] <= bottom for x in boxes):
            return False
    return True


def _even(row: Sequence[Box]) -> bool:
    steps = [b.center[0] - a.center[0] for a, b in itertools.pairwise(row)]
    return len(row) >= MIN_COLUMNS and _similar(max(steps), min(steps), STEP_RATIO)


def _grids(rows: Sequence[list[Box]], dp: float) -> list[list[list[Box]]]:
    """Rows stacked into grids (see the module docstring)."""
    grids: list[list[list[Box]]] = []
    current: list[list[Box]] = []
    for row in rows:
        if current:
            first, last = current[0], current[-1]
            columns = [c.center[0] for c in first]
            aligned = all(any(abs(c.center[0] - x) <= ALIGN_DP * dp for x in columns) for c in row)
            bottom = max(c.y2 for c in last)
            gap = min(c.y1 for c in row) - bottom
            near = -ALIGN_DP * dp <= gap <= max(GAP_DP * dp, 0.5 * last[0].height)
            if aligned and near and _similar(row[0].width, first[0].width, SIZE_RATIO):
                current.append(row)
                if len(row) < len(first):  # a short last row ends the grid
                    grids.append(current)
                    current = []
                continue
        if len(current) >= MIN_ROWS:
            grids.append(current)
        current = [row] if _even(row) else []
    if len(current) >= MIN_ROWS:
        grids.append(current)
    return [g for g in grids if len(g) >= MIN_ROWS]
