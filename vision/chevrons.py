"""Chevrons from their pixels: one thin stroke bent once in its middle ("⌄", "⌃", "›", "‹").

A list row's expand button and a row's trailing "›" are drawn as a chevron: two strokes
as thin as text meeting at a right-ish angle. At the icon model's 32 px the stroke of a
small chevron fades to a smudge, and the model leaves it unlabelled or calls it an emoji
or a Wi-Fi sign (OneList's "Expand Item" chevrons, 10 of 10 on the harvest's train
screens). The shape is fixed, so the pixels decide: the ink of the box (as the glyph
rules see it, :func:`vision.image.glyph_ink`: off the border's colour, with a margin
round the box) is one stroke, and along its long side the stroke's middle row (column)
runs straight from each end to an apex at the middle: the positions across fit two lines
of opposite slope meeting within ``APEX`` of the middle, each line within ``FIT`` of the
stroke's thickness, rising ``RISE`` of its half of the long side or more, the two arms
about as long (a check mark's are not), one run of ink across (an outlined triangle, a
play sign, has two) and straight to their ends (an arc's turn upright), the stroke thin
(at most ``THIN`` of the short side across, away from the apex: a filled triangle, a
play or drop-down sign, is left to the icon model). Which way the apex points names it:
``expand`` (down), ``collapse`` (up), ``next`` (right), ``previous`` (left).

    >>> chevron_label(pixels, element.box)   # doctest: +SKIP
    'expand'
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from screenpilot.model import Box
from screenpilot.vision.image import InkParts, glyph_ink

#: What a picture holding a chevron may read as (OCR's letters and signs for one).
READS = frozenset({"", "v", "V", ">", "<", "^", "›", "‹", "〉", "〈", "﹀", "︿", "L"})
#: Labels by where the apex points.
LABELS = {"down": "expand", "up": "collapse", "right": "next", "left": "previous"}
#: The chevron's long side is at least this many pixels ...
MIN_LONG = 10
#: ... and 1.2-3.5 times its short side (Material's is 12 x 7.4 dp).
ASPECT = (1.2, 3.5)
#: The apex lies within this share of the long side from its middle.
APEX = 0.15
#: Each arm keeps within this many stroke thicknesses of its straight line, ...
FIT = 0.6
#: ... rises at least this share of its half of the long side, ...
RISE = 0.35
#: ... and the arms' rises agree within this share of the larger.
SAME_ARMS = 0.3
#: The stroke, across, is at most this share of the short side away from the apex (a
#: filled triangle's is most of it).
THIN = 0.55
#: The stroke in the outer ``END`` of the columns at each end is at most ``ENDS`` times
#: its median thickness (an arc's ends turn upright).
END, ENDS = 0.1, 2.0
#: Across each column the stroke is one run, with at most this many pixels missing.
GAPS = 2
#: Other ink makes at most this share of the stroke's own.
OTHER_INK = 0.1


def chevron_label(pixels: npt.NDArray[Any], box: Box) -> str:
    """``expand``, ``collapse``, ``next`` or ``previous`` when ``box`` on ``pixels`` shows
    one chevron and nothing else (see the module docstring), else ``""``."""
    return chevron_in(glyph_ink(pixels, box), box)


def chevron_in(parts: InkParts, box: Box) -> str:
    """:func:`chevron_label` on the ink of ``box`` already in parts."""
    stroke = parts.alone(OTHER_INK) if max(box.width, box.height) >= MIN_LONG else None
    if stroke is None:
        return ""
    h, w = stroke.shape
    if w >= h:
        way = _pointing(stroke)
        return {"": "", "+": LABELS["down"], "-": LABELS["up"]}[way]
    way = _pointing(stroke.T)
    return {"": "", "+": LABELS["right"], "-": LABELS["left"]}[way]


def _pointing(stroke: npt.NDArray[np.bool_]) -> str:
    """``+`` when ``stroke`` (a mask, wider than tall) is a chevron whose apex points to
    larger rows (down), ``-`` to smaller ones (up), ``""`` when it is no chevron."""
    h, w = stroke.shape
    if w < MIN_LONG or not ASPECT[0] <= w / max(h, 1) <= ASPECT[1]:
        return ""
    cols = stroke.sum(axis=0)
    if (cols == 0).any():
        return ""  # two pieces side by side, not one stroke
    first = stroke.argmax(axis=0)
    last = h - 1 - stroke[::-1].argmax(axis=0)
    if (last - first + 1 - cols > GAPS).any():
        return ""  # two strokes across a column: an outlined triangle (a play sign), a ring
    rows = np.arange(h, dtype=np.float64)[:, None]
    middle = (stroke * rows).sum(axis=0) / cols  # the stroke's middle in each column
    xs = np.arange(w, dtype=np.float64)
    thick = float(np.median(cols))
    ends = max(1, round(END * w))
    if max(cols[:ends].max(), cols[-ends:].max()) > ENDS * thick:
        return ""  # an arm that turns upright at its end: an arc (a faint ring's half)
    best: tuple[float, str] | None = None
    lo, hi = max(2, round((0.5 - APEX) * (w - 1))), min(w - 2, round((0.5 + APEX) * (w - 1)))
    if hi < lo:
        return ""
    centre = middle[lo : hi + 1]
    # the apex is where the stroke's middle lies lowest (or highest) near the middle
    for apex in {lo + int(np.argmax(centre)), lo + int(np.argmin(centre))}:
        left, right = slice(0, apex + 1), slice(apex, w)
        fits = [np.polyfit(xs[s], middle[s], 1) for s in (left, right)]
        errors = [
            float(np.abs(np.polyval(f, xs[s]) - middle[s]).max())
            for f, s in zip(fits, (left, right), strict=True)
        ]
        if max(errors) > FIT * thick + 1.0:
            continue
        rises = (fits[0][0] * apex, -fits[1][0] * (w - 1 - apex))  # + when the apex is lower
        if rises[0] * rises[1] <= 0:
            continue  # both arms go the same way: a slope, not a bend
        if min(abs(r) for r in rises) < RISE * w * 0.5:
            continue
        if abs(abs(rises[0]) - abs(rises[1])) > SAME_ARMS * max(abs(r) for r in rises):
            continue
        away = np.abs(xs - apex) > 0.1 * w
        if cols[away].max() > THIN * h:
            continue  # a filled triangle (a play or a drop-down sign), not a stroke
        score = max(errors)
        if best is None or score < best[0]:
            best = (score, "+" if rises[0] > 0 else "-")
    return "" if best is None else best[1]
