"""A popup menu from its raised panel: a light panel narrower than the screen whose
shadow darkens the page below it and beside it.

An overflow menu, a spinner's drop-down or a long-press menu opens over the page without
a scrim. OCR reads the page around it ("Activity", "AndroFi" cut at the menu's edge) and
describe put the menu's items into the page's list. :func:`find_menu` looks for the
panel's edges on the screen narrowed to ``WORK_WIDTH`` px:

- **its bottom**: a row where, across a run of columns ``MIN_WIDE`` to ``MAX_WIDE`` of
  the width (gaps of ``GAP_PX`` bridged), the pixels ``NEAR_PX`` above are at least
  ``STEP`` grey levels lighter than ``NEAR_PX`` below (the panel over its shadow), and
  the row just above is one colour along the run (the panel's bottom padding, within
  ``FILL_LEVELS``); a run the page's own dark line lengthens is also tried from the
  columns where a side's step holds just above it. The region's last row is tried
  first: a menu can run down to the navigation bar, with no bottom edge;
- **its sides**: where the run ends away from the screen's edges (``EDGE``), the column
  just inside is ``SIDE_STEP`` lighter than just outside and keeps the panel's colour
  (its side padding) on the rows up from the bottom; at least one side must be such an
  edge (a panel across the whole width is a bottom sheet's or a card's);
- **its top**: the last row up where the sides still hold (gaps of ``GAP_PX`` bridged,
  ``SIDE_SHARE`` of the rows), at least ``MIN_TALL`` of the screen's width above the
  bottom (two items);
- **its shadow**, what tells it from a card, a framed picture or a button: outside each
  tested side, and below the bottom unless both sides are tested, the median profile
  of ``SHADOW_PX`` px going away from the panel (the lightest so far: a page's divider
  under the shadow is no jump) grows ``SHADOW_RISE`` lighter with no step of
  ``SHADOW_JUMP`` (a frame is a flat band, then the page).

The lowest bottom with such sides wins. Whether the page is dimmed is not asked: a menu
casts a shadow, not a scrim. A dark theme's menu is not found: no shadow shows on a
near-black page.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from screenpilot.model import Box
from screenpilot.vision.dialogs import GAP_PX, NEAR_PX, STEP, narrowed
from screenpilot.vision.image import RGB

#: The panel is this share of the width wide (a menu is 112-280 dp on a 411 dp phone).
MIN_WIDE, MAX_WIDE = 0.25, 0.85
#: Its side's shadow: just inside is this much lighter than just outside.
SIDE_STEP = 10.0
#: A side's step is looked for on this many rows above the bottom's corner...
SIDE_ROWS = 6
#: ... and at most this many spans are tried along one run of the bottom edge.
SPANS = 16
#: The panel's padding keeps its colour within this many grey levels.
FILL_LEVELS = 6.0
#: Rows of the side that must hold (of those from the top to the bottom).
SIDE_SHARE = 0.85
#: At least this share of the screen's width tall (two items of a menu, 82 dp of 411).
MIN_TALL = 0.2
#: A side this close to the screen's edge (share of the width) is not tested.
EDGE = 0.03
#: The shadow outside each edge: this many px, growing at least ``SHADOW_RISE`` lighter
#: away from the panel, without a step of ``SHADOW_JUMP``.
SHADOW_PX = 6
SHADOW_RISE = 4.0
SHADOW_JUMP = 12.0


def find_menu(pixels: RGB, top: int = 0, bottom: int | None = None) -> Box | None:
    """A popup menu's box (screen pixels) between rows ``top`` and ``bottom``, or None
    (module docstring)."""
    seen = narrowed(pixels, top, bottom)
    if seen is None:
        return None
    grey, step, bottom = seen
    w = pixels.shape[1]
    rows, cols = grey.shape
    darker = grey[: -2 * NEAR_PX] - grey[2 * NEAR_PX :] >= STEP  # edge at row y + NEAR_PX
    tall = max(4, int(MIN_TALL * w / step))
    # the bottom row first: a menu can run down to the navigation bar, with no edge
    edges = [(rows, [(0, cols)])] + [
        (y + NEAR_PX, _runs(darker[y], cols)) for y in range(len(darker) - 1, tall, -1)
    ]
    for edge, runs in edges:
        for a, b in runs:
            for x1, x2 in _spans(grey, edge, a, b):
                found = _panel(grey, edge, x1, x2, tall)
                if found is not None:
                    return Box(
                        x1 * step,
                        top + found[0] * step,
                        min(w, x2 * step),
                        min(bottom, top + found[1] * step),
                    )
    return None


def _across(x: npt.NDArray[np.int64], left: bool, cols: int) -> tuple[npt.NDArray[np.int64], ...]:
    """The columns just inside and just outside a panel's left (``left``) or right side at
    columns ``x`` (a right side at ``x`` is the panel's last column ``x - 1``)."""
    if left:
        return x + NEAR_PX, x - NEAR_PX
    return x - 1 - NEAR_PX, np.minimum(cols - 1, x - 1 + NEAR_PX)


def _spans(grey: npt.NDArray[np.float32], edge: int, a: int, b: int) -> list[tuple[int, int]]:
    """The (x1, x2) a panel may span along the bottom edge's run from ``a`` to ``b``:
    the run itself, or from a column where a side's step holds just above the edge
    (the page's own dark line can meet the menu's bottom and lengthen the run), each
    ``MIN_WIDE`` to ``MAX_WIDE`` of the width."""
    cols = grey.shape[1]
    rows = grey[max(0, edge - 2 * NEAR_PX - SIDE_ROWS) : max(0, edge - 2 * NEAR_PX)]
    xs = np.arange(max(a, NEAR_PX), min(b, cols - NEAR_PX))
    ends: list[list[int]] = [[a], [b]]
    if len(rows) and len(xs):
        for left, found in ((True, ends[0]), (False, ends[1])):
            inside, outside = _across(xs, left, cols)
            steps = (rows[:, inside] - rows[:, outside] >= SIDE_STEP).all(axis=0)
            found += [int(x) for x in xs[steps] if x not in (a, b)]
    lo, hi = MIN_WIDE * cols, MAX_WIDE * cols
    return [(x1, x2) for x1 in ends[0] for x2 in ends[1] if lo <= x2 - x1 <= hi][:SPANS]


def _runs(flags: npt.NDArray[np.bool_], cols: int) -> list[tuple[int, int]]:
    """Runs of True (gaps of ``GAP_PX`` bridged) at least ``MIN_WIDE`` of ``cols`` long:
    (start, end) columns."""
    xs = np.nonzero(flags)[0]
    if len(xs) < MIN_WIDE * cols:
        return []
    breaks = np.nonzero(np.diff(xs) > GAP_PX + 1)[0]
    starts = np.concatenate(([xs[0]], xs[breaks + 1]))
    ends = np.concatenate((xs[breaks], [xs[-1]])) + 1
    return [(int(a), int(b)) for a, b in zip(starts, ends, strict=True) if b - a >= MIN_WIDE * cols]


def _panel(
    grey: npt.NDArray[np.float32], edge: int, x1: int, x2: int, tall: int
) -> tuple[int, int] | None:
    """The panel's (top, bottom) rows when a run of the bottom edge from ``x1`` to ``x2``
    at row ``edge`` has the sides of a menu above it (module docstring)."""
    cols = grey.shape[1]
    pad = grey[edge - NEAR_PX, x1 + NEAR_PX : x2 - NEAR_PX]
    fill = float(np.median(pad))
    if np.abs(pad - fill).max() > FILL_LEVELS:
        return None
    tested = [  # sides away from the screen's edges: (column, is the left side)
        (x, left)
        for x, left in ((x1, True), (x2, False))
        if EDGE * cols + NEAR_PX <= x <= (1.0 - EDGE) * cols - NEAR_PX
    ]
    if not tested:
        return None
    held = np.ones(edge, dtype=bool)
    for x, left in tested:
        inside, outside = (int(c[0]) for c in _across(np.array([x]), left, cols))
        held &= grey[:edge, inside] - grey[:edge, outside] >= SIDE_STEP
        held &= np.abs(grey[:edge, inside] - fill) <= FILL_LEVELS
    start = edge - 2 * NEAR_PX  # the rounded corner above the bottom edge
    y1, miss = start, 0
    for y in range(start, -1, -1):
        if held[y]:
            y1, miss = y, 0
        else:
            miss += 1
            if miss > GAP_PX:
                break
    if edge - y1 < tall or held[y1:start].mean() < SIDE_SHARE:
        return None
    # a panel down to the region's bottom has no bottom edge to cast a shadow
    below = edge >= len(grey) or _shadow(
        grey[edge + NEAR_PX : edge + NEAR_PX + SHADOW_PX, x1:x2], axis=1
    )
    shadows = []
    for x, left in tested:
        outside = int(_across(np.array([x]), left, cols)[1][0])
        away = (
            range(outside, outside - SHADOW_PX, -1) if left else range(outside, outside + SHADOW_PX)
        )
        shadows.append(_shadow(grey[y1:edge, [c for c in away if 0 <= c < cols]], axis=0))
    # every side casts a shadow, and the bottom too unless both sides do (the page's
    # own line can run just under a menu)
    return (y1, edge) if all(shadows) and (below or len(shadows) == 2) else None


def _shadow(band: npt.NDArray[np.float32], axis: int) -> bool:
    """Whether ``band`` (outside an edge; along ``axis`` the panel's length, the other
    axis going away from the panel) is a shadow: its median profile (the lightest so
    far, going away) grows lighter away from the panel by at least ``SHADOW_RISE``
    levels, with no jump of ``SHADOW_JUMP`` (a frame round a picture ends in one, then
    the page)."""
    if band.size == 0 or band.shape[1 - axis] < SHADOW_PX:
        return False
    # the lightest so far, going away: a dark line of the page under the shadow is no jump
    profile = np.maximum.accumulate(np.median(band, axis=axis))
    rise = np.diff(profile)
    return bool(profile[-1] - profile[0] >= SHADOW_RISE and rise.max() < SHADOW_JUMP)
