"""``Action``: one thing to do on the phone, checked field by field for its kind, and said in words.

The text of a *secret* ``type`` action (a password, a card number) never leaves the
process: ``SECRET_PLACEHOLDER`` takes its place in JSON, logs and reports.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from screenpilot.model.kinds import ActionKind, Direction
from screenpilot.model.record import Record, fail
from screenpilot.model.screen import Screen

SECRET_PLACEHOLDER = "<secret>"

_TARGETED = {ActionKind.TAP, ActionKind.LONG_PRESS}
_FIELDS_ALLOWED: dict[ActionKind, set[str]] = {
    ActionKind.TAP: {"element", "point"},
    ActionKind.LONG_PRESS: {"element", "point", "duration_ms"},
    ActionKind.TYPE: {"element", "text", "secret"},
    ActionKind.SWIPE: {"start", "end", "duration_ms"},
    ActionKind.SCROLL: {"element", "direction"},
    ActionKind.BACK: set(),
    ActionKind.HOME: set(),
    ActionKind.LAUNCH: {"app"},
    ActionKind.WAIT: {"duration_ms"},
    ActionKind.STOP: {"done"},
    ActionKind.HANDOVER: set(),
}
_OPTIONAL_FIELDS = ("element", "point", "text", "direction", "start", "end", "app", "duration_ms")


@dataclass(frozen=True, slots=True)
class Action(Record):
    """One thing to do on the phone; rejects unknown kinds and contradictory fields."""

    kind: ActionKind
    element: int | None = None
    point: tuple[int, int] | None = None
    text: str | None = None
    direction: Direction | None = None
    start: tuple[int, int] | None = None
    end: tuple[int, int] | None = None
    app: str | None = None
    duration_ms: int | None = None
    secret: bool = False
    done: bool = False
    reason: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.kind, ActionKind):
            fail(Action, f"unknown kind {self.kind!r}; one of {', '.join(ActionKind)}")
        allowed = _FIELDS_ALLOWED[self.kind]
        for name in _OPTIONAL_FIELDS:
            if getattr(self, name) is not None and name not in allowed:
                fail(Action, f"{self.kind} takes no {name}")
        if self.secret and self.kind is not ActionKind.TYPE:
            fail(Action, "only a type action can be secret")
        if self.done and self.kind is not ActionKind.STOP:
            fail(Action, "only a stop action can say the task is done")
        self._check_kind()

    def _check_kind(self) -> None:
        k = self.kind
        if k in _TARGETED and (self.element is None) == (self.point is None):
            fail(Action, f"{k} needs exactly one of an element id or a point")
        if k is ActionKind.TYPE and not self.text:
            fail(Action, "type needs the text to type")
        if k is ActionKind.SCROLL and not isinstance(self.direction, Direction):
            fail(Action, "scroll needs a direction (up, down, left, right)")
        if k is ActionKind.SWIPE and (self.start is None or self.end is None):
            fail(Action, "swipe needs a start and an end point")
        if k is ActionKind.LAUNCH and not self.app:
            fail(Action, "launch needs the app's package name")
        if k is ActionKind.HANDOVER and not self.reason:
            fail(Action, "handover needs a reason to show the person")
        if self.element is not None and (type(self.element) is not int or self.element < 0):
            fail(Action, f"element id must be a non-negative int, got {self.element!r}")
        if self.duration_ms is not None and self.duration_ms < 0:
            fail(Action, "duration_ms must not be negative")
        for name in ("point", "start", "end"):
            p = getattr(self, name)
            if p is not None and (len(p) != 2 or any(type(v) is not int or v < 0 for v in p)):
                fail(Action, f"{name} must be two non-negative ints, got {p!r}")

    def __repr__(self) -> str:
        fields = [f"kind={self.kind.value!r}"]
        for f in dataclasses.fields(self)[1:]:
            value = getattr(self, f.name)
            if value != f.default:
                if f.name == "text" and self.secret:
                    value = SECRET_PLACEHOLDER
                fields.append(f"{f.name}={value!r}")
        return f"Action({', '.join(fields)})"

    def _for_json(self) -> Action:
        """A secret's text is never stored: the placeholder takes its place."""
        return dataclasses.replace(self, text=SECRET_PLACEHOLDER) if self.secret else self

    @property
    def shown_text(self) -> str:
        """The text to show in logs and reports: a placeholder when it is a secret."""
        return SECRET_PLACEHOLDER if self.secret else (self.text or "")

    def describe(self, screen: Screen | None = None) -> str:
        """The action in words, e.g. "Tap the 'Wi-Fi' switch"."""
        target = ""
        if self.element is not None:
            target = f"element {self.element}"
            if screen is not None:
                try:
                    e = screen.element(self.element)
                    label = f" '{e.label}'" if e.label else ""
                    target = f"the{label} {e.kind.words}"
                except KeyError:
                    target = f"element {self.element} (not on screen)"
        elif self.point is not None:
            target = f"point {self.point}"
        k = self.kind
        words = {
            ActionKind.TAP: f"Tap {target}",
            ActionKind.LONG_PRESS: f"Long-press {target}",
            ActionKind.TYPE: f"Type '{self.shown_text}'" + (f" into {target}" if target else ""),
            ActionKind.SWIPE: f"Swipe from {self.start} to {self.end}",
            ActionKind.SCROLL: f"Scroll {self.direction}" + (f" in {target}" if target else ""),
            ActionKind.BACK: "Go back",
            ActionKind.HOME: "Go to the home screen",
            ActionKind.LAUNCH: f"Open {self.app}",
            ActionKind.WAIT: f"Wait {self.duration_ms or 0} ms",
            ActionKind.STOP: "Stop: task done" if self.done else "Stop: giving up",
            ActionKind.HANDOVER: f"Hand over to the person: {self.reason}",
        }
        return words[k]
