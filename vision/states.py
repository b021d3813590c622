"""States of elements read from their pixels: switches and check boxes on or off (an accent
colour), fields showing a hint (faint text), what is clickable by kind."""

from __future__ import annotations

import dataclasses

import numpy as np

from screenpilot.model import Element, ElementKind
from screenpilot.vision.image import RGB


def with_state(pixels: RGB, e: Element) -> Element:
    """Checked state of switches/check boxes and hint text of fields, from the pixels."""
    crop = pixels[e.box.y1 : e.box.y2, e.box.x1 : e.box.x2]
    if crop.size == 0:
        return e
    if e.kind in (ElementKind.SWITCH, ElementKind.CHECK_BOX) and e.checked is None:
        return dataclasses.replace(e, checked=_colourful(crop), clickable=True)
    if e.kind is ElementKind.EDIT_TEXT:
        return dataclasses.replace(
            e, editable=True, clickable=True, hint=bool(e.text) and _faint(crop)
        )
    if e.kind in (
        ElementKind.BUTTON,
        ElementKind.SPINNER,
        ElementKind.RADIO_GROUP,
        ElementKind.ICON,
    ):
        return dataclasses.replace(e, clickable=True)
    return e


def _colourful(crop: RGB) -> bool:
    """Whether an on-state accent colour fills a visible part of ``crop``."""
    import cv2

    hsv = cv2.cvtColor(np.ascontiguousarray(crop), cv2.COLOR_RGB2HSV)
    accent = (hsv[:, :, 1] >= 80) & (hsv[:, :, 2] >= 80)
    return float(accent.mean()) >= 0.08


def _faint(crop: RGB) -> bool:
    """Whether the text in ``crop`` is low-contrast grey (a hint, not a typed value)."""
    gray = crop.mean(axis=2)
    lo, hi = np.percentile(gray, [5, 95])
    return float(hi - lo) < 110
