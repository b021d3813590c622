"""An open navigation drawer's right edge, from the pixels.

A navigation drawer is a panel along the screen's left edge, from the status bar to
the bottom, with the rest of the screen under a darkening scrim. Its rows are as wide
as the panel, not the screen: a row band (``vision.targets``) that runs across the
scrim claims taps that close the drawer. :func:`drawer_edge` finds the panel's edge:
the one column, between ``MIN_EDGE`` and ``MAX_EDGE`` of the screen's width, where
nearly every row of the screen's middle (``SPAN``) steps to something darker; a row
beyond which the pixels are as light as before (a list's thumbnail, a thin divider)
does not count, and the panel's margin left of the edge is one plain colour on most
rows (``PLAIN``: a photo's edge over a black frame is not a drawer's).

    >>> edge = drawer_edge(pixels)  # doctest: +SKIP
    >>> edge is None or 0.5 * width <= edge <= 0.9 * width  # doctest: +SKIP
    True
"""

from __future__ import annotations

import numpy as np

from screenpilot.vision.image import RGB, channel_mean

#: The drawer's edge lies between these shares of the screen's width (Material: the
#: screen's width less 56 dp, at most 320 dp wide on a phone).
MIN_EDGE, MAX_EDGE = 0.5, 0.9
#: The rows looked at: this share of the screen's height (below the status bar and
#: the app bar, above the navigation bar).
SPAN = (0.15, 0.9)
#: A row steps at the edge when the grey level right of it (``STEP_PX`` px on) is at
#: least ``DARKER`` lower than left of it...
DARKER = 24.0
STEP_PX = 3
#: ... and the step holds ``HOLD_PX`` px further on (a scrim, not a thin line).
HOLD_PX = 12
#: Nearly every row: this share of them.
ROWS = 0.9
#: The panel's margin (``HOLD_PX`` px left of the edge): this share of its rows within
#: ``PLAIN_GREY`` of its median grey.
PLAIN = 0.8
PLAIN_GREY = 12.0
#: The screen is looked at this wide (rows every few pixels are enough).
WORK_WIDTH = 360


def drawer_edge(pixels: RGB) -> int | None:
    """The x (screen pixels) of an open drawer's right edge on ``pixels`` (H x W x 3),
    or None when no drawer is open."""
    height, width = pixels.shape[:2]
    if width < 64 or height < 64:
        return None
    step = max(1, width // WORK_WIDTH)
    top, bottom = int(SPAN[0] * height), int(SPAN[1] * height)
    grey = channel_mean(pixels[top:bottom:step, ::step])
    w = grey.shape[1]
    near, hold = max(1, STEP_PX // step), max(2, HOLD_PX // step)
    lo, hi = int(MIN_EDGE * w), min(int(MAX_EDGE * w), w - near - hold - 1)
    if hi <= lo or grey.shape[0] < 8:
        return None
    xs = np.arange(lo, hi)
    left = grey[:, xs - near]
    right = grey[:, xs + near]
    beyond = grey[:, xs + near + hold]
    steps = (left - right >= DARKER) & (left - beyond >= DARKER)
    share = steps.mean(axis=0)
    best = int(np.argmax(share))
    if share[best] < ROWS:
        return None
    margin = grey[:, max(0, int(xs[best]) - near - hold)]
    if float((np.abs(margin - np.median(margin)) <= PLAIN_GREY).mean()) < PLAIN:
        return None
    return int(xs[best] * step)
