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
picture under the line) keeps the detector's edge, and a line with too little ink to
measure (``MIN_INK`` px high) keeps its box; a column inked over ``BORDER`` of the box's
height (a field's border, a divider) is not ink.

    >>> lines = settle_boxes(pixels, lines)   # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from screenpilot.model import Box
from screenpilot.vision.image import RGB
from screenpilot.vision.ocr import TextLine

#: Grey-level difference from the box's median that counts as ink.
INK = 48.0
#: Margins around the ink, in ink heights: left, top, right, bottom.
PAD = (0.28, 0.28, 0.23, 0.20)
#: A column inked over this share of the box's height is a border or a rule, not text.
BORDER = 0.9
#: Ink lower than this many pixels is not measured.
MIN_INK = 6


def ink_box(pixels: RGB, box: Box) -> Box | None:
    """The box of the ink inside ``box`` (None: none, or too little to measure)."""
    h, w = pixels.shape[:2]
    x1, y1, x2, y2 = max(0, box.x1), max(0, box.y1), min(w, box.x2), min(h, box.y2)
    if x2 - x1 < 2 or y2 - y1 < MIN_INK:
        return None
    crop = pixels[y1:y2, x1:x2].astype(np.float32)
    grey = crop.mean(axis=2) if crop.ndim == 3 else crop
    ink = np.abs(grey - float(np.median(grey))) > INK
    ink[:, ink.sum(axis=0) >= BORDER * ink.shape[0]] = False  # a border across the line
    rows, cols = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
    if rows.size == 0 or int(rows[-1]) + 1 - int(rows[0]) < MIN_INK:
        return None
    return Box(x1 + int(cols[0]), y1 + int(rows[0]), x1 + int(cols[-1]) + 1, y1 + int(rows[-1]) + 1)


def settled(pixels: RGB, box: Box) -> Box:
    """``box`` set by its ink (see the module docstring)."""
    ink = ink_box(pixels, box)
    if ink is None:
        return box
    h, w = pixels.shape[:2]
    ih = ink.height
    left, top, right, bottom = (round(p * ih) for p in PAD)
    x1 = box.x1 if ink.x1 <= max(0, box.x1) else max(0, ink.x1 - left)
    y1 = box.y1 if ink.y1 <= max(0, box.y1) else max(0, ink.y1 - top)
    x2 = box.x2 if ink.x2 >= min(w, box.x2) else min(w, ink.x2 + right)
    y2 = box.y2 if ink.y2 >= min(h, box.y2) else min(h, ink.y2 + bottom)
    return Box(x1, y1, x2, y2)


def settle_boxes(pixels: RGB, lines: Sequence[TextLine]) -> list[TextLine]:
    """``lines`` with their boxes set by their ink."""
    return [TextLine(line.text, settled(pixels, line.box), line.score) for line in lines]
