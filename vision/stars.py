"""Rating bars from the pixels: a row of equal stars.

The detector misses the simulator's small rating bars (none of the 17 under a search
result's price on 3 variants), while the ink finder (:mod:`screenpilot.vision.blobs`)
reports each star as an icon. :func:`star_rows` replaces a run of ``MIN_STARS`` to
``MAX_STARS`` small icons on one row (centres within ``ROW`` of their height), of
equal size (within ``SAME_SIZE``), evenly and tightly spaced (from one centre to the
next ``PITCH`` times their width, each step within ``SAME_SIZE`` of the first) and
star-shaped (their ink fills at most ``MAX_SOLIDITY`` of its convex hull: a disc, a
password's dot or a page indicator's fills it all; the points of a star leave a
third of it empty) with one ``rating_bar``, its box around them and ``PAD`` of their
height beyond. A toolbar's icons stand two widths apart or more.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.blocks import dp_size
from screenpilot.vision.image import RGB, border_colour, colour_distance

MIN_STARS, MAX_STARS = 4, 10
#: A star is at most this many dp on a side.
MAX_STAR_DP = 32.0
ROW = 0.15
SAME_SIZE = 0.2
PITCH = (1.0, 1.8)
MAX_SOLIDITY = 0.75
PAD = 0.3
#: Ink differs from the crop's border colour by more than this (sum of R, G, B).
INK = 60
CONFIDENCE = 0.5
SMALL = (ElementKind.ICON, ElementKind.IMAGE)


def star_rows(pixels: RGB, widgets: Sequence[Element]) -> list[Element]:
    """``widgets`` with each row of stars (icons) replaced by one rating bar."""
    dp = dp_size(pixels.shape[1], pixels.shape[0])
    small = [
        e
        for e in widgets
        if e.kind in SMALL and not e.text and max(e.box.width, e.box.height) <= MAX_STAR_DP * dp
    ]
    small.sort(key=lambda e: (e.box.center[1], e.box.x1))
    taken: set[int] = set()
    bars: list[Element] = []
    for run in _runs(small):
        if MIN_STARS <= len(run) <= MAX_STARS and all(_starry(pixels, e.box) for e in run):
            around = Box.around([e.box for e in run])
            pad = round(PAD * max(e.box.height for e in run))
            h, w = pixels.shape[:2]
            box = Box.of(
                max(0, around.x1 - pad),
                max(0, around.y1 - pad),
                min(w, around.x2 + pad),
                min(h, around.y2 + pad),
            )
            bars.append(Element(0, ElementKind.RATING_BAR, box, confidence=CONFIDENCE))
            taken.update(id(e) for e in run)
    return [e for e in widgets if id(e) not in taken] + bars


def _runs(small: list[Element]) -> list[list[Element]]:
    """Runs of icons side by side on one row, equal in size and evenly spaced."""
    runs: list[list[Element]] = []
    used: set[int] = set()
    for i, first in enumerate(small):
        if id(first) in used:
            continue
        row = sorted(
            (e for e in small[i:] if id(e) not in used and _same_row(first.box, e.box)),
            key=lambda e: e.box.x1,
        )
        run = [row[0]] if row else []
        for e in row[1:]:
            step = e.box.center[0] - run[-1].box.center[0]
            size = run[-1].box.width
            first_step = run[1].box.center[0] - run[0].box.center[0] if len(run) > 1 else step
            if (
                PITCH[0] * size <= step <= PITCH[1] * size
                and abs(step - first_step) <= SAME_SIZE * first_step
                and abs(e.box.width - size) <= SAME_SIZE * size
            ):
                run.append(e)
            elif len(run) >= MIN_STARS:
                break
            else:
                run = [e]
        if len(run) >= MIN_STARS:
            runs.append(run)
            used.update(id(e) for e in run)
    return runs


def _same_row(a: Box, b: Box) -> bool:
    return (
        abs(a.center[1] - b.center[1]) <= ROW * a.height
        and abs(a.height - b.height) <= SAME_SIZE * a.height
    )


def _starry(pixels: RGB, box: Box) -> bool:
    """Whether the ink in ``box`` fills at most ``MAX_SOLIDITY`` of its convex hull."""
    import cv2

    crop = pixels[box.y1 : box.y2, box.x1 : box.x2].astype(np.int16)
    if crop.shape[0] < 4 or crop.shape[1] < 4:
        return False
    ink = (colour_distance(crop, border_colour(crop)) > INK).astype(np.uint8)
    points = cv2.findNonZero(ink)
    if points is None or len(points) < 8:
        return False
    hull = cv2.convexHull(points)
    area = float(cv2.contourArea(hull))
    return area > 0 and float(ink.sum()) / area <= MAX_SOLIDITY
