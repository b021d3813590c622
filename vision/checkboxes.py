"""Check boxes found from the pixels: small squares, outlined (off) or filled (on).

At the detector's 416 px input an 18 dp Material check box is a dozen pixels, and
the detector finds few of them (simulator recall 0.004 with v2). Their look is
fixed, so the pixels decide: a near-square of 2.6-7.5 % of the screen's width
whose edge is a closed, even ring on a plain surround, its inside either the
surround's colour (unchecked) or the ring's colour with a contrasting mark
(checked). Text glyphs (CJK "口"), icons and thumbnails fail one of these; the
navigation bar's "recents" square and a notification's app icon in the status bar
are left out. A ring is judged at the contour's box and, where that is not even
enough, one pixel in: in a JPEG the box takes a pixel of the page outside a sharp
stroke on both sides, a quarter of a 4 px band, and round corners leave more of the
page in it (real check boxes on AirUnlock, aeondroid, ajsha and Seal were missed
so). Two looks of a photo picker pass too: a light outline on a photo (the surround
is not plain, but the ring is even and in a grey the photo around it hardly has, and
the photo shows through its inside), and a faint grey outline (20-40 grey levels) on
a white thumbnail.
The finder adds a ``check_box`` where the detector found none, and replaces a
detected image or button that is the same square. The pixels are also the judge of
the detector's own check boxes: one that no found square confirms is reported as a
picture (detector v4, trained on real screens too, calls a settings row's leading
icon a check box at confidence 0.25-0.44 where v2 reported none; found check boxes
hold 0.96 recall on the simulator).

    >>> found = find_check_boxes(pixels)   # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.blocks import dp_size
from screenpilot.vision.density import short_side
from screenpilot.vision.image import grey_u8

#: A check box's side as a share of the screen's width (18-24 dp on 320-480 dp).
MIN_SIDE, MAX_SIDE = 0.026, 0.075
#: A ring band this thin (px: a box under 36 px, 18 dp at 320 dpi or less) is also
#: judged one pixel further in.
THIN_BAND = 2
#: Grey-level contrast between the ring and the surround.
CONTRAST = 40.0
#: The surround and an unchecked inside are plain: grey std under this.
PLAIN = 14.0
CONFIDENCE = 0.6
#: On a busy surround (a photo picker's thumbnail): the ring is this even, and at most
#: ``STROKE_AROUND`` of the surround (and of an unchecked inside) has the ring's grey.
EVEN_RING = 0.75
STROKE_AROUND = 0.25
#: ... and a surround with over this share within ``PLAIN`` of its median is a page.
PAGE_SHARE = 0.8
#: A faint outline on a plain page: at least this grey-level contrast, and this share
#: of the ring within half of it of the ring's median.
FAINT = 20.0
FAINT_EVEN = 0.8
#: A ring judged one pixel in: its emptiest corner holds at least this share of the
#: stroke its fullest one holds.
CORNER_BALANCE = 0.5


def _plain(values: np.ndarray) -> bool:
    return values.size > 0 and float(values.std()) < PLAIN


def _ring(gray: np.ndarray, x1: int, y1: int, x2: int, y2: int, width: int) -> np.ndarray:
    """Pixels of a band ``width`` wide just inside the box's edge."""
    outer = gray[y1:y2, x1:x2]
    mask = np.ones(outer.shape, bool)
    mask[width:-width, width:-width] = False
    return outer[mask]


def _classify(gray: np.ndarray, box: tuple[int, int, int, int]) -> bool | None:
    """``True`` checked, ``False`` unchecked, ``None`` not a check box."""
    x1, y1, x2, y2 = box
    side = x2 - x1
    pad = max(2, side // 6)
    h, w = gray.shape
    if x1 - pad < 0 or y1 - pad < 0 or x2 + pad > w or y2 + pad > h:
        return None
    band = max(1, side // 12)
    crop = gray[y1 - pad : y2 + pad, x1 - pad : x2 + pad].astype(np.float32)
    x1, y1, x2, y2 = pad, pad, pad + side, pad + (y2 - y1)
    outside = _ring(crop, 0, 0, crop.shape[1], crop.shape[0], pad - 1 if pad > 2 else 1)
    ring = _ring(crop, x1, y1, x2, y2, band)
    inside = crop[y1 + side // 4 : y2 - side // 4, x1 + side // 4 : x2 - side // 4]
    if inside.size == 0:
        return None
    surround, edge = float(np.median(outside)), float(np.median(ring))
    if _faint_outline(outside, ring, inside, surround, edge):
        return False
    even = float((np.abs(ring - edge) < CONTRAST).mean())
    if band <= THIN_BAND:  # a small box (a low-density screen): the contour's box may take
        # a pixel of the page round the ring, half the band: the band inside it counts too
        inset = _ring(crop, x1 + 1, y1 + 1, x2 - 1, y2 - 1, band)
        even = max(even, float((np.abs(inset - edge) < CONTRAST).mean()))
    if even < 0.7:  # the box took a pixel of the page round the stroke: one pixel in
        edge, even = _inset_ring(crop, (x1, y1, x2, y2), band, (edge, even))
    if abs(edge - surround) < CONTRAST or even < 0.7:
        return None
    if not _plain(outside):
        # on a photo: an even outline in a grey the photo around it hardly has (a page
        # with a stroke of another glyph in the margin is no photo: an icon's frame)
        if even < EVEN_RING or float((np.abs(outside - surround) < PLAIN).mean()) > PAGE_SHARE:
            return None
        if float((np.abs(outside - edge) < CONTRAST).mean()) > STROKE_AROUND:
            return None
        if float((np.abs(inside - edge) < CONTRAST).mean()) < STROKE_AROUND:
            return False  # a hollow outline: the photo shows through
    elif _plain(inside) and abs(float(np.median(inside)) - surround) < CONTRAST / 2:
        return False
    inner = crop[y1 + 2 * band : y2 - 2 * band, x1 + 2 * band : x2 - 2 * band]
    mark = np.abs(inner - edge) > CONTRAST
    if inner.size == 0 or not 0.05 < float(mark.mean()) < 0.5:
        return None
    return True if check_mark(mark) else None


def _inset_ring(
    crop: np.ndarray, box: tuple[int, int, int, int], band: int, best: tuple[float, float]
) -> tuple[float, float]:
    """The ring's grey and evenness one pixel inside the box, with its own median (in a
    JPEG the contour's box takes a pixel of the page outside a sharp stroke on both
    sides, a quarter of a 4 px band): ``best`` (grey, evenness) unless it is more even
    there and its four corners hold the stroke alike (a letter's bowl, "p", leaves one
    empty)."""
    x1, y1, x2, y2 = (v + d for v, d in zip(box, (1, 1, -1, -1), strict=True))
    ring = _ring(crop, x1, y1, x2, y2, band)
    if ring.size == 0:
        return best
    grey = float(np.median(ring))
    even = float((np.abs(ring - grey) < CONTRAST).mean())
    c = max(band, (x2 - x1) // 6)
    corners = [
        float((np.abs(crop[ys, xs] - grey) < CONTRAST).mean())
        for ys in (slice(y1, y1 + c), slice(y2 - c, y2))
        for xs in (slice(x1, x1 + c), slice(x2 - c, x2))
    ]
    if even > best[1] and min(corners) >= CORNER_BALANCE * max(corners):
        return grey, even
    return best


def _faint_outline(
    outside: np.ndarray, ring: np.ndarray, inside: np.ndarray, surround: float, edge: float
) -> bool:
    """An unchecked box drawn in a light grey on a plain page (a photo picker's white
    thumbnail): a ring at least ``FAINT`` darker or lighter than the page, even all
    round, and an inside of the page's grey."""
    if not (_plain(outside) and _plain(inside)) or not FAINT <= abs(edge - surround) < CONTRAST:
        return False
    even = float((np.abs(ring - edge) < FAINT / 2).mean())
    return even >= FAINT_EVEN and abs(float(np.median(inside)) - surround) < FAINT / 2


def check_mark(mark: np.ndarray) -> bool:
    """A tick: its long stroke reaches the top right, its top left stays empty
    (a person's head, a picture's mountains or a letter fill it, or leave the
    top right empty)."""
    h, w = mark.shape
    top_left = float(mark[: h // 2, : w // 2].mean())
    top_right = float(mark[: h // 2, w // 2 :].mean())
    bottom = float(mark[h // 2 :].mean())
    return top_right > 0.08 and bottom > 0.08 and top_left < 0.5 * top_right


def _squares(gray: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Bounding boxes of near-square closed contours of the right size."""
    import cv2

    w = short_side(gray.shape[1], gray.shape[0])  # sizes from the short side
    edges = cv2.Canny(gray, 40, 120)
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    lo, hi = MIN_SIDE * w, MAX_SIDE * w
    out = []
    for contour in contours:
        x, y, cw, ch = cv2.boundingRect(contour)
        if not (lo <= cw <= hi and lo <= ch <= hi) or abs(cw - ch) > 0.12 * max(cw, ch):
            continue
        if cv2.contourArea(cv2.convexHull(contour)) < 0.8 * cw * ch:
            continue
        out.append((x, y, x + cw, y + ch))
    return out


def dedupe(boxes: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """One box per square or ring (Canny traces a stroke's inner and outer edge): the
    largest."""
    return [group[0] for group in _nested(boxes)]


def _nested(boxes: list[tuple[int, int, int, int]]) -> list[list[tuple[int, int, int, int]]]:
    """The boxes of each square, largest first: the first of each group is the box
    :func:`dedupe` keeps, the others the smaller boxes it stands for (an IoU of 0.3 or
    more with it, or inside it), each once (Canny's box of a JPEG's stroke may take a
    pixel or three of the page on one side, where its inner edge's box does not: Seal's
    "Select all" box)."""
    groups: list[list[tuple[int, int, int, int]]] = []
    for box in sorted(boxes, key=lambda b: -(b[2] - b[0]) * (b[3] - b[1])):
        home = next(
            (g for g in groups if Box.of(*box).iou(Box.of(*g[0])) >= 0.3 or _within(box, g[0])),
            None,
        )
        if home is None:
            groups.append([box])
        elif box not in home:
            home.append(box)
    return groups


def _within(inner: tuple[int, int, int, int], outer: tuple[int, int, int, int]) -> bool:
    return (
        outer[0] <= inner[0]
        and outer[1] <= inner[1]
        and inner[2] <= outer[2]
        and inner[3] <= outer[3]
    )


def find_check_boxes(pixels: np.ndarray) -> list[Element]:
    """Check boxes in an RGB (or grey) screenshot, with their checked state: each
    square judged at its largest box, else at the next that shows a check box."""
    grey = grey_u8(pixels)
    found = []
    for group in _nested(_squares(grey)):
        judged = ((box, _classify(grey, box)) for box in group)
        box, state = next(((b, s) for b, s in judged if s is not None), (group[0], None))
        if state is not None:
            found.append(
                Element(
                    0,
                    ElementKind.CHECK_BOX,
                    Box.of(*box),
                    confidence=CONFIDENCE,
                    checked=state,
                    clickable=True,
                )
            )
    return found


#: A detected image, button or check box at most this many times a found check box's
#: area, holding it whole, is that check box (the detector's box is often loose around
#: small squares).
LOOSE_FACTOR = 4.0
#: ... and one overlapping it this much (IoU) is that check box with its box shifted.
SHIFTED_IOU = 0.3
#: A square centred this near the top (dp) lies in the status bar: a notification's icon.
STATUS_DP = 26.0


def same_square(found: Box, widget: Element) -> bool:
    """Whether ``widget`` is the found check box: the same box, or a loose box round it
    (a picture, a button, or the detector's own check box: NetGuard's menu has one
    85 x 95 px round a 55 px square)."""
    if found.iou(widget.box) > 0.5:
        return True
    return (
        widget.kind in (ElementKind.IMAGE, ElementKind.BUTTON, ElementKind.CHECK_BOX)
        and widget.box.intersection(found) >= 0.9 * found.area
        and widget.box.area <= LOOSE_FACTOR * found.area
    )


def _shifted(found: Box, widget: Element) -> bool:
    """Whether ``widget`` is a detection of the found check box with its box shifted off
    it (IoU over 0.3, at most ``LOOSE_FACTOR`` times its area)."""
    return (
        widget.kind in (ElementKind.IMAGE, ElementKind.BUTTON, ElementKind.CHECK_BOX)
        and found.iou(widget.box) > SHIFTED_IOU
        and widget.box.area <= LOOSE_FACTOR * found.area
    )


def with_check_boxes(pixels: np.ndarray, widgets: Sequence[Element]) -> list[Element]:
    """``widgets`` plus the check boxes only the pixels show; a detected image or
    button that is the same square (or a loose box around it) becomes that check box,
    as does a detection of it with its box shifted off it, and a detected check box
    that no found square confirms becomes an image."""
    bars = [e.box for e in widgets if e.kind is ElementKind.NAVIGATION_BAR]
    top = STATUS_DP * dp_size(pixels.shape[1], pixels.shape[0])
    found = [
        f
        for f in find_check_boxes(pixels)
        if not any(b.intersection(f.box) > 0.5 * f.box.area for b in bars)
        and f.box.center[1] >= top  # a notification's app icon in the status bar
    ]
    out = []
    for e in widgets:
        same = next((f for f in found if same_square(f.box, e)), None)
        if same is not None and e.kind in (ElementKind.IMAGE, ElementKind.BUTTON):
            continue
        if same is None and any(_shifted(f.box, e) for f in found):
            continue  # the detector's box off the square (ajsha's, 15 px left): the square
        if same is not None and e.kind is ElementKind.CHECK_BOX and e.checked is None:
            e = dataclasses.replace(e, checked=same.checked)
        elif same is None and e.kind is ElementKind.CHECK_BOX:
            e = dataclasses.replace(e, kind=ElementKind.IMAGE, checked=None)
        out.append(e)
    return out + [
        f
        for f in found
        if not any(
            f.box.iou(e.box) > 0.3 or (e.kind is ElementKind.CHECK_BOX and same_square(f.box, e))
            for e in out
        )
    ]
