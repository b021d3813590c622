"""Forms and typing (rules 3-5 of the offline planner): the command's values typed
into the fields that fit them, the options it names chosen, then the form confirmed."""

from __future__ import annotations

import re
from collections.abc import Sequence

from screenpilot.language.fields import TOGGLES, field_kind, fits, typed_values
from screenpilot.language.taskparse import TaskIntent, norm
from screenpilot.model import Action, ActionKind, Box, ElementKind, Screen, Step
from screenpilot.planner.base import Decision
from screenpilot.planner.demos import TAPPABLE, field_label_of
from screenpilot.planner.forms import (
    CONFIRM_WORDS,
    empty_fields,
    filled_fields,
    in_system_bar,
    is_search_field,
    satisfied,
    send_button,
    value_parts,
    wanted_options,
)
from screenpilot.planner.offline.steps import acted_on, label_at, submitted, tapped_labels

#: First words of commands that replace a value that is there.
REPLACE_VERBS = frozenset({"change", "edit", "update", "replace", "correct", "set", "modify"})
#: "... and open that conversation", "..., then call him": more to do after a search.
THEN_OPEN = re.compile(
    r"(?:\band\b|\bthen\b|[,;])\s+(?:then\s+)?(?:open|tap|select|play|call|show|view|read)\b",
    re.I,
)
_ATTRIBUTE = re.compile(r"\b(size|colou?r|storage|capacity)\s+([\w.]+)", re.I)


def _same_place(a: Box, b: Box) -> bool:
    """Whether two boxes are one field as seen on two screens (its hint, then its text)."""
    cx, cy = b.center
    return a.iou(b) > 0.3 or (a.x1 <= cx <= a.x2 and a.y1 <= cy <= a.y2)


def type_value(intent: TaskIntent, screen: Screen, history: Sequence[Step]) -> Decision | None:
    """The next value of the command into the first field that fits it: empty
    fields first, then filled ones of a definite kind (a phone number to change)
    that this run has not typed into yet. A value a field already shows is done."""
    searching = bool(intent.words & {"search", "find", "look", "搜索"})
    typed = typed_values(history)
    typed_on = [
        e
        for e in (
            acted_on(s)
            for s in history
            if s.action.kind is ActionKind.TYPE and s.action.element is not None
        )
        if e is not None
    ]
    typed_into = {norm(field_label_of(e)) for e in typed_on}
    typed_boxes = [e.box for e in typed_on]
    empty = [
        f
        for f in empty_fields(screen)
        if (searching or not is_search_field(f))
        and not (f.kind is ElementKind.TEXT and norm(f.text) in typed_into)
        and not any(_same_place(f.box, b) for b in typed_boxes)
    ]
    filled = [
        e
        for e in filled_fields(screen, intent.verb in REPLACE_VERBS)
        if norm(field_label_of(e)) not in typed_into
    ]
    fields = empty + filled
    pending = [
        p for p in value_parts(intent.values, fields, typed) if not satisfied(p[0], typed, screen)
    ]
    for value, kind in pending:
        query = _is_query(intent, value)
        for f in fields:
            if query and not is_search_field(f):
                continue  # "find yoga mats": words for a search box, never a message
            if fits(kind, field_kind(f)):
                search = is_search_field(f)
                return Decision(
                    Action(
                        ActionKind.TYPE,
                        element=f.id,
                        text=value + ("\n" if search else ""),
                        secret=f.password,
                    ),
                    f"type '{value}' into '{f.label or 'the field'}'"
                    + (" and search" if search else ""),
                )
    if any(_is_query(intent, v) for v, _ in pending):
        return _open_search(screen, history)
    return None


def _is_query(intent: TaskIntent, value: str) -> bool:
    return any(value in q for q in intent.queries)


def _open_search(screen: Screen, history: Sequence[Step]) -> Decision | None:
    """Words to search and no search field in view: the search icon or button, once."""
    if any(e.kind is ElementKind.EDIT_TEXT and is_search_field(e) for e in screen.elements):
        return None
    tapped = set(tapped_labels(history))
    for e in screen.elements:
        label = norm(e.label or e.icon_label)
        if (
            e.kind in TAPPABLE
            and e.kind is not ElementKind.EDIT_TEXT
            and label.split()[:1] == ["search"]
            and label not in tapped
            and not in_system_bar(e, screen)
        ):
            return Decision(Action(ActionKind.TAP, element=e.id), f"open the search ('{label}')")
    return None


def choose_options(intent: TaskIntent, screen: Screen, history: Sequence[Step]) -> Decision | None:
    """On a form (a page with fields), the options the task names: AM/PM, days of
    the week ("every weekend" -> Sat, Sun), each tapped once unless already checked."""
    if not any(e.kind is ElementKind.EDIT_TEXT for e in screen.elements):
        return None
    wanted = wanted_options(intent.text)
    if not wanted:
        return None
    tapped = set(tapped_labels(history))
    for option in wanted:
        if option in tapped:
            continue
        hits = [
            e
            for e in screen.elements
            if e.kind in TAPPABLE and norm(e.label) == option and not in_system_bar(e, screen)
        ]
        if not hits:
            continue
        if any(e.checked for e in hits):
            continue
        e = min(hits, key=lambda x: (x.kind not in TOGGLES, x.kind is ElementKind.TEXT))
        return Decision(Action(ActionKind.TAP, element=e.id), f"choose '{e.label}'")
    return None


def choose_attribute(
    intent: TaskIntent, screen: Screen, history: Sequence[Step]
) -> Decision | None:
    """ "in size 10": open the 'Size 9' chooser, then tap '10' in it (once each)."""
    m = _ATTRIBUTE.search(intent.text)
    if m is None:
        return None
    name, value = norm(m.group(1)), norm(m.group(2))
    chooser = [
        e
        for e in screen.elements
        if e.kind in TAPPABLE
        and norm(e.label).startswith(name + " ")
        and not in_system_bar(e, screen)
    ]
    if any(norm(e.label) == f"{name} {value}" for e in chooser):
        return None  # chosen already
    last = norm(label_at(history[-1])) if history else ""
    if last.startswith(name + " "):  # the chooser is open
        options = [e for e in screen.elements if e.kind in TAPPABLE and norm(e.label) == value]
        if options:
            return Decision(
                Action(ActionKind.TAP, element=options[0].id), f"choose {name} '{options[0].label}'"
            )
    tapped = set(tapped_labels(history))
    if chooser and norm(chooser[0].label) not in tapped:
        return Decision(
            Action(ActionKind.TAP, element=chooser[0].id),
            f"open '{chooser[0].label}' to choose {name} {m.group(2)}",
        )
    return None


def confirm_values(intent: TaskIntent, screen: Screen, history: Sequence[Step]) -> Decision | None:
    """Once every value is typed: a confirm button (Save, Done, OK, Send...), then done."""
    typed = typed_values(history)
    parts = value_parts(intent.values, empty_fields(screen) + filled_fields(screen), typed)
    if not intent.values or not typed or not all(satisfied(v, typed, screen) for v, _ in parts):
        return None
    last_label = tapped_labels(history[-1:])
    if last_label and last_label[0] in CONFIRM_WORDS:
        return Decision(Action(ActionKind.STOP, done=True), f"tapped '{last_label[0]}'")
    if submitted(history):
        if THEN_OPEN.search(intent.text):
            return None  # "find the message about X and open it": a result to open
        return Decision(Action(ActionKind.STOP, done=True), f"searched for '{typed[-1]}'")
    buttons = [
        e
        for e in screen.elements
        if e.text and norm(e.text) in CONFIRM_WORDS and not in_system_bar(e, screen)
    ]
    if not buttons:
        return _send(screen, history)
    best = max(buttons, key=lambda e: (e.kind is ElementKind.BUTTON, -e.box.y1))
    return Decision(
        Action(ActionKind.TAP, element=best.id), f"every value is typed: tap '{best.label}'"
    )


def _send(screen: Screen, history: Sequence[Step]) -> Decision | None:
    """No Save/Send text on screen: the icon at the end of the typed field's row, once."""
    last = history[-1] if history else None
    if last is None or last.action.kind is not ActionKind.TYPE or last.action.element is None:
        button = acted_on(last) if last is not None and last.action.element is not None else None
        if (
            button is not None
            and last is not None
            and last.action.kind is ActionKind.TAP
            and len(history) > 1
            and history[-2].action.kind is ActionKind.TYPE
            and not button.text
        ):
            return Decision(
                Action(ActionKind.STOP, done=True), "tapped the button next to the typed text"
            )
        return None
    field = acted_on(last)
    if field is None:
        return None
    value = norm(last.action.text or "")[:12]
    near = (
        [
            e
            for e in screen.elements
            if e.kind is ElementKind.EDIT_TEXT and e.box.iou(field.box) > 0.5
        ]
        or [e for e in screen.elements if value and norm(e.text).startswith(value)]
        or [field]
    )  # the field moves when the keyboard opens
    button = send_button(screen, near[0])
    if button is None:
        return None
    return Decision(
        Action(ActionKind.TAP, element=button.id),
        "every value is typed: tap the button at the end of the field",
    )
