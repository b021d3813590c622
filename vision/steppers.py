"""Quantity steppers named as such: a "-" and a "+" button beside a number on one row
(a cart's or a product page's quantity) are labelled ``decrease`` and ``increase``.

The icon model reads the glyphs as ``remove`` and ``add``, the labels of a delete
button and a create button; a planner would take a cart row's "-" for the row's
"Remove" and a "+" for "Add to cart". Beside a number, they step the number.

    >>> elements = name_steppers(elements)   # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from screenpilot.model import Element, ElementKind

#: Icon labels of a stepper's buttons, and what they become.
NAMES = {"remove": "decrease", "add": "increase"}
#: Kinds a stepper's number is read as (the detector boxes it as a button at times).
NUMBERS = frozenset({ElementKind.TEXT, ElementKind.BUTTON})
#: A button is at most this many of its own widths from the number.
GAP = 2.5


def name_steppers(elements: Sequence[Element]) -> list[Element]:
    """``elements`` with each "-" left of a number and "+" right of it renamed."""
    numbers = [
        e
        for e in elements
        if e.kind in NUMBERS and e.text.strip().isdigit() and len(e.text.strip()) <= 3
    ]
    out = list(elements)
    for i, e in enumerate(out):
        name = NAMES.get(e.icon_label or "")
        if name is None or e.text:
            continue
        side = "left" if name == "decrease" else "right"
        if any(e.box.beside(n.box, GAP * max(e.box.width, n.box.width)) == side for n in numbers):
            out[i] = dataclasses.replace(e, icon_label=name)
    return out
