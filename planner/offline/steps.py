"""What the run did so far, as the offline planner reads it: the element a step acted
on, the labels tapped, whether a value was typed and searched."""

from __future__ import annotations

from collections.abc import Sequence

from screenpilot.language.fields import TOGGLES
from screenpilot.language.taskparse import norm
from screenpilot.model import ActionKind, Element, ElementKind, Step


def acted_on(step: Step) -> Element | None:
    """The element a step acted on: by its id, or for a tap at a point (a drag: where
    it started) the smallest element there, else a seek bar the point is just past the
    end of (0 % / 100 %), else a switch on that row (a row opened beside its switch)."""
    a = step.action
    if a.element is not None:
        try:
            return step.before.element(a.element)
        except KeyError:
            return None
    point = a.point or (a.start if a.kind is ActionKind.SWIPE else None)
    if point is None:
        return None
    x, y = point
    hits = [
        e
        for e in step.before.elements
        if e.box.x1 <= x <= e.box.x2 and e.box.y1 <= y <= e.box.y2 and e.label
    ]
    if hits:
        return min(hits, key=lambda e: e.box.area)
    near = [
        e
        for e in step.before.elements
        if e.kind is ElementKind.SEEK_BAR  # past an end
        and e.box.y1 <= y <= e.box.y2
        and min(abs(x - e.box.x1), abs(x - e.box.x2)) <= e.box.height
    ]
    row = [e for e in step.before.elements if e.kind in TOGGLES and e.box.y1 <= y <= e.box.y2]
    found = near or row
    return found[0] if found else None


def tapped_labels(history: Sequence[Step]) -> list[str]:
    """The labels the run tapped, in order (normalised)."""
    out = []
    for s in history:
        if s.action.kind is ActionKind.TAP:
            e = acted_on(s)
            if e is not None:
                out.append(norm(e.label))
    return out


def label_at(step: Step) -> str:
    """The label (or icon label) of the element a step acted on by its id ("" when none,
    or when it acted on a point)."""
    e = acted_on(step) if step.action.element is not None else None
    return (e.label or e.icon_label) if e is not None else ""


def submitted(history: Sequence[Step]) -> bool:
    """Whether the last step typed a value and pressed Enter (a search)."""
    last = history[-1].action if history else None
    return bool(last and last.kind is ActionKind.TYPE and (last.text or "").endswith("\n"))


def retapped(label: str, tapped: str) -> bool:
    """Whether ``label`` is a label tapped before, as OCR may read it again: the same
    words, give or take one-character glyphs ("X Create contact" is "Create contact")."""
    a, b = norm(label).split(), tapped.split()
    if a == b:
        return True
    extra = set(a) ^ set(b)
    return bool(b) and all(len(w) == 1 for w in extra) and bool(set(a) & set(b))


def trailing_scrolls(history: Sequence[Step]) -> int:
    """How many scrolls in a row the run ended with."""
    n = 0
    for s in reversed(history):
        if s.action.kind is not ActionKind.SCROLL:
            break
        n += 1
    return n
