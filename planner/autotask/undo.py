"""Backtracking: how to undo a step from the page now (back, tap a switch again,
clear a typed text, scroll the other way)."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

from screenpilot.language.fields import TOGGLES
from screenpilot.language.taskparse import norm
from screenpilot.model import Action, ActionKind, Direction, Element, Screen, Step
from screenpilot.pbd.pages import same_page

_OPPOSITE = {
    Direction.DOWN: Direction.UP,
    Direction.UP: Direction.DOWN,
    Direction.LEFT: Direction.RIGHT,
    Direction.RIGHT: Direction.LEFT,
}


@dataclass(frozen=True)
class Undo:
    """How to undo a step: ``action`` on the current screen, then clear the focused
    field when ``clear``."""

    action: Action
    clear: bool
    words: str


def _find_again(element: Element, screen: Screen) -> Element | None:
    label = norm(element.label)
    same = [
        e for e in screen.elements if label and norm(e.label) == label and e.kind is element.kind
    ]
    if same:
        return min(same, key=lambda e: abs(e.box.center[1] - element.box.center[1]))
    near = [e for e in screen.elements if e.box.iou(element.box) > 0.5]
    return max(near, key=lambda e: e.box.iou(element.box)) if near else None


def choose_undo(step: Step, screen: Screen) -> Undo | None:
    """How to undo ``step`` from ``screen`` (the page now), or None when it cannot be.

    A tap (or long press) that changed the page -> back; one that flipped a switch
    on the same page -> tap the switch again; a typing -> tap the field and clear it;
    a scroll -> scroll the other way.
    """
    a = step.action
    after = step.after or screen
    if a.kind is ActionKind.SCROLL and a.direction is not None:
        back = Action(
            ActionKind.SCROLL,
            element=a.element
            if a.element is not None and any(e.id == a.element for e in screen.elements)
            else None,
            direction=_OPPOSITE[a.direction],
        )
        return Undo(back, False, f"scroll {back.direction}")
    if a.kind is ActionKind.TYPE:
        target: Element | None = None
        if a.element is not None:
            with contextlib.suppress(KeyError):
                before = step.before.element(a.element)
                typed = norm(a.text or "")[:12]
                target = next(
                    (e for e in screen.elements if typed and norm(e.text).startswith(typed)), None
                ) or _find_again(before, screen)
        if target is None:
            return None
        return Undo(
            Action(ActionKind.TAP, element=target.id),
            True,
            f"clear the text typed into '{target.label or 'the field'}'",
        )
    if a.kind in (ActionKind.TAP, ActionKind.LONG_PRESS):
        if not same_page(step.before, after):
            return Undo(Action(ActionKind.BACK), False, "go back")
        if a.element is not None:
            with contextlib.suppress(KeyError):
                tapped = step.before.element(a.element)
                if tapped.kind in TOGGLES:
                    again = _find_again(tapped, screen)
                    if again is not None and again.checked is not tapped.checked:
                        return Undo(
                            Action(ActionKind.TAP, element=again.id),
                            False,
                            f"tap '{tapped.label}' again",
                        )
        return None
    return None
