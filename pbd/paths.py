"""Paths of a run in words: an operation as words independent of element ids, which
steps undo others, and the path that stands once undone steps are taken out.

Knowledge stores paths in these words and exploration penalises them, so both sides
must word an operation alike.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

from screenpilot.model import Action, ActionKind, Element, ElementKind, Screen, Step

#: Reasons of the steps that undo an earlier one start with this.
UNDO_PREFIX = "undo: "


def _element_at(screen: Screen, point: tuple[int, int]) -> Element | None:
    hits = [e for e in screen.elements if e.box.contains(*point)]
    return min(hits, key=lambda e: e.box.area) if hits else None


def op_words(action: Action, screen: Screen) -> str:
    """An operation in words, independent of element ids: "tap 'Settings'",
    "type 'Alice' into 'First name'", "scroll down", "tap 'Brightness' at 50%"."""
    label = ""
    e: Element | None = None
    if action.element is not None:
        with contextlib.suppress(KeyError):
            e = screen.element(action.element)
    elif action.point is not None:
        e = _element_at(screen, action.point)
    if e is not None:
        label = e.label or f"{e.kind.words} at {e.box.center}"
    k = action.kind
    if k in (ActionKind.TAP, ActionKind.LONG_PRESS):
        verb = "tap" if k is ActionKind.TAP else "long press"
        if action.point is not None and e is not None and e.kind is ElementKind.SEEK_BAR:
            share = (action.point[0] - e.box.x1) / max(1, e.box.width - 1)
            return f"{verb} '{label}' at {round(share * 100)}%"
        if action.point is not None and e is None:
            return f"{verb} point {action.point}"
        return f"{verb} '{label}'"
    if k is ActionKind.TYPE:
        text = action.shown_text.rstrip("\n")
        return f"type '{text}'" + (f" into '{label}'" if label else "")
    if k is ActionKind.SCROLL:
        return f"scroll {action.direction}"
    return k.value


def is_undo(step: Step) -> bool:
    """Whether the step undid an earlier one."""
    return step.reason.startswith(UNDO_PREFIX)


def effective_path(history: Sequence[Step]) -> list[Step]:
    """The steps that stand: no undone step, no undo, no stop or handover."""
    return [
        s
        for s in history
        if not s.undone
        and not is_undo(s)
        and s.action.kind not in (ActionKind.STOP, ActionKind.HANDOVER)
    ]
