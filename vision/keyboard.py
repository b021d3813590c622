"""The on-screen keyboard's panel: a KEYBOARD block from its rows of keys up to where its
background ends, so that the strip above the keys (the keyboard's tools: emoji,
clipboard, settings, voice; or its word suggestions) is the keyboard's too: the offline
planner once tapped that strip's settings gear as the closest match to a task.

The keys are found by :func:`screenpilot.core.keyboard.key_rows` (the rule the command
language uses). The panel's colour is the one just above the top row of keys; rows of
pixels are climbed while most of each is that colour, at most :data:`MAX_STRIP` key
pitches and never past a text field (a message's field sits right on the keyboard: a
panel whose colour runs on up to the field starts at the field's bottom). A panel of the
app's own colour has no edge to find: the block then starts half a key's height above
the keys, as the language's rule does.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from screenpilot.core.keyboard import key_pitch, key_rows, keys_y1, rows_top
from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.image import RGB, colour_distance

#: Pixels this close (summed over R, G, B) to the panel's colour are the panel.
NEAR = 18
#: A row of pixels belongs to the panel when at least this share of it is its colour
#: (a strip of five icons covers about a quarter of its rows' pixels).
PANEL_SHARE = 0.6
#: The strip above the keys is at most this many key pitches tall.
MAX_STRIP = 1.5


def keyboard_panel(
    pixels: RGB, elements: Sequence[Element], bottom: int | None = None
) -> Box | None:
    """The keyboard's panel on ``pixels``: full width, from its top edge to ``bottom``
    (the navigation bar's top; the screen's bottom when not given); ``None`` when the
    elements hold no keyboard."""
    h, w = pixels.shape[:2]
    rows = key_rows(elements, w, h, bottom)
    if not rows:
        return None
    pitch = key_pitch([e for r in rows for e in r])
    y1 = keys_y1(rows)
    limit = max(int(h * 0.5), round(y1 - MAX_STRIP * pitch))
    fields = [
        e.box.y2 for e in elements if e.kind is ElementKind.EDIT_TEXT and limit < e.box.y2 <= y1
    ]
    limit = max([limit, *fields])  # never above a text field's bottom
    top = _panel_top(pixels, y1, limit)
    if top is None:  # the colour runs on: to the field on the keyboard, or no edge is seen
        top = limit if fields else rows_top(rows, h)
    y2 = h if bottom is None else bottom
    return Box(0, top, w, y2) if y2 > top else None


def _panel_top(pixels: RGB, keys_y1: int, limit: int) -> int | None:
    """The first row above ``keys_y1`` (not above ``limit``) where the panel's colour
    stops covering most of the row, plus one; ``None`` when it runs on to ``limit``."""
    y = keys_y1 - 2
    if y <= limit:
        return None
    band = pixels[limit : y + 1].astype(np.int16)
    panel = np.median(band[-1], axis=0)
    share = (colour_distance(band, panel) <= NEAR).mean(axis=1)
    off = np.nonzero(share < PANEL_SHARE)[0]
    if not len(off):
        return None
    return limit + int(off[-1]) + 1
