"""A city added to the world clock (Android's Clock > Clock tab): go to that tab, tap its
floating add (a globe or "+"), type the city in the picker's search when there is one,
tap the city's row; done once its check box is ticked, or the turn after its row was
tapped."""

from __future__ import annotations

from collections.abc import Sequence

from screenpilot.language import parse_command
from screenpilot.language.apps import is_app
from screenpilot.language.keyboard import keyboard_top
from screenpilot.language.taskparse import TaskIntent, norm
from screenpilot.model import Action, ActionKind, Direction, Element, ElementKind, Screen, Step
from screenpilot.planner.base import Decision
from screenpilot.planner.demos import TAPPABLE
from screenpilot.planner.forms import floating_button, in_system_bar, is_page_title
from screenpilot.planner.offline.steps import acted_on

#: What the world clock's tab or page is called (Android's DeskClock: "Clock").
WORLD_TABS = frozenset({"clock", "world clock", "world", "时钟", "世界时钟"})
#: Icons of a world clock's add button.
GLOBE_ICONS = frozenset({"earth", "globe", "public", "language", "world", "add", "plus"})
_SEARCH = frozenset({"search", "search city", "search cities", "search for a city", "搜索"})


def _row_check(e: Element, screen: Screen) -> Element | None:
    """The check box on the same row as ``e``."""
    cy = e.box.center[1]
    return next(
        (
            c
            for c in screen.elements
            if c.kind is ElementKind.CHECK_BOX and c.box.y1 <= cy <= c.box.y2 and c is not e
        ),
        None,
    )


def _add_button(screen: Screen) -> Element | None:
    kb = keyboard_top(screen) or screen.height
    fab = floating_button(screen, kb)
    if fab is not None:
        return fab
    return next(
        (
            e
            for e in screen.elements
            if norm(e.icon_label) in GLOBE_ICONS and not e.text and not in_system_bar(e, screen)
        ),
        None,
    )


def _tapped_add(step: Step) -> bool:
    """Whether a step tapped the add button of its screen."""
    e = acted_on(step) if step.action.kind is ActionKind.TAP else None
    add = _add_button(step.before)
    return e is not None and add is not None and e.id == add.id


def _home(screen: Screen) -> bool:
    """Whether a screen is a launcher (three or more app names): "Clock" there is the app."""
    return len({norm(e.text) for e in screen.elements if e.text and is_app(e.text)}) >= 3


def _on_world_page(screen: Screen, history: Sequence[Step]) -> bool:
    """Whether the world clock's tab is open: it is selected or titles the page, else
    it was the last tap (and no other tab is seen selected)."""
    named = [e for e in screen.elements if e.selected or is_page_title(e, screen)]
    if any(norm(e.label) in WORLD_TABS for e in named):
        return True
    if any(e.selected for e in named) or not history or _home(history[-1].before):
        return False
    last = acted_on(history[-1])
    return last is not None and norm(last.label) in WORLD_TABS


def add_city(intent: TaskIntent, screen: Screen, history: Sequence[Step]) -> Decision | None:
    """Rule: the command adds a city to the world clock (see the module docstring)."""
    command = parse_command(intent.text)
    if command.target != "world clock" or not command.value:
        return None
    city = norm(command.value)
    tapped = [
        acted_on(s) for s in history if s.action.kind is ActionKind.TAP and not _home(s.before)
    ]
    labels = [norm(e.label or e.icon_label) for e in tapped if e is not None]
    rows = [
        e
        for e in screen.elements
        if norm(e.label) == city
        and e.kind is not ElementKind.EDIT_TEXT
        and not in_system_bar(e, screen)
    ]
    picking = any(  # the add button of the world clock was tapped: a city picker
        _tapped_add(s) and _on_world_page(s.before, history[:i]) for i, s in enumerate(history)
    )
    for row in rows:
        box = _row_check(row, screen)
        if box is not None and box.checked:
            return Decision(Action(ActionKind.STOP, done=True), f"'{row.label}' is ticked")
        if labels and labels[-1] == city:
            return Decision(Action(ActionKind.STOP, done=True), f"'{row.label}' was chosen")
        if not picking and _on_world_page(screen, history):
            return Decision(
                Action(ActionKind.STOP, done=True), f"'{row.label}' is in the world clock"
            )
        return Decision(Action(ActionKind.TAP, element=row.id), f"choose '{row.label}'")
    search = next(  # the picker's search: an empty field or one that says "Search"
        (
            e
            for e in screen.elements
            if (e.kind is ElementKind.EDIT_TEXT and (not e.text or "search" in norm(e.label)))
            or (e.hint and norm(e.text) in _SEARCH)
        ),
        None,
    )
    typed = any(
        s.action.kind is ActionKind.TYPE and norm(s.action.text or "") == city for s in history
    )
    if picking and search is not None and not typed:
        return Decision(
            Action(ActionKind.TYPE, element=search.id, text=command.value),
            f"search the city '{command.value}'",
        )
    if picking:
        scrolls = sum(1 for s in history if s.action.kind is ActionKind.SCROLL)
        if scrolls < 5:
            return Decision(
                Action(ActionKind.SCROLL, direction=Direction.DOWN),
                f"look for '{command.value}' further down the list of cities",
            )
        return Decision(Action(ActionKind.STOP), f"no city '{command.value}' in the list")
    if _on_world_page(screen, history):
        add = _add_button(screen)
        if add is not None:
            return Decision(Action(ActionKind.TAP, element=add.id), "the world clock's add button")
        return None
    tab = next(
        (
            e
            for e in screen.elements
            if e.kind in TAPPABLE
            and norm(e.label) in WORLD_TABS
            and not is_page_title(e, screen)
            and norm(e.label) not in labels
        ),
        None,
    )
    if tab is not None:
        return Decision(
            Action(ActionKind.TAP, element=tab.id), f"cities are added in the '{tab.label}' tab"
        )
    return None
