"""Hidden features unlocked by repeated taps (``language/data/unlocks.json``): "enable
developer options" is done by tapping 'Build number' in About phone seven times, not
by a switch. On the page of the entry it is tapped again and again (the taps the
phone's count-down asks for, seven at most unless it asks for more) until the phone
says the feature is unlocked; on a page that leads there (About phone) that page is
opened."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from screenpilot.language.lexicon import package_data
from screenpilot.language.taskparse import TaskIntent, norm
from screenpilot.model import Action, ActionKind, Element, Screen, Step
from screenpilot.planner.base import Decision
from screenpilot.planner.demos import TAPPABLE
from screenpilot.planner.forms import in_system_bar
from screenpilot.planner.offline.steps import acted_on

#: More taps than a count-down may ask for are never made.
MAX_TAPS = 12


@dataclass(frozen=True, slots=True)
class Unlock:
    """A feature unlocked by tapping ``tap`` ``times`` times on a ``via`` page."""

    name: str
    names: tuple[str, ...]
    via: tuple[str, ...]
    tap: tuple[str, ...]
    times: int
    done: tuple[str, ...]
    countdown: re.Pattern[str]


@functools.cache
def unlocks() -> tuple[Unlock, ...]:
    """The entries of ``unlocks.json``."""
    data = package_data("unlocks.json")
    return tuple(
        Unlock(
            name=u["name"],
            names=tuple(u["en"]) + tuple(u["zh"]),
            via=tuple(u["via"]),
            tap=tuple(u["tap"]),
            times=int(u["times"]),
            done=tuple(u["done"]),
            countdown=re.compile(u["countdown"], re.I),
        )
        for u in data["unlocks"]
    )


def wanted_unlock(intent: TaskIntent) -> Unlock | None:
    """The hidden feature the command asks to unlock ("enable developer options",
    "make me a developer"); not one it turns off or only opens."""
    if intent.switch_to is False or intent.open_only:
        return None
    text = f" {norm(intent.text)} "
    for u in unlocks():
        if any(f" {norm(n)} " in text if n.isascii() else n in intent.text for n in u.names):
            return u
    return None


def _said(u: Unlock, screen: Screen) -> tuple[bool, int | None]:
    """Whether the screen says the feature is unlocked, and the taps a count-down on
    it says are left."""
    left = None
    for e in screen.elements:
        line = e.text.lower()
        if any(d in line for d in u.done):
            return True, None
        m = u.countdown.search(line)
        if m:
            left = int(next(g for g in m.groups() if g))
    return False, left


def _find(screen: Screen, labels: Sequence[str]) -> Element | None:
    for e in screen.elements:
        if (
            e.kind in TAPPABLE
            and e.text
            and not in_system_bar(e, screen)
            and (norm(e.text) in labels or e.text.strip() in labels)
        ):
            return e
    return None


def unlock(intent: TaskIntent, screen: Screen, history: Sequence[Step]) -> Decision | None:
    """Tap the entry that unlocks the feature the command names until the phone says
    it is unlocked (or the taps it takes are made), then stop, done; on a page that
    leads to the entry, open that page."""
    u = wanted_unlock(intent)
    if u is None:
        return None
    taps = sum(
        1
        for s in history
        if s.action.kind is ActionKind.TAP
        and (e := acted_on(s)) is not None
        and (norm(e.text) in u.tap or e.text.strip() in u.tap)
    )
    unlocked, left = _said(u, screen)
    if unlocked:
        return Decision(Action(ActionKind.STOP, done=True), f"the phone says {u.name} are unlocked")
    entry = _find(screen, u.tap)
    if entry is not None:
        need = max(u.times, taps + left) if left is not None else u.times
        if taps >= min(need, MAX_TAPS):
            return Decision(
                Action(ActionKind.STOP, done=True),
                f"tapped '{entry.text}' {taps} times: {u.name} are unlocked",
            )
        return Decision(
            Action(ActionKind.TAP, element=entry.id),
            f"{u.name} are unlocked by tapping '{entry.text}' {u.times} times "
            f"(tap {taps + 1}{f', {left} left' if left is not None else ''})",
        )
    if taps:
        return None  # the entry went out of view: the other rules look for it
    page = _find(screen, u.via)
    if page is not None and not any(
        (e := acted_on(s)) is not None and norm(e.text) == norm(page.text) for s in history
    ):
        return Decision(
            Action(ActionKind.TAP, element=page.id),
            f"{u.name} are unlocked from '{page.text}'",
        )
    return None
