"""A dialog from its surface's edges: a panel centred across the screen, lighter than the
dimmed page on both sides along its height.

The divider (``blocks.layout_regions``) finds a dialog only where lines close a
rectangle round it; a Material dialog has rounded corners and no outline, so most real
dialogs were not found (13 of 36 AlertDialogs of the harvest's train screens).
:func:`find_dialog` looks at the edges instead: on the screen narrowed to
``WORK_WIDTH`` px, a column pair ``x1`` / ``x2``, as far from the left edge as from the
right (``MIRROR_PX``), between ``MIN_MARGIN`` and ``MAX_MARGIN`` of the width from
them, where on each row the pixels just inside are at least ``STEP`` grey levels
lighter than just outside, on both sides. The longest run of such rows (gaps of
``GAP_PX`` rows allowed: a row of text meeting the edge) of at least ``MIN_HEIGHT`` of
the screen's height is the dialog's straight side; its top and bottom are where the
middle of the panel meets the page (within ``CORNER_PX`` rows beyond the run: the
rounded corners). Both themes: a scrim darkens the page, a light dialog is lighter, and
a dark theme's dialog is a lighter grey (its elevation) than its dimmed page; the same
columns with the step the other way (darker just inside on both sides) are tried too:
an old dark (Holo) dialog over a light page.

:func:`sheet_edges` finds where a modal bottom sheet may begin, the same way: rows
where across ``SHEET_ACROSS`` of the middle 80 % of the width the pixels ``NEAR_PX``
rows below (and ``SHEET_BODY`` rows further: a divider line is no panel) are ``STEP``
lighter than above, at least ``SHEET_MIN`` of the content's height above its bottom
and ``SHEET_ABOVE`` below its top (a modal sheet leaves a good part of the page above
it; a dark app bar over a white page is no sheet's scrim).

Whether the page around either is dimmed is :func:`screenpilot.vision.behind.is_scrimmed`'s
question; a centred card on a darker page is not a dialog unless the page is.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from screenpilot.model import Box
from screenpilot.vision.blocks import WORK_WIDTH
from screenpilot.vision.image import RGB, channel_mean

#: The dialog's sides lie this share of the width in from the screen's edges.
MIN_MARGIN, MAX_MARGIN = 0.025, 0.25
#: Just inside is this much lighter than just outside, ``NEAR_PX`` px either way.
STEP = 16.0
NEAR_PX = 2
#: The right side mirrors the left within this many px.
MIRROR_PX = 3
#: Rows without the step that a run bridges.
GAP_PX = 3
#: The straight side is at least this share of the screen's height.
MIN_HEIGHT = 0.08
#: The top and bottom are looked for this many px beyond the straight side.
CORNER_PX = 16
#: A bottom sheet's top edge holds across this share of the middle 80 % of the width...
SHEET_ACROSS = 0.9
#: ... it is at least this share of the content's height tall...
SHEET_MIN = 0.15
#: ... and leaves at least this share of it above (the dimmed page).
SHEET_ABOVE = 0.2
#: Its sides: this share of the width at each edge of the screen.
SIDE = 0.04
#: The panel is still ``STEP`` lighter this many px further below its edge (a lighter
#: divider line across a dark page is not).
SHEET_BODY = 4


def narrowed(
    pixels: RGB, top: int = 0, bottom: int | None = None
) -> tuple[npt.NDArray[np.float32], int, int] | None:
    """(grey, step, bottom): rows ``top`` to ``bottom`` (the screen's, when None) in
    grey, every ``step``-th pixel so that the screen is about ``WORK_WIDTH`` px wide;
    None when the screen or the rows are too small to look at."""
    h, w = pixels.shape[:2]
    bottom = h if bottom is None else bottom
    if w < 64 or bottom - top < 64:
        return None
    step = max(1, w // WORK_WIDTH)
    return channel_mean(pixels[top:bottom:step, ::step]), step, bottom


def find_dialog(pixels: RGB, top: int = 0, bottom: int | None = None) -> Box | None:
    """A dialog's box (screen pixels) between rows ``top`` and ``bottom``, or None
    (module docstring)."""
    seen = narrowed(pixels, top, bottom)
    if seen is None:
        return None
    grey, step, bottom = seen
    h, w = pixels.shape[:2]
    cols = grey.shape[1]
    lo, hi = max(NEAR_PX, int(MIN_MARGIN * cols)), int(MAX_MARGIN * cols)
    if hi <= lo:
        return None
    xs = np.arange(lo, hi)
    mirror = cols - 1 - xs
    left = grey[:, xs + NEAR_PX] - grey[:, xs - NEAR_PX]  # inside - outside: rows x columns
    right = grey[:, mirror - NEAR_PX] - grey[:, np.minimum(cols - 1, mirror + NEAR_PX)]
    best: tuple[int, int, int, int, int] | None = None  # (length, x index, shift, start, end)
    for sign in (1.0, -1.0):  # lighter inside, or darker (a dark dialog over a light page)
        steps, mirrored = sign * left >= STEP, sign * right >= STEP
        for shift in range(-MIRROR_PX, MIRROR_PX + 1):
            shifted = np.roll(mirrored, shift, axis=1)
            if shift > 0:
                shifted[:, :shift] = False
            elif shift < 0:
                shifted[:, shift:] = False
            both = steps & shifted
            for col in np.nonzero(both.sum(axis=0) >= MIN_HEIGHT * h / step)[0].tolist():
                run = _longest_run(both[:, col])
                if best is None or run[1] - run[0] > best[0]:
                    best = (run[1] - run[0], col, shift, run[0], run[1])
    if best is None or best[0] < MIN_HEIGHT * h / step:
        return None
    _, i, shift, start, end = best
    x1 = int(xs[i])
    x2 = int(mirror[i - shift])  # the column whose step was rolled onto x1's
    y1, y2 = _ends(grey, x1, x2, start, end)
    return Box(x1 * step, top + y1 * step, min(w, x2 * step), min(bottom, top + y2 * step))


def _longest_run(flags: npt.NDArray[np.bool_]) -> tuple[int, int]:
    """The longest run of True (gaps of ``GAP_PX`` bridged): (start, end) rows."""
    best, start, last = (0, 0), -1, -1
    for y in np.nonzero(flags)[0].tolist():
        if start < 0 or y - last > GAP_PX + 1:
            start = y
        last = y
        if last + 1 - start > best[1] - best[0]:
            best = (start, last + 1)
    return best


def _ends(grey: npt.NDArray[np.float32], x1: int, x2: int, start: int, end: int) -> tuple[int, int]:
    """The dialog's top and bottom rows: where the middle of the panel (its middle half)
    steps lighter than the page, within ``CORNER_PX`` rows beyond the straight side."""
    quarter = max(1, (x2 - x1) // 4)
    middle = grey[:, x1 + quarter : x2 - quarter].mean(axis=1)
    panel = float(np.median(middle[start:end])) if end > start else 0.0
    rows = len(middle)
    y1 = start
    for y in range(start - 1, max(-1, start - CORNER_PX - 1), -1):
        if abs(float(middle[y]) - panel) > STEP:
            break
        y1 = y
    y2 = end
    for y in range(end, min(rows, end + CORNER_PX)):
        if abs(float(middle[y]) - panel) > STEP:
            break
        y2 = y + 1
    return y1, y2


def sheet_edges(pixels: RGB, top: int = 0, bottom: int | None = None) -> list[int]:
    """The rows (screen pixels, top to bottom) where a modal bottom sheet may begin: the
    whole width is lighter below them than above, with room for the sheet and for the
    page above (module docstring). The caller tries them from the bottom up: the lowest
    one over a dimmed page is the sheet's top (one higher up is an edge of the dimmed
    page, one lower an edge inside the sheet)."""
    seen = narrowed(pixels, top, bottom)
    if seen is None:
        return []
    grey, step, bottom = seen
    rows, cols = grey.shape
    middle = grey[:, cols // 10 : cols - cols // 10]
    near, body = 2 * NEAR_PX, 2 * NEAR_PX + SHEET_BODY
    lighter = middle[near:] - middle[:-near] >= STEP  # row y + NEAR_PX
    # the panel stays lighter below its edge: a divider line is light for a row or two
    deeper = np.zeros_like(lighter)
    deeper[: len(middle) - body] = middle[body:] - middle[:-body] >= STEP
    share = (lighter & deeper).mean(axis=1)
    lo, hi = int(SHEET_ABOVE * rows), int((1.0 - SHEET_MIN) * rows)
    edges: list[int] = []
    last = -2
    for y in range(max(0, lo - NEAR_PX), min(len(share), hi - NEAR_PX)):
        if share[y] >= SHEET_ACROSS:
            if y > last + 1:  # the first row of each run
                edges.append(top + (y + NEAR_PX) * step)
            last = y
    return edges


def spans_width(pixels: RGB, sheet: Box) -> bool:
    """Whether the panel below ``sheet``'s top edge reaches both sides of the screen: just
    under its rounded corners, the outer ``SIDE`` of the width on each side is as light
    as its middle (within ``STEP``) on most rows. A dialog's top edge fails: the page
    beside it is dimmed."""
    w = pixels.shape[1]
    step = max(1, w // WORK_WIDTH)
    y1 = sheet.y1 + CORNER_PX * step
    y2 = min(sheet.y2, y1 + max(8, sheet.height // 8))
    if y2 <= y1:
        return False
    grey = channel_mean(pixels[y1:y2:step, ::step])
    cols = grey.shape[1]
    side = max(1, int(SIDE * cols))
    middle = np.median(grey[:, cols // 4 : cols - cols // 4], axis=1)
    left = np.abs(grey[:, :side].mean(axis=1) - middle) <= STEP
    right = np.abs(grey[:, cols - side :].mean(axis=1) - middle) <= STEP
    return bool((left & right).mean() >= 0.8)
