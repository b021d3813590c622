"""The part of the screen the icon model sees for a picture's box.

:func:`model_view` is what describe hands the model: a button's plain fill round its
glyph cut away (:func:`vision.discs.glyph_crop`), and a glyph its box cuts tight shown
with the page round it (:func:`model_box`).

The icon model was trained on glyphs drawn with 6-55 % of their size as padding on
each side (models/MODELS.md, "Icon labeller"). describe's boxes often come from a
picture's ink, so they end where the glyph ends, and the model reads such a crop
poorly (NewPipe's "popup" TV glyph cut at its ink scores 0.70 for "battery"; with the
page round it, 0.999 for "tv"). A box is grown by :data:`PAD` of its longer side on
every side when

- its ink reaches within :data:`TIGHT` of all four of its edges,
- the band round it is plain page (at most :data:`PLAIN` of it ink),
- it is a glyph's size (at most :data:`MAX_SIDE` of the screen's short side: a list's
  app icons are larger),
- its ink is a glyph and not a plain block (a colour swatch fills its box) nor a
  picture of several colours (an app's launcher icon).

Any other box is left as it is."""

from __future__ import annotations

import numpy as np

from screenpilot.model import Box
from screenpilot.vision.density import short_side
from screenpilot.vision.discs import glyph_crop
from screenpilot.vision.image import (
    GLYPH_CONTRAST,
    RGB,
    border_colour,
    glyph_window,
    grey_u8,
    mask_bounds,
)

#: A box is tight when its ink comes this close to each of its edges (a share of the side).
TIGHT = 0.06
#: ... and it is then grown by this share of its longer side on every side...
PAD = 0.2
#: ... where the band round it holds at most this share of ink...
PLAIN = 0.01
#: ... and its longer side is at most this share of the screen's short side (36 dp).
MAX_SIDE = 0.0875
#: Ink covering this share of its own box is a plain block (a swatch), not a glyph.
SOLID = 0.9
#: Ink colours: binned to 4 levels a channel; a bin holding this share of the ink counts...
COLOUR_SHARE = 0.1
#: ... and ink of more than this many such colours is a picture (an app's icon).
MAX_COLOURS = 2


def model_view(pixels: RGB, box: Box) -> Box:
    """The part of ``pixels`` the icon model should see for the picture ``box``."""
    return model_box(pixels, glyph_crop(pixels, box))


def model_box(pixels: RGB, box: Box) -> Box:
    """``box`` grown by the page round it when it cuts a glyph tight (the module
    docstring), else ``box``."""
    h, w = pixels.shape[:2]
    if box.width < 4 or box.height < 4:
        return box
    if max(box.width, box.height) > MAX_SIDE * short_side(w, h):
        return box
    around, x1, y1 = glyph_window(pixels, box, PAD)
    grey = grey_u8(around)
    ink = np.abs(grey.astype(np.int16) - int(border_colour(grey))) >= GLYPH_CONTRAST
    inside = np.zeros(ink.shape, bool)
    inside[box.y1 - y1 : box.y2 - y1, box.x1 - x1 : box.x2 - x1] = True
    if float(ink[~inside].mean()) > PLAIN:
        return box
    mine = ink & inside
    bounds = mask_bounds(mine)
    if bounds is None:
        return box
    mx1, my1, mx2, my2 = bounds
    top, bottom = my1 - (box.y1 - y1), (box.y2 - y1) - my2
    left, right = mx1 - (box.x1 - x1), (box.x2 - x1) - mx2
    if max(top, bottom) > TIGHT * box.height or max(left, right) > TIGHT * box.width:
        return box
    if float(mine.sum()) >= SOLID * (my2 - my1) * (mx2 - mx1):
        return box
    if ink_colours(around[mine]) > MAX_COLOURS:
        return box
    return Box.of(x1, y1, x1 + around.shape[1], y1 + around.shape[0])


def ink_colours(ink: np.ndarray) -> int:
    """How many colours (R, G, B binned to 4 levels each) make at least
    :data:`COLOUR_SHARE` of the ``ink`` pixels (N x 3)."""
    if not len(ink):
        return 0
    bins = (ink[:, 0] // 64).astype(np.int32) * 16 + (ink[:, 1] // 64) * 4 + ink[:, 2] // 64
    counts = np.bincount(bins, minlength=64)
    return int((counts >= COLOUR_SHARE * len(ink)).sum())
