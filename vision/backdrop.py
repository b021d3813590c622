"""Pictures on a busy backdrop: app icons on a wallpaper, a camera's shutter button.

:func:`screenpilot.vision.blobs.find_icons` measures ink against each row's
background colour, which holds on a plain page but not on a wallpaper's gradient or a
camera's view: there the whole row differs from its median and no icon-sized blob
comes out. Nor does the detector, trained on app screens, return a launcher's dock
icons. This finder compares each pixel with the median of its neighbourhood instead
(``WINDOW`` of the screen's width across, taken on a copy about half ``SMALL_WIDTH`` px
wide; the blobs are found on one ``SMALL_WIDTH`` px wide), so a smooth backdrop is
background wherever it is. A connected blob that differs from it by more than
``CONTRAST`` is kept when

- it is a picture's size: each side ``MIN_SIDE``-``MAX_SIDE`` of the screen's width,
  at most ``MAX_ASPECT`` times as long as wide, its box at least ``FILL`` ink;
- it stands apart: at most ``SAME`` of a ring around it (``RING`` of its side wide)
  has the blob's own colour. A large panel's corner, where the neighbourhood's median
  turns from the page to the panel, continues past the blob's box and fails this, as
  does a patch of a photo;
- nothing describe found already covers a tenth of it (a button more than ``LARGER``
  times its area does not count: a launcher's dock found as one button), and it lies
  below the status bar.

A blob too large for a picture may hold pictures that touch something else unlike the
wallpaper: the emulator's default home screen stands its dock's round icons on a dark
hill's ridge, so icons, hill and search bar are one blob. Such a blob, a band across the
screen's lower half (``DOCK_WIDTH``, ``DOCK_TOP``, ``MAX_SPLIT_AREA``), is split by
colour (:func:`_split_by_colour`: k-means groups of its box, the large groups backdrop)
and its parts pass the same tests; a part is kept only in a row of pictures
(:func:`in_a_row`), which a patch of a photo split out the same way is not.

On 300 screens of the harvest's train apps (none of the held-out apps) it found 18
pictures that nothing else had: launcher icons, shutter buttons, a chat bubble, a
camera's "add" glyph, two arrow buttons, a logo, and one patch of a video frame; tap
targets hit 2693 -> 2698 and matched 2288 -> 2292 of 2872 (models/MODELS.md).

    >>> pictures = find_backdrop_pictures(pixels, known_boxes)   # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.blobs import content_area
from screenpilot.vision.density import scaled_side, short_side
from screenpilot.vision.image import colour_distance

#: The screen is searched on a copy about this many pixels wide.
SMALL_WIDTH = 270
#: The neighbourhood whose median colour is the backdrop, as a share of the width.
WINDOW = 0.3
#: A pixel is ink when its colour differs from the backdrop's by more than this
#: (sum over R, G, B).
CONTRAST = 60
#: A picture's side as a share of the screen's width (an app icon is ~0.12-0.15).
MIN_SIDE, MAX_SIDE = 0.06, 0.2
#: At most this many times as long as wide.
MAX_ASPECT = 1.6
#: At least this share of the blob's box is ink.
FILL = 0.35
#: The ring looked at around a blob, as a share of its longer side ...
RING = 0.2
#: ... of which at most this share may have the blob's own colour.
SAME = 0.25
#: Known boxes covering this share of a blob take it; a button the detector found takes
#: it only when at most ``LARGER`` times its area: a larger one is a panel the blob lies
#: on (a launcher's dock, a tile, reported as one button), not the blob itself. A
#: picture of any size takes it (a sun in a photo is no icon).
COVERED = 0.1
LARGER = 6.0
CONFIDENCE = 0.3
#: A blob larger than a picture (icons touching a wallpaper's dark hill, a dock's bar)
#: is split by colour into this many groups ...
SPLIT_COLOURS = 6
#: ... those covering this share of its box being backdrop, the rest parts ...
BACKDROP_SHARE = 0.15
#: ... unless the blob's box covers this share of the screen (a photo, a page) ...
MAX_SPLIT_AREA = 0.25
#: ... or is not a dock's band: as wide as this share of the screen, its top in the
#: screen's lower part (below this share of its height). A video frame or a photo
#: split the same way gives patches of itself.
DOCK_WIDTH, DOCK_TOP = 0.9, 0.5
#: A part split out of a larger blob is a picture only in a row of them: beside another
#: at most this many times its side (or the reverse) ...
ROW_SIZE = 2.0
#: ... whose middle is level with its own to this share of the larger side.
ROW_LEVEL = 0.25


def _stands_apart(small: np.ndarray, ink: np.ndarray, x: int, y: int, bw: int, bh: int) -> bool:
    """Whether the ring around the blob at ``(x, y, bw, bh)`` of ``small`` is mostly
    not the blob's own colour (the median colour of its ink, ``ink`` its mask)."""
    sh, sw = small.shape[:2]
    colour = np.median(small[y : y + bh, x : x + bw][ink], axis=0)
    g = max(2, round(RING * max(bw, bh)))
    x1, y1, x2, y2 = max(0, x - g), max(0, y - g), min(sw, x + bw + g), min(sh, y + bh + g)
    ring = np.ones((y2 - y1, x2 - x1), bool)
    ring[y - y1 : y - y1 + bh, x - x1 : x - x1 + bw] = False
    around = small[y1:y2, x1:x2][ring]
    return bool(around.size) and float((colour_distance(around, colour) <= CONTRAST).mean()) <= SAME


def find_backdrop_pictures(
    pixels: np.ndarray, known: Sequence[Box], *, panels: Sequence[Box] = ()
) -> list[Element]:
    """Picture-sized blobs on ``pixels`` (H x W x 3 RGB) that differ from their
    neighbourhood and that no box of ``known`` covers, nor one of ``panels`` (buttons)
    of about their size, as clickable ``icon`` elements."""
    import cv2

    h, w = pixels.shape[:2]
    step = max(1, round(short_side(w, h) / SMALL_WIDTH))  # sizes from the short side
    small_u8 = np.ascontiguousarray(pixels[::step, ::step, :3], dtype=np.uint8)
    sh, sw = small_u8.shape[:2]
    span = scaled_side(sh, sw, w, h)
    # the backdrop is smooth: its median is taken at half that scale, four times faster
    half = np.ascontiguousarray(small_u8[::2, ::2])
    window = max(3, round(WINDOW * min(half.shape[:2])) | 1)
    if min(half.shape[:2]) < window:
        return []
    backdrop = cv2.resize(
        cv2.medianBlur(half, window), (sw, sh), interpolation=cv2.INTER_LINEAR
    ).astype(np.int16)
    small = small_u8.astype(np.int16)
    raw = (colour_distance(small, backdrop) > CONTRAST).astype(np.uint8)
    mask = cv2.dilate(raw, np.ones((3, 3), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    lo, hi = MIN_SIDE * span, MAX_SIDE * span
    top = content_area(w, h).y1
    blobs: list[tuple[int, int, int, int, np.ndarray, int]] = []
    for i in range(1, count):
        x, y, bw, bh, _ = (int(v) for v in stats[i])
        if bw > hi or bh > hi:
            blobs += _split_by_colour(small, raw, (x, y, bw, bh), lo, hi)
            continue
        # the dilation grew the blob by a pixel each side at the small scale
        blobs.append((x, y, bw, bh, raw[y : y + bh, x : x + bw].astype(bool), 1))
    found: list[Element] = []
    parts: list[Element] = []  # split out of a larger blob: kept in a row of their like
    for x, y, bw, bh, ink, grown in blobs:
        if not (lo <= bw <= hi and lo <= bh <= hi) or max(bw, bh) > MAX_ASPECT * min(bw, bh):
            continue
        if float(ink.mean()) < FILL or not _stands_apart(small, ink, x, y, bw, bh):
            continue
        box = Box.of(
            min(w, (x + grown) * step),
            min(h, (y + grown) * step),
            min(w, (x + bw - grown) * step),
            min(h, (y + bh - grown) * step),
        )
        if box.y1 < top or _covered(box, known, panels):
            continue
        icon = Element(0, ElementKind.ICON, box, clickable=True, confidence=CONFIDENCE)
        (found if grown else parts).append(icon)
    # pictures found otherwise, of a picture's size and about square, may stand in the row
    pictures = [
        b for b in (*known, *(e.box for e in found)) if _picture_sized(b, lo * step, hi * step)
    ]
    return found + in_a_row(parts, pictures)


def _picture_sized(box: Box, lo: float, hi: float) -> bool:
    side, short = max(box.width, box.height), min(box.width, box.height)
    return lo <= short and side <= hi and side <= MAX_ASPECT * short


def in_a_row(parts: Sequence[Element], others: Sequence[Box] = ()) -> list[Element]:
    """The ``parts`` that lie in a row of pictures (a dock): beside a part or one of
    ``others`` (pictures found otherwise) of about their size (``ROW_SIZE``), their
    middles level (``ROW_LEVEL`` of the larger side), or level with two such. A patch of
    a photo split out by colour has none."""
    boxes = [e.box for e in parts] + list(others)
    sides = [max(b.width, b.height) for b in boxes]

    def level(i: int, j: int) -> bool:
        gap = abs(boxes[i].center[1] - boxes[j].center[1])
        return i != j and gap <= ROW_LEVEL * max(sides[i], sides[j])

    def like(i: int, j: int) -> bool:
        return level(i, j) and max(sides[i], sides[j]) <= ROW_SIZE * min(sides[i], sides[j])

    everyone = range(len(boxes))
    anchors = {i for i in everyone if any(like(i, j) for j in everyone)}
    return [
        e for i, e in enumerate(parts) if i in anchors or sum(level(i, j) for j in anchors) >= 2
    ]


def _split_by_colour(
    small: np.ndarray, raw: np.ndarray, blob: tuple[int, int, int, int], lo: float, hi: float
) -> list[tuple[int, int, int, int, np.ndarray, int]]:
    """The picture-sized parts of a blob too large to be one picture (``blob``: x, y,
    width, height of its box in ``small``; ``raw``: the pixels unlike the backdrop).
    The box's pixels fall in ``SPLIT_COLOURS`` colour groups (k-means); a group covering
    ``BACKDROP_SHARE`` of the box is backdrop (the wallpaper beside a hill, the hill, a
    search bar), and each connected part of the other ``raw`` pixels at least ``lo`` on
    each side is a blob (x, y, width, height, ink, 0) for
    :func:`find_backdrop_pictures`' tests. Only a dock's band is split: at most
    ``MAX_SPLIT_AREA`` of the screen, ``DOCK_WIDTH`` of its width, its top below
    ``DOCK_TOP`` of its height."""
    import cv2

    x, y, bw, bh = blob
    sh, sw = small.shape[:2]
    if bw * bh > MAX_SPLIT_AREA * sh * sw or min(bw, bh) < lo:
        return []
    if bw < DOCK_WIDTH * sw or y < DOCK_TOP * sh:  # not a band across the screen's foot
        return []
    pixels = np.ascontiguousarray(small[y : y + bh, x : x + bw].reshape(-1, 3), np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 10, 1.0)
    cv2.setRNGSeed(0)  # k-means++ seeds: the same screen gives the same parts
    _, groups, _ = cv2.kmeans(pixels, SPLIT_COLOURS, None, criteria, 1, cv2.KMEANS_PP_CENTERS)
    groups = groups.reshape(bh, bw)
    share = np.bincount(groups.ravel(), minlength=SPLIT_COLOURS) / groups.size
    rest = ((share[groups] < BACKDROP_SHARE) & (raw[y : y + bh, x : x + bw] > 0)).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(rest, connectivity=8)
    out = []
    for j in range(1, count):
        px, py, pw, ph, _ = (int(v) for v in stats[j])
        if lo <= pw <= hi and lo <= ph <= hi:
            ink = np.asarray(labels[py : py + ph, px : px + pw] == j)
            out.append((x + px, y + py, pw, ph, ink, 0))
    return out


def _covered(box: Box, known: Sequence[Box], panels: Sequence[Box]) -> bool:
    """Whether a box of ``known``, or one of ``panels`` at most ``LARGER`` times
    ``box``'s area, covers more than ``COVERED`` of it."""
    least = COVERED * box.area
    if any(k.intersection(box) > least for k in known):
        return True
    return any(p.intersection(box) > least and p.area <= LARGER * box.area for p in panels)
