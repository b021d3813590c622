"""Round icon buttons the detector missed: a plain filled disc (or rounded square)
holding one small glyph.

Material's tonal and filled icon buttons (a quantity stepper's "-" and "+", a
floating action button, a call button) are a flat patch of one colour, often of
low contrast with the page (a light grey disc on white), with a glyph in its
middle. The detector, trained mostly on synthetic screens, misses some of them,
and a task hinges on them ("make it 2 backpacks"). Their look is fixed, so the
pixels decide: a component of pixels that differ from their row's background,
about square, of a button's size (5-16 % of the screen's width: 32-64 dp), most
of its box one even colour, and inside it a glyph of another colour that is small
and centred. A letter in a disc (a contact's avatar) is read by OCR, so a disc
any text covers is left out, as are discs inside a larger picture (a photo) and
those in the status bar. Each becomes a clickable ``icon`` (labelled later by the
icon model) with a low confidence.

    >>> widgets = add_discs(widgets, find_discs(pixels, texts, pictures))  # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.blobs import Page, off_background
from screenpilot.vision.density import scaled_side, short_side
from screenpilot.vision.image import colour_distance, mask_bounds

#: A button's side as a share of the screen's width (32-64 dp on 411 dp).
MIN_SIDE, MAX_SIDE = 0.05, 0.16
#: A pixel is off the row's background when its colour differs by this (sum of R, G, B):
#: low, as tonal buttons are a light grey on white.
OFF_BACKGROUND = 14
#: The fill: pixels within this of the patch's commonest colour (sum of R, G, B).
EVEN = 18
#: The fill's share of the box: a disc is 0.785 of its box, a rounded square more;
#: the glyph takes its share out.
MIN_FILL, MAX_FILL = 0.5, 0.97
#: The glyph: pixels this far from the fill's colour (sum of R, G, B) ...
GLYPH_CONTRAST = 120
#: ... making this share of the inner box, and no wider than this share of the side.
MIN_GLYPH, MAX_GLYPH = 0.02, 0.4
MAX_GLYPH_SIDE = 0.75
#: The status bar ends this far down the screen.
STATUS_BAR = 0.035
CONFIDENCE = 0.35
#: Detected kinds that take a disc's box when they are the disc.
SNAPPED = frozenset({ElementKind.IMAGE, ElementKind.ICON, ElementKind.BUTTON})
#: A disc's glyph is cut out for the icon model with this share of each side off.
INSET = 0.18
#: A picture's box holds the page round its button when at least this share of the
#: box's edge is not the button's fill (a disc touches its box's edge at 4 points).
MIN_PAGE_EDGE = 0.5


def _fill_colour(patch: np.ndarray) -> np.ndarray:
    """The commonest colour of ``patch`` (H x W x 3 int16), read on a coarse grid."""
    q = (patch // 8).reshape(-1, 3)
    keys = (q[:, 0].astype(np.int32) << 10) | (q[:, 1].astype(np.int32) << 5) | q[:, 2]
    values, counts = np.unique(keys, return_counts=True)
    best = int(values[int(np.argmax(counts))])
    mode = np.array([(best >> 10) & 31, (best >> 5) & 31, best & 31], np.int16) * 8 + 4
    flat = patch.reshape(-1, 3)
    near = colour_distance(flat, mode) <= EVEN  # never empty: the mode's own pixels
    # ``flat[near].mean(axis=0)`` a channel at a time: the same values (integer sums,
    # divided once), a ninth of the time of a mean down the rows of an N x 3 array
    count = int(np.count_nonzero(near))
    return np.array([np.add.reduce(flat[:, c][near], dtype=np.int64) for c in range(3)]) / count


def _is_disc(patch: np.ndarray, background: np.ndarray, fill: np.ndarray) -> bool:
    """Whether ``patch`` (the component's box, H x W x 3 int16) is a plain fill of one
    colour, unlike the background, with a small centred glyph."""
    h, w = patch.shape[:2]
    if float(np.abs(fill - background).sum()) < OFF_BACKGROUND:
        return False
    near = colour_distance(patch, fill) <= EVEN
    share = float(near.mean())
    if not MIN_FILL <= share <= MAX_FILL:
        return False
    # the box's corners of a disc are background; its edge middles are fill
    mid = [near[h // 2, 1], near[h // 2, w - 2], near[1, w // 2], near[h - 2, w // 2]]
    if sum(mid) < 3:
        return False
    return _has_glyph(patch, fill)


def _has_glyph(patch: np.ndarray, fill: np.ndarray, outside: np.ndarray | None = None) -> bool:
    """Whether the middle of ``patch`` holds one small centred mark unlike ``fill``
    (``outside``: the page round the button inside ``patch``, :func:`_page_round`,
    not a mark where it reaches the patch's edge)."""
    h, w = patch.shape[:2]
    inner = patch[h // 5 : h - h // 5, w // 5 : w - w // 5]
    glyph = colour_distance(inner, fill) >= GLYPH_CONTRAST
    if not MIN_GLYPH <= float(glyph.mean()) <= MAX_GLYPH:
        return False
    bounds = mask_bounds(glyph)
    if bounds is None:
        return False
    gx1, gy1, gx2, gy2 = bounds
    if gy2 - gy1 > MAX_GLYPH_SIDE * h or gx2 - gx1 > MAX_GLYPH_SIDE * w:
        return False
    # the glyph is centred: its box's middle near the inner box's middle
    ih, iw = glyph.shape
    cy, cx = (gy1 + gy2 - 1) / 2, (gx1 + gx2 - 1) / 2
    if abs(cy - ih / 2) > 0.2 * ih or abs(cx - iw / 2) > 0.2 * iw:
        return False
    # nothing of the glyph's colour touches the disc's edge (a card's text would)
    ring = np.ones((h, w), bool)
    ring[2:-2, 2:-2] = False
    edge = colour_distance(patch[ring], fill) >= GLYPH_CONTRAST
    if outside is not None:
        edge &= ~outside[ring]
    return float(edge.mean()) < 0.35


def glyph_crop(pixels: np.ndarray, box: Box) -> Box:
    """The part of a picture's ``box`` on ``pixels`` that the icon model should see: a
    button drawn as a plain fill with a glyph in its middle is cut to its middle (the
    model knows glyphs, not discs: a stepper's "+" in its grey disc scores 0.72 for
    "add", its middle 0.9999); any other picture is left whole."""
    if box.width < 8 or box.height < 8 or not 0.67 <= box.width / box.height <= 1.5:
        return box
    patch = pixels[box.y1 : box.y2, box.x1 : box.x2].astype(np.int16)
    fill = _fill_colour(patch)
    if float((colour_distance(patch, fill) <= EVEN).mean()) < MIN_FILL:
        return box
    outside = _page_round(patch, fill)
    if not _has_glyph(patch, fill, outside):
        return box
    dx, dy = round(box.width * INSET), round(box.height * INSET)
    margin = np.ones(patch.shape[:2], bool)
    margin[dy:-dy, dx:-dx] = False
    marks = colour_distance(patch, fill) >= GLYPH_CONTRAST
    if outside is not None:
        marks &= ~outside
    if float(marks[margin].mean()) > 0.01:
        return box  # the glyph reaches into the margin: the box is cut to it already
    return Box.of(box.x1 + dx, box.y1 + dy, box.x2 - dx, box.y2 - dy)


def _page_round(patch: np.ndarray, fill: np.ndarray) -> np.ndarray | None:
    """Where ``patch`` (a picture's box) shows the page round a button of colour
    ``fill`` (a floating action button's disc, with the page and the disc's shadow at
    the box's corners): the pixels unlike the fill that join the box's edge through
    pixels unlike it, when they make most of the box's edge; else ``None`` (the box is
    the button's own fill to its edge)."""
    import cv2

    off = np.ascontiguousarray((colour_distance(patch, fill) > EVEN).astype(np.uint8))
    edge = np.concatenate([off[0], off[-1], off[:, 0], off[:, -1]])
    if float(edge.mean()) < MIN_PAGE_EDGE:
        return None
    _, labels = cv2.connectedComponents(off, connectivity=4)
    rim = np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]])
    joined = np.unique(rim[rim > 0])
    return np.isin(labels, joined)


def _bounded(img: np.ndarray, x: int, y: int, bw: int, bh: int, fill: np.ndarray) -> bool:
    """Whether the box ``x, y, bw, bh`` of ``img`` stands on a plain surround of
    another colour than ``fill``: a band of a few pixels around it, the box clear of
    the image's edges (a search bar's rounded ends, a row's coloured patch are not)."""
    pad = max(2, min(bw, bh) // 10)
    h, w = img.shape[:2]
    if x - pad < 0 or y - pad < 0 or x + bw + pad > w or y + bh + pad > h:
        return False
    outer = img[y - pad : y + bh + pad, x - pad : x + bw + pad]
    ring = np.ones(outer.shape[:2], bool)
    ring[pad:-pad, pad:-pad] = False
    band = outer[ring]
    if float((colour_distance(band, fill) <= EVEN).mean()) > 0.1:
        return False
    surround = np.median(band, axis=0)
    return float((colour_distance(band, surround) <= 2 * EVEN).mean()) >= 0.8


def find_discs(
    pixels: np.ndarray,
    texts: Sequence[Box],
    pictures: Sequence[Box],
    *,
    page: Page | None = None,
) -> list[Box]:
    """Boxes of disc buttons on ``pixels`` (H x W x 3 RGB) that no box of ``texts``
    touches and no box of ``pictures`` (photos, much larger) holds. ``page``:
    ``pixels``' ``vision.blobs.Page``, when the caller has it."""
    import cv2

    height = pixels.shape[0]
    img, background, mask, step = off_background(pixels, OFF_BACKGROUND, page)
    w = scaled_side(img.shape[0], img.shape[1], pixels.shape[1], height)  # from the short side
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    lo, hi = MIN_SIDE * w, MAX_SIDE * w
    found: list[Box] = []
    # the shape's tests on every component at once (a screen has thousands, few disc-sized)
    ys, ws, hs, areas = (stats[:, k].astype(np.int64) for k in (1, 2, 3, 4))
    aspect = ws / np.maximum(hs, 1)
    sized = (lo <= ws) & (ws <= hi) & (lo <= hs) & (hs <= hi) & (aspect >= 0.8) & (aspect <= 1.25)
    solid = (areas >= MIN_FILL * ws * hs) & (ys * step >= STATUS_BAR * height)
    for i in np.flatnonzero(sized & solid).tolist():
        if i == 0:
            continue  # the background
        x, y, bw, bh, _ = (int(v) for v in stats[i])
        rows = background[y : y + bh]
        patch = img[y : y + bh, x : x + bw]
        fill = _fill_colour(patch)
        if not _is_disc(patch, rows.mean(axis=0), fill):
            continue
        if not _bounded(img, x, y, bw, bh, fill):
            continue
        box = Box.of(x * step, y * step, (x + bw) * step, (y + bh) * step)
        if any(t.intersection(box) > 0.1 * box.area for t in texts):
            continue
        if any(p.intersection(box) > 0.5 * box.area and p.area > 4 * box.area for p in pictures):
            continue
        found.append(box)
    return found


def add_discs(widgets: Sequence[Element], discs: Sequence[Box]) -> list[Element]:
    """``widgets`` with each disc button: a widget without text that is the disc
    (IoU >= 0.5) takes the disc's box (the button's whole extent, and a crop the
    icon model reads), any other disc is a new clickable ``icon``."""
    out = list(widgets)
    for disc in discs:
        same = [i for i, e in enumerate(out) if e.box.iou(disc) >= 0.5]
        if not same:
            out.append(Element(0, ElementKind.ICON, disc, clickable=True, confidence=CONFIDENCE))
            continue
        for i in same:
            if not out[i].text and out[i].kind in SNAPPED:
                out[i] = dataclasses.replace(out[i], box=disc, clickable=True)
    return out


#: Round buttons are looked for by their outline on the screen scaled to this width.
CIRCLES_WIDTH = 360
#: Hough transform settings: the edge threshold, and the votes a circle needs.
EDGES, VOTES = 120, 25
#: A round button's radius as a share of the screen's width (20-66 dp on 411 dp).
MIN_RADIUS, MAX_RADIUS = 0.025, 0.08


def find_round_buttons(pixels: np.ndarray, texts: Sequence[Box]) -> list[Box]:
    """Boxes of round buttons on ``pixels`` (H x W x 3 RGB) found by their outline,
    on any surround (a map, a photo, a gradient) where :func:`find_discs` needs a
    plain one: a circle (Hough transform) whose inside is one even colour, unlike the
    ring around it, holding a small glyph in its middle that stays clear of its rim.
    Circles that a box of ``texts`` touches, or in the status bar, are left out."""
    import cv2

    height, width = pixels.shape[:2]
    # averaged down (a stride's jagged rims get no votes), the short side to CIRCLES_WIDTH
    step = short_side(width, height) / CIRCLES_WIDTH
    size = (max(1, round(width / step)), max(1, round(height / step)))
    img = cv2.resize(np.ascontiguousarray(pixels), size, interpolation=cv2.INTER_AREA)
    grey = cv2.medianBlur(cv2.cvtColor(img, cv2.COLOR_RGB2GRAY), 3)
    w = CIRCLES_WIDTH  # the copy's span: its short side (a tablet's: a phone's 411 dp)
    found = cv2.HoughCircles(
        grey,
        cv2.HOUGH_GRADIENT,
        dp=1,
        minDist=2 * MIN_RADIUS * w,
        param1=EDGES,
        param2=VOTES,
        minRadius=max(3, int(MIN_RADIUS * w)),
        maxRadius=int(MAX_RADIUS * w),
    )
    if found is None:
        return []
    colours = img.astype(np.int16)
    out: list[Box] = []
    for x, y, r in found[0]:
        xyxy = _round_button(colours, float(x), float(y), float(r))
        if xyxy is None:
            continue
        box = Box.of(*(v * step for v in xyxy))
        if box.y1 < STATUS_BAR * height or any(t.intersection(box) > 0.1 * box.area for t in texts):
            continue
        out.append(box)
    return out


def _round_button(
    img: np.ndarray, x: float, y: float, r: float
) -> tuple[int, int, int, int] | None:
    """The box (x1, y1, x2, y2 on ``img``) of the circle at ``x, y`` of radius ``r``
    when it is a round button, else None."""
    pad = max(2, round(0.3 * r))
    x1, y1, x2, y2 = int(x - r), int(y - r), int(x + r) + 1, int(y + r) + 1
    h, w = img.shape[:2]
    if x1 - pad < 0 or y1 - pad < 0 or x2 + pad > w or y2 + pad > h:
        return None
    outer = img[y1 - pad : y2 + pad, x1 - pad : x2 + pad]
    yy, xx = np.mgrid[y1 - pad : y2 + pad, x1 - pad : x2 + pad]
    d = np.hypot(xx - x, yy - y)
    inside = d <= 0.92 * r
    fill = _fill_colour(outer[inside][None])
    ring = outer[(d >= 1.08 * r) & (d <= 1.25 * r)]
    if (colour_distance(ring, fill) <= EVEN).mean() > 0.4:  # the fill runs on: no rim
        return None
    if float(np.abs(fill - np.median(ring, axis=0)).sum()) < OFF_BACKGROUND:
        return None
    even = colour_distance(outer[inside], fill) <= EVEN
    if not 0.6 <= float(even.mean()) <= MAX_FILL:
        return None
    glyph = (colour_distance(outer, fill) >= GLYPH_CONTRAST) & inside
    if not MIN_GLYPH <= float(glyph.sum() / inside.sum()) <= MAX_GLYPH:
        return None
    if (glyph & (d > 0.72 * r)).sum() > 0.02 * glyph.sum():  # touches the rim: not a glyph
        return None
    return x1, y1, x2, y2


def add_round_buttons(widgets: Sequence[Element], buttons: Sequence[Box]) -> list[Element]:
    """``widgets`` with each round button that no widget already is (or holds: a
    detected glyph inside it) as a new clickable ``icon``; a picture much larger than
    the button (the map or photo it stands on) does not count. The icon's box is the
    button's middle, where its glyph is (:data:`INSET` of each side off, the crop the
    icon model reads), and its target the whole button."""
    out = list(widgets)
    for button in buttons:
        if any(
            e.box.intersection(button) > 0.3 * min(e.box.area, button.area)
            and e.box.area <= 4 * button.area
            for e in out
        ):
            continue
        dx, dy = round(button.width * INSET), round(button.height * INSET)
        middle = Box.of(button.x1 + dx, button.y1 + dy, button.x2 - dx, button.y2 - dy)
        out.append(
            Element(
                0,
                ElementKind.ICON,
                middle,
                clickable=True,
                confidence=CONFIDENCE,
                target=button,
            )
        )
    return out
