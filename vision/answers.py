"""The icon model's answer checked against the drawing, where its glyph has a fixed shape.

The model reads a 32 px crop and, for a glyph it never learnt, answers the nearest one
it knows, at times above its threshold. Such answers are checked:

- ``close``. NetGuard's "mobile data blocked" glyph (a filled signal triangle crossed by
  a slash) reads as ``close`` (0.97-0.997) on every app row, 64 times on its 30
  screenshots. A close glyph ("×", alone, in a ring or cut out of a disc) is the same
  drawn mirrored left to right; that triangle is not. So ``close`` stands only where
  the ink of the box (:func:`vision.image.glyph_ink`) matches its mirror image at
  :data:`MIRROR` or more (intersection over union): real close glyphs of the harvest's
  train apps and of the 85 real screenshots score 0.68-1.0, NetGuard's triangle
  0.22-0.48 (its dark themes' dim glyph read at :data:`FAINT_CONTRAST`).
- ``stop``. A stop glyph is one solid square (Material's "stop": its ink fills
  :data:`SQUARE_FILL` of its own box, sides within :data:`SQUARE_ASPECT`). The model
  also says ``stop`` for a folder (Markor's: a square with a tab, fill 0.92, 1.22 as
  wide as tall) and for a calendar's colour swatches (EtarCalendar's: solid squares of a
  saturated colour, 23-26 dp); a square whose colour is saturated (the median of its
  pixels' max - min of R, G, B over :data:`SATURATED`) and at least :data:`SWATCH_DP`
  across is a swatch.

- ``power`` and ``brightness``. A progress ring (LoopHabits' habit scores: a coloured
  arc over a pale track) reads as ``power``. A power glyph's bar reaches into its
  ring's middle and a sun's disc fills it; a bare ring has nothing there. So these two
  answers do not stand on a ring: the largest part of the ink, found at
  :data:`RING_CONTRAST` (the pale track too), about square (:data:`SQUARE_ASPECT`),
  inked all round its band (:data:`RING_BAND`, :data:`RING_FULL`), with no ink of
  any part within :data:`RING_HOLE` of its radius from its middle (a power glyph's
  bar may be a part of its own).

A box with no ink keeps the answer. A crop of three or more colours (an app's logo, a
photo: :func:`vision.hues.many_hues`) gets no answer at all.

A glyph OCR read as a "C" (NewPipe's refresh) is round arrows only where its ink has
an arrowhead (:func:`has_arrowhead`): its thickest point, by the distance to the page,
at least :data:`ARROWHEAD` times the 90th percentile of its ink's (a refresh glyph
2.0; a font's "C", which the model also calls ``refresh``, 1.05-1.25).

    >>> label = checked_answer(pixels, box, "close")   # doctest: +SKIP
"""

from __future__ import annotations

import numpy as np

from screenpilot.model import Box
from screenpilot.vision.blocks import dp_size
from screenpilot.vision.hues import many_hues
from screenpilot.vision.image import GLYPH_CONTRAST, RGB, glyph_ink, glyph_window

#: A stop glyph's ink fills at least this share of its own box, ...
SQUARE_FILL = 0.95
#: ... whose width over height lies in this range.
SQUARE_ASPECT = (0.85, 1.18)
#: A square this saturated (median max - min of R, G, B) ...
SATURATED = 90
#: ... and at least this many dp across is a colour swatch.
SWATCH_DP = 20
#: A close glyph matches its left-right mirror image at least this well (IoU of ink).
MIRROR = 0.57
#: Ink for the check is what differs from the page by the glyph rules' contrast or,
#: where that finds none (a dark theme's dim glyph), by this many grey levels.
FAINT_CONTRAST = 20


#: Labels a bare ring cannot be.
RING_WRONG = frozenset({"power", "brightness"})
#: A ring's ink differs from the page by this many grey levels (its pale track by ~19).
RING_CONTRAST = 12
#: No ink within this share of the ring's radius from its middle ...
RING_HOLE = 0.4
#: ... and at least RING_FULL of the pixels between these shares of it inked.
RING_BAND = (0.75, 0.92)
RING_FULL = 0.95


#: A glyph's thickest point over its ink's 90th percentile of thickness: an arrowhead.
ARROWHEAD = 1.6


def has_arrowhead(pixels: RGB, box: Box) -> bool:
    """Whether the ink of ``box`` has an arrowhead (the module docstring)."""
    import cv2

    ink = glyph_ink(pixels, box).labels > 0
    if not ink.any():
        return False
    depth = cv2.distanceTransform(np.pad(ink.astype(np.uint8), 1), cv2.DIST_L2, 3)
    return float(depth.max()) >= ARROWHEAD * float(np.percentile(depth[depth > 0], 90))


def is_bare_ring(pixels: RGB, box: Box) -> bool:
    """Whether the largest part of the ink of ``box`` is a ring with nothing inside it
    (the module docstring)."""
    parts = glyph_ink(pixels, box, contrast=RING_CONTRAST)
    found = parts.largest()
    if found is None:
        return False
    largest, (x, y, w, h) = found
    if min(w, h) < 8 or not SQUARE_ASPECT[0] <= w / h <= SQUARE_ASPECT[1]:
        return False
    ring = parts.labels[y : y + h, x : x + w] == largest
    ink = parts.labels[y : y + h, x : x + w] > 0  # a power glyph's bar is a part of its own
    yy, xx = np.mgrid[0:h, 0:w]
    reach = np.hypot(yy - (h - 1) / 2, xx - (w - 1) / 2) / ((h + w) / 4)
    band = (reach >= RING_BAND[0]) & (reach <= RING_BAND[1])
    return not ink[reach < RING_HOLE].any() and float(ring[band].mean()) >= RING_FULL


def mirror_match(pixels: RGB, box: Box) -> float | None:
    """How well the ink of ``box`` matches its left-right mirror image (intersection over
    union of the ink cut to its own box), or ``None`` where it has no ink, even faint."""
    for contrast in (GLYPH_CONTRAST, FAINT_CONTRAST):
        shape = glyph_ink(pixels, box, contrast=contrast).cut()
        if shape is not None:
            break
    else:
        return None
    mirrored = shape[:, ::-1]
    return float((shape & mirrored).sum() / max(1, (shape | mirrored).sum()))


def is_stop_square(pixels: RGB, box: Box) -> bool | None:
    """Whether the ink of ``box`` is a stop glyph (the module docstring), ``None`` where
    it has no ink."""
    parts = glyph_ink(pixels, box)
    shape = parts.cut()
    if shape is None:
        return None
    h, w = shape.shape
    if float(shape.mean()) < SQUARE_FILL or not SQUARE_ASPECT[0] <= w / h <= SQUARE_ASPECT[1]:
        return False
    window, _, _ = glyph_window(pixels, box)
    colours = window[parts.labels > 0].astype(np.int16)
    saturation = float(np.median(colours.max(axis=1) - colours.min(axis=1)))
    wide = max(h, w) >= SWATCH_DP * dp_size(pixels.shape[1], pixels.shape[0])
    return not (saturation > SATURATED and wide)


def checked_answer(pixels: RGB, box: Box, label: str) -> str:
    """``label``, the model's answer for the crop ``box`` of ``pixels``, or "" where the
    drawing cannot be that glyph (the module docstring)."""
    if label and many_hues(pixels, box):  # a logo or a photo names no function
        return ""
    if label == "close":
        match = mirror_match(pixels, box)
        if match is not None and match < MIRROR:
            return ""
    if label == "stop" and is_stop_square(pixels, box) is False:
        return ""
    if label in RING_WRONG and is_bare_ring(pixels, box):
        return ""
    return label
