"""A status bar's notification glyphs that OCR read as letters are icons.

OCR reads the small glyphs of a status bar (a settings gear, a SIM card, the debug
bridge's "<·>", a mail app's "M", a pause sign) as one or two characters: "à", "中",
"II", "M". Describe listed them as texts in the ``[status bar]`` block, words the
phone never shows. On the harvest's 1,482 train screens and the 85 real screenshots
this rule turns 84 such texts into icons (models/MODELS.md, stop 67) and keeps the
network's "3G", "4G", "5G" and readings holding a digit (a weather's "1º").

A text lying a third or more of its height in a status bar, of at most ``MAX_CHARS``
characters once spaces are dropped, holding no digit and not a network type
(``NETWORK``: "E", "G", "H", "H+", "R", "LTE" ...) becomes an unlabelled ``icon`` of the
same box.

    >>> status_glyphs(elements, status_boxes)   # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from screenpilot.model import Box, Element, ElementKind

#: Readings this short or shorter may be a glyph.
MAX_CHARS = 2
#: What a status bar writes as letters: the mobile network's type and roaming.
NETWORK = frozenset({"E", "G", "H", "H+", "R", "LTE", "LT", "VO", "HD", "WIFI"})


def is_glyph_reading(text: str) -> bool:
    """Whether ``text`` (read in a status bar) is a glyph's reading, not its words."""
    squeezed = "".join(text.split())
    if not squeezed or len(squeezed) > MAX_CHARS:
        return False
    return not any(c.isdigit() for c in squeezed) and squeezed.upper() not in NETWORK


def status_glyphs(elements: Sequence[Element], status_bars: Sequence[Box]) -> list[Element]:
    """``elements`` with each text in one of ``status_bars`` that :func:`is_glyph_reading`
    turned into an unlabelled icon (same id, box and confidence)."""
    out = []
    for e in elements:
        if (
            e.kind is ElementKind.TEXT
            and is_glyph_reading(e.text)
            and any(_in_bar(e.box, b) for b in status_bars)
        ):
            e = dataclasses.replace(e, kind=ElementKind.ICON, text="")
        out.append(e)
    return out


def _in_bar(box: Box, bar: Box) -> bool:
    """Whether ``box`` lies across ``bar`` and a third of its height inside it (the bar
    as first found may end above its glyphs' feet)."""
    inside = min(box.y2, bar.y2) - max(box.y1, bar.y1)
    return bar.x1 <= box.center[0] <= bar.x2 and inside >= box.height / 3
