"""Replaying task knowledge: a stored path run with new values, one operation per
screen, failing (exploration takes over) when an element of the path is not there.
"""

from __future__ import annotations

import contextlib

from screenpilot.language.fields import TOGGLES, field_kind, fits, value_kind
from screenpilot.language.taskparse import norm, parse_task
from screenpilot.model import (
    SECRET_PLACEHOLDER,
    Action,
    ActionKind,
    Direction,
    Element,
    ElementKind,
    Screen,
)
from screenpilot.pbd.knowledge.params import fill
from screenpilot.pbd.knowledge.records import Match, PathOp


class Replay:
    """Runs a stored path with new parameter values, one operation per screen."""

    def __init__(self, match: Match, task: str) -> None:
        self.match = match
        self.ops = list(match.knowledge.path)
        self.values = match.values
        self.intent = parse_task(task)
        self.position = 0
        self.failed = ""
        #: The operation of the last action handed out.
        self.last: PathOp | None = None

    @property
    def finished(self) -> bool:
        return self.position >= len(self.ops)

    @property
    def active(self) -> bool:
        return not self.failed and not self.finished

    def next(self, screen: Screen) -> tuple[Action, str] | None:
        """The next action and its words, skipping operations that need not be done
        (an empty value, a switch already as wished); None when finished or failed
        (``failed`` says why)."""
        while self.position < len(self.ops):
            op = self.ops[self.position]
            self.position += 1
            action = self._resolve(op, screen)
            if action == "skip":
                continue
            if action is None:
                self.failed = f"'{op.words(self.values)}' is not on the screen"
                return None
            assert isinstance(action, Action)
            self.last = op
            return action, op.words(self.values)
        return None

    def _resolve(self, op: PathOp, screen: Screen) -> Action | str | None:
        label, text = fill(op.label, self.values), fill(op.text, self.values)
        if op.kind == "scroll":
            with contextlib.suppress(ValueError):
                return Action(ActionKind.SCROLL, direction=Direction(text))
            return None
        if op.kind == "back":
            return Action(ActionKind.BACK)
        if op.kind == "type":
            if not text.strip() or SECRET_PLACEHOLDER in text:
                return "skip" if not text.strip() else None
            fld = find_field(screen, label, text)
            if fld is None:
                return None
            return Action(ActionKind.TYPE, element=fld.id, text=text, secret=fld.password)
        if op.kind not in ("tap", "long_press"):
            return None
        e = find_element(screen, label, op.element_kind)
        if e is None:
            return None
        kind = ActionKind.TAP if op.kind == "tap" else ActionKind.LONG_PRESS
        if e.kind is ElementKind.SEEK_BAR:
            level = self.intent.level
            share = level if level is not None else float(text or 0.5)
            x = round(e.box.x1 + share * (e.box.width - 1))
            return Action(kind, point=(x, e.box.center[1]))
        if (
            e.kind in TOGGLES
            and self.intent.switch_to is not None
            and e.checked is self.intent.switch_to
        ):
            return "skip"
        return Action(kind, element=e.id)


def find_element(screen: Screen, label: str, element_kind: str = "") -> Element | None:
    """The element showing ``label`` (verbatim, else the same words, else as the start
    of its label), the same kind preferred."""
    want = norm(label)
    if not want:
        return None
    order = screen.reading_order()
    verbatim = [e for e in order if e.label.strip() == label.strip()]
    for hits in (
        verbatim,
        [e for e in order if norm(e.label) == want],
        [e for e in order if norm(e.label).startswith(want + " ")],
    ):
        if hits:
            same = [e for e in hits if e.kind.value == element_kind]
            return (same or hits)[0]
    if element_kind in {k.value for k in TOGGLES}:
        # a switch's label may carry its state ("Wi-Fi Off" / "Wi-Fi HomeNet"): the same
        # first word on a switch will do
        first = want.split()[0]
        toggles = [
            e
            for e in screen.reading_order()
            if e.kind in TOGGLES and norm(e.label).split()[:1] == [first]
        ]
        if toggles:
            return toggles[0]
    return None


def find_field(screen: Screen, label: str, value: str) -> Element | None:
    """The field labelled ``label``; else an empty field that fits the value."""
    e = find_element(screen, label, ElementKind.EDIT_TEXT.value)
    if e is not None:
        return e
    kind = value_kind(value)
    fields = [
        f
        for f in screen.reading_order()
        if f.kind is ElementKind.EDIT_TEXT and (f.hint or not f.text)
    ]
    return next((f for f in fields if fits(kind, field_kind(f))), None)
