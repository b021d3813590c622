"""Check-box grids completed: a cell of the grid the finder missed is probed in the pixels.

Forms lay out day or option check boxes in a grid ("Mon Tue Wed Thu" over "Fri
Sat Sun"): every box has the same size and sits on one of a few rows and columns.
:mod:`screenpilot.vision.checkboxes` finds most of them; one it misses (a detector's
loose image box over it, a contour broken by anti-aliasing) still lies on the
rows and columns of the others. For each empty cell of that grid (the rows and
columns of the check boxes found, each with at least two boxes on the screen), a
box of the common size is tried at and around the cell's place: when it looks
like a check box (:func:`looks_like_box`: an even outline on a plain surround,
empty inside or filled), it becomes a ``check_box`` with its state, and a
detected image, icon or button that is only that square is dropped.

    >>> widgets = complete_grid(pixels, widgets)   # doctest: +SKIP
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.checkboxes import CONFIDENCE, CONTRAST, _classify, _plain, _ring
from screenpilot.vision.image import grey_u8

#: Check boxes whose sides differ by at most this share are one grid's.
SIZE_TOLERANCE = 0.15
#: A picture widget at most this many times a cell's area is that cell's square.
COVER_FACTOR = 4.0
REPLACEABLE = frozenset({ElementKind.IMAGE, ElementKind.ICON, ElementKind.BUTTON})


def _clusters(values: Sequence[float], tolerance: float) -> list[float]:
    """Means of ``values`` grouped where neighbours (sorted) lie within ``tolerance``."""
    groups: list[list[float]] = []
    for v in sorted(values):
        if groups and v - groups[-1][-1] <= tolerance:
            groups[-1].append(v)
        else:
            groups.append([v])
    return [float(np.mean(g)) for g in groups]


def looks_like_box(grey: np.ndarray, box: tuple[int, int, int, int]) -> bool | None:
    """The state of a check box drawn at ``box`` (None when it is not one): the finder's
    test, else an even outline on a plain surround that is empty or filled inside."""
    state = _classify(grey, box)
    if state is not None:
        return state
    x1, y1, x2, y2 = box
    side = x2 - x1
    pad = max(2, side // 6)
    h, w = grey.shape
    if x1 - pad < 0 or y1 - pad < 0 or x2 + pad > w or y2 + pad > h or side < 6:
        return None
    crop = grey[y1 - pad : y2 + pad, x1 - pad : x2 + pad].astype(np.float32)
    band = max(1, side // 12)
    outside = _ring(crop, 0, 0, crop.shape[1], crop.shape[0], max(1, pad - 1))
    ring = _ring(crop, pad, pad, pad + side, pad + (y2 - y1), band)
    if not _plain(outside):
        return None
    surround, edge = float(np.median(outside)), float(np.median(ring))
    if abs(edge - surround) < CONTRAST or float((np.abs(ring - edge) < CONTRAST).mean()) < 0.7:
        return None
    lo = pad + 2 * band
    inner = crop[lo : pad + (y2 - y1) - 2 * band, lo : pad + side - 2 * band]
    if inner.size == 0:
        return None
    near_edge = float((np.abs(inner - edge) < CONTRAST).mean())
    near_surround = float((np.abs(inner - surround) < CONTRAST / 2).mean())
    if near_surround > 0.9:
        return False
    if near_edge > 0.5:
        return True
    return None


def _probe(grey: np.ndarray, cx: float, cy: float, side: int) -> Element | None:
    """A check box of ``side`` centred at or near (cx, cy)."""
    step = max(1, side // 16)
    reach = max(1, side // 8)
    shifts = sorted(range(-reach, reach + 1, step), key=abs)
    for dy in shifts:
        for dx in shifts:
            x1, y1 = round(cx - side / 2) + dx, round(cy - side / 2) + dy
            state = looks_like_box(grey, (x1, y1, x1 + side, y1 + side))
            if state is not None:
                return Element(
                    0,
                    ElementKind.CHECK_BOX,
                    Box(x1, y1, x1 + side, y1 + side),
                    confidence=CONFIDENCE,
                    checked=state,
                    clickable=True,
                )
    return None


def _fill_steps(centres: list[float], tol: float) -> list[float]:
    """``centres`` with the places of missing ones between them added when they are evenly
    spaced (a gap of two or three steps of the smallest spacing)."""
    if len(centres) < 2:
        return centres
    step = min(b - a for a, b in itertools.pairwise(centres))
    out = [centres[0]]
    for a, b in itertools.pairwise(centres):
        n = round((b - a) / step)
        if 2 <= n <= 3 and abs((b - a) - n * step) <= tol:
            out += [a + i * (b - a) / n for i in range(1, n)]
        out.append(b)
    return out


def grid_cells(boxes: Sequence[Box]) -> tuple[int, list[tuple[float, float]]]:
    """The common side of ``boxes`` and the centres of the empty cells of their grid
    (at least two rows and two columns; none when the boxes differ in size)."""
    if len(boxes) < 3:
        return 0, []
    sides = [max(b.width, b.height) for b in boxes]
    side = float(np.median(sides))
    if any(abs(s - side) > SIZE_TOLERANCE * side for s in sides):
        return 0, []
    tol = side / 2
    rows = _fill_steps(_clusters([b.center[1] for b in boxes], tol), tol)
    cols = _fill_steps(_clusters([b.center[0] for b in boxes], tol), tol)
    if len(rows) < 2 or len(cols) < 2:
        return 0, []
    cells = [
        (c, r)
        for r in rows
        for c in cols
        if not any(abs(b.center[0] - c) <= tol and abs(b.center[1] - r) <= tol for b in boxes)
    ]
    return round(side), cells


def complete_grid(pixels: np.ndarray, widgets: Sequence[Element]) -> list[Element]:
    """``widgets`` with the check boxes missing from their grid (see the module docstring)."""
    boxes = [e.box for e in widgets if e.kind is ElementKind.CHECK_BOX]
    side, cells = grid_cells(boxes)
    if not cells:
        return list(widgets)
    grey = grey_u8(pixels)
    found = [f for c in cells if (f := _probe(grey, c[0], c[1], side)) is not None]
    if not found:
        return list(widgets)
    kept = [
        e
        for e in widgets
        if not (
            e.kind in REPLACEABLE
            and any(
                e.box.intersection(f.box) >= 0.8 * f.box.area
                and e.box.area <= COVER_FACTOR * f.box.area
                for f in found
            )
        )
    ]
    return kept + found
