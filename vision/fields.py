"""Input fields the pixels confirm: a detected ``edit_text`` must look like a container.

A text field is drawn as a container for what is typed: filled with a colour of its
own (a search pill, a filled Material field), outlined, or underlined. A detector
trained on real screens also calls an app bar with its title, an empty tab bar or a
list row an ``edit_text`` (detector v4 on the simulator: 30 of 54 edit texts at
confidence >= 0.25 on one variant's 59 pages were not fields), and a planner that
types into a title reports a task done that is not. So a detected field is kept only
when, with its text lines masked out, its inside differs from a band around it by at
least ``FILL`` grey levels, or one row near its top or bottom edge (an outline's or an
underline's, looked for a little outside the box too) differs from its inside over
``LINE`` of its width. On the 236 simulator screens of ``bench/vision_truth.py`` this
keeps all 77 of v4's true fields and drops 48 of its 60 false ones, and keeps all 67
of the shipped v2's true fields (and its 9 false ones); the text lines of a dropped
box stay texts.

    >>> kept = confirmed_fields(pixels, widgets, line_boxes)   # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from screenpilot.model import Box, Element, ElementKind

#: Grey-level difference between a filled field's inside and its surround.
FILL = 6.0
#: Share of a row's (unmasked) pixels that must differ from the inside for an outline
#: or underline...
LINE = 0.5
#: ... by this many grey levels.
LINE_CONTRAST = 25.0
#: An outline or underline is looked for this share of the box's height outside it
#: too (a detector's box often stops short of a field's underline).
OUTSIDE = 0.6
#: Band around the box that is its surround, in pixels.
SURROUND = 10


def _text_mask(shape: tuple[int, int], lines: Sequence[Box]) -> np.ndarray:
    mask = np.ones(shape, bool)
    for b in lines:
        mask[max(0, b.y1 - 4) : b.y2 + 4, max(0, b.x1 - 4) : b.x2 + 4] = False
    return mask


def is_container(gray: np.ndarray, box: Box, mask: np.ndarray) -> bool:
    """Whether ``box`` on the grey image is filled, outlined or underlined (``mask``:
    False over text lines, which are left out)."""
    h_img, w_img = gray.shape
    x1, y1, x2, y2 = max(0, box.x1), max(0, box.y1), min(w_img, box.x2), min(h_img, box.y2)
    w, h = x2 - x1, y2 - y1
    if w < 4 or h < 4:
        return False
    ix1, ix2 = x1 + int(0.1 * w), x2 - int(0.1 * w)
    iy1, iy2 = y1 + int(0.15 * h), y2 - int(0.15 * h)
    inside = gray[iy1:iy2, ix1:ix2][mask[iy1:iy2, ix1:ix2]]
    oy1, oy2 = max(0, y1 - SURROUND), min(h_img, y2 + SURROUND)
    ox1, ox2 = max(0, x1 - SURROUND), min(w_img, x2 + SURROUND)
    ring = np.concatenate(
        [
            gray[oy1 : max(oy1, y1 - 2), ox1:ox2].ravel(),
            gray[min(oy2, y2 + 2) : oy2, ox1:ox2].ravel(),
        ]
    )
    m_inside = float(np.median(inside)) if inside.size else None
    m_ring = float(np.median(ring)) if ring.size else None
    if m_inside is not None and m_ring is not None and abs(m_inside - m_ring) >= FILL:
        return True
    ref = m_inside if m_inside is not None else m_ring
    if ref is None:
        return False
    edge = max(1, int(0.25 * h))
    rows = [
        *range(max(0, y1 - int(OUTSIDE * h)), min(h_img, y1 + edge)),
        *range(max(0, y2 - edge), min(h_img, y2 + max(6, int(OUTSIDE * h)))),
    ]
    for y in rows:
        keep = mask[y, ix1:ix2]
        if keep.mean() < 0.5:
            continue
        if float((np.abs(gray[y, ix1:ix2][keep] - ref) > LINE_CONTRAST).mean()) >= LINE:
            return True
    return False


def confirmed_fields(
    pixels: np.ndarray, widgets: Sequence[Element], lines: Sequence[Box]
) -> list[Element]:
    """``widgets`` without the ``edit_text`` boxes that are no container (see the module)."""
    if not any(e.kind is ElementKind.EDIT_TEXT for e in widgets):
        return list(widgets)
    grey = cv2.cvtColor(np.ascontiguousarray(pixels), cv2.COLOR_RGB2GRAY).astype(np.float32)
    mask = _text_mask(grey.shape, lines)
    return [
        e for e in widgets if e.kind is not ElementKind.EDIT_TEXT or is_container(grey, e.box, mask)
    ]
