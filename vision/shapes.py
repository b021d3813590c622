"""Kinds a detected box's shape rules out.

A switch is drawn as a track wider than tall (Material: 52 x 32 dp, 1.6; the platform's
older switch 1.6 to 2), but a detector trained on real screens also calls a round
floating button or a square icon a switch. On the 236 simulator screens of
``bench/vision_truth.py``, 9 of detector v4's 22 false switches at any confidence
(among them the world clock's add button) are less than ``SWITCH_RATIO`` times wider
than tall, and none of its 104 true ones; of v2's, 16 of 93 and none of 108. Such a
box is reported as a picture, which the icon labeller then names and a planner can
find.

    >>> widgets = [by_shape(e) for e in widgets]   # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses

from screenpilot.model import Element, ElementKind

#: A switch's box is at least this many times wider than tall.
SWITCH_RATIO = 1.3


def by_shape(element: Element) -> Element:
    """``element``, as a picture when it is a switch whose box is too narrow for one."""
    box = element.box
    if element.kind is ElementKind.SWITCH and box.width < SWITCH_RATIO * box.height:
        return dataclasses.replace(element, kind=ElementKind.IMAGE, checked=None)
    return element
