"""Controls drawn over every picture of a grid: a photo picker's expand or select
badge, a video thumbnail's play mark.

A gallery or file picker draws the same small white glyph (⤢, ○, ▶) over each
thumbnail, and a person taps it. The detector reads each thumbnail as one picture,
and the blob finder (:mod:`screenpilot.vision.blobs`) does not look inside pictures,
where a photo's content would pass for icons. What is drawn the same on three or
more pictures is not a photo's content, so this finder:

1. marks white ink (bright, without colour) inside the pictures and joins each
   glyph's strokes (the four arrows of ⤢);
2. keeps glyphs of an icon's size and shape whose mask repeats (same size within
   :data:`SAME_SIZE` of the screen's width, masks at IoU >= :data:`SAME_SHAPE`) on at
   least :data:`MIN_PICTURES` pictures;
3. looks for each kept glyph on every picture by template matching, as a photo's
   own white (a plate, the sky) touching the badge hides it from step 1.

Each glyph becomes a clickable ``icon`` (labelled by the icon model) with a low
confidence. On 160 screens of the harvest's train apps (``bench/real.py``'s
``spread(train, 160)``) this found the expand badges of a file picker's photo grid.

    >>> icons = find_overlays(pixels, pictures, texts)  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.density import short_side
from screenpilot.vision.image import mask_bounds

#: Pictures looked in: each side at least this share of the screen's width.
MIN_PICTURE = 0.15
#: A glyph repeated on this many pictures is drawn over them.
MIN_PICTURES = 3
#: White ink: every channel at least this bright, and channels within this of each other.
BRIGHT, GREY_SPREAD = 225, 30
#: A glyph's strokes are joined across this share of the screen's width.
JOIN = 0.01
#: A glyph's side as a share of the screen's width (as the blob finder's icons).
MIN_SIDE, MAX_SIDE = 0.03, 0.11
#: Two glyphs are the same when their sides differ by at most this share of the
#: screen's width and their masks (resized to :data:`SIGNATURE` px) overlap this much.
SAME_SIZE, SAME_SHAPE = 0.006, 0.7
SIGNATURE = 16
#: A template match this good (normalised correlation) is the glyph.
MATCH = 0.8
CONFIDENCE = 0.3
#: OCR's read of a glyph as letters is this short ("K", "KY").
MAX_MISREAD = 2


@dataclass(frozen=True)
class _Glyph:
    picture: int
    box: Box
    mask: np.ndarray  # SIGNATURE x SIGNATURE bool


def find_overlays(
    pixels: np.ndarray, pictures: Sequence[Box], texts: Sequence[Element]
) -> list[Element]:
    """Icons drawn over at least :data:`MIN_PICTURES` of ``pictures`` on ``pixels``
    (H x W x 3 RGB). Glyphs that a word of ``texts`` touches are left to OCR; a
    read of :data:`MAX_MISREAD` characters or fewer is OCR taking the glyph for a
    letter (⤢ read as "K"), which :func:`drop_misreads` removes."""
    w = short_side(pixels.shape[1], pixels.shape[0])  # sizes from the short side
    large = [p for p in pictures if min(p.width, p.height) >= MIN_PICTURE * w]
    if len(large) < MIN_PICTURES:
        return []
    words = [t.box for t in texts if len((t.text or "").strip()) > MAX_MISREAD]
    glyphs = [g for i, p in enumerate(large) for g in _glyphs(pixels, p, i, w)]
    glyphs = [g for g in glyphs if not any(t.intersection(g.box) > 0.3 * g.box.area for t in words)]
    found: list[Box] = []
    for g in glyphs:
        pictures_with = {o.picture for o in glyphs if _same(g, o, w)}
        if len(pictures_with) < MIN_PICTURES or any(g.box.iou(f) > 0.3 for f in found):
            continue
        found.append(g.box)
        for box in _matches(pixels, g.box, large):
            if not any(box.iou(f) > 0.3 for f in found):
                found.append(box)
    return [
        Element(0, ElementKind.ICON, box, clickable=True, confidence=CONFIDENCE) for box in found
    ]


def drop_misreads(texts: Sequence[Element], icons: Sequence[Element]) -> list[Element]:
    """``texts`` without the reads of :data:`MAX_MISREAD` characters or fewer whose
    centre lies on one of ``icons`` (OCR reading the glyph as a letter)."""
    return [
        t
        for t in texts
        if len((t.text or "").strip()) > MAX_MISREAD
        or not any(i.box.contains(*t.box.center) for i in icons)
    ]


def _glyphs(pixels: np.ndarray, picture: Box, index: int, w: int) -> list[_Glyph]:
    """Icon-sized white glyphs inside ``picture``."""
    import cv2

    x1, y1 = int(picture.x1), int(picture.y1)
    crop = pixels[y1 : int(picture.y2), x1 : int(picture.x2)].astype(np.int16)
    lo, hi = crop.min(axis=2), crop.max(axis=2)
    ink = ((lo >= BRIGHT) & (hi - lo <= GREY_SPREAD)).astype(np.uint8)
    grow = max(1, round(JOIN * w))
    joined = cv2.dilate(ink, np.ones((2 * grow + 1, 2 * grow + 1), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    out: list[_Glyph] = []
    for i in range(1, count):
        x, y, bw, bh, _ = (int(v) for v in stats[i])
        own = (labels[y : y + bh, x : x + bw] == i) & (ink[y : y + bh, x : x + bw] > 0)
        bounds = mask_bounds(own)
        if bounds is None:
            continue
        bx1, by1, bx2, by2 = bounds
        own = own[by1:by2, bx1:bx2]
        gh, gw = own.shape
        if not (MIN_SIDE * w <= max(gw, gh) <= MAX_SIDE * w and 0.5 <= gw / gh <= 2.0):
            continue
        small = cv2.resize(
            own.astype(np.uint8) * 255, (SIGNATURE, SIGNATURE), interpolation=cv2.INTER_AREA
        )
        gx, gy = x1 + x + bx1, y1 + y + by1
        out.append(_Glyph(index, Box.of(gx, gy, gx + gw, gy + gh), small > 127))
    return out


def _same(a: _Glyph, b: _Glyph, w: int) -> bool:
    if (
        abs(a.box.width - b.box.width) > SAME_SIZE * w
        or abs(a.box.height - b.box.height) > SAME_SIZE * w
    ):
        return False
    return bool((a.mask & b.mask).sum() >= SAME_SHAPE * (a.mask | b.mask).sum())


def _matches(pixels: np.ndarray, glyph: Box, pictures: Sequence[Box]) -> list[Box]:
    """Where the picture under ``glyph`` (its grey levels) recurs on ``pictures``."""
    import cv2

    grey = cv2.cvtColor(np.ascontiguousarray(pixels), cv2.COLOR_RGB2GRAY)
    template = grey[int(glyph.y1) : int(glyph.y2), int(glyph.x1) : int(glyph.x2)]
    th, tw = template.shape
    out: list[Box] = []
    for p in pictures:
        x1, y1 = int(p.x1), int(p.y1)
        area = grey[y1 : int(p.y2), x1 : int(p.x2)]
        if area.shape[0] < th or area.shape[1] < tw:
            continue
        score = cv2.matchTemplate(area, template, cv2.TM_CCOEFF_NORMED)
        _, best, _, (bx, by) = cv2.minMaxLoc(score)
        if best >= MATCH:
            out.append(Box.of(x1 + bx, y1 + by, x1 + bx + tw, y1 + by + th))
    return out
