"""Following a demonstration (the offline planner's first choice when a hint holds
one): its next semantic step, taken when its element is on the screen."""

from __future__ import annotations

from collections.abc import Sequence

from screenpilot.language.fields import typed_values
from screenpilot.language.taskparse import TaskIntent
from screenpilot.model import (
    Action,
    ActionKind,
    Demonstration,
    Direction,
    ElementKind,
    Screen,
    Step,
)
from screenpilot.planner.base import Decision
from screenpilot.planner.demos import (
    DemoStep,
    demo_progress,
    field_label_of,
    find_target,
    parse_step,
    said,
    same_label,
)
from screenpilot.planner.forms import empty_fields
from screenpilot.planner.offline.steps import trailing_scrolls


def follow(
    intent: TaskIntent,
    screen: Screen,
    history: Sequence[Step],
    demo: Demonstration,
    max_scrolls: int,
) -> Decision | None:
    """The demonstration's next step on this screen, or None to leave it to the rules."""
    steps = [parse_step(s) for s in demo.steps]
    done = demo_progress(demo.steps, history)
    if done >= len(steps):
        return None
    step = steps[done]
    why = f"demonstration step {done + 1}/{len(steps)}: {demo.steps[done]}"
    if step.verb == "scroll":
        ahead = steps[done + 1] if done + 1 < len(steps) else None
        if (
            ahead is not None
            and ahead.verb in ("tap", "long press")
            and find_target(screen, ahead) is not None
        ):
            return _act_on(
                intent,
                screen,
                history,
                ahead,
                max_scrolls,
                f"demonstration step {done + 2}/{len(steps)} is in view: {demo.steps[done + 1]}",
            )
        return Decision(Action(ActionKind.SCROLL, direction=step.direction), why)
    if step.verb == "back":
        return Decision(Action(ActionKind.BACK), why)
    if step.verb == "home":
        return Decision(Action(ActionKind.HOME), why)
    return _act_on(intent, screen, history, step, max_scrolls, why)


def _act_on(
    intent: TaskIntent,
    screen: Screen,
    history: Sequence[Step],
    step: DemoStep,
    max_scrolls: int,
    why: str,
) -> Decision | None:
    """The demonstration's step ``step`` done on this screen, or None for the rules."""
    if step.verb == "drag":
        if intent.level is not None or step.level is None:
            return None  # the slider rule sets the level the task asks for
        bar = find_target(screen, step)
        if bar is None:
            return None
        x = round(bar.box.x1 + step.level * (bar.box.width - 1))
        return Decision(Action(ActionKind.TAP, point=(x, bar.box.center[1])), why)
    if step.verb == "type":
        if step.secret or not step.value or not said(step.value, intent.text):
            return None  # a secret, or another task's value: the type rule decides
        if step.value in typed_values(history):
            return None
        fields = [f for f in empty_fields(screen) if same_label(field_label_of(f), step.label)]
        fields = fields or [
            e
            for e in screen.elements
            if e.kind is ElementKind.EDIT_TEXT and same_label(field_label_of(e), step.label)
        ]
        if not fields:
            return None
        f = fields[0]
        return Decision(
            Action(ActionKind.TYPE, element=f.id, text=step.value, secret=f.password), why
        )
    if step.verb not in ("tap", "long press"):
        return None
    kind = ActionKind.LONG_PRESS if step.verb == "long press" else ActionKind.TAP
    if step.at is not None:
        point = (
            min(screen.width - 1, round(step.at[0] * screen.width)),
            min(screen.height - 1, round(step.at[1] * screen.height)),
        )
        return Decision(Action(kind, point=point), why)
    if step.kind in ("switch", "check box") and intent.switch_to is not None:
        return None  # the toggle rule knows whether it needs a tap
    target = find_target(screen, step)
    if target is None:
        return _look_further(history, step, why, max_scrolls)
    return Decision(Action(kind, element=target.id), why)


def _look_further(
    history: Sequence[Step], step: DemoStep, why: str, max_scrolls: int
) -> Decision | None:
    """The demonstrated element is not in view: scroll down for it (a smaller screen
    shows less), up to ``max_scrolls`` times in a row."""
    if trailing_scrolls(history) >= max_scrolls or not history:
        return None
    return Decision(
        Action(ActionKind.SCROLL, direction=Direction.DOWN),
        f"{why} ('{step.label}' is not in view: look further down)",
    )
