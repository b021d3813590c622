"""Kinds a detected box's shape rules out.

A switch is drawn as a track wider than tall (Material: 52 x 32 dp, 1.6; the platform's
older switch 1.6 to 2), but a detector trained on real screens also calls a round
floating button or a square icon a switch. On the 236 simulator screens of
``bench/vision_truth.py``, 9 of detector v4's 22 false switches at any confidence
(among them the world clock's add button) are less than ``SWITCH_RATIO`` times wider
than tall, and none of its 104 true ones; of v2's, 16 of 93 and none of 108. Such a
box is reported as a picture, which the icon labeller then names and a planner can
find.

The other way round, detector v4 calls some simulator switches a picture (4 of 108, at
0.16-0.36). :func:`switch_drawn` makes a picture (or a button with no text: NetGuard's
master switch in its toolbar) a switch when the pixels around its box hold a stadium (a
rectangle with round ends, ``TRACK_RATIO`` times wider than tall, whose outline and fill
cover at least ``STADIUM_IOU`` of the ideal shape) with a thumb at one end (the colours
at the centres of its two end discs differ by more than ``THUMB_CONTRAST``: a navigation
bar's pill holds its icon in the middle), or a thumb over one end of a thinner track
(Material 2, Android 7-11's settings and permission switches: a 20 dp disc on a 14 dp
track; :func:`_thumb_on_track`), which also tells whether it is on (the thumb at the
right end). The detector's box may be the switch's square touch target (which
``by_shape`` made a picture), and where the box lies in a coloured bar the track is
looked for in the box alone.

A switch the detector missed may be found as a blob of ink (its thumb on its track):
:func:`blob_switch` makes such an icon a switch the same way (NetGuard's "Allow
tethering" switch was an icon the icon model named "wifi").

    >>> widgets = [by_shape(e) for e in widgets]   # doctest: +SKIP
    >>> widgets = [switch_drawn(pixels, e) for e in widgets]   # doctest: +SKIP

A detected button, picture or icon that holds nothing but a line across it (a
drawer's divider between its groups, found as a 0.75 button on EtarCalendar's drawer)
is no widget: :func:`is_rule` tells it, and describe leaves it out.

    >>> blobs = [blob_switch(pixels, e) for e in blobs]   # doctest: +SKIP
    >>> widgets = [e for e in widgets if not is_rule(pixels, e.box)]   # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import numpy.typing as npt

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.blocks import dp_size
from screenpilot.vision.image import (
    RGB,
    border_colour,
    colour_distance,
    largest_part,
    off_median,
)

#: A switch's box is at least this many times wider than tall.
SWITCH_RATIO = 1.3
#: A switch's track: this many times wider than tall, at most ``TRACK_DP`` tall.
TRACK_RATIO = (1.4, 2.4)
TRACK_DP = 48.0
#: A detector's box around a track: its ratio and height within this factor of the
#: track's (the box is often a few pixels off).
BOX_SLACK = 1.3
#: ... its height within this factor of the track's largest (a toolbar's touch target,
#: 64 dp tall, round NetGuard's 25 dp master switch) ...
TALL_SLACK = 1.5
#: ... or a square touch target round it (a detector's "switch" box 0.92 times wider
#: than tall round a permission switch, which ``by_shape`` made a picture).
SQUARE_BOX = 0.7
#: Detected kinds that may be a picture of a switch: a picture, or a button with no text
#: (NetGuard's master switch in its toolbar was a "button").
DRAWN = frozenset({ElementKind.IMAGE, ElementKind.BUTTON})
#: The box is grown by this share of its size each way to see the whole track.
GROW = 0.25
#: A pixel is the page's colour within this (sum of R, G, B).
PAGE = 40
STADIUM_IOU = 0.9
THUMB_CONTRAST = 60
#: A thumb over a thinner track: the track's height as a share of the thumb's (14 of 20
#: dp), measured on the far ``FAR_END`` of the shape's width, its middle within
#: ``TRACK_OFF_CENTRE`` of the thumb's, and the shape within ``THUMB_TRACK_IOU`` of the
#: ideal one.
THIN_TRACK = (0.4, 0.85)
FAR_END = 0.2
TRACK_OFF_CENTRE = 0.12
THUMB_TRACK_IOU = 0.85


def by_shape(element: Element) -> Element:
    """``element``, as a picture when it is a switch whose box is too narrow for one."""
    box = element.box
    if element.kind is ElementKind.SWITCH and box.width < SWITCH_RATIO * box.height:
        return dataclasses.replace(element, kind=ElementKind.IMAGE, checked=None)
    return element


def switch_drawn(pixels: RGB, element: Element) -> Element:
    """``element``, as a switch (the track's box) when it is a picture of one."""
    box = element.box
    dp = dp_size(pixels.shape[1], pixels.shape[0])
    if (
        element.kind not in DRAWN
        or element.text
        or not SQUARE_BOX <= box.width / max(1, box.height) <= TRACK_RATIO[1] * BOX_SLACK
        or box.height > TRACK_DP * dp * TALL_SLACK
    ):
        return element
    found = _track(pixels, box, dp)
    if found is None:
        return element
    track, checked = found
    return dataclasses.replace(
        element, kind=ElementKind.SWITCH, box=track, target=None, checked=checked
    )


#: Pixels further than this from a box's median colour (in any channel) are ink ...
RULE_INK = 24
#: ... and a box whose ink lies in rows at most this many dp tall (at least 2 pixels) ...
RULE_DP = 1.5
#: ... each of them inked across this share of the box's width, holds only a rule.
RULE_ACROSS = 0.8


def is_rule(pixels: RGB, box: Box, ink: npt.NDArray[np.bool_] | None = None) -> bool:
    """Whether ``box`` of ``pixels`` holds only a horizontal line across it (a divider):
    its ink in one band of rows at most ``RULE_DP`` tall, each row inked across
    ``RULE_ACROSS`` of the width; a box with no ink at all is not a rule. ``ink`` is the
    box's ``off_median(pixels, box, RULE_INK)`` where the caller has it already."""
    if ink is None:
        ink = off_median(pixels, box, RULE_INK)
    if ink is None or ink.shape[0] < 4:
        return False
    rows = np.flatnonzero(ink.any(axis=1))
    if rows.size == 0:
        return False
    dp = dp_size(pixels.shape[1], pixels.shape[0])
    if rows[-1] - rows[0] + 1 > max(2.0, RULE_DP * dp):
        return False
    return bool((ink[rows].mean(axis=1) >= RULE_ACROSS).all())


def blob_switch(pixels: RGB, element: Element) -> Element:
    """``element``, an icon found as a blob of ink, as a switch when it is a picture of
    one (:func:`switch_drawn`), else as it is."""
    if element.kind is not ElementKind.ICON:
        return element
    drawn = switch_drawn(pixels, dataclasses.replace(element, kind=ElementKind.IMAGE))
    return drawn if drawn.kind is ElementKind.SWITCH else element


def _track(pixels: RGB, box: Box, dp: float) -> tuple[Box, bool | None] | None:
    """The stadium with a thumb at one end around ``box`` (or a thumb over one end of a
    thinner track: then whether it is on), None when there is none. Seen on the box
    grown by ``GROW``, else on the box alone (a touch target inside a coloured bar,
    whose grown crop takes the page around the bar for the page)."""
    for grow in (GROW, 0.0):
        found = _track_in(pixels, box, dp, grow)
        if found is not None:
            return found
    return None


def _track_in(pixels: RGB, box: Box, dp: float, grow: float) -> tuple[Box, bool | None] | None:
    import cv2

    h, w = pixels.shape[:2]
    gx, gy = round(grow * box.width), round(grow * box.height)
    x1, y1 = max(0, box.x1 - gx), max(0, box.y1 - gy)
    x2, y2 = min(w, box.x2 + gx), min(h, box.y2 + gy)
    crop = pixels[y1:y2, x1:x2].astype(np.int16)
    if crop.shape[0] < 8 or crop.shape[1] < 8:
        return None
    outside = (colour_distance(crop, border_colour(crop)) <= PAGE).astype(np.uint8)
    # the page reached from the crop's edge; what it does not reach is the shape
    reached = np.zeros((crop.shape[0] + 2, crop.shape[1] + 2), np.uint8)
    seed = np.argwhere(outside[0])
    if not len(seed):
        return None
    cv2.floodFill(outside.copy(), reached, (int(seed[0][0]), 0), 2, 0, 0, cv2.FLOODFILL_MASK_ONLY)
    found = largest_part(reached[1:-1, 1:-1] == 0)
    if found is None:
        return None
    (sx, sy, sw, sh), part = found
    if not (TRACK_RATIO[0] <= sw / max(1, sh) <= TRACK_RATIO[1]) or sh > TRACK_DP * dp:
        return None
    if sx == 0 or sy == 0 or sx + sw >= crop.shape[1] or sy + sh >= crop.shape[0]:
        return None  # cut by the crop: larger than a switch
    mine = part[sy : sy + sh, sx : sx + sw]
    ideal = np.zeros((sh, sw), np.uint8)
    r = sh // 2
    cv2.rectangle(ideal, (r, 0), (sw - 1 - r, sh - 1), 1, -1)
    cv2.circle(ideal, (r, r), r, 1, -1)
    cv2.circle(ideal, (sw - 1 - r, r), r, 1, -1)
    both = float((mine & (ideal > 0)).sum())
    iou = both / max(1.0, float((mine | (ideal > 0)).sum()))
    checked: bool | None = None
    if iou < STADIUM_IOU:
        checked = _thumb_on_track(mine)
        if checked is None:
            return None
    if not _ends_differ(crop[sy : sy + sh, sx : sx + sw]):
        return None
    return Box.of(x1 + sx, y1 + sy, x1 + sx + sw, y1 + sy + sh), checked


#: Where a stadium's end meets its rim: this share of the track's height in from the
#: end, on the middle row (Material 3: the thumb, 16 or 24 dp wide, is centred 16 dp in
#: from the end of a 32 dp track, so a point 3 dp in lies on the track beside it).
RIM = 0.1
#: The thumb's end: its centre stands more than ``THUMB_CONTRAST`` from the rim there,
#: while the other end's centre lies within ``TRACK_EVEN`` of its own rim (the track).
TRACK_EVEN = 30


def thumb_on_right(pixels: RGB, box: Box) -> bool | None:
    """Whether a stadium switch in ``box`` has its thumb at the right end (on), at the
    left (off), or None when the pixels do not tell: the track found around the box
    (:func:`_track`, a stadium holding its thumb), then each end's centre against the
    track's rim beside it. Material 3's dark theme draws an on-switch as a dark thumb on
    a pale track (Seal's settings), which no accent colour marks. Only a switch in the
    screen's right half is read so, at a left-to-right row's end: a right-to-left layout
    mirrors a switch (on is the thumb at the left; Activity Launcher's Arabic settings
    put their switches at the rows' left ends), and one in the left half is left to the
    colour."""
    if box.center[0] <= pixels.shape[1] / 2:
        return None
    dp = dp_size(pixels.shape[1], pixels.shape[0])
    found = _track(pixels, box, dp)
    if found is None or found[1] is not None:
        return None  # no stadium, or a thumb over a thinner track (read there)
    t = found[0]
    crop = pixels[t.y1 : t.y2, t.x1 : t.x2].astype(np.int16)
    h, w = crop.shape[:2]
    r, k = h // 2, max(1, h // 8)
    rim = max(1, round(RIM * h))
    left = float(colour_distance(_end_colour(crop, r, 0.0, k), crop[r, rim]))
    right = float(colour_distance(_end_colour(crop, w - 1 - r, 0.0, k), crop[r, w - 1 - rim]))
    if left > THUMB_CONTRAST and right <= TRACK_EVEN:
        return False
    if right > THUMB_CONTRAST and left <= TRACK_EVEN:
        return True
    return None


#: The rings round each end's centre on which :func:`_ends_differ` compares the two ends,
#: as shares of the end's radius (0: a patch at the centre).
END_RINGS = (0.0, 0.4, 0.7)


def _ends_differ(shape: npt.NDArray[np.int16]) -> bool:
    """Whether the two ends of a stadium (``shape``, its box's pixels) differ by more
    than ``THUMB_CONTRAST`` at the centre or on a ring round it (``END_RINGS``, the
    median of 12 points each): a thumb at one end. A glyph on the thumb (TrackerControl's
    rocket, in the track's green) hides its centre, not its ring."""
    h, w = shape.shape[:2]
    r, k = h // 2, max(1, h // 16)
    for share in END_RINGS:
        left = _end_colour(shape, r, share, k)
        right = _end_colour(shape, w - 1 - r, share, k)
        if float(np.abs(left - right).sum()) > THUMB_CONTRAST:
            return True
    return False


_ANGLES = np.linspace(0.0, 2 * np.pi, 12, endpoint=False)


def _end_colour(shape: npt.NDArray[np.int16], x: int, share: float, k: int) -> npt.NDArray[Any]:
    """The median colour round the point ``x`` of a stadium's middle row (``shape``, its
    box's pixels): on a ring of 12 points ``share`` of the half-height out, or (``share``
    0) in a square reaching ``k`` pixels each way."""
    h, w = shape.shape[:2]
    if share == 0.0:
        square = np.arange(-k, k + 1)
        dx, dy = np.repeat(square, square.size), np.tile(square, square.size)
    else:
        dx = np.rint(share * (h // 2) * np.cos(_ANGLES)).astype(int)
        dy = np.rint(share * (h // 2) * np.sin(_ANGLES)).astype(int)
    return np.asarray(
        np.median(shape[np.clip(h // 2 + dy, 0, h - 1), np.clip(x + dx, 0, w - 1)], axis=0)
    )


def _thumb_on_track(mine: np.ndarray) -> bool | None:
    """Whether ``mine`` (a shape's mask, cut to its box) is a thumb on a thinner track
    (Material 2, Android 7-11's settings: a 20 dp disc over one end of a 14 dp track,
    ``THIN_TRACK`` of its height): on (the thumb at the right end), off (at the left),
    None when it is not such a switch."""
    import cv2

    sh, sw = mine.shape
    far = max(2, round(FAR_END * sw))
    left_thumb = mine[:, :far].sum() > mine[:, -far:].sum()
    ends = mine[:, -far:] if left_thumb else mine[:, :far]
    heights = ends.sum(axis=0)
    t = int(np.median(heights))
    if not THIN_TRACK[0] * sh <= t <= THIN_TRACK[1] * sh:
        return None
    rows = np.flatnonzero(ends.any(axis=1))
    middle = (rows[0] + rows[-1]) / 2 if len(rows) else 0.0
    if abs(middle - (sh - 1) / 2) > TRACK_OFF_CENTRE * sh:
        return None
    ideal = np.zeros((sh, sw), np.uint8)
    r, tr, cy = sh // 2, t // 2, sh // 2
    thumb_x = r if left_thumb else sw - 1 - r
    far_x = sw - 1 - tr if left_thumb else tr
    cv2.rectangle(ideal, (min(thumb_x, far_x), cy - tr), (max(thumb_x, far_x), cy + tr), 1, -1)
    cv2.circle(ideal, (far_x, cy), tr, 1, -1)
    cv2.circle(ideal, (thumb_x, cy), r, 1, -1)
    both = float((mine & (ideal > 0)).sum())
    if both / max(1.0, float((mine | (ideal > 0)).sum())) < THUMB_TRACK_IOU:
        return None
    return not left_thumb
