"""Crosses from their pixels: a close button's "×" and an add button's "+".

A search field's clear button and a dialog's close button are drawn as two thin strokes
crossing at their middle ("×"); an add button as the same turned upright ("+"). The icon
model reads a bold cross at 32 px, but a thin one in a wide button often falls under its
threshold (0.95-0.97 for `close` on real screens: Google News' clear-text button,
NewPipe's). The shape is fixed, so the pixels decide: the ink of the box (as the glyph
rules see it, :func:`vision.image.glyph_ink`) is one thin stroke, about square
(``SQUARE``), lying along the two diagonals of its box (``close``) or along its two
middle lines (``add``): ``ON_LINES`` of its pixels within a stroke's thickness of them,
and each of the two lines inked along ``COVERED`` of its length, ends included. An
asterisk, a check mark, a letter, a filled shape or a cross in a ring are not it.

    >>> cross_label(pixels, element.box)   # doctest: +SKIP
    'close'
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from screenpilot.model import Box
from screenpilot.vision.image import InkParts, glyph_ink

#: What a picture holding a cross may read as (OCR's letters and signs for one).
READS = frozenset({"", "X", "x", "×", "✕", "✖", "+", "十", "﹢"})
#: The cross is at least this many pixels across, ...
MIN_SIDE = 8
#: ... its width and height within this ratio ...
SQUARE = 1.25
#: ... and its stroke at most this share of its side thick (a filled shape is more).
THIN = 0.3
#: This share of the ink lies within a stroke's thickness of the two lines ...
ON_LINES = 0.95
#: ... and each line is inked along this share of its length.
COVERED = 0.9
#: Other ink makes at most this share of the cross's own.
OTHER_INK = 0.1


def cross_label(pixels: npt.NDArray[Any], box: Box) -> str:
    """``close`` when ``box`` on ``pixels`` shows one thin "×" and nothing else, ``add``
    for one thin "+", else ``""`` (see the module docstring)."""
    return cross_in(glyph_ink(pixels, box), box)


def cross_in(parts: InkParts, box: Box) -> str:
    """:func:`cross_label` on the ink of ``box`` already in parts."""
    stroke = parts.alone(OTHER_INK) if max(box.width, box.height) >= MIN_SIDE else None
    if stroke is None:
        return ""
    h, w = stroke.shape
    if min(w, h) < MIN_SIDE or max(w, h) > SQUARE * min(w, h):
        return ""
    ys, xs = np.nonzero(stroke)
    # positions from the cross's middle, in half sides: -1 .. 1 each way
    u = (xs + 0.5) / w * 2 - 1
    v = (ys + 0.5) / h * 2 - 1
    half = (w + h) / 4
    diagonal = (np.abs(u - v), np.abs(u + v))
    upright = (np.abs(u) * np.sqrt(2), np.abs(v) * np.sqrt(2))
    shapes = (("close", diagonal, 2 * np.sqrt(2) * half), ("add", upright, 2 * half))
    for label, lines, length in shapes:
        thick = float(stroke.sum()) / (2 * length)
        if thick > THIN * 2 * half:
            return ""  # a filled shape
        near = (thick / 2 + 1.0) / half * np.sqrt(2)  # a stroke's half thickness, in units
        on = (lines[0] <= near) | (lines[1] <= near)
        if on.mean() < ON_LINES:
            continue
        if all(_covered(stroke, label, k) >= COVERED for k in (0, 1)):
            return label
    return ""


def _covered(stroke: npt.NDArray[np.bool_], label: str, which: int) -> float:
    """The share of one of the cross's two lines (``which``) with ink on or beside it."""
    h, w = stroke.shape
    t = np.linspace(0.03, 0.97, 24)
    middle = np.full_like(t, 0.5)
    if label == "close":
        along = (t, t if which == 0 else 1 - t)
    else:
        along = (t, middle) if which == 0 else (middle, t)
    xs = np.rint(along[0] * (w - 1)).astype(int)
    ys = np.rint(along[1] * (h - 1)).astype(int)
    hits = [
        bool(stroke[max(0, y - 1) : y + 2, max(0, x - 1) : x + 2].any())
        for x, y in zip(xs.tolist(), ys.tolist(), strict=True)
    ]
    return sum(hits) / len(hits)
