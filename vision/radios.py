"""Which radio button is chosen, from the pixels of a detected radio option.

The detector finds a radio button with its label as one ``radio_group`` box per
option (the virtual phone's single-choice dialogs) but says nothing of which one is
chosen. A radio button is a ring (Material: 20 dp across, a 2 dp stroke) left of its
label; the chosen one holds a dot (10 dp) in the ring's middle. :func:`radio_chosen`
finds the leftmost ring in the box (a connected patch of ink, about square, 12-30 dp
across, filling ``RING_FILL`` of its box: an annulus) and says whether the ring's middle
is ink; ``None`` where the box holds no ring (a whole group's box, a picture).

On real phones the detector mostly misses radio buttons: a single-choice dialog's rows
(Activity Launcher's language list, Android's location permission) came out as an image
beside an icon, the ring read as "O". :func:`find_radio_buttons` finds the rings from
the pixels: a closed round contour 14-30 dp across whose stroke is even all round on a
plain page, with the page's grey between the stroke and the middle, and the middle
either the page (not chosen) or a dot of the stroke's colour (chosen). A radio button
never comes alone: a ring is kept only beside another of its size in the same column or
row (a single ring is a navigation bar's home key, a letter "o" of a thin font has its
neighbours within the page ring). :func:`with_radio_buttons` adds them as one-option
``radio_group`` elements (labelled, like a check box, by the text beside them) where
the detector found none, in place of a picture or button that is the same ring.

    >>> radio_chosen(pixels, element.box)   # doctest: +SKIP
    >>> find_radio_buttons(pixels)           # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.blocks import dp_size
from screenpilot.vision.checkboxes import (
    CONTRAST,
    PLAIN,
    STATUS_DP,
    dedupe,
    same_square,
)
from screenpilot.vision.image import RGB, border_colour, box_pixels, channel_mean, grey_u8

#: A pixel is ink when its grey differs from the box's border's median by this much.
INK = 40.0
#: A ring's side in dp, and the share of its box its ink fills (an annulus of a 2 dp
#: stroke on 20 dp fills 0.28 of its square; a filled disc 0.79, a glyph's stroke varies).
RING_DP = (12.0, 30.0)
RING_FILL = (0.18, 0.5)
#: The ring's middle (this share of its side) holds the dot when over half of it is ink.
DOT = 0.25
#: A box taller than this (dp) holds more than one option.
OPTION_DP = 72.0
#: An option's box is this many times as wide as tall (a ring and its label); a
#: narrower one is a ring alone (:func:`find_radio_buttons`).
LABELLED = 1.5


def radio_chosen(pixels: RGB, box: Box) -> bool | None:
    """Whether the radio button in ``box`` is chosen; None when there is no ring."""
    import cv2

    dp = dp_size(pixels.shape[1], pixels.shape[0])
    x1, y1 = max(0, box.x1), max(0, box.y1)
    x2, y2 = min(pixels.shape[1], box.x2), min(pixels.shape[0], box.y2)
    if y2 - y1 > OPTION_DP * dp or x2 - x1 < RING_DP[0] * dp or y2 - y1 < RING_DP[0] * dp:
        return None
    if ring_only(box):  # find_radio_buttons read it
        return None
    grey = channel_mean(pixels[y1:y2, x1:x2])
    ink = (np.abs(grey - float(border_colour(grey))) > INK).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    rings = []
    for k in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[k])
        if not (RING_DP[0] * dp <= min(w, h) and max(w, h) <= RING_DP[1] * dp):
            continue
        if abs(w - h) > 0.15 * max(w, h) or not RING_FILL[0] <= area / (w * h) <= RING_FILL[1]:
            continue
        rings.append((x, y, w, h, k))
    if not rings:
        return None
    x, y, w, h, k = min(rings)
    if labels[y + h // 2, x + w // 2] == k:  # a ring's middle is not its own stroke
        return None
    r = max(1, round(DOT * min(w, h) / 2))
    middle = ink[y + h // 2 - r : y + h // 2 + r + 1, x + w // 2 - r : x + w // 2 + r + 1]
    return bool(middle.mean() > 0.5)


#: A found ring: its outer side in dp (Material's is 20), and the share of its box the
#: outer contour's hull fills (a circle's is 0.785; a square's 1).
FOUND_DP = (14.0, 30.0)
ROUND = (0.68, 0.88)
#: The stroke stands ``CONTRAST`` grey levels off the page (the check box finder's);
#: the page round the ring (out to ``PAGE_OUT`` radii: a letter's neighbours lie within
#: it) has a grey std under ``PLAIN`` (a check box's plain surround); the stroke holds
#: ``EVEN`` of its angles within ``CONTRAST`` of its median.
PAGE_OUT = 1.6
EVEN = 0.85
#: The ring's middle is the page's grey (not chosen) or the stroke's (a dot: chosen) at
#: this share of its samples; the gap between them holds the page's at ``GAP_PAGE``.
MIDDLE = 0.9
GAP_PAGE = 0.8
#: Two rings are one group's when their sides differ under ``SAME_SIZE`` and their
#: centres share a column or a row within ``ALIGNED`` of a side.
SAME_SIZE = 0.2
ALIGNED = 0.15
#: A detection holding nothing but a found ring and the plain page round it may be up to
#: this many times the ring's area: NetGuard's sort menu had a 156 x 136 px "button"
#: round its chosen 60 px ring (5.9x), a second element on one option.
EMPTY_FACTOR = 8.0
FOUND_CONFIDENCE = 0.6


def ring_only(box: Box) -> bool:
    """Whether a ``radio_group`` box is a ring alone, without its label."""
    return box.width < LABELLED * box.height


def _round_boxes(grey: np.ndarray, dp: float) -> list[tuple[int, int, int, int]]:
    """Boxes of closed, round contours of a ring's size (the largest of nested ones)."""
    import cv2

    edges = cv2.Canny(grey, 40, 120)
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    lo, hi = FOUND_DP[0] * dp, FOUND_DP[1] * dp
    out = []
    for contour in contours:
        x, y, w, h = cv2.boundingRect(contour)
        if not (lo <= w <= hi and lo <= h <= hi) or abs(w - h) > 0.1 * max(w, h):
            continue
        if ROUND[0] <= cv2.contourArea(cv2.convexHull(contour)) / (w * h) <= ROUND[1]:
            out.append((x, y, x + w, y + h))
    return dedupe(out)


def _circle(grey: np.ndarray, cx: float, cy: float, radius: float, n: int) -> np.ndarray:
    """The grey at ``n`` points evenly round a circle (nearest pixels, clipped)."""
    a = np.linspace(0.0, 2 * np.pi, n, endpoint=False)
    xs = np.clip(np.round(cx + radius * np.cos(a)).astype(int), 0, grey.shape[1] - 1)
    ys = np.clip(np.round(cy + radius * np.sin(a)).astype(int), 0, grey.shape[0] - 1)
    return np.asarray(grey[ys, xs], dtype=np.float32)


def _ring_state(grey: np.ndarray, box: tuple[int, int, int, int]) -> bool | None:
    """``True`` a chosen radio button (a dot in the ring), ``False`` an empty ring,
    ``None`` no radio button (a picture, a glyph, a ring in a text)."""
    x1, y1, x2, y2 = box
    cx, cy, r = (x1 + x2 - 1) / 2, (y1 + y2 - 1) / 2, (x2 - x1 + y2 - y1) / 4
    page = np.concatenate([_circle(grey, cx, cy, r * f, 72) for f in (1.2, 1.4, PAGE_OUT)])
    if float(page.std()) >= PLAIN:
        return None
    surround = float(np.median(page))
    # the stroke: at each angle the grey of radii 0.7-0.94 furthest from the page's (a
    # stroke 2 dp wide on 10 is a pixel or two of a low-density screen)
    rings = np.stack([_circle(grey, cx, cy, r * f, 48) for f in (0.7, 0.78, 0.86, 0.94)])
    stroke = rings[np.abs(rings - surround).argmax(0), np.arange(rings.shape[1])]
    edge = float(np.median(stroke))
    if abs(edge - surround) < CONTRAST or float((np.abs(stroke - edge) < CONTRAST).mean()) < EVEN:
        return None
    gap = np.concatenate([_circle(grey, cx, cy, r * f, 36) for f in (0.55, 0.6)])
    if float((np.abs(gap - surround) < CONTRAST).mean()) < GAP_PAGE:
        return None
    middle = np.concatenate(
        [grey[round(cy), round(cx)][None].astype(np.float32)]
        + [_circle(grey, cx, cy, r * f, 12) for f in (0.15, 0.3)]
    )
    if float((np.abs(middle - surround) < CONTRAST).mean()) >= MIDDLE:
        return False
    if float((np.abs(middle - edge) < CONTRAST).mean()) >= MIDDLE:
        return True
    return None


def _grouped(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    """Whether two rings are the same size and share a column or a row."""
    sa, sb = a[2] - a[0], b[2] - b[0]
    if abs(sa - sb) > SAME_SIZE * max(sa, sb):
        return False
    near = ALIGNED * max(sa, sb)
    return abs(a[0] + a[2] - b[0] - b[2]) / 2 <= near or abs(a[1] + a[3] - b[1] - b[3]) / 2 <= near


def find_radio_buttons(pixels: np.ndarray) -> list[Element]:
    """Radio buttons in an RGB (or grey) screenshot: one-option ``radio_group``
    elements on their rings, ``selected`` where the ring holds a dot."""
    grey = grey_u8(pixels)
    dp = dp_size(grey.shape[1], grey.shape[0])
    states = [(b, _ring_state(grey, b)) for b in _round_boxes(grey, dp)]
    rings = [(b, s) for b, s in states if s is not None]
    return [
        Element(
            0,
            ElementKind.RADIO_GROUP,
            Box.of(*b),
            confidence=FOUND_CONFIDENCE,
            selected=s,
            clickable=True,
        )
        for b, s in rings
        if any(_grouped(b, o) for o, _ in rings if o is not b)
    ]


def with_radio_buttons(pixels: np.ndarray, widgets: Sequence[Element]) -> list[Element]:
    """``widgets`` plus the radio buttons only the pixels show: a detected picture,
    button or check box that is the same ring (or a loose box round it) gives way to
    it; a ring inside a detected option (``radio_group``), or in the status or the
    navigation bar, is not added."""
    found = find_radio_buttons(pixels)
    if not found:
        return list(widgets)
    top = STATUS_DP * dp_size(pixels.shape[1], pixels.shape[0])
    taken = [
        e.box
        for e in widgets
        if e.kind in (ElementKind.RADIO_GROUP, ElementKind.NAVIGATION_BAR, ElementKind.STATUS_BAR)
    ]
    found = [
        f
        for f in found
        if f.box.center[1] >= top and not any(o.contains(*f.box.center) for o in taken)
    ]
    out = [
        e
        for e in widgets
        if not any(same_square(f.box, e) or _empty_beside(pixels, f.box, e) for f in found)
    ]
    return out + found


def _empty_beside(pixels: np.ndarray, ring: Box, widget: Element) -> bool:
    """Whether ``widget`` is a detection of ``ring`` shifted off it onto the empty page
    beside it (the shipped detector boxes Android's permission dialog's rings as a check
    box 25 dp to their left) or a loose box round it: a picture, button or check box on
    the ring's row, touching it, at most ``EMPTY_FACTOR`` times its area, that outside the
    ring holds nothing but the page."""
    box = widget.box
    if widget.kind not in (ElementKind.IMAGE, ElementKind.BUTTON, ElementKind.CHECK_BOX):
        return False
    side = ring.height
    if abs(box.center[1] - ring.center[1]) > ALIGNED * side or box.area > EMPTY_FACTOR * ring.area:
        return False
    if box.x1 > ring.x2 + ALIGNED * side or box.x2 < ring.x1 - ALIGNED * side:
        return False
    grey = channel_mean(box_pixels(pixels, box))
    mask = np.ones(grey.shape, bool)
    x1, x2 = max(0, ring.x1 - box.x1), max(0, ring.x2 - box.x1)
    mask[max(0, ring.y1 - box.y1) : max(0, ring.y2 - box.y1), x1:x2] = False
    return bool(mask.any()) and float(grey[mask].std()) < PLAIN
