"""Which radio button is chosen, from the pixels of a detected radio option.

The detector finds a radio button with its label as one ``radio_group`` box per
option (the virtual phone's single-choice dialogs) but says nothing of which one is
chosen. A radio button is a ring (Material: 20 dp across, a 2 dp stroke) left of its
label; the chosen one holds a dot (10 dp) in the ring's middle. :func:`radio_chosen`
finds the leftmost ring in the box (a connected patch of ink, about square, 12-30 dp
across, filling ``RING_FILL`` of its box: an annulus) and says whether the ring's middle
is ink; ``None`` where the box holds no ring (a whole group's box, a picture).

    >>> radio_chosen(pixels, element.box)   # doctest: +SKIP
"""

from __future__ import annotations

import numpy as np

from screenpilot.model import Box
from screenpilot.vision.blocks import dp_size
from screenpilot.vision.image import RGB, border_colour, channel_mean

#: A pixel is ink when its grey differs from the box's border's median by this much.
INK = 40.0
#: A ring's side in dp, and the share of its box its ink fills (an annulus of a 2 dp
#: stroke on 20 dp fills 0.28 of its square; a filled disc 0.79, a glyph's stroke varies).
RING_DP = (12.0, 30.0)
RING_FILL = (0.18, 0.5)
#: The ring's middle (this share of its side) holds the dot when over half of it is ink.
DOT = 0.25
#: A box taller than this (dp) holds more than one option.
OPTION_DP = 72.0


def radio_chosen(pixels: RGB, box: Box) -> bool | None:
    """Whether the radio button in ``box`` is chosen; None when there is no ring."""
    import cv2

    dp = dp_size(pixels.shape[1], pixels.shape[0])
    x1, y1 = max(0, box.x1), max(0, box.y1)
    x2, y2 = min(pixels.shape[1], box.x2), min(pixels.shape[0], box.y2)
    if y2 - y1 > OPTION_DP * dp or x2 - x1 < RING_DP[0] * dp or y2 - y1 < RING_DP[0] * dp:
        return None
    grey = channel_mean(pixels[y1:y2, x1:x2])
    ink = (np.abs(grey - float(border_colour(grey))) > INK).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    rings = []
    for k in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[k])
        if not (RING_DP[0] * dp <= min(w, h) and max(w, h) <= RING_DP[1] * dp):
            continue
        if abs(w - h) > 0.15 * max(w, h) or not RING_FILL[0] <= area / (w * h) <= RING_FILL[1]:
            continue
        rings.append((x, y, w, h, k))
    if not rings:
        return None
    x, y, w, h, k = min(rings)
    if labels[y + h // 2, x + w // 2] == k:  # a ring's middle is not its own stroke
        return None
    r = max(1, round(DOT * min(w, h) / 2))
    middle = ink[y + h // 2 - r : y + h // 2 + r + 1, x + w // 2 - r : x + w // 2 + r + 1]
    return bool(middle.mean() > 0.5)
