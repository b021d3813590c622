"""Icons that the detector missed, found as blobs of ink.

A chat's send arrow, a field's clear / voice button, a media player's controls, a
toolbar's glyphs: small, flat icons that the detector (trained mostly on synthetic
screens) often does not return on real apps, though a task hinges on them ("send the
message"). This finder marks pixels that differ from their row's background, joins
each icon's strokes, and keeps the icon-sized, roughly square components that no
detected widget or OCR text covers, on the rows of the given regions:
:func:`content_area` (the screen below the status bar) in ``describe``. A photo or
chart is one large component, not icon-sized, and a detected picture covers what
is inside it. On 160 real screens of the harvest's train apps this raised the tap
targets hit from 0.750 to 0.830 (the blobs were first used beside text fields only).
They become ``icon`` elements (labelled by the icon model) with a low confidence. Three
dots in a line (⋮, ⋯), too thin to pass as an icon by their box, are kept too and
labelled ``more_options`` (what the glyph means on every Android screen). A column of
three dots is kept even where an OCR line's box takes it in at the line's start or end
(OCR reads ⋮ as ":" and boxes it with the words, "：Print Spooler"); :func:`trim_dots`
then gives the line back its words alone. Two solid upright bars side by side, each too
narrow to pass as an icon, are one, labelled ``pause`` (⏸); two stacked horizontal lines
of one length are labelled ``drag_handle``. Two or three glyphs of different colours side
by side that the dilation joined into a blob too wide for an icon (NetGuard's orange
struck-through Wi-Fi fan and its grey "screen on" glyph) are cut apart where empty
columns part their ink (letters of one colour are not); what a rounded corner leaves at
the screen's side (the page behind a sheet's corner) is no icon.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence

import numpy as np

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.blocks import dp_size
from screenpilot.vision.density import scaled_side
from screenpilot.vision.image import colour_distance, mask_bounds
from screenpilot.vision.sliders import true_runs

#: Pixels differ from their row's background by more than this (sum over R, G, B).
CONTRAST = 60
#: What three dots in a line are (the overflow menu's glyph, ⋮ or ⋯).
MORE_OPTIONS = "more_options"
#: An icon's side as a share of the screen's width.
MIN_SIDE, MAX_SIDE = 0.03, 0.11
#: A blob of one stroke may be this many times wider than tall (a chevron, ﹀).
MAX_WIDE = 2.5
#: Two solid upright bars side by side are a pause glyph (⏸; NewPipe's player had its
#: largest button unfound): each bar 2.5-6 times taller than wide, ink over
#: ``BAR_FILL`` of its box, the gap between their dilated boxes at most ``BAR_GAP``
#: of a bar's width.
PAUSE = "pause"
#: Two solid horizontal lines of one length stacked are a drag handle (NewPipe's play
#: queue rows): each ``RULE_LONG`` times longer than thick, at most ``RULE_GAP`` of
#: their length apart.
DRAG_HANDLE = "drag_handle"
RULE_LONG = 4.0
RULE_GAP = 0.5
#: A blob at the screen's side whose rows of ink are, this share of them at least, one
#: run from that side inwards is what a rounded corner leaves (:func:`_screen_corner`).
CORNER_ROWS = 0.9
#: ... the runs growing or shrinking down it by this many pixels against it at most.
CORNER_SLACK = 1
#: Glyphs side by side that the dilation joined are cut apart where this many empty
#: columns of the undilated ink part them (:func:`_side_by_side`).
SIDE_GAP = 3
#: ... into two or three pieces at most (more are a word's letters), where the blob is
#: at most ``SIDE_WIDE`` times an icon's largest side wide (a line of text is wider).
SIDE_PIECES = 3
SIDE_WIDE = 1.5
#: Pieces whose inks' median colours differ by less than this (summed over R, G, B)
#: are a word's letters or a number's digits, not glyphs side by side.
SIDE_COLOUR = 60
BAR_TALL = (2.5, 6.0)
BAR_FILL = 0.85
BAR_GAP = 1.5


@dataclasses.dataclass(frozen=True)
class Page:
    """A screen against its rows' backgrounds, what :func:`find_icons` and
    ``vision.discs.find_discs`` both look at (:func:`page_of` makes it once for both):
    the screen (halved when 900 px wide or more: ``step`` 2) as int16 (``img``), each
    row's background colour (the median of a sample of the row) and each pixel's
    distance from it (sum of R, G, B)."""

    img: np.ndarray
    background: np.ndarray
    distance: np.ndarray
    step: int


def page_of(pixels: np.ndarray) -> Page:
    """``pixels`` (H x W x 3 RGB) as a :class:`Page`."""
    step = 2 if pixels.shape[1] >= 900 else 1
    img = pixels[::step, ::step].astype(np.int16)
    background = np.median(img[:, ::4], axis=1).astype(np.int16)  # a sample is enough
    return Page(img, background, colour_distance(img, background[:, None, :]), step)


def off_background(
    pixels: np.ndarray, contrast: int, page: Page | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """The :class:`Page` of ``pixels`` (``page`` when given, made from them) as its
    screen, its rows' background colours, the mask (uint8) of pixels whose colour
    differs from their row's by more than ``contrast``, and its step."""
    page = page_of(pixels) if page is None else page
    mask = (page.distance > contrast).astype(np.uint8)
    return page.img, page.background, mask, page.step


#: The status bar's height in dp (its glyphs are the system's, not the app's).
STATUS_BAR_DP = 24.0


def content_area(width: int, height: int) -> Box:
    """The screen below the status bar (a dp as in ``vision.blocks.dp_size``)."""
    return Box.of(0, min(height - 1, STATUS_BAR_DP * dp_size(width, height)), width, height)


@dataclasses.dataclass(frozen=True)
class Ink:
    """The page's ink as :func:`find_icons` and ``vision.drawings.find_drawings`` see
    it (:func:`ink_of` makes it once for both): the pixels off their row's background
    (``raw``, uint8, at the :class:`Page`'s ``step``), their strokes joined by a dilation
    of ``grow`` pixels into 8-connected parts (``labels``, ``stats`` as OpenCV gives
    them), and the screen's short side at that step (``side``)."""

    raw: np.ndarray
    labels: np.ndarray
    stats: np.ndarray
    step: int
    side: int
    grow: int


def ink_of(pixels: np.ndarray, page: Page | None = None) -> Ink:
    """The :class:`Ink` of ``pixels`` (``page``: their :class:`Page`, when at hand)."""
    import cv2

    img, _, mask, step = off_background(pixels, CONTRAST, page)
    w = scaled_side(img.shape[0], img.shape[1], pixels.shape[1], pixels.shape[0])  # the short side
    grow = max(1, round(w * 0.006))
    joined = cv2.dilate(mask, np.ones((2 * grow + 1, 2 * grow + 1), np.uint8))
    _, labels, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    return Ink(mask, labels, stats, step, w, grow)


def find_icons(
    pixels: np.ndarray,
    known: Sequence[Box],
    fields: Sequence[Box],
    lines: Sequence[Box] = (),
    *,
    page: Page | None = None,
    ink: Ink | None = None,
) -> list[Element]:
    """Icon-sized blobs on ``pixels`` (H x W x 3 RGB) on the rows of ``fields`` that
    no box in ``known`` touches; a column of three dots may sit at the start or end
    of a box of ``lines`` (text lines, among ``known``). ``page``: ``pixels``'
    :class:`Page`, ``ink`` their :class:`Ink`, when the caller has them."""
    if not fields:
        return []
    ink = ink_of(pixels, page) if ink is None else ink
    raw, stats, step, w, grow = ink.raw, ink.stats, ink.step, ink.side, ink.grow
    count = len(stats)
    lo, hi = MIN_SIDE * w, MAX_SIDE * w
    found: list[Element] = []
    blobs: list[tuple[int, int, int, int, str]] = []  # x, y, bw, bh (dilated), label
    bars: list[tuple[int, int, int, int]] = []
    for i in range(1, count):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        dots = _dots(raw[y : y + bh, x : x + bw], bw, bh, lo, hi)
        handle = not dots and _two_rules(raw[y : y + bh, x : x + bw], lo, hi)
        if dots or handle or _icon_shaped(raw[y : y + bh, x : x + bw], bw, bh, lo, hi):
            pieces = [(x, y, bw, bh, area)]
        elif _bar(raw[y : y + bh, x : x + bw], lo, hi):
            bars.append((x, y, bw, bh))
            continue
        elif hi < bw <= SIDE_WIDE * hi and bh <= hi:  # glyphs side by side, joined
            pieces = [
                (*piece, int((ink.labels[y : y + bh, piece[0] : piece[0] + piece[2]] == i).sum()))
                for piece in _side_by_side(raw, pixels[::step, ::step], x, y, bw, bh, grow)
            ]
            pieces = [
                p
                for p in pieces
                if _icon_shaped(raw[p[1] : p[1] + p[3], p[0] : p[0] + p[2]], p[2], p[3], lo, hi)
            ]
        else:
            continue
        for px, py, pw, ph, parea in pieces:
            if parea < 0.2 * pw * ph and not handle:
                continue
            if _screen_corner(raw, px, py, pw, ph):
                continue
            label = MORE_OPTIONS if dots else DRAG_HANDLE if handle else ""
            blobs.append((px, py, pw, ph, label))
    blobs += [(*pair, PAUSE) for pair in _bar_pairs(bars)]
    for x, y, bw, bh, label in blobs:
        box = Box.of(
            (x + grow) * step, (y + grow) * step, (x + bw - grow) * step, (y + bh - grow) * step
        )
        if box.width <= 0 or box.height <= 0:
            continue
        covering = [k for k in known if k.intersection(box) > 0.1 * box.area]
        dots = label == MORE_OPTIONS
        if covering and not (
            dots and bh > bw and all(k in lines and _at_end(box, k) for k in covering)
        ):
            continue
        if not any(min(f.y2, box.y2) - max(f.y1, box.y1) >= 0.5 * box.height for f in fields):
            continue
        found.append(
            Element(0, ElementKind.ICON, box, clickable=True, confidence=0.3, icon_label=label)
        )
    return found


def _side_by_side(
    raw: np.ndarray, img: np.ndarray, x: int, y: int, bw: int, bh: int, grow: int
) -> list[tuple[int, int, int, int]]:
    """The blob at ``x, y`` (``bw`` by ``bh``, dilated by ``grow``) on the ink mask ``raw``
    (of the screen ``img`` at the mask's scale) cut where a run of at least ``SIDE_GAP``
    empty columns parts its ink: each piece as ``(x, y, bw, bh)``, dilated as the blobs
    are (NetGuard's orange struck-through Wi-Fi fan and the grey "screen on" glyph beside
    it, joined into one blob too wide for an icon). One piece, more than
    ``SIDE_PIECES``, or pieces whose inks are of one colour (within ``SIDE_COLOUR``: a
    word's letters or a number's digits OCR left unread): []."""
    part = np.asarray(raw[y : y + bh, x : x + bw] > 0, dtype=bool)
    pieces: list[tuple[int, int]] = []
    for c1, c2 in true_runs(np.asarray(part.any(axis=0))):  # inked columns, gaps joined
        if pieces and c1 - pieces[-1][1] < SIDE_GAP:
            pieces[-1] = (pieces[-1][0], c2)
        else:
            pieces.append((c1, c2))
    if not 2 <= len(pieces) <= SIDE_PIECES:
        return []  # one glyph, or a word's letters
    area = img[y : y + bh, x : x + bw, :3].astype(np.int32)
    colours = [np.median(area[:, c1:c2][part[:, c1:c2]], axis=0) for c1, c2 in pieces]
    if max(float(np.abs(a - b).sum()) for a, b in itertools.combinations(colours, 2)) < (
        SIDE_COLOUR
    ):
        return []  # one colour: letters or digits OCR left unread
    spans = [np.flatnonzero(part[:, c1:c2].any(axis=1)) for c1, c2 in pieces]
    height, width = raw.shape
    out = []
    for (c1, c2), rows in zip(pieces, spans, strict=True):
        left, top = max(0, x + c1 - grow), max(0, y + int(rows[0]) - grow)
        right, low = min(width, x + c2 + grow), min(height, y + int(rows[-1]) + 1 + grow)
        out.append((left, top, right - left, low - top))  # dilated, within the mask
    return out


def _screen_corner(raw: np.ndarray, x: int, y: int, bw: int, bh: int) -> bool:
    """Whether the blob at ``x, y`` (``bw`` by ``bh``, dilated) on the ink mask ``raw`` is
    what a rounded corner leaves at the screen's side: the page behind a sheet's or a
    field's rounded corner (Seal's download sheet, OneList's "Add" field, Google's
    share sheet). Its box reaches the screen's left or right edge, and at least
    ``CORNER_ROWS`` of its rows of ink are one run of ink from that edge inwards, the
    runs growing or shrinking down the blob (by ``CORNER_SLACK`` px against it at most);
    a round button cut by the side bulges."""
    width = raw.shape[1]
    if x > 0 and x + bw < width:
        return False
    part = np.asarray(raw[y : y + bh, x : x + bw] > 0, dtype=bool)
    rows = part[part.any(axis=1)]
    if not len(rows):
        return False
    if x + bw >= width and x > 0:
        rows = rows[:, ::-1]  # the edge on the left
    first = rows[:, 0]
    runs = rows.sum(axis=1)
    ends = np.argmin(np.concatenate([rows, np.zeros((len(rows), 1), bool)], axis=1), axis=1)
    anchored = first & (ends == runs)  # one run, starting at the edge
    if float(anchored.mean()) < CORNER_ROWS:
        return False
    steps = np.diff(runs.astype(np.int64))  # a corner's runs shrink one way; a disc's bulge
    return bool((steps <= CORNER_SLACK).all() or (steps >= -CORNER_SLACK).all())


def _two_rules(raw: np.ndarray, lo: float, hi: float) -> bool:
    """Whether a blob (``raw``: its undilated mask) is two solid horizontal lines of one
    length stacked, a drag handle's glyph: each at least ``RULE_LONG`` times longer than
    thick and as long as an icon, their ends within a tenth of their length, the gap
    between them at most ``RULE_GAP`` times their length."""
    import cv2

    count, _, stats, _ = cv2.connectedComponentsWithStats(np.ascontiguousarray(raw), connectivity=8)
    if count != 3:  # the background and two lines
        return False
    top, low = sorted(([int(v) for v in stats[k]] for k in (1, 2)), key=lambda r: r[1])
    x1, y1, w1, h1, a1 = top
    x2, y2, w2, h2, a2 = low
    if not lo <= w1 <= hi or min(w1, w2) < RULE_LONG * max(h1, h2):
        return False
    if abs(x1 - x2) > 0.1 * w1 or abs(x1 + w1 - x2 - w2) > 0.1 * w1:
        return False
    solid = a1 >= BAR_FILL * w1 * h1 and a2 >= BAR_FILL * w2 * h2
    return solid and 0 < y2 - (y1 + h1) <= RULE_GAP * w1


def _bar(raw: np.ndarray, lo: float, hi: float) -> bool:
    """Whether a blob too narrow to pass as an icon (``raw``: its undilated mask) is one
    solid upright bar, ``BAR_TALL`` times taller than wide, as tall as an icon."""
    bounds = mask_bounds(raw)
    if bounds is None:
        return False
    wide, tall = bounds[2] - bounds[0], bounds[3] - bounds[1]
    if not (lo <= tall <= hi and BAR_TALL[0] * wide <= tall <= BAR_TALL[1] * wide):
        return False
    return bool(np.count_nonzero(raw) >= BAR_FILL * tall * wide)


def _bar_pairs(bars: Sequence[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Two bars of one size side by side (a pause glyph, ⏸): the same rows within a
    tenth of their height, their widths within a fifth, apart by ``BAR_GAP`` of a
    bar's width (dilated boxes, gaps between them included). Each bar joins one pair."""
    pairs: list[tuple[int, int, int, int]] = []
    used: set[int] = set()
    for i, (x, y, bw, bh) in enumerate(bars):
        for j, (x2, y2, bw2, bh2) in enumerate(bars):
            if j <= i or i in used or j in used:
                continue
            (ax, ay, aw, ah), (bx, by, cw, ch) = sorted([(x, y, bw, bh), (x2, y2, bw2, bh2)])
            same = abs(ah - ch) <= 0.1 * ah and abs(ay - by) <= 0.1 * ah
            same = same and abs(aw - cw) <= 0.2 * aw
            if same and 0 < bx - (ax + aw) <= BAR_GAP * aw:
                used.update((i, j))
                top = min(ay, by)
                pairs.append((ax, top, bx + cw - ax, max(ay + ah, by + ch) - top))
    return pairs


def _at_end(dots: Box, line: Box) -> bool:
    """Whether a column of dots lies inside a text line's row, at its start or end
    (within one dots' height of the line's edge), with the line's words beside it."""
    inside = line.y1 <= dots.y1 and dots.y2 <= line.y2 and line.width >= 2 * dots.height
    near = min(dots.x1 - line.x1, line.x2 - dots.x2)
    return inside and 0 <= near <= dots.height


#: What OCR reads a column of three dots as.
_DOT_READS = ":：⋮⁝;|!.·"


def trim_dots(texts: Sequence[Element], icons: Sequence[Element]) -> list[Element]:
    """``texts`` without the column of dots (an icon of ``icons`` labelled
    ``more_options``) their box takes in at its start or end: the box ends at the dots,
    the characters read from them (":") are dropped; a text of nothing else goes."""
    columns = [e.box for e in icons if e.icon_label == MORE_OPTIONS and e.box.height > e.box.width]
    out: list[Element] = []
    for t in texts:
        box, text = t.box, t.text
        for d in columns:
            if not _at_end(d, box):
                continue
            if d.x1 - box.x1 <= box.x2 - d.x2:
                box, text = Box.of(d.x2, box.y1, box.x2, box.y2), text.lstrip(_DOT_READS + " ")
            else:
                box, text = Box.of(box.x1, box.y1, d.x1, box.y2), text.rstrip(_DOT_READS + " ")
        if box is t.box:
            out.append(t)
        elif text.strip() and box.width > 0:
            out.append(dataclasses.replace(t, box=box, text=text))
    return out


def _icon_shaped(raw: np.ndarray, bw: int, bh: int, lo: float, hi: float) -> bool:
    """Whether a blob (``raw``: its undilated mask) has an icon's size and shape:
    roughly square, or up to ``MAX_WIDE`` times wider than tall (or taller than wide)
    when it is one stroke (a chevron, ﹀), not a word of several letters."""
    if not (lo <= max(bw, bh) <= hi and min(bw, bh) >= 0.5 * lo):
        return False
    if 0.6 <= bw / bh <= 1.6:
        return min(bw, bh) >= lo
    if not 1 / MAX_WIDE <= bw / bh <= MAX_WIDE:
        return False
    import cv2

    return int(cv2.connectedComponents(np.ascontiguousarray(raw), connectivity=8)[0]) - 1 <= 1


def _dots(mask: np.ndarray, bw: int, bh: int, lo: float, hi: float) -> bool:
    """A column or row of three dots (an overflow menu's glyph, too thin to pass as an
    icon by its box): three blobs of ink of about one size, evenly spaced in a line."""
    import cv2

    long, short = max(bw, bh), min(bw, bh)
    if not (lo <= long <= hi and short >= 0.15 * long):
        return False
    count, _, stats, centres = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if count != 4:  # the background and three dots
        return False
    sizes = stats[1:, cv2.CC_STAT_AREA]
    if sizes.min() < 0.5 * sizes.max():
        return False
    along = 1 if bh > bw else 0  # the axis the dots follow
    c = np.sort(centres[1:, along])
    across = centres[1:, 1 - along]
    spread = float(across.max() - across.min())
    steps = np.diff(c)
    return spread <= 0.15 * long and steps.min() >= 0.7 * steps.max()
