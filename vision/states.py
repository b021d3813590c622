"""States of elements read from their pixels: switches and check boxes on or off (an accent
colour), the chosen radio option (``vision.radios``), fields showing a hint (faint text),
what is clickable by kind."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.image import RGB
from screenpilot.vision.radios import radio_chosen
from screenpilot.vision.shapes import thumb_on_right

#: How far a text's ink stands from its background (grey levels, at the ink's 90th
#: percentile) below which it is a hint: the simulator's hints stand 111-126 from
#: theirs, typed values 180-225; Material's hint (38 % black) 97, its body text 222.
HINT_CONTRAST = 150.0
#: Grey levels from the background from which a pixel is ink.
INK = 40.0


def with_state(pixels: RGB, e: Element, lines: Sequence[Box] = ()) -> Element:
    """Checked state of switches/check boxes and hint text of fields, from the pixels;
    a field's text is judged on the text ``lines`` (OCR boxes) inside it."""
    crop = pixels[e.box.y1 : e.box.y2, e.box.x1 : e.box.x2]
    if crop.size == 0:
        return e
    if e.kind is ElementKind.SWITCH and e.checked is None:
        on = thumb_on_right(pixels, e.box)  # where the thumb lies, else an accent colour
        on = _colourful(crop) if on is None else on
        return dataclasses.replace(e, checked=on, clickable=True)
    if e.kind is ElementKind.CHECK_BOX and e.checked is None:
        return dataclasses.replace(e, checked=_colourful(crop), clickable=True)
    if e.kind is ElementKind.EDIT_TEXT:
        inside = [b for b in lines if e.box.contains(*b.center)]
        if inside:
            t = Box.around(inside)
            hint = faint(pixels[t.y1 : t.y2, t.x1 : t.x2])
        else:
            hint = faint(crop, outlined=True)
        return dataclasses.replace(e, editable=True, clickable=True, hint=bool(e.text) and hint)
    if e.kind is ElementKind.RADIO_GROUP:  # one option: chosen when its ring holds a dot
        chosen = radio_chosen(pixels, e.box)
        return dataclasses.replace(e, clickable=True, selected=bool(chosen) or e.selected)
    if e.kind in (ElementKind.BUTTON, ElementKind.SPINNER, ElementKind.ICON):
        return dataclasses.replace(e, clickable=True)
    return e


def _colourful(crop: RGB) -> bool:
    """Whether an on-state accent colour fills a visible part of ``crop``."""
    import cv2

    hsv = cv2.cvtColor(np.ascontiguousarray(crop), cv2.COLOR_RGB2HSV)
    accent = (hsv[:, :, 1] >= 80) & (hsv[:, :, 2] >= 80)
    return float(accent.mean()) >= 0.08


def faint(crop: RGB, *, outlined: bool = False) -> bool:
    """Whether the text in ``crop`` is low-contrast grey (a hint, not a typed value):
    its ink stands less than ``HINT_CONTRAST`` from the background (the crop's
    median). ``outlined``: the crop is a whole field's, whose outline's sides, top
    and bottom (lines of ink across half the crop) are not the text's."""
    gray = crop.mean(axis=2)
    diff = np.abs(gray - float(np.median(gray)))
    ink = diff > INK
    if outlined:
        ink[:, ink.mean(axis=0) > 0.5] = False
        ink[ink.mean(axis=1) > 0.5, :] = False
    if not ink.any():
        return True  # no text to be seen: nothing typed
    return float(np.percentile(diff[ink], 90)) < HINT_CONTRAST
