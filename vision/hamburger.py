"""The navigation drawer's button from its pixels: three equal bars stacked ("≡").

The icon model reads Material's "menu" glyph only now and then above its threshold: on
real screens it scores it 0.98 ("unknown": EtarCalendar's toolbar), or takes it for a
minus ("remove", NewPipe's), as the three thin bars of a 32 px crop look like one bar,
a list or a drag handle. The glyph is fixed, so the pixels decide: a crop whose ink
(:func:`vision.image.glyph_ink`: off its border's colour) is three solid bars, each at least
``BAR_RATIO`` times as wide as tall, of the same width and ends, the same thickness,
evenly spaced (gaps of ``GAP`` bar heights), making a glyph at least ``MIN_SPAN`` of
the box's width, and nothing else but specks. A drag handle (two bars), a list glyph
(bullets beside its lines, or boxes in them) or a line of text are not it. Bars of three
lengths, falling or rising from one to the next, in line at one end or at their middles,
are the sort glyph or, centred, the filter glyph (:func:`sort_in`; NetGuard's filter
button, which the model scores 0.94-0.985, under its threshold).

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
#: Bars are at least this many pixels wide (the sort glyph's shortest, half as many).
MIN_WIDTH = 8
#: The sort glyph: its shortest bar is at least this many times as wide as thick, ...
SHORT_BAR_RATIO = 1.5
#: ... each bar shorter (or longer) than the one above by this share of the longest...
STEP = 0.15
#: ... and their left ends, right ends or middles in line within this share of it.
LINED_UP = 0.1
#: The labels of bars of falling lengths: ends in line, middles in line.
SORT, FILTER = "sort", "filter"


def is_menu_glyph(pixels: npt.NDArray[Any], box: Box) -> bool:
    """Whether ``box`` on ``pixels`` (H x W x 3 RGB or H x W grey) shows three equal
    stacked bars and nothing else (see the module docstring). The box is looked at as
    the glyph rules look (:func:`vision.image.glyph_ink`): with a margin round it,
    clipped to the screen; a blob's box is its ink's own, and the page round it gives
    the background."""
    return menu_in(glyph_ink(pixels, box), box)


def menu_in(parts: InkParts, box: Box) -> bool:
    """:func:`is_menu_glyph` on the ink of ``box`` already in parts."""
    bars = _three_bars(parts, box)
    if bars is None:
        return False
    xs, ws = bars
    widest = ws.max()
    if ws.min() < (1 - SAME_WIDTH) * widest:
        return False
    return bool(np.ptp(xs) <= SAME_WIDTH * widest and np.ptp(xs + ws) <= SAME_WIDTH * widest)


def sort_in(parts: InkParts, box: Box) -> str:
    """What the ink of ``box`` is when it is three stacked bars whose lengths fall (or
    rise) by at least :data:`STEP` of the longest from one to the next, with the bars'
    thickness and even gaps of the menu glyph's: :data:`SORT` when their left or right
    ends are in line (Material's "sort"), :data:`FILTER` when their middles are
    ("filter_list": the filter button of NetGuard, LoopHabits and Habitica); else ""."""
    bars = _three_bars(parts, box, shortest=SHORT_BAR_RATIO)
    if bars is None:
        return ""
    xs, ws = bars
    widest = ws.max()
    steps = np.diff(ws)
    if not ((steps <= -STEP * widest).all() or (steps >= STEP * widest).all()):
        return ""
    if min(np.ptp(xs), np.ptp(xs + ws)) <= LINED_UP * widest:
        return SORT
    return FILTER if np.ptp(xs + ws / 2) <= LINED_UP * widest else ""


def _three_bars(
    parts: InkParts, box: Box, shortest: float = BAR_RATIO
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]] | None:
    """The left ends and widths, top to bottom, of three solid bars of one thickness,
    evenly stacked, that make the ink of ``box`` with nothing else but specks and span
    :data:`MIN_SPAN` of its width; the widest at least :data:`BAR_RATIO` times as wide
    as thick, every one at least ``shortest`` times; else ``None``."""
    import cv2

    if box.width < 8 or box.height < 8 or parts.count < 4:
        return None
    stats = parts.stats
    ink = parts.labels > 0
    areas = stats[1:, cv2.CC_STAT_AREA]
    order = np.argsort(areas)[::-1]
    bars = stats[1:][order[:3]]
    other = int(areas.sum() - bars[:, cv2.CC_STAT_AREA].sum())
    if other > OTHER_INK * int(bars[:, cv2.CC_STAT_AREA].sum()):
        return None
    xs, ys, ws, hs, area = (bars[:, k].astype(np.float64) for k in range(5))
    hollow = (area < SOLID * ws * hs) & (hs > THIN_BAR)
    if ws.max() < max(MIN_WIDTH, BAR_RATIO * hs.max()) or (ws < shortest * hs).any():
        return None
    if ws.min() < MIN_WIDTH / 2 or hollow.any():
        return None
    for x, y, w, h in bars[:, :4].tolist():
        inset = max(1, w // 10)  # round ends left out
        if not ink[y + h // 2, x + inset : x + w - inset].all():
            return None  # a bar with a hole (a checklist's box drawn in it)
    thickest = hs.max()
    if thickest - hs.min() > max(1.0, SAME_HEIGHT * thickest):
        return None
    top = np.argsort(ys)
    ys, hs = ys[top], hs[top]
    gaps = ys[1:] - (ys[:-1] + hs[:-1])
    if not (GAP[0] * thickest <= gaps).all() or not (gaps <= GAP[1] * thickest).all():
        return None
    if gaps.max() - gaps.min() > max(1.0, EVEN_GAPS * gaps.max()):
        return None
    if ws.max() < MIN_SPAN * box.width:
        return None
    return xs[top], ws[top]
