"""Icons named by their drawing, before the icon model: glyphs whose shape is fixed.

The icon model reads a 32 px crop and misses glyphs made of a few thin strokes: the
navigation drawer's three bars (:mod:`vision.hamburger`) and chevrons
(:mod:`vision.chevrons`). Each picture (an image, icon or button) with no label yet,
and no text but what OCR makes of such a glyph ("三", "v", ">"), is looked at as the
icon model would see it (:func:`vision.discs.glyph_crop`); one that is such a glyph is
labelled by it, and the read goes. The model then labels the rest.

    >>> elements = name_drawn_glyphs(pixels, elements)   # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from screenpilot.model import Element
from screenpilot.vision import chevrons, hamburger
from screenpilot.vision.discs import glyph_crop
from screenpilot.vision.group import PICTURES
from screenpilot.vision.image import RGB

#: What OCR may make of a glyph these rules name (the picture keeps any other text).
READS = hamburger.READS | chevrons.READS


def name_drawn_glyphs(pixels: RGB, elements: Sequence[Element]) -> list[Element]:
    """``elements`` with each unlabelled picture that is the drawer's three bars labelled
    ``menu``, and each that is a chevron ``expand``, ``collapse``, ``next`` or
    ``previous`` (its read, if any, dropped)."""
    out = list(elements)
    for i, e in enumerate(elements):
        if e.icon_label or e.kind not in PICTURES or e.text not in READS:
            continue
        box = glyph_crop(pixels, e.box)
        label = ""
        if e.text in hamburger.READS and hamburger.is_menu_glyph(pixels, box):
            label = hamburger.LABEL
        elif e.text in chevrons.READS:
            label = chevrons.chevron_label(pixels, box)
        if label:
            out[i] = dataclasses.replace(e, text="", icon_label=label)
    return out
