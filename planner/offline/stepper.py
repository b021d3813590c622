"""Quantity steppers (a rule of the offline planner): "add 3 coffee mugs to my cart",
"make it 2 backpacks".

A stepper is a number between a "-" and a "+" button on one row (Android's shop
carts, product pages, number pickers). When the command wants a count of a thing
(``TaskIntent.count``) and a stepper of that thing is on the screen, the rule taps
"+" or "-" until the number reads the count, reading it back after each tap; then a
control that does the command's act ("Add to cart") is tapped, or the task is done.
A number that does not move after a tap stops the run, not claimed done.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from screenpilot.language.taskparse import TaskIntent, norm
from screenpilot.language.words import stems
from screenpilot.model import Action, ActionKind, Element, ElementKind, Screen, Step
from screenpilot.planner.base import Decision
from screenpilot.planner.demos import TAPPABLE
from screenpilot.planner.offline.acts import is_act
from screenpilot.planner.offline.places import place_open
from screenpilot.planner.offline.steps import acted_on

#: Labels of a stepper's buttons: icon labels (the vocabulary's and Android's icon
#: names) and the glyphs OCR reads.
LESS = frozenset({"remove", "minus", "subtract", "decrease", "-", "−", "–", "—"})
MORE = frozenset({"add", "plus", "increase", "+", "＋"})
#: Kinds a stepper's number is read as (vision boxes it as a button at times).
NUMBERS = frozenset({ElementKind.TEXT, ElementKind.BUTTON})
#: A button is at most this many of its own widths from the number.
GAP = 2.5
#: An item's name is at most this share of the screen's height above its stepper.
OWNER_REACH = 0.2


@dataclass(frozen=True)
class Stepper:
    """A number on screen with the buttons that lower and raise it."""

    value: Element
    less: Element | None
    more: Element | None

    @property
    def number(self) -> int:
        return int(self.value.text.strip())


def steppers(screen: Screen) -> list[Stepper]:
    """Every number on ``screen`` with a "-" just left of it or a "+" just right."""
    found = []
    for value in screen.elements:
        text = value.text.strip() if value.kind in NUMBERS else ""
        if not (text.isdigit() and len(text) <= 3):
            continue
        less = more = None
        for e in screen.elements:
            if e is value:
                continue
            side = e.box.beside(value.box, GAP * max(e.box.width, value.box.width))
            if side == "left" and _label_in(e, LESS) and (less is None or e.box.x2 > less.box.x2):
                less = e
            elif (
                side == "right" and _label_in(e, MORE) and (more is None or e.box.x1 < more.box.x1)
            ):
                more = e
        if less is not None or more is not None:
            found.append(Stepper(value, less, more))
    return found


def _label_in(e: Element, names: frozenset[str]) -> bool:
    if e.kind not in TAPPABLE:
        return False
    label = (e.icon_label or e.text or "").strip().lower().replace("_", " ")
    return label in names or norm(label) in names


def _names(intent: TaskIntent, e: Element) -> bool:
    """Whether ``e``'s text names the thing counted ("Coffee Mug" for "coffee mugs")."""
    want = stems(intent.counted)
    return bool(want) and bool(e.text) and bool(want & stems(e.text))


def _owner(screen: Screen, s: Stepper) -> Element | None:
    """The nearest text above the stepper naming an item (not a number or a price)."""
    reach = OWNER_REACH * screen.height
    above = [
        e
        for e in screen.elements
        if e.kind is ElementKind.TEXT
        and e.text
        and any(c.isalpha() for c in e.text)
        and e.box.y2 <= s.value.box.y1 + 2
        and s.value.box.y1 - e.box.y2 <= reach
    ]
    return max(above, key=lambda e: e.box.y2) if above else None


def _chosen(intent: TaskIntent, screen: Screen) -> Stepper | None:
    """The stepper of the thing the command counts: the one whose item is named so,
    or the only one on a page that names it (a product's page)."""
    found = steppers(screen)
    if not found:
        return None
    if intent.counted:
        owned = [s for s in found if (o := _owner(screen, s)) is not None and _names(intent, o)]
        if len(owned) == 1:
            return owned[0]
        if len(found) == 1 and any(_names(intent, e) for e in screen.elements):
            return found[0]
        return None
    return found[0] if len(found) == 1 else None


def _act_control(intent: TaskIntent, screen: Screen, s: Stepper) -> Element | None:
    """A control doing the command's act ("Add to cart"), not the stepper's own "+"."""
    for e in screen.elements:
        if (
            e.kind in TAPPABLE
            and e is not s.more
            and e is not s.less
            and e.text
            and len(stems(e.text)) > 1
            and is_act(intent, e.text)
        ):
            return e
    return None


def _stepped(step: Step) -> bool:
    """Whether ``step`` tapped a stepper's button."""
    if step.action.kind is not ActionKind.TAP:
        return False
    e = acted_on(step)
    return e is not None and (_label_in(e, LESS) or _label_in(e, MORE))


def set_quantity(intent: TaskIntent, screen: Screen, history: Sequence[Step]) -> Decision | None:
    """Step the count of the thing the command names to ``intent.count``."""
    if intent.count is None or not place_open(intent, screen):
        return None  # "the backpack in my cart": a product page's stepper is not it
    s = _chosen(intent, screen)
    if s is None:
        return None
    have, want = s.number, intent.count
    what = intent.counted or "the quantity"
    if history and _stepped(history[-1]):
        before = _chosen(intent, history[-1].before)
        if before is not None and before.number == have and have != want:
            return Decision(
                Action(ActionKind.STOP),
                f"tapped the stepper of '{what}' but its number stayed {have}",
            )
    if have == want:
        last = acted_on(history[-1]) if history else None
        if last is not None and last.text and is_act(intent, last.text):
            return None  # the act was tapped: its own rule ends the task
        act = _act_control(intent, screen, s)
        if act is None:
            return Decision(Action(ActionKind.STOP, done=True), f"{what} is {want}")
        if any(_stepped(step) for step in history):
            return Decision(
                Action(ActionKind.TAP, element=act.id), f"{what}: {want}; now '{act.text}'"
            )
        return None  # the count was right from the start: the act's own rule taps it
    button = s.more if have < want else s.less
    if button is None:
        return None
    way = "raise" if have < want else "lower"
    return Decision(
        Action(ActionKind.TAP, element=button.id), f"{way} {what} from {have} to {want}"
    )
