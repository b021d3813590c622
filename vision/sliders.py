"""Seek bars found from the pixels: a long thin horizontal track with a round knob.

The widget detector misses flat Material seek bars on some screens (a 4 px line and
a dot carry little texture at 416 px input), and the offline planner can only set
"brightness to the max" on a slider it sees. This finder is the fallback: it runs in
a few milliseconds, adds a ``seek_bar`` only where the detector found none, and
needs both parts, so dividers (no knob) and text rows (no long run) are not taken.

    >>> found = find_sliders(pixels, known=detector_elements)   # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.density import scaled_side
from screenpilot.vision.image import colour_distance
from screenpilot.vision.monograms import is_symbol

#: Pixels differ from their row's background by more than this (sum over R, G, B).
CONTRAST = 36
#: A track is at least this share of the screen's width...
MIN_TRACK = 0.35
#: ...and this share of the run between its ends is track-coloured.
MIN_FILL = 0.9
#: A detected seek bar below this confidence needs a track in the pixels to stay.
DOUBTFUL = 0.5
#: A detected seek bar with no track that holds this many glyphs side by side, each
#: at least this share of its height, is a row of icons.
MIN_ICONS, ICON_HEIGHT = 3, 0.5
#: A glyph's pieces are joined across this share of the box's height.
JOIN = 0.1
#: A track found on a picture this many times its height is the picture's.
PICTURE_HEIGHT = 4
#: At most this share of a track's surround (the rows beside it within the knob's
#: height, the knob's columns left out) differs from the row's background: a seek bar
#: lies on a plain page. On 300 real train screens every track the pixels offered had
#: 1 % or more (a card's edge, a photo's, a grid of dots) and none was a seek bar; the
#: simulator's 72 and NewPipe's player bar have none.
MAX_SURROUND = 0.005


def true_runs(flags: np.ndarray) -> list[tuple[int, int]]:
    """[start, end) of each run of True in a 1-D array."""
    padded = np.concatenate(([False], flags, [False])).astype(np.int8)
    edges = np.flatnonzero(np.diff(padded))
    return list(zip(edges[::2].tolist(), edges[1::2].tolist(), strict=True))


def _track_rows(mask: np.ndarray, min_len: int) -> list[tuple[int, int, int]]:
    """(row, x1, x2) of rows whose longest run of marked pixels is a track."""
    out = []
    for y in np.flatnonzero(mask.sum(axis=1) >= min_len):
        runs = [(a, b) for a, b in true_runs(mask[y]) if b - a >= min_len // 4]
        if not runs:
            continue
        # a track may be split in two by the knob's rim or a colour change: join
        # runs whose gaps are small
        x1, x2 = runs[0]
        best = (0, 0)
        for a, b in runs[1:]:
            if a - x2 <= min_len // 10:
                x2 = b
            else:
                best = max(best, (x1, x2), key=lambda r: r[1] - r[0])
                x1, x2 = a, b
        best = max(best, (x1, x2), key=lambda r: r[1] - r[0])
        if best[1] - best[0] >= min_len and mask[y, best[0] : best[1]].mean() >= MIN_FILL:
            out.append((int(y), best[0], best[1]))
    return out


def _bands(rows: list[tuple[int, int, int]], max_thick: int) -> list[tuple[int, int, int, int]]:
    """Consecutive track rows with about the same ends -> (y1, y2, x1, x2) bands."""
    bands: list[list[int]] = []
    for y, x1, x2 in rows:
        if (
            bands
            and y - bands[-1][1] <= 1
            and abs(x1 - bands[-1][2]) <= 6
            and abs(x2 - bands[-1][3]) <= 6
        ):
            bands[-1][1] = y
        else:
            bands.append([y, y, x1, x2])
    return [(b[0], b[1] + 1, b[2], b[3]) for b in bands if b[1] + 1 - b[0] <= max_thick]


def _knob(
    mask: np.ndarray, band: tuple[int, int, int, int], width: int
) -> tuple[int, int, int, int] | None:
    """The round knob on a track: columns much taller than the track, about as wide
    as they are tall, centred on the track (an icon beside a field's border is not).
    ``width``: the screen's short side (its width in portrait). (x1, y1, x2, y2) or None."""
    y1, y2, x1, x2 = band
    thick = y2 - y1
    reach = max(4 * thick, width // 40)
    top, bottom = max(0, y1 - reach), min(mask.shape[0], y2 + reach)
    window = mask[top:bottom, max(0, x1 - reach) : min(mask.shape[1], x2 + reach)]
    left = max(0, x1 - reach)
    heights = window.sum(axis=0)
    tall = heights >= max(2.5 * thick, 6)
    middle = (y1 + y2) / 2 - top
    for a, b in true_runs(tall):
        w = b - a
        rows = np.flatnonzero(window[:, a:b].any(axis=1))
        h = int(rows[-1] - rows[0] + 1) if rows.size else 0
        centred = rows.size > 0 and abs((rows[0] + rows[-1]) / 2 - middle) <= max(3, h / 4)
        inside = x1 - w <= left + (a + b) / 2 <= x2 + w
        if width * 0.02 <= w <= width * 0.12 and 0.6 <= w / max(h, 1) <= 1.6 and centred and inside:
            return left + a, top + int(rows[0]), left + b, top + int(rows[-1]) + 1
    return None


def find_sliders(pixels: np.ndarray, known: Sequence[Element] = ()) -> list[Element]:
    """Seek bars on ``pixels`` (H x W x 3 RGB) that no element in ``known`` covers."""
    return [e for e in _all_sliders(pixels) if not _covered(e.box, known)]


def with_sliders(pixels: np.ndarray, widgets: Sequence[Element]) -> list[Element]:
    """``widgets`` with each detected seek bar's ends snapped to the track the pixels
    show (a detector's box is a few pixels off, and a tap at "100 %" must land on the
    track), plus the seek bars only the pixels show, unless on a much taller picture
    (a map). A seek bar the detector is unsure of (below ``DOUBTFUL``) and the pixels
    show no track for is dropped, and so is one that is a row of icons."""
    found = _all_sliders(pixels)
    out = []
    for e in widgets:
        track = next(
            (
                f.box
                for f in found
                if e.kind is ElementKind.SEEK_BAR
                and _overlap_y(f.box, e.box) > 0.5
                and min(f.box.x2, e.box.x2) - max(f.box.x1, e.box.x1) > 0.6 * f.box.width
            ),
            None,
        )
        if track is None and e.kind is ElementKind.SEEK_BAR:
            if e.confidence < DOUBTFUL:
                continue  # no track and knob in the pixels: a field's border, not a slider
            if icon_row(pixels, e.box):
                continue  # a toolbar of icons read as one slider: the icons are found later
        out.append(
            dataclasses.replace(e, box=Box.of(track.x1, e.box.y1, track.x2, e.box.y2))
            if track is not None
            else e
        )
    return out + [f for f in found if not _covered(f.box, widgets) and not _on_picture(f.box, out)]


def _on_picture(box: Box, widgets: Sequence[Element]) -> bool:
    """Whether ``box`` lies on a detected picture many times its height (a map's
    coast or a photo's horizon, which the pixels can take for a track and a knob)."""
    return any(
        e.kind is ElementKind.IMAGE
        and e.box.intersection(box) >= 0.8 * box.area
        and e.box.height >= PICTURE_HEIGHT * box.height
        for e in widgets
    )


def is_knob_read(text: str, box: Box) -> bool:
    """Whether an OCR line is a seek bar's knob read as a symbol: one character, not a
    letter or a digit ("●", "•"), its box no more than three times as long as it is
    wide (the read may take in a bit of track, or lose half the knob to the ink's cut).
    A round knob drawn small (a wide screen, read at a smaller scale) is found by the
    text detector too."""
    return is_symbol(text) and 1 / 3 <= box.width / max(box.height, 1) <= 3


def crosses_text(box: Box, texts: Sequence[Box]) -> bool:
    """Whether a seek bar at ``box`` runs through a text line of ``texts`` (OCR's
    boxes): the middle of a text lies within the bar's height (give or take a quarter
    of the text's height) along at least half the text's width. A track never crosses
    text; a line through text is a strike-through (a done item of a to-do list) or a
    rule, and the text is what a person reads there."""
    for t in texts:
        middle = (t.y1 + t.y2) / 2
        along = min(box.x2, t.x2) - max(box.x1, t.x1)
        slack = 0.25 * t.height
        if box.y1 - slack <= middle <= box.y2 + slack and along >= 0.5 * t.width:
            return True
    return False


def icon_row(pixels: np.ndarray, box: Box) -> bool:
    """Whether ``box`` holds :data:`MIN_ICONS` or more glyphs side by side (a
    toolbar of icon buttons), where a seek bar holds a track, a knob and at most a
    time or two. A glyph is a blob of the box's ink (the grey levels split in two,
    the box's side margins being background) at least :data:`ICON_HEIGHT` of the
    box's height, about as wide as tall; a row is glyphs of one height and width,
    set apart (a time's digits touch) at an even pitch."""
    import cv2

    crop = pixels[int(box.y1) : int(box.y2), int(box.x1) : int(box.x2)]
    if crop.shape[0] < 8 or crop.shape[1] < 8:
        return False
    grey = cv2.cvtColor(np.ascontiguousarray(crop), cv2.COLOR_RGB2GRAY)
    _, split = cv2.threshold(grey, 0, 1, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    margin = max(1, crop.shape[1] // 100)
    edges = np.concatenate((split[:, :margin].ravel(), split[:, -margin:].ravel()))
    ink = split if edges.mean() < 0.5 else 1 - split
    bh = crop.shape[0]
    grow = max(1, round(JOIN * bh))  # a glyph's pieces (⏻'s ring and bar) are one
    ink = cv2.dilate(ink.astype(np.uint8), np.ones((2 * grow + 1, 2 * grow + 1), np.uint8))
    _, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    glyphs = sorted(
        (int(x), int(x + w), int(h))
        for x, _, w, h, _ in stats[1:]
        if h >= ICON_HEIGHT * bh and 0.5 * h <= w <= 2 * h
    )
    run: list[tuple[int, int, int]] = []
    for g in glyphs:
        if run and not _next_in_row(run, g):
            run = run[-1:] if _next_in_row(run[-1:], g) else []
        run.append(g)
        if len(run) >= MIN_ICONS:
            return True
    return False


def _next_in_row(run: list[tuple[int, int, int]], g: tuple[int, int, int]) -> bool:
    """Whether glyph ``g`` (x1, x2, height) continues ``run``, a row of icons: set
    apart from the last, of its height and width, at the row's pitch (or a multiple
    of it, where a glyph in between broke into pieces)."""
    x1, x2, h = g
    a1, a2, ah = run[-1]
    if x1 - a2 < 0.3 * min(h, ah) or max(h, ah) > 1.3 * min(h, ah):
        return False
    if max(x2 - x1, a2 - a1) > 1.6 * min(x2 - x1, a2 - a1):
        return False
    if len(run) < 2:
        return True
    pitch, last = (x1 + x2 - a1 - a2) / 2, (a1 + a2 - run[-2][0] - run[-2][1]) / 2
    ratio = max(pitch, last) / max(1.0, min(pitch, last))  # a glyph not seen: 2 pitches
    return ratio <= 3.3 and abs(ratio - round(ratio)) <= 0.15 * round(ratio)


def _covered(box: Box, known: Sequence[Element]) -> bool:
    return any(
        e.box.iou(box) > 0.2 or (e.kind is ElementKind.SEEK_BAR and _overlap_y(e.box, box) > 0.5)
        for e in known
    )


def surround_share(
    mask: np.ndarray, band: tuple[int, int, int, int], knob: tuple[int, int, int, int]
) -> float:
    """The share of off-background pixels beside a track: the rows above and below it
    within the knob's height, across the track, the knob's columns (2 px more each side)
    left out. ``band`` is (y1, y2, x1, x2), ``knob`` (x1, y1, x2, y2), both on ``mask``."""
    y1, y2, x1, x2 = band
    kx1, ky1, kx2, ky2 = knob
    top, bottom = max(0, min(ky1, y1 - 1)), min(mask.shape[0], max(ky2, y2 + 1))
    columns = np.ones(max(0, x2 - x1), dtype=bool)
    columns[max(0, kx1 - x1 - 2) : max(0, kx2 - x1 + 2)] = False
    beside = np.concatenate(
        (mask[top:y1, x1:x2][:, columns].ravel(), mask[y2:bottom, x1:x2][:, columns].ravel())
    )
    return float(beside.mean()) if beside.size else 0.0


def _all_sliders(pixels: np.ndarray) -> list[Element]:
    step = 2 if pixels.shape[1] >= 900 else 1
    img = pixels[::step, ::step].astype(np.int16)
    w = img.shape[1]
    edge = max(2, w // 40)  # a row's background: its margins (a track may fill the middle)
    background = np.median(np.concatenate((img[:, :edge], img[:, -edge:]), axis=1), axis=1).astype(
        np.int16
    )
    mask = colour_distance(img, background[:, None, :]) > CONTRAST
    rows = _track_rows(mask, int(w * MIN_TRACK))
    span = scaled_side(img.shape[0], img.shape[1], pixels.shape[1], pixels.shape[0])
    found: list[Element] = []
    for band in _bands(rows, max_thick=max(2, span // 60)):
        knob = _knob(mask, band, span)
        if knob is None or surround_share(mask, band, knob) > MAX_SURROUND:
            continue  # no knob, or a line through a picture, a card's edge, a grid
        y_top = min(band[0], knob[1])
        y_bottom = max(band[1], knob[3])
        box = Box.of(
            min(band[2], knob[0]) * step,
            y_top * step,
            max(band[3], knob[2]) * step,
            y_bottom * step,
        )
        if any(_overlap_y(f.box, box) > 0.5 for f in found) or icon_row(pixels, box):
            continue
        found.append(Element(0, ElementKind.SEEK_BAR, box, clickable=True, confidence=0.5))
    return found


def _overlap_y(a: Box, b: Box) -> float:
    inter = min(a.y2, b.y2) - max(a.y1, b.y1)
    return max(0, inter) / max(1, min(a.height, b.height))
