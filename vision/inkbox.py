"""Text line boxes set by their ink, not by the text detector's margin.

A DB text detector finds a shrunk text region and grows it back by a margin that
depends on its probability map, so two detectors that read the same words (rapidocr's
float detector and its int8 copy) give boxes a few pixels apart, and every rule that
compares a line's box with a row, a field or a check box then decides a borderline
case differently. :func:`settle_boxes` gives each line the box of its ink (pixels whose
grey level differs from the box's median by more than ``INK``) grown by ``PAD`` ink
heights on each side (left, top, right, bottom: the float detector's median margins on
the simulator's screens, 0.28 / 0.28 / 0.23 / 0.20), so the same ink gives the same box
whichever detector found it. A side whose ink touches the box's edge (a border or a
picture under the line) keeps the detector's edge; at the top or bottom only where the
ink runs on past it (ink that ends on the edge's row, as a descender under a tight
box does, is padded as if the box were looser). A line with too little ink to
measure (``MIN_INK`` px high) keeps its box; a column inked over ``BORDER`` of the box's
height (a field's border, a divider) is not ink, nor is a sliver at the box's edge
apart from the rest (``EDGE_SHARE`` of the ink at most, ``EDGE_GAP`` ink heights
away: the corner of a button's outline that a loose box took in).

A detector may also take an icon beside the words into the line and read it as one
character ("X Airplane mode", "Q Use my location", "New York □"): a first or last
one-character word whose ink is icon-sized (``GLYPH_WIDE`` ink heights at most) and
stands ``GLYPH_GAP`` ink heights or more from the rest (a word space is under half an
ink height) is the icon, and :func:`settle_boxes` leaves it out of the line's text and
box, as a detector that found the words alone would.

    >>> lines = settle_boxes(pixels, lines)   # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from screenpilot.model import Box
from screenpilot.vision.image import RGB, channel_mean, mask_bounds
from screenpilot.vision.ocr import TextLine
from screenpilot.vision.sliders import true_runs

#: Grey-level difference from the box's median that counts as ink.
INK = 48.0
#: Margins around the ink, in ink heights: left, top, right, bottom.
PAD = (0.28, 0.28, 0.23, 0.20)
#: A column inked over this share of the box's height is a border or a rule, not text.
BORDER = 0.9
#: Ink lower than this many pixels is not measured.
MIN_INK = 6
#: A run of ink at the box's edge holding at most this share of the ink ...
EDGE_SHARE = 0.05
#: ... and this many ink heights from the rest is not the line's (an outline's corner).
EDGE_GAP = 0.5
#: An icon read as a one-character word stands this many ink heights from the words ...
GLYPH_GAP = 0.85
#: ... and is at most this many ink heights wide.
GLYPH_WIDE = 1.6

Mask = npt.NDArray[np.bool_]


class Ink(NamedTuple):
    """The ink inside a box: its mask, the crop's origin and the crop's median grey."""

    mask: Mask
    x0: int
    y0: int
    median: float


def _drop_edge_slivers(ink: Mask, axis: int, ref: int) -> None:
    """Clear a first or last run (of rows: ``axis`` 1, of columns: 0) that touches the
    mask's edge, holds at most ``EDGE_SHARE`` of the ink and lies ``EDGE_GAP`` * ``ref``
    (the letters' height) or more from the next run."""
    mass = ink.sum(axis=axis)
    runs = true_runs(mass > 0)
    if len(runs) < 2:
        return
    total = float(mass.sum())
    n = mass.size
    (a0, b0), (a1, _) = runs[0], runs[1]
    if a0 == 0 and mass[a0:b0].sum() <= EDGE_SHARE * total and a1 - b0 >= EDGE_GAP * ref:
        _clear(ink, axis, a0, b0)
    (_, bl), (al, bz) = runs[-2], runs[-1]
    if bz == n and mass[al:bz].sum() <= EDGE_SHARE * total and al - bl >= EDGE_GAP * ref:
        _clear(ink, axis, al, bz)


def _clear(ink: Mask, axis: int, a: int, b: int) -> None:
    if axis == 1:
        ink[a:b] = False
    else:
        ink[:, a:b] = False


def _ink_mask(pixels: RGB, box: Box) -> Ink | None:
    """The ink inside ``box`` (borders and edge slivers cleared); None when the box is
    too small to hold a line."""
    h, w = pixels.shape[:2]
    x1, y1, x2, y2 = max(0, box.x1), max(0, box.y1), min(w, box.x2), min(h, box.y2)
    if x2 - x1 < 2 or y2 - y1 < MIN_INK:
        return None
    grey = channel_mean(pixels[y1:y2, x1:x2])
    median = float(np.median(grey))
    ink = np.abs(grey - median) > INK
    ink[:, ink.sum(axis=0) >= BORDER * ink.shape[0]] = False  # a border across the line
    runs = true_runs(ink.any(axis=1))
    if runs:  # the rows' longest run: the letters' height, a sliver's apart
        _drop_edge_slivers(ink, 1, max(b - a for a, b in runs))
    rows = np.flatnonzero(ink.any(axis=1))
    if rows.size:
        _drop_edge_slivers(ink, 0, int(rows[-1]) + 1 - int(rows[0]))
    return Ink(ink, x1, y1, median)


def _extent(ink: Mask, x0: int, y0: int) -> Box | None:
    bounds = mask_bounds(ink)
    if bounds is None or bounds[3] - bounds[1] < MIN_INK:
        return None
    return Box(x0 + bounds[0], y0 + bounds[1], x0 + bounds[2], y0 + bounds[3])


def ink_box(pixels: RGB, box: Box) -> Box | None:
    """The box of the ink inside ``box`` (None: none, or too little to measure)."""
    found = _ink_mask(pixels, box)
    return None if found is None else _extent(found.mask, found.x0, found.y0)


def _inked(pixels: RGB, rows: slice, cols: slice, median: float) -> bool:
    """Whether ``pixels[rows, cols]`` holds ink (a grey level ``INK`` from ``median``)."""
    grey = channel_mean(pixels[rows, cols])
    return bool(grey.size) and bool((np.abs(grey - median) > INK).any())


def _cut(pixels: RGB, box: Box, ink: Box, median: float) -> tuple[bool, bool, bool, bool]:
    """Which sides of ``box`` (left, top, right, bottom) cut the ink: it reaches the
    edge and, at the top or bottom, runs on in the row just outside it (a border, a
    picture under the line, descenders the box cut). Ink that merely ends at the top or
    bottom edge is not cut. At the left and right, reaching the edge is enough (the
    column just outside may fall between two letters). ``median``: the grey level of
    the page inside ``box``."""
    h, w = pixels.shape[:2]
    x1, y1, x2, y2 = max(0, box.x1), max(0, box.y1), min(w, box.x2), min(h, box.y2)
    cols = slice(ink.x1, ink.x2)
    top = ink.y1 <= y1 and (y1 == 0 or _inked(pixels, slice(y1 - 1, y1), cols, median))
    bottom = ink.y2 >= y2 and (y2 == h or _inked(pixels, slice(y2, y2 + 1), cols, median))
    return ink.x1 <= x1, top, ink.x2 >= x2, bottom


def _padded(pixels: RGB, box: Box, ink: Box, median: float) -> Box:
    h, w = pixels.shape[:2]
    ih = ink.height
    left, top, right, bottom = (round(p * ih) for p in PAD)
    cut_left, cut_top, cut_right, cut_bottom = _cut(pixels, box, ink, median)
    x1 = box.x1 if cut_left else max(0, ink.x1 - left)
    y1 = box.y1 if cut_top else max(0, ink.y1 - top)
    x2 = box.x2 if cut_right else min(w, ink.x2 + right)
    y2 = box.y2 if cut_bottom else min(h, ink.y2 + bottom)
    return Box(x1, y1, x2, y2)


def settled(pixels: RGB, box: Box) -> Box:
    """``box`` set by its ink (see the module docstring)."""
    found = _ink_mask(pixels, box)
    ink = None if found is None else _extent(found.mask, found.x0, found.y0)
    return box if found is None or ink is None else _padded(pixels, box, ink, found.median)


def _glyph_cut(runs: list[tuple[int, int]], ih: int) -> int | None:
    """Index of the first run after an icon-sized lead of ``runs`` that stands
    ``GLYPH_GAP`` ink heights from it (None: no such lead)."""
    for i in range(len(runs) - 1):
        if runs[i][1] - runs[0][0] > GLYPH_WIDE * ih:
            return None
        if runs[i + 1][0] - runs[i][1] >= GLYPH_GAP * ih:
            return i + 1
    return None


def without_glyphs(pixels: RGB, line: TextLine) -> TextLine:
    """``line`` without an icon read as its first or last one-character word (see the
    module docstring), its box set by the ink of the words left."""
    words = line.text.split()
    if len(words) < 2 or (len(words[0]) > 1 and len(words[-1]) > 1):
        return line
    found = _ink_mask(pixels, line.box)
    if found is None:
        return line
    ink, x0, y0, median = found
    rows = np.flatnonzero(ink.any(axis=1))
    if rows.size == 0:
        return line
    ih = int(rows[-1]) + 1 - int(rows[0])
    runs = true_runs(np.asarray(ink.any(axis=0)))
    lo, hi, text = 0, ink.shape[1], line.text.strip()
    if len(words[0]) == 1 and (cut := _glyph_cut(runs, ih)) is not None:
        lo, text, words = runs[cut][0], text.split(None, 1)[1], words[1:]
        runs = runs[cut:]
    if len(words) >= 2 and len(words[-1]) == 1:
        mirrored = [(ink.shape[1] - b, ink.shape[1] - a) for a, b in reversed(runs)]
        if (cut := _glyph_cut(mirrored, ih)) is not None:
            hi, text = ink.shape[1] - mirrored[cut][0], text.rsplit(None, 1)[0]
    if (lo, hi) == (0, ink.shape[1]):
        return line
    kept = np.zeros_like(ink)
    kept[:, lo:hi] = ink[:, lo:hi]
    extent = _extent(kept, x0, y0)
    if extent is None:
        return line
    return TextLine(text, _padded(pixels, line.box, extent, median), line.score)


def settle_boxes(pixels: RGB, lines: Sequence[TextLine]) -> list[TextLine]:
    """``lines`` with their boxes set by their ink, icons read as letters left out."""
    out = []
    for line in lines:
        line = without_glyphs(pixels, line)
        out.append(TextLine(line.text, settled(pixels, line.box), line.score))
    return out
