"""The overflow menu's button from its pixels: three dots in a line ("⋮", "⋯").

A toolbar's "More options" button is three round dots, stacked (Android) or in a row
(a camera's or a web app's "⋯"). The icon model reads it at 32 px mostly right but
often under its threshold: 0.90-0.98 on real screens of Activity Launcher, LA Metro and
the camera, where the dots are small in a wide button. The glyph is fixed, so the pixels
decide: a crop whose ink (as the glyph rules see it, :func:`vision.image.glyph_ink`:
the box with a margin round it, off its border's colour) is three dots and
nothing else but specks: blobs of one size (``SAME_SIZE``), round (``ROUND``, and
``ROUND_EDGE`` where ``ROUND_MIN`` px or larger) and solid (``SOLID``), of one shade
(``SAME_SHADE``: a page indicator's dots are not), their centres on one line
(``IN_LINE``) at even steps of ``STEP`` dot sizes. Two or four dots, a page indicator,
dashes, and letters cut flat by a panel's edge are not it.

    >>> is_dots_glyph(pixels, element.box)   # doctest: +SKIP
    True
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from screenpilot.model import Box
from screenpilot.vision.image import InkParts, glyph_ink

LABEL = "more_options"
#: What a picture holding the glyph may read as ("⋮" as ":", "⋯" as "..." or "• •").
READS = frozenset({"", ":", "：", "⋮", "⁝", "…", "...", "..", "•", "• •", "•••", "· · ·", "⋯"})
#: A dot is at least this many pixels across ...
MIN_DOT = 3
#: ... about as wide as tall (within this ratio) ...
ROUND = 1.5
#: ... fills this share of its box (a disc fills 0.79) ...
SOLID = 0.6
#: ... and is round: its outer rows and columns hold at most this share of its widest
#: (a piece of a letter cut flat by a panel's edge is not).
ROUND_EDGE = 0.8
#: ... where it is at least this many pixels across: a dot of 4-6 px (Markor's "⋯" on a
#: 530 px screenshot) is a square of pixels, round or not.
ROUND_MIN = 7
#: The dots' areas agree within this share of the largest.
SAME_SIZE = 0.35
#: Their mean grey levels agree within this many levels.
SAME_SHADE = 30
#: Their centres lie within this share of a dot's size of one line ...
IN_LINE = 0.35
#: ... at steps of this many dot sizes, centre to centre (Material's "⋮": 6 dp steps
#: for 4 dp dots), ...
STEP = (1.3, 2.6)
#: ... the two steps within this share of the larger.
EVEN_STEPS = 0.25
#: Other ink makes at most this share of the dots' own.
OTHER_INK = 0.1


def is_dots_glyph(pixels: npt.NDArray[Any], box: Box) -> bool:
    """Whether ``box`` on ``pixels`` shows three equal dots in a line and nothing else
    (see the module docstring)."""
    return dots_in(glyph_ink(pixels, box), box)


def dots_in(parts: InkParts, box: Box) -> bool:
    """:func:`is_dots_glyph` on the ink of ``box`` already in parts."""
    import cv2

    if box.width < 3 * MIN_DOT or box.height < MIN_DOT or parts.count < 4:
        return False
    labels, stats, centres = parts.labels, parts.stats, parts.centres
    areas = stats[1:, cv2.CC_STAT_AREA]
    order = np.argsort(areas)[::-1][:3]
    dots = stats[1:][order]
    if int(areas.sum() - areas[order].sum()) > OTHER_INK * int(areas[order].sum()):
        return False
    ws, hs, area = (dots[:, k].astype(np.float64) for k in (2, 3, 4))
    if min(ws.min(), hs.min()) < MIN_DOT or (np.maximum(ws, hs) > ROUND * np.minimum(ws, hs)).any():
        return False
    if (area < SOLID * ws * hs).any() or area.min() < (1 - SAME_SIZE) * area.max():
        return False
    for k in order:
        x, y, w, h = (int(v) for v in stats[1 + k, :4])
        if max(w, h) < ROUND_MIN:
            continue
        disc = labels[y : y + h, x : x + w] == 1 + k
        for across in (disc.sum(axis=1), disc.sum(axis=0)):  # rows, then columns
            if max(across[0], across[-1]) > ROUND_EDGE * across.max():
                return False
    shades = [float(parts.grey[labels == 1 + k].mean()) for k in order]
    if max(shades) - min(shades) > SAME_SHADE:
        return False
    size = float(np.mean(np.maximum(ws, hs)))
    xy = centres[1:][order]
    spread = np.ptp(xy, axis=0)
    along = 0 if spread[0] >= spread[1] else 1  # x: a row of dots, y: a column
    if spread[1 - along] > IN_LINE * size:
        return False
    steps = np.diff(np.sort(xy[:, along]))
    if not (STEP[0] * size <= steps.min() and steps.max() <= STEP[1] * size):
        return False
    return bool(steps.max() - steps.min() <= EVEN_STEPS * steps.max())
