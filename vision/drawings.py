"""Line drawings: a picture drawn in thin lines on the page, which the detector misses.

TrackerControl's "Destination Countries" page shows a world map in thin outlines on
the page's white. The detector found nothing there, and the search for icons it missed
(:mod:`vision.blobs`) reported the islands apart from the continents (Svalbard,
Iceland, New Zealand) as three unnamed icons, and the detector's doubtful boxes a
"button" on a dot of an island. :func:`find_drawings` finds such a drawing as the
blobs' search sees the page (ink off its rows' background, strokes joined): a part of
ink at least ``SIDE`` of the screen's short side each way, its ink at most ``SPARSE``
of its box (outlines, not a photo, which is ink all over), that no text line or
widget covers (``COVERED`` of its ink at most: a list's rows of text and thumbnails,
joined, are no drawing). Parts whose boxes overlap are one drawing (the map's Americas
and its Eurasia). Each is an ``image`` element; an icon the blobs' search found, or a
doubtful detection, centred inside it is a piece of it (:func:`in_drawings`).

    >>> drawings = find_drawings(pixels, known, page=page)   # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.blobs import Ink, Page, ink_of

#: A drawing is at least this share of the screen's short side each way...
SIDE = 0.25
#: ... its ink (undilated) at most this share of its box...
SPARSE = 0.15
#: ... and text lines and widgets cover at most this share of its ink.
COVERED = 0.2
#: At most this share of its ink (off the known boxes) on straight runs along a row or
#: column ``STRAIGHT_RUN`` of the short side long: outlines of cards, chips, dialogs and
#: grids are straight lines, a map's coastlines are not.
STRAIGHT = 0.3
STRAIGHT_RUN = 0.04
#: A drawing found from the pixels is as sure as a doubtful detection.
CONFIDENCE = 0.3


def find_drawings(
    pixels: np.ndarray,
    known: Sequence[Box],
    *,
    page: Page | None = None,
    ink: Ink | None = None,
) -> list[Element]:
    """The line drawings on ``pixels`` (H x W x 3 RGB) that ``known`` boxes (text
    lines, widgets) do not cover, as image elements (the module docstring); ``page``,
    ``ink``: their :class:`~vision.blobs.Page` and :class:`~vision.blobs.Ink`, when at
    hand."""
    ink = ink_of(pixels, page) if ink is None else ink
    mask, labels, stats, step, w, grow = (
        ink.raw,
        ink.labels,
        ink.stats,
        ink.step,
        ink.side,
        ink.grow,
    )
    count = len(stats)
    side = SIDE * w
    covered = np.zeros(mask.shape, bool)
    for k in known:
        covered[k.y1 // step : -(-k.y2 // step), k.x1 // step : -(-k.x2 // step)] = True
    boxes: list[Box] = []
    for i in range(1, count):
        x, y, bw, bh, _ = (int(v) for v in stats[i])
        if bw < side or bh < side:
            continue
        part = (labels[y : y + bh, x : x + bw] == i) & (mask[y : y + bh, x : x + bw] > 0)
        total = int(part.sum())
        if total == 0 or total > SPARSE * bw * bh:
            continue
        if int((part & covered[y : y + bh, x : x + bw]).sum()) > COVERED * total:
            continue
        if _straight_share(part & ~covered[y : y + bh, x : x + bw], STRAIGHT_RUN * w) > STRAIGHT:
            continue
        boxes.append(
            Box.of(
                (x + grow) * step, (y + grow) * step, (x + bw - grow) * step, (y + bh - grow) * step
            )
        )
    return [
        Element(0, ElementKind.IMAGE, box, clickable=True, confidence=CONFIDENCE)
        for box in _joined(boxes)
    ]


def _straight_share(ink: np.ndarray, run: float) -> float:
    """The share of the edge pixels of ``ink`` (ink beside the page) on a row or column
    run of edge at least ``run`` long: a card's, a chip's or a grid's outline, a filled
    box's sides; a coastline has few."""
    import cv2

    solid = ink.astype(np.uint8)
    edge = (solid > 0) & (cv2.erode(solid, np.ones((3, 3), np.uint8)) == 0)
    total = int(edge.sum())
    if total == 0:
        return 1.0
    straight = _long_runs(edge, run) | _long_runs(edge.T, run).T
    return float((straight & edge).sum()) / total


def _long_runs(ink: np.ndarray, run: float) -> np.ndarray:
    """The pixels of ``ink`` on a run along its rows at least ``run`` long."""
    padded = np.pad(ink.astype(np.int8), ((0, 0), (1, 1)))
    edges = np.diff(padded, axis=1)
    out = np.zeros(ink.shape, bool)
    for r in np.flatnonzero(ink.any(axis=1)):
        starts, ends = np.flatnonzero(edges[r] == 1), np.flatnonzero(edges[r] == -1)
        for a, b in zip(starts, ends, strict=True):
            if b - a >= run:
                out[r, a:b] = True
    return out


def _joined(boxes: Sequence[Box]) -> list[Box]:
    """``boxes`` with those that overlap made one (``Box.around``), until none do."""
    out = list(boxes)
    while True:
        pair = next(
            (
                (i, j)
                for i in range(len(out))
                for j in range(i + 1, len(out))
                if out[i].intersection(out[j]) > 0
            ),
            None,
        )
        if pair is None:
            return out
        i, j = pair
        out[i] = Box.around([out[i], out.pop(j)])


def in_drawings(element: Element, drawings: Sequence[Element]) -> bool:
    """Whether ``element`` (an icon the blobs' search found, a doubtful detection) is
    centred inside one of ``drawings``: a piece of it."""
    return any(d.box.contains(*element.box.center) for d in drawings)
