"""The navigation drawer's button from its pixels: three equal bars stacked ("≡").

The icon model reads Material's "menu" glyph only now and then above its threshold: on
real screens it scores it 0.98 ("unknown": EtarCalendar's toolbar), or takes it for a
minus ("remove", NewPipe's), as the three thin bars of a 32 px crop look like one bar,
a list or a drag handle. The glyph is fixed, so the pixels decide: a crop whose ink
(:func:`vision.image.glyph_ink`: off its border's colour) is three solid bars, each at least
``BAR_RATIO`` times as wide as tall, of the same width and ends, the same thickness,
evenly spaced (gaps of ``GAP`` bar heights), making a glyph at least ``MIN_SPAN`` of
the box's width, and nothing else but specks. A sort glyph (bars of three lengths), a
drag handle (two bars), a list glyph (bullets beside its lines, or boxes in them) or a line
of text are not it.

    >>> is_menu_glyph(pixels, element.box)   # doctest: +SKIP
    True
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from screenpilot.model import Box
from screenpilot.vision.image import InkParts, glyph_ink

LABEL = "menu"
#: What a picture holding the glyph may read as (OCR takes the bars for "三" now and then).
READS = frozenset({"", "三", "≡", "="})
#: A bar is this many times as wide as tall, at least ...
BAR_RATIO = 3.0
#: ... fills this share of its box (round ends allowed), its middle row unbroken, ...
SOLID = 0.7
#: ... (a bar this many pixels thick or less is judged by its middle row alone: on a
#: low-density screen anti-aliasing thins its edge rows) ...
THIN_BAR = 3
#: ... and the three agree in width and ends within this share of the widest ...
SAME_WIDTH = 0.15
#: ... and in thickness within this share of the thickest (or one pixel).
SAME_HEIGHT = 0.4
#: The gap between two bars, in bar heights, and how much the two gaps may differ
#: (a share of the larger).
GAP = (0.5, 6.0)
EVEN_GAPS = 0.3
#: The glyph spans at least this share of the crop's width, ...
MIN_SPAN = 0.25
#: ... and other ink makes at most this share of the bars' own.
OTHER_INK = 0.1
#: Bars are at least this many pixels wide.
MIN_WIDTH = 8


def is_menu_glyph(pixels: npt.NDArray[Any], box: Box) -> bool:
    """Whether ``box`` on ``pixels`` (H x W x 3 RGB or H x W grey) shows three equal
    stacked bars and nothing else (see the module docstring). The box is looked at as
    the glyph rules look (:func:`vision.image.glyph_ink`): with a margin round it,
    clipped to the screen; a blob's box is its ink's own, and the page round it gives
    the background."""
    return menu_in(glyph_ink(pixels, box), box)


def menu_in(parts: InkParts, box: Box) -> bool:
    """:func:`is_menu_glyph` on the ink of ``box`` already in parts."""
    import cv2

    if box.width < 8 or box.height < 8 or parts.count < 4:
        return False
    stats = parts.stats
    ink = parts.labels > 0
    areas = stats[1:, cv2.CC_STAT_AREA]
    order = np.argsort(areas)[::-1]
    bars = stats[1:][order[:3]]
    other = int(areas.sum() - bars[:, cv2.CC_STAT_AREA].sum())
    if other > OTHER_INK * int(bars[:, cv2.CC_STAT_AREA].sum()):
        return False
    xs, ys, ws, hs, area = (bars[:, k].astype(np.float64) for k in range(5))
    hollow = (area < SOLID * ws * hs) & (hs > THIN_BAR)
    if ws.min() < MIN_WIDTH or (ws < BAR_RATIO * hs).any() or hollow.any():
        return False
    for x, y, w, h in bars[:, :4].tolist():
        inset = max(1, w // 10)  # round ends left out
        if not ink[y + h // 2, x + inset : x + w - inset].all():
            return False  # a bar with a hole (a checklist's box drawn in it)
    widest, thickest = ws.max(), hs.max()
    if ws.min() < (1 - SAME_WIDTH) * widest:
        return False
    if np.ptp(xs) > SAME_WIDTH * widest or np.ptp(xs + ws) > SAME_WIDTH * widest:
        return False
    if thickest - hs.min() > max(1.0, SAME_HEIGHT * thickest):
        return False
    top = np.argsort(ys)
    ys, hs = ys[top], hs[top]
    gaps = ys[1:] - (ys[:-1] + hs[:-1])
    if not (GAP[0] * thickest <= gaps).all() or not (gaps <= GAP[1] * thickest).all():
        return False
    if gaps.max() - gaps.min() > max(1.0, EVEN_GAPS * gaps.max()):
        return False
    return bool(widest >= MIN_SPAN * box.width)
