"""Doubtful detections: what the detector sees below its confidence threshold, kept
only where nothing else was found.

The shipped detector was trained mostly on rendered screens; on real apps many icons
get a confidence under its threshold (``Detector.conf``, 0.25) though the box is
right. ``describe`` asks the detector down to ``WEAK_CONF`` and keeps a doubtful box
only when it is a picture, a button or a switch, at most ``MAX_SIDE`` of the screen's width on
each side, and no text line or confident widget covers more than ``MAX_COVERED`` of
it: an icon nobody else reported, not a second opinion on a widget already there.
On 160 real screens of the harvest's train apps this raised the tap targets hit from
0.836 to 0.860 (IoU >= 0.5 matched 0.659 -> 0.678); a doubtful box keeps its low
confidence in ``describe --json``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.image import RGB, box_pixels, off_median

#: The floor ``describe`` asks the detector for...
WEAK_CONF = 0.05
#: ... and a detection under this (``Detector``'s default threshold) is doubtful.
STRONG_CONF = 0.25
#: A doubtful box is at most this share of the screen's width (its short side) on each side...
MAX_SIDE = 0.25
#: ... and nothing known covers more than this share of it...
MAX_COVERED = 0.1
#: ... and it is a picture, a button or a switch (a doubtful check box or rating bar
#: has a state that would be read wrong, and check boxes the pixels find on their own;
#: detector v4 puts some simulator switches at 0.21-0.25, their state read right from
#: the pixels: 40 of 40 switches on 48 simulator screens, 38 without them).
KINDS = frozenset({ElementKind.ICON, ElementKind.IMAGE, ElementKind.BUTTON, ElementKind.SWITCH})


#: A doubtful box none of whose pixels is further than this from its median colour (in
#: any channel) has nothing drawn in it: an empty corner of a card, a heat map's empty
#: cell, a calendar's empty day.
BLANK_SPREAD = 24


#: A smooth gradient (a wallpaper) is blank too: a plane fitted to each channel of the
#: box (on at most ``PLANE_SIDE`` x ``PLANE_SIDE`` of its pixels) leaves none of its
#: pixels further than ``BLANK_SPREAD`` from it.
PLANE_SIDE = 48


def is_blank(pixels: RGB, box: Box) -> bool:
    """Whether ``box`` of ``pixels`` is one colour (``BLANK_SPREAD``) or one smooth
    gradient (:func:`on_a_plane`): nothing to tap."""
    ink = off_median(pixels, box, BLANK_SPREAD)
    return ink is None or not ink.any() or on_a_plane(box_pixels(pixels, box))


def on_a_plane(patch: RGB) -> bool:
    """Whether every channel of ``patch`` (H x W x C) is a plane ``a + b x + c y`` to
    within ``BLANK_SPREAD`` (a gradient with nothing drawn on it)."""
    h, w = patch.shape[:2]
    if h < 2 or w < 2:
        return True
    sy, sx = max(1, -(-h // PLANE_SIDE)), max(1, -(-w // PLANE_SIDE))
    yy, xx = np.mgrid[0:h:sy, 0:w:sx]
    design = np.stack([np.ones(xx.size), xx.ravel(), yy.ravel()], axis=1)
    values = patch[::sy, ::sx].reshape(-1, patch.shape[-1]).astype(np.float64)
    coef, *_ = np.linalg.lstsq(design, values, rcond=None)  # fitted on the sample ...
    rows, cols = np.mgrid[0:h, 0:w]  # ... checked on every pixel (a thin stroke counts)
    plane = coef[0] + cols[..., None] * coef[1] + rows[..., None] * coef[2]
    return bool(np.abs(patch.astype(np.float64) - plane).max() <= BLANK_SPREAD)


def keep_weak(weak: Sequence[Element], known: Sequence[Box], span: int) -> list[Element]:
    """The doubtful detections in ``weak`` that are icon-sized (``span``: the screen's
    short side, its width in portrait) and that no box of ``known`` (text lines,
    confident widgets) covers; best first, each kept one counting as known for the next."""
    kept: list[Element] = []
    boxes = list(known)
    for e in sorted(weak, key=lambda x: -x.confidence):
        if e.kind not in KINDS or max(e.box.width, e.box.height) > MAX_SIDE * span:
            continue
        if any(k.intersection(e.box) > MAX_COVERED * e.box.area for k in boxes):
            continue
        kept.append(e)
        boxes.append(e.box)
    return kept
