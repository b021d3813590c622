"""A new alarm: "set a 10:30 pm alarm" creates one with the alarm list's floating add
button, never by opening an alarm row whose words look alike ("every weekend" is not
the existing "Weekends" alarm); an existing alarm is named by its time with another
act ("turn off the 6:30 alarm")."""

from __future__ import annotations

import re
from collections.abc import Sequence

from screenpilot.language import parse_command
from screenpilot.language.keyboard import keyboard_top
from screenpilot.language.taskparse import TaskIntent, norm
from screenpilot.model import Action, ActionKind, ElementKind, Screen, Step
from screenpilot.planner.base import Decision
from screenpilot.planner.forms import floating_button, is_page_title
from screenpilot.planner.offline.steps import acted_on

#: What an alarm list is called (its page title or tab).
ALARM_PAGES = frozenset({"alarm", "alarms", "闹钟"})
_TIME = re.compile(r"^\d{1,2}:\d{2}\b|^(?:am|pm)$", re.I)


def alarm_list(screen: Screen) -> bool:
    """Whether the screen is a list of alarms: its title says so, or switches beside
    times; never a form (no field)."""
    if any(e.kind is ElementKind.EDIT_TEXT for e in screen.elements):
        return False
    if any(norm(e.label) in ALARM_PAGES and is_page_title(e, screen) for e in screen.elements):
        return True
    if any(norm(e.label) in ALARM_PAGES and e.selected for e in screen.elements):
        return True
    switches = any(e.kind is ElementKind.SWITCH for e in screen.elements)
    return switches and any(_TIME.match(e.text.strip()) for e in screen.elements)


def new_alarm(intent: TaskIntent, screen: Screen, history: Sequence[Step]) -> Decision | None:
    """On a list of alarms, a command that creates one taps the floating add button
    (once a run)."""
    command = parse_command(intent.text)
    if command.target != "alarm" or command.act != "create" or not alarm_list(screen):
        return None
    for step in history:
        e = acted_on(step) if step.action.kind is ActionKind.TAP else None
        fab = floating_button(step.before, keyboard_top(step.before) or step.before.height)
        if e is not None and fab is not None and e.id == fab.id:
            return None  # the form was opened already (and saved, when back here)
    add = floating_button(screen, keyboard_top(screen) or screen.height)
    if add is None:
        return None
    return Decision(Action(ActionKind.TAP, element=add.id), "a new alarm: the list's add button")
