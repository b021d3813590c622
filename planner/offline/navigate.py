"""Navigation by similarity (rules 7 and 8 of the offline planner): tap the element
whose description is most like the command, else an overflow menu, a scroll down, back,
and at last stop. Know-how comes first: a feature unlocked by repeated taps
(``unlock.py``: Build number for developer options) and a file picker (``files.py``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from screenpilot.language.apps import purpose
from screenpilot.language.fields import TOGGLES, typed_values
from screenpilot.language.keyboard import keyboard_top
from screenpilot.language.taskparse import TaskIntent, norm
from screenpilot.language.words import lexical, stems, task_stems
from screenpilot.model import Action, ActionKind, Direction, Element, ElementKind, Screen, Step
from screenpilot.planner.base import Decision, PlanHints
from screenpilot.planner.demos import TAPPABLE
from screenpilot.planner.encoding import Similarity
from screenpilot.planner.forms import (
    CREATE_LABELS,
    floating_button,
    in_system_bar,
    is_page_title,
)
from screenpilot.planner.offline.acts import CREATE_STEMS, is_act
from screenpilot.planner.offline.files import pick_file
from screenpilot.planner.offline.lists import beside_named, nth_item, recent_row, row_text
from screenpilot.planner.offline.pages import opened, title_matches
from screenpilot.planner.offline.places import is_destination, is_place, place_open
from screenpilot.planner.offline.steps import retapped, tapped_labels, trailing_scrolls
from screenpilot.planner.offline.unlock import unlock

#: First words of commands that look or go somewhere rather than act on something.
PASSIVE_VERBS = frozenset(
    {
        "open",
        "go",
        "show",
        "check",
        "what",
        "find",
        "see",
        "view",
        "turn",
        "set",
        "use",
        "navigate",
        "launch",
        "look up",
        "where",
        "how",
        "change",
        "start",
        "create",
        "add",
        "new",
        "send",
        "reply",
        "text",
        "call",
        "message",
        "write",
    }
)
#: Icon labels of overflow menus.
OVERFLOW = frozenset(
    {
        "more vert",
        "more options",
        "dots vertical",
        "more",
        "menu",
        "more horiz",
        "dots horizontal",
        "overflow",
        "更多",
    }
)


def describe_for_match(e: Element, screen: Screen) -> str:
    """The text an element is matched on: label, kind, block caption, app purpose."""
    label = e.label
    parts = [label, e.kind.words]
    if e.block_id is not None:
        caption = screen.block(e.block_id).caption
        if caption and caption != label:
            parts.append(f"in {caption}")
    what = purpose(label)
    if what:
        parts.append(f"app for {what}")
    return " ".join(p for p in parts if p)


def purpose_bonus(intent: TaskIntent, e: Element) -> float:
    """0.4 when the element is an app whose purpose names a word of the task."""
    what = purpose(e.label)
    if not what:
        return 0.0
    return 0.4 if task_stems(intent) & stems(what) else 0.0


def navigate(
    intent: TaskIntent,
    screen: Screen,
    history: Sequence[Step],
    hints: PlanHints,
    *,
    similarity: Similarity,
    threshold: float,
    max_scrolls: int,
) -> Decision:
    """Tap what is most similar to the command, else a menu, a scroll, back, or stop
    (a feature unlocked by repeated taps and a file picker first)."""
    for rule in (unlock, pick_file):
        known = rule(intent, screen, history)
        if known is not None:
            return known
    if (
        intent.open_only
        and history
        and (title_matches(intent, screen, history) or opened(intent, screen, history))
    ):
        return Decision(Action(ActionKind.STOP, done=True), "the page is open")
    tapped = tapped_labels(history)
    kb = keyboard_top(screen) or screen.height
    typed = {norm(t) for t in typed_values(history)}
    els = [
        e
        for e in screen.elements
        if e.kind in TAPPABLE
        and e.label
        and not any(retapped(e.label, t) for t in tapped)
        and e.kind is not ElementKind.EDIT_TEXT
        and (e.kind not in TOGGLES or intent.switch_to is None)
        and not e.selected
        and not in_system_bar(e, screen)
        and e.box.y1 < kb
        and not is_page_title(e, screen)
        and norm(e.label) not in typed
        and not is_destination(intent, e.label)  # "add X to my cart": not the cart icon
    ]
    creating = bool(stems(intent.verb) & CREATE_STEMS) or bool(intent.words & {"new", "create"})
    fab = floating_button(screen, kb)
    if creating and fab is not None and "add" not in tapped and fab not in els:
        els.append(fab)
    menu = _overflow(screen, tapped)
    nth = nth_item(intent, screen, history, els)
    if nth is not None:
        return Decision(
            Action(ActionKind.TAP, element=nth.id),
            f"'{nth.label}' is item {intent.ordinal} of the list",
        )
    recent = recent_row(intent, screen, history, els)
    if recent is not None:
        return Decision(
            Action(ActionKind.TAP, element=recent.id),
            f"'{recent.label}' is the first (most recent) item of the list",
        )
    if els:
        texts = [describe_for_match(e, screen) if e is not fab else "add button" for e in els]
        score = similarity(intent.where, texts)
        score += np.array([0.5 * is_act(intent, e.label) for e in els])
        if not place_open(intent, screen):  # "the backpack in my cart": the cart first
            score += np.array([0.6 * is_place(intent, e.label) for e in els])
        named = [stems(t) for t in intent.targets]
        score += np.array(
            [0.3 * any(t and t <= stems(e.label) for t in named) for e in els]
        )  # the thing the command names
        score += np.array(
            [
                0.5 * lexical(intent, e.label)
                + purpose_bonus(intent, e)
                + (0.4 if creating and (norm(e.label) in CREATE_LABELS or e is fab) else 0.0)
                for e in els
            ]
        )
        score += _demo_bonus(hints, els)
        i = int(np.argmax(score))
        if menu is not None and score[i] < 0.55 and intent.verb not in PASSIVE_VERBS:
            return menu  # "delete", "mark all": a weak match is worse than the menu
        if score[i] >= threshold:
            i = row_text(els, i)
            i = beside_named(intent, els, i)
            if els[i].kind in TOGGLES:  # open the switch's row, not flip the switch
                e = els[i]
                return Decision(
                    Action(
                        ActionKind.TAP,
                        point=(
                            max(0, min(e.box.x1 - 1, round(screen.width * 0.3))),
                            e.box.center[1],
                        ),
                    ),
                    f"open the row of '{e.label}' ({score[i]:.2f})",
                )
            alternatives = tuple(
                (Action(ActionKind.TAP, element=els[j].id), float(score[j]))
                for j in np.argsort(-score)[1:4]
            )
            return Decision(
                Action(ActionKind.TAP, element=els[i].id),
                f"'{els[i].label or 'add'}' is the closest match to the task ({score[i]:.2f})",
                alternatives=alternatives,
            )
    if menu is not None:
        return menu
    return _fallback(history, max_scrolls)


def _overflow(screen: Screen, tapped: Sequence[str]) -> Decision | None:
    """An overflow menu (the three dots) or a "More ..." row not opened yet: actions
    and rarer settings hide there. A picture that leads a row and carries the row's
    title as its caption is the row's picture, not a menu, whatever its icon reads as
    (an app's icon cut in half under the toolbar by a scroll, read as three dots)."""
    for e in screen.elements:
        if (
            norm(e.icon_label or e.label) in OVERFLOW
            and not (e.icon_label and e.caption)
            and norm(e.label) not in tapped
            and not in_system_bar(e, screen)
        ):
            return Decision(
                Action(ActionKind.TAP, element=e.id), "nothing here matches the task: open the menu"
            )
    for e in screen.elements:  # "More security & privacy", "Advanced"
        if (
            e.kind is ElementKind.TEXT
            and norm(e.text).split()[:1] in (["more"], ["advanced"], ["additional"])
            and norm(e.label) not in tapped
        ):
            return Decision(
                Action(ActionKind.TAP, element=e.id),
                f"nothing here matches the task: look in '{e.text}'",
            )
    return None


def _fallback(history: Sequence[Step], max_scrolls: int) -> Decision:
    """Scroll down (``max_scrolls`` times in a row at most), go back (twice), give up."""
    if trailing_scrolls(history) < max_scrolls:
        return Decision(
            Action(ActionKind.SCROLL, direction=Direction.DOWN),
            "nothing here matches the task: look further down",
        )
    backs = sum(1 for s in history if s.action.kind is ActionKind.BACK)
    if backs < 2 and history:
        return Decision(Action(ActionKind.BACK), "nothing on this page matches: go back")
    return Decision(Action(ActionKind.STOP), "no element matches the task")


def _demo_bonus(hints: PlanHints, els: Sequence[Element]) -> np.ndarray:
    """0.5 for an element a step of a retrieved demonstration names."""
    bonus = np.zeros(len(els))
    steps = [norm(s) for d in hints.demonstrations for s in d.steps]
    for i, e in enumerate(els):
        label = norm(e.label)
        if label and any(f"'{label}'" in s or f" {label} " in f" {s} " for s in steps):
            bonus[i] = 0.5
    return bonus
