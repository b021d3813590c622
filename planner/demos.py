"""A recorded demonstration's semantic steps, parsed, matched to the screen and
to what a run has done so far (the offline planner follows them).

    >>> parse_step("tap the 'Wi-Fi' switch").kind
    'switch'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from screenpilot.language.fields import TOGGLES
from screenpilot.language.taskparse import TaskIntent, norm
from screenpilot.language.words import stems
from screenpilot.model import (
    SECRET_PLACEHOLDER,
    ActionKind,
    Direction,
    Element,
    ElementKind,
    Screen,
    Step,
)

#: Elements a tap may aim at.
TAPPABLE = {
    ElementKind.BUTTON,
    ElementKind.TEXT,
    ElementKind.ICON,
    ElementKind.IMAGE,
    ElementKind.SWITCH,
    ElementKind.CHECK_BOX,
    ElementKind.RADIO_GROUP,
    ElementKind.SPINNER,
    ElementKind.EDIT_TEXT,
}


@dataclass(frozen=True)
class DemoStep:
    """One semantic step of a demonstration, parsed: "tap 'X' in 'Y'", "tap the 'X'
    switch", "long press 'X'", "type 'V' into the 'F' field", "scroll down [the 'L'
    list]", "drag the 'X' slider to N%", "press back|home|enter"."""

    verb: str  # tap | long press | type | scroll | drag | back | home | other
    label: str = ""
    kind: str = ""  # switch | check box | icon | field | ""
    value: str = ""
    secret: bool = False
    direction: Direction = Direction.DOWN
    level: float | None = None
    at: tuple[float, float] | None = None  # "tap at 81% 7% of the screen": shares


_STEP_TAP = re.compile(
    r"^(tap|long press)\s+(?:the\s+)?'(.+?)'"
    r"(?:\s+(switch|check box|icon|button|tab|field))?",
    re.I,
)


_STEP_TYPE = re.compile(r"^type\s+(?:'(.*)'|(<secret>))\s+into\s+(?:the\s+)?'(.+?)'", re.I)


_STEP_DRAG = re.compile(r"^drag the '(.+?)' slider to (\d+)%", re.I)


_STEP_SCROLL = re.compile(r"^scroll (up|down|left|right)\b", re.I)


_STEP_AT = re.compile(r"^(tap|long press) at (\d+)% (\d+)%", re.I)


def parse_step(text: str) -> DemoStep:
    t = text.strip()
    if m := _STEP_TYPE.match(t):
        secret = m.group(2) is not None or m.group(1) == SECRET_PLACEHOLDER
        return DemoStep(
            "type", m.group(3), "field", "" if secret else m.group(1) or "", secret=secret
        )
    if m := _STEP_AT.match(t):
        return DemoStep(m.group(1).lower(), at=(int(m.group(2)) / 100, int(m.group(3)) / 100))
    if m := _STEP_TAP.match(t):
        return DemoStep(m.group(1).lower(), m.group(2), (m.group(3) or "").lower())
    if m := _STEP_DRAG.match(t):
        return DemoStep("drag", m.group(1), "slider", level=int(m.group(2)) / 100)
    if m := _STEP_SCROLL.match(t):
        return DemoStep("scroll", direction=Direction(m.group(1).lower()))
    low = t.lower()
    if low in ("press back", "go back", "back"):
        return DemoStep("back")
    if low in ("press home", "go home", "home"):
        return DemoStep("home")
    return DemoStep("other")


def same_label(on_screen: str, wanted: str) -> bool:
    """Whether a label read now is the label the demonstration named (OCR may differ)."""
    a, b = norm(on_screen), norm(wanted)
    if not a or not b:
        return False
    if a == b:
        return True
    short, long_ = sorted((a, b), key=len)
    if len(short) >= 4 and short in long_ and len(short) >= 0.6 * len(long_):
        return True
    sa, sb = stems(a), stems(b)
    return bool(sa and sb) and len(sa & sb) / len(sa | sb) >= 0.67


def field_label_of(e: Element) -> str:
    return e.caption or e.text or e.icon_label


def find_target(screen: Screen, step: DemoStep) -> Element | None:
    """The element on screen that the step names (None when it is not in view)."""
    if step.kind == "icon":
        hits = [e for e in screen.elements if e.icon_label and same_label(e.icon_label, step.label)]
    elif step.kind in ("switch", "check box"):
        kinds = TOGGLES
        hits = [e for e in screen.elements if e.kind in kinds and same_label(e.label, step.label)]
    elif step.verb == "drag":
        hits = [
            e
            for e in screen.elements
            if e.kind is ElementKind.SEEK_BAR and same_label(e.caption or e.label, step.label)
        ]
    else:
        hits = [
            e
            for e in screen.elements
            if e.kind in TAPPABLE
            and (
                same_label(e.label, step.label)
                or (e.icon_label and same_label(e.icon_label, step.label))
            )
        ]
    if not hits:
        return None
    exact = [e for e in hits if norm(e.label) == norm(step.label)]
    return (exact or hits)[0]


def said(value: str, task: str) -> bool:
    """Whether the task itself says ``value`` (so typing the demonstrated value fits)."""
    words = norm(value).split()
    text = f" {norm(task)} "
    return bool(words) and all(f" {w} " in text or w in text.replace(" ", "") for w in words)


def _step_matches(step: Step, demo: DemoStep) -> bool:
    kind = step.action.kind
    if demo.verb in ("tap", "long press"):
        want = ActionKind.LONG_PRESS if demo.verb == "long press" else ActionKind.TAP
        if kind is want and demo.at is not None and step.action.point is not None:
            x, y = step.action.point
            w, h = step.before.width, step.before.height
            return abs(x / w - demo.at[0]) <= 0.03 and abs(y / h - demo.at[1]) <= 0.03
        if kind is not want or step.action.element is None:
            return False
        try:
            e = step.before.element(step.action.element)
        except KeyError:
            return False
        return same_label(e.label, demo.label) or bool(
            e.icon_label and same_label(e.icon_label, demo.label)
        )
    if demo.verb == "type":
        return kind is ActionKind.TYPE
    if demo.verb == "scroll":
        return kind is ActionKind.SCROLL
    if demo.verb == "drag":
        return kind is ActionKind.SWIPE or (
            kind is ActionKind.TAP and step.action.point is not None
        )
    if demo.verb == "back":
        return kind is ActionKind.BACK
    if demo.verb == "home":
        return kind is ActionKind.HOME
    return False


def demo_fits(intent: TaskIntent, steps: Sequence[str]) -> bool:
    """False when the demonstration flips a switch or sets a slider whose name shares no
    word with the task: "Turn wifi off." is no path for "turn bluetooth off", however
    alike the two sentences are."""
    task = stems(" ".join(intent.words) + " " + intent.text)
    for step in (parse_step(s) for s in steps):
        if (
            (step.kind in ("switch", "check box") or step.verb == "drag")
            and step.label
            and not any(
                a[:5] == b[:5] if min(len(a), len(b)) >= 5 else a == b
                for a in stems(step.label)
                for b in task
            )
        ):
            return False
    return True


def demo_progress(steps: Sequence[str], history: Sequence[Step]) -> int:
    """How many of a demonstration's steps the history has done, in order. A step of
    the history may also do a step two ahead (the skipped ones were scrolls or steps
    this screen did not need); steps that match nothing are detours."""
    parsed = [parse_step(s) for s in steps]
    done = 0
    for step in history:
        if step.undone or step.error:
            continue
        for j in range(done, min(done + 3, len(parsed))):
            skippable = j <= done + 1 or all(p.verb in ("scroll", "other") for p in parsed[done:j])
            if skippable and _step_matches(step, parsed[j]):
                done = j + 1
                break
    return done
