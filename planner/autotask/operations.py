"""What AutoTask can do on a screen: every operation (tap, type a value of the task,
scroll) with the words it is matched on, and the repetition penalty of one already in
the executed path."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from screenpilot.language.fields import field_kind, fits, typed_values, value_kind
from screenpilot.language.taskparse import norm, parse_task
from screenpilot.model import Action, ActionKind, Direction, Element, ElementKind, Screen, Step
from screenpilot.pbd.pages import content, page_labels, same_page
from screenpilot.pbd.paths import op_words
from screenpilot.planner.demos import TAPPABLE
from screenpilot.planner.offline import describe_for_match

REPETITION_PENALTY = 10.0
#: The same operation words already used on another page (a title that repeats the
#: label tapped to get there, say): a milder penalty.
ECHO_PENALTY = 3.0


@dataclass(frozen=True, slots=True)
class Operation:
    """One thing that can be done on the screen, with the text it is matched on."""

    action: Action
    words: str
    label: str = ""
    match_text: str = ""
    element: Element | None = None


def operations(task: str, screen: Screen, history: Sequence[Step] = ()) -> list[Operation]:
    """Every operation on ``screen``: taps, typing the task's untyped values into empty
    fields that fit them, scrolling the page (down; up once it was scrolled down).
    Nothing under an open dialog's or drawer's scrim (``Screen.in_front``)."""
    screen = screen.in_front()
    ops: list[Operation] = []
    for e in content(screen):
        if e.kind is ElementKind.EDIT_TEXT or e.editable:
            continue
        if e.kind not in TAPPABLE and not e.clickable:
            continue
        if e.kind is ElementKind.TEXT and not e.label:
            continue
        action = Action(ActionKind.TAP, element=e.id)
        ops.append(
            Operation(
                action,
                op_words(action, screen),
                e.label,
                describe_for_match(e, screen) if e.label else "",
                e,
            )
        )
    typed = typed_values(history)
    intent = parse_task(task)
    searching = bool(intent.words & {"search", "find", "look", "搜索"})
    pending = [v for v in intent.values if v not in typed]
    for e in content(screen):
        if not (e.kind is ElementKind.EDIT_TEXT or e.editable) or (e.text and not e.hint):
            continue
        if not searching and "search" in norm(f"{e.text} {e.caption}"):
            continue
        for value in pending:
            if fits(value_kind(value), field_kind(e)):
                action = Action(ActionKind.TYPE, element=e.id, text=value, secret=e.password)
                ops.append(
                    Operation(
                        action, op_words(action, screen), e.label, f"type {value} into {e.label}", e
                    )
                )
                break
    for direction in (Direction.DOWN, Direction.UP):
        scrolled = any(
            s.action.kind is ActionKind.SCROLL and s.action.direction is Direction.DOWN
            for s in history
        )
        if direction is Direction.UP and not scrolled:
            continue
        action = Action(ActionKind.SCROLL, direction=direction)
        ops.append(Operation(action, f"scroll {direction}", match_text=f"scroll {direction}"))
    return ops


def repetition(page: frozenset[str], words: str, path: Sequence[Step]) -> float:
    """``REPETITION_PENALTY`` when the operation on this page is already in the path,
    ``ECHO_PENALTY`` when the same operation was done on another page (scrolls aside)."""
    out = 0.0
    for s in path:
        if op_words(s.action, s.before) != words:
            continue
        if same_page(page_labels(s.before), page):
            return REPETITION_PENALTY
        if s.action.kind is not ActionKind.SCROLL:
            out = ECHO_PENALTY
    return out
