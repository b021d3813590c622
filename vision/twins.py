"""Two detector boxes round one picture: the less confident one goes.

The detector's non-maximum suppression drops a box that overlaps a better one by more
than its IoU threshold, and its nested-box suppression one that lies almost wholly
inside a better one. Two boxes of different shapes round the same small picture pass
both: OneList draws a 12 dp ring at the left of each item, and the detector boxes it
twice, once as the tall view that holds it and once as a square round the ring (IoU
0.22, 62 % of the square inside the tall box). Describe then listed two unnamed
pictures for one ring.

:func:`drop_twins` takes two pictures (``image`` or ``icon``) as twins when they overlap
by ``OVERLAP`` of the smaller one or more and all the ink of the box round both (pixels
further than ``SPREAD`` in some channel from that box's median colour, its page) lies
inside each of them, within ``SLACK`` of the smaller one's side: the same ink, boxed
twice. A picture inside a larger one that holds more ink (an icon on a photo, a badge
on an avatar) is no twin: the larger one's ink reaches past the smaller box.

The pictures found on a backdrop (``vision.backdrop``) are also weighed against the
buttons: NetGuard's list, cut by the navigation bar, left a doubtful detector button
round its last row's signal glyph, which the backdrop finder then found as an icon;
the two were listed with the same label. The icon (``backdrop.CONFIDENCE``) outranks
a doubtful box (under ``weak.STRONG_CONF``) and stays.

    >>> widgets = drop_twins(pixels, widgets)   # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.image import RGB, mask_bounds, off_median

#: Kinds of picture that may be twins.
KINDS = frozenset({ElementKind.IMAGE, ElementKind.ICON})
#: Twins overlap by at least this share of the smaller box.
OVERLAP = 0.5
#: A pixel is ink when it is further than this from the page's median in some channel.
SPREAD = 40
#: The ink may reach this share of the smaller box's shorter side past either box.
SLACK = 0.1


def _ink(pixels: RGB, box: Box) -> Box | None:
    """The box of the ink inside ``box`` (None: none)."""
    mask = off_median(pixels, box, SPREAD)
    bounds = None if mask is None else mask_bounds(mask)
    if bounds is None:
        return None
    x0, y0 = max(0, box.x1), max(0, box.y1)
    return Box(x0 + bounds[0], y0 + bounds[1], x0 + bounds[2], y0 + bounds[3])


def _inside(ink: Box, box: Box, slack: float) -> bool:
    return (
        ink.x1 >= box.x1 - slack
        and ink.y1 >= box.y1 - slack
        and ink.x2 <= box.x2 + slack
        and ink.y2 <= box.y2 + slack
    )


def twins(pixels: RGB, a: Box, b: Box) -> bool:
    """Whether ``a`` and ``b`` box the same ink (the module's rule)."""
    smaller = min(a.area, b.area)
    if smaller <= 0 or a.intersection(b) < OVERLAP * smaller:
        return False
    ink = _ink(pixels, Box.around([a, b]))
    if ink is None:
        return False
    small = a if a.area <= b.area else b
    slack = SLACK * min(small.width, small.height)
    return _inside(ink, a, slack) and _inside(ink, b, slack)


def drop_twins(
    pixels: RGB,
    widgets: Sequence[Element],
    *,
    kinds: frozenset[ElementKind] = KINDS,
    new: Sequence[Element] | None = None,
) -> list[Element]:
    """``widgets`` without the less confident of each pair of twins of ``kinds``; with
    ``new``, only pairs with one of ``new`` in them (what a later finder added)."""
    fresh = None if new is None else {id(e) for e in new}
    pictures = sorted(
        (i for i, e in enumerate(widgets) if e.kind in kinds and not e.text),
        key=lambda i: -widgets[i].confidence,
    )
    dropped: set[int] = set()
    for n, i in enumerate(pictures):
        if i in dropped:
            continue
        for j in pictures[n + 1 :]:
            if j in dropped:
                continue
            if fresh is not None and not ({id(widgets[i]), id(widgets[j])} & fresh):
                continue
            if twins(pixels, widgets[i].box, widgets[j].box):
                dropped.add(j)
    return [e for i, e in enumerate(widgets) if i not in dropped]
