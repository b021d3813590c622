"""The icon model's answer checked against the drawing, where its glyph has a fixed shape.

The model reads a 32 px crop and, for a glyph it never learnt, answers the nearest one
it knows, at times above its threshold. One such mistake repeats on every row of some
apps: NetGuard's "mobile data blocked" glyph (a filled signal triangle crossed by a
slash) reads as ``close`` (0.97-0.997), 64 times on its 30 screenshots. A close glyph
("×", alone, in a ring or cut out of a disc) is the same drawn mirrored left to right;
that triangle is not. So a ``close`` answer stands only where the ink of the box
(:func:`vision.image.glyph_ink`) matches its mirror image at :data:`MIRROR` or more
(intersection over union): real close glyphs of the harvest's train apps and of the 85
real screenshots score 0.68-1.0, NetGuard's triangle 0.22-0.48 (its dark themes' dim
glyph read at :data:`FAINT_CONTRAST`). A box with no ink even then keeps the answer.

    >>> label = checked_answer(pixels, box, "close")   # doctest: +SKIP
"""

from __future__ import annotations

import numpy as np

from screenpilot.model import Box
from screenpilot.vision.image import GLYPH_CONTRAST, RGB, glyph_ink

#: A close glyph matches its left-right mirror image at least this well (IoU of ink).
MIRROR = 0.57
#: Ink for the check is what differs from the page by the glyph rules' contrast or,
#: where that finds none (a dark theme's dim glyph), by this many grey levels.
FAINT_CONTRAST = 20


def mirror_match(pixels: RGB, box: Box) -> float | None:
    """How well the ink of ``box`` matches its left-right mirror image (intersection over
    union of the ink cut to its own box), or ``None`` where it has no ink, even faint."""
    for contrast in (GLYPH_CONTRAST, FAINT_CONTRAST):
        ink = glyph_ink(pixels, box, contrast=contrast).labels > 0
        rows, cols = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
        if len(rows):
            break
    else:
        return None
    shape = ink[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1]
    mirrored = shape[:, ::-1]
    return float((shape & mirrored).sum() / max(1, (shape | mirrored).sum()))


def checked_answer(pixels: RGB, box: Box, label: str) -> str:
    """``label``, the model's answer for the crop ``box`` of ``pixels``, or "" where the
    drawing cannot be that glyph (the module docstring)."""
    if label == "close":
        match = mirror_match(pixels, box)
        if match is not None and match < MIRROR:
            return ""
    return label
