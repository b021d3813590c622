"""A timer of a duration on a timer keypad (Android's Clock > Timer): the keypad fills
its display from the right (hh mm ss), so 5 minutes is the keys 5, 0, 0 (00h 05m 00s).
The digits are pressed one a turn, the display read each time; Start only once it reads
the wished duration, and done the turn after Start."""

from __future__ import annotations

import re
from collections.abc import Sequence
from statistics import median

from screenpilot.language import parse_command, times
from screenpilot.language.taskparse import TaskIntent, norm
from screenpilot.model import Action, ActionKind, Element, Screen, Step
from screenpilot.planner.base import Decision
from screenpilot.planner.demos import TAPPABLE
from screenpilot.planner.forms import in_system_bar
from screenpilot.planner.offline.steps import acted_on

#: A keypad timer's display: "00h 05m 00s".
_DISPLAY = re.compile(r"(\d{1,2})\s*h\s*(\d{1,2})\s*m\s*(\d{1,2})\s*s\b", re.I)
#: Labels of a keypad's delete key.
_DELETE = frozenset({"del", "delete", "backspace", "backspace outline", "clear", "⌫"})
#: Where a phone keypad has each digit (row, column): 1 2 3 / 4 5 6 / 7 8 9 / . 0 .
_LAYOUT = {str(d): ((d - 1) // 3, (d - 1) % 3) for d in range(1, 10)} | {"0": (3, 1)}


def wished_digits(seconds: int) -> str:
    """The keys for a duration, as the keypad reads them (hhmmss, no leading zeros):
    300 -> '500', 5400 -> '13000', 90 -> '130'."""
    hours = min(seconds // 3600, 99)
    return f"{hours:02d}{seconds // 60 % 60:02d}{seconds % 60:02d}".lstrip("0")


def display_of(screen: Screen) -> tuple[Element, str] | None:
    """The keypad's display and the digits entered so far ('500' for 00h 05m 00s)."""
    for e in screen.elements:
        m = _DISPLAY.search(e.text)
        if m:
            digits = "".join(f"{int(g):02d}" for g in m.groups())
            return e, digits.lstrip("0")
    return None


def digit_keys(screen: Screen) -> dict[str, Element]:
    """The keypad's digit keys seen on the screen, by digit."""
    keys: dict[str, Element] = {}
    for e in screen.elements:
        label = e.label.strip()
        if e.kind in TAPPABLE and label in _LAYOUT and not in_system_bar(e, screen):
            keys.setdefault(label, e)
    return keys


def key_point(digit: str, keys: dict[str, Element]) -> tuple[int, int] | None:
    """Where an unread digit key is, from the keys read around it (a phone keypad's
    layout: its column's x, its row's y)."""
    row, col = _LAYOUT[digit]
    xs = [e.box.center[0] for d, e in keys.items() if _LAYOUT[d][1] == col]
    ys = [e.box.center[1] for d, e in keys.items() if _LAYOUT[d][0] == row]
    if not xs or not ys:
        return None
    return round(median(xs)), round(median(ys))


def _tapped(step: Step, words: frozenset[str]) -> bool:
    e = acted_on(step) if step.action.kind is ActionKind.TAP else None
    return e is not None and norm(e.label or e.icon_label) in words


def set_timer(intent: TaskIntent, screen: Screen, history: Sequence[Step]) -> Decision | None:
    """On a timer keypad, press the digits of the command's duration, check the display,
    then Start; the turn after Start, done."""
    command = parse_command(intent.text)
    seconds = times.duration_seconds(command.value) if command.target == "timer" else None
    if not seconds:
        return None
    wished = wished_digits(seconds)
    shown = times.write_duration(seconds)
    display = display_of(screen)
    started = bool(history) and _tapped(history[-1], frozenset({"start", "play"}))
    if (
        started
        and display_of(history[-1].before) is not None
        and (display is None or display[1] != wished)
    ):
        return Decision(Action(ActionKind.STOP, done=True), f"the {shown} timer is started")
    keys = digit_keys(screen)
    if display is None or len(keys) < 5:
        return None
    entered = display[1]
    presses = sum(1 for s in history if display_of(s.before) is not None)
    if presses > 2 * len(wished) + 4:
        return Decision(
            Action(ActionKind.STOP),
            f"the timer's display reads '{display[0].text}', not {shown}, after {presses} taps",
        )
    if entered == wished:
        start = next(
            (
                e
                for e in screen.elements
                if e.kind in TAPPABLE and norm(e.label) == "start" and e is not display[0]
            ),
            None,
        )
        if start is None:
            return None
        return Decision(
            Action(ActionKind.TAP, element=start.id),
            f"the display reads {shown} ('{display[0].text}'): start it",
        )
    if wished.startswith(entered):
        digit = wished[len(entered)]
        why = f"key '{digit}' ({wished} for {shown}; the display reads '{display[0].text}')"
        if digit in keys:
            return Decision(Action(ActionKind.TAP, element=keys[digit].id), f"press the {why}")
        point = key_point(digit, keys)
        if point is not None:
            return Decision(Action(ActionKind.TAP, point=point), f"press the unread {why}")
        return Decision(Action(ActionKind.STOP), f"no key '{digit}' is seen on the keypad")
    delete = next(
        (
            e
            for e in screen.elements
            if e.kind in TAPPABLE and norm(e.label or e.icon_label) in _DELETE
        ),
        None,
    )
    if delete is None:
        return Decision(
            Action(ActionKind.STOP),
            f"the timer reads '{display[0].text}', not {shown}, and no delete key is seen",
        )
    return Decision(
        Action(ActionKind.TAP, element=delete.id),
        f"the timer reads '{display[0].text}', not {shown}: delete a digit",
    )
