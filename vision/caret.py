"""A focused field's text cursor is not a letter: "Walker|" is read "Walkerl".

Android draws the cursor of a focused field as a thin vertical bar in the app's accent
colour (``colorControlActivated``) right after the typed text, and OCR reads it as one
more narrow letter (``l``, ``I``, ``|``, ``1``, ``!``, ``i``). A recorder that reads what
was typed, and a planner that checks a field's value, then see a word that was never
typed. The pixels tell the two apart: :func:`strip_carets` drops a line's last
character when it is one of those, and the rightmost run of ink columns in the line's
box (a little past its right edge too) is narrow, as tall as half the box, and
coloured (its median chroma at least ``CHROMA``) while the rest of the line's ink is
not. A black ``l`` at the end of a word stays.

    >>> lines = strip_carets(pixels, lines)   # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from screenpilot.model import Box
from screenpilot.vision.image import RGB
from screenpilot.vision.ocr import TextLine
from screenpilot.vision.sliders import true_runs

#: What OCR makes of a cursor.
CARET_READS = "|lI!1i"
#: Colour distance from the box's background (max over channels) that counts as ink.
INK = 48.0
#: Median chroma (max - min channel) of the cursor's ink, and the most the rest may have.
CHROMA = 60.0
TEXT_CHROMA = 30.0
#: The cursor run is at most this share of the line's height wide (and at least 3 px).
WIDTH = 0.15
#: ... and at least this share of the box's height tall.
HEIGHT = 0.5
#: How far past the box's right edge the cursor is looked for, in line heights.
REACH = 0.25


def caret_end(pixels: RGB, box: Box) -> int | None:
    """The x where the text in ``box`` ends when its rightmost mark is a coloured text
    cursor (None: no cursor there)."""
    if pixels.ndim != 3 or box.height < 6:
        return None
    h_img, w_img = pixels.shape[:2]
    x1, y1, y2 = max(0, box.x1), max(0, box.y1), min(h_img, box.y2)
    x2 = min(w_img, box.x2 + int(REACH * box.height))
    crop = pixels[y1:y2, x1:x2].astype(np.float32)
    if crop.size == 0:
        return None
    background = np.median(crop.reshape(-1, 3), axis=0)
    ink = np.abs(crop - background).max(axis=2) > INK
    runs = true_runs(ink.any(axis=0))
    if len(runs) < 2:
        return None
    start, end = runs[-1]
    if end - start > max(3, int(WIDTH * box.height)):
        return None
    bar = ink[:, start:end]
    if bar.any(axis=1).sum() < HEIGHT * crop.shape[0]:
        return None
    chroma = crop.max(axis=2) - crop.min(axis=2)
    rest = ink[:, : runs[-2][1]]
    if float(np.median(chroma[:, start:end][bar])) < CHROMA:
        return None
    if float(np.median(chroma[:, : runs[-2][1]][rest])) > TEXT_CHROMA:
        return None
    return x1 + runs[-2][1]


def strip_carets(pixels: RGB, lines: Sequence[TextLine]) -> list[TextLine]:
    """``lines`` with a cursor read as a last letter taken off (see the module docstring);
    a line that was only a cursor letter is dropped."""
    out: list[TextLine] = []
    for line in lines:
        text = line.text.rstrip()
        if not text or text[-1] not in CARET_READS:
            out.append(line)
            continue
        end = caret_end(pixels, line.box)
        if end is None:
            out.append(line)
            continue
        kept = text[:-1].rstrip()
        if kept:
            b = line.box
            out.append(TextLine(kept, Box(b.x1, b.y1, max(b.x1 + 1, end), b.y2), line.score))
    return out
