"""The renderer's ground truth mapped to the detector's 12 widget classes.

:func:`truth_boxes` keeps the 12 widget classes as drawn, except that a radio group
becomes one box per option (radio circle to the end of its label, the convention
of the DroidBot/RICO converters); text is dropped; an icon is an ``image`` (VINS'
convention, and ImageView in view hierarchies), boxed by its touch target when it
is an icon button (a small target around it), except icons inside the status bar,
navigation bar or keyboard, which belong to them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from screenpilot.datasets.yolo import LabeledBox
from screenpilot.model import WIDGET_CLASSES, Box, ElementKind

if TYPE_CHECKING:
    from screenpilot.simulator.render import Frame
    from screenpilot.simulator.widgets import Target, TruthElement

K = ElementKind
MIN_SIDE = 3.0


def truth_boxes(
    elements: Sequence[TruthElement],
    targets: Sequence[Target] = (),
    size: tuple[int, int] | None = None,
    *,
    exclude: Sequence[Box] = (),
) -> list[LabeledBox]:
    """The renderer's truth mapped to the 12 widget classes (see the module docstring).

    ``exclude``: regions whose icons are not boxes of their own (the keyboard);
    the status and navigation bars found among ``elements`` are added to it."""
    bars = [e.box for e in elements if e.kind in (K.STATUS_BAR, K.NAVIGATION_BAR)]
    covered = [*bars, *exclude]
    texts = [e for e in elements if e.kind is K.TEXT]
    out: list[LabeledBox] = []
    for e in elements:
        if e.kind is K.RADIO_GROUP:
            out += radio_options(e.box, [t.box for t in texts])
        elif e.kind in WIDGET_CLASSES:
            out.append(_labeled(e.kind, e.box.as_tuple()))
        elif e.kind is K.ICON and not any(_inside(e.box, c) for c in covered):
            out.append(_labeled(K.IMAGE, icon_box(e.box, targets)))
    return [b for b in (clip_box(b, size) for b in out) if b is not None]


def frame_boxes(frame: Frame) -> list[LabeledBox]:
    """Widget boxes of a rendered frame."""
    exclude = [frame.keyboard_box] if frame.keyboard_box is not None else []
    return truth_boxes(frame.elements, frame.targets, frame.size, exclude=exclude)


def radio_options(group: Box, texts: Sequence[Box]) -> list[LabeledBox]:
    """A radio group as one box per option: its row, from the circle to the label's end."""
    labels = sorted((t for t in texts if group.contains(*t.center)), key=lambda t: t.y1)
    if not labels:
        return [_labeled(K.RADIO_GROUP, group.as_tuple())]
    row = group.height / len(labels)
    out = []
    for label in labels:
        cy = (label.y1 + label.y2) / 2
        x2 = min(float(group.x2), label.x2 + row * 0.15)
        out.append(_labeled(K.RADIO_GROUP, (group.x1, cy - row / 2, x2, cy + row / 2)))
    return out


def icon_box(icon: Box, targets: Sequence[Target]) -> tuple[float, float, float, float]:
    """An icon's box: its touch target when that is small (an icon button), else the glyph."""
    side = max(icon.width, icon.height, 1)
    cx, cy = icon.center
    fits = [
        t.box
        for t in targets
        if t.box.contains(cx, cy) and max(t.box.width, t.box.height) <= 3.2 * side
    ]
    if fits:
        best = min(fits, key=lambda b: b.area)
        return best.as_tuple()
    return icon.as_tuple()


def _labeled(kind: ElementKind, box: Sequence[float]) -> LabeledBox:
    x1, y1, x2, y2 = (float(v) for v in box)
    return LabeledBox(kind, x1, y1, max(x2, x1 + 1), max(y2, y1 + 1))


def _inside(inner: Box, outer: Box) -> bool:
    return inner.intersection(outer) >= 0.8 * max(1, inner.area)


def clip_box(box: LabeledBox, size: tuple[int, int] | None) -> LabeledBox | None:
    x1, y1, x2, y2 = box.xyxy
    if size is not None:
        x1, y1 = max(0.0, x1), max(0.0, y1)
        x2, y2 = min(float(size[0]), x2), min(float(size[1]), y2)
    if x2 - x1 < MIN_SIDE or y2 - y1 < MIN_SIDE:
        return None
    return LabeledBox(box.kind, x1, y1, x2, y2)
