"""Acts and their confirmations (rule 6 of the offline planner): the control a
command's verb names ("Call", "Delete", "Sign out", "Add to cart") ends the task, once
a confirmation that repeats it is tapped."""

from __future__ import annotations

import re
from collections.abc import Sequence

from screenpilot.language.apps import app_names
from screenpilot.language.fields import typed_values
from screenpilot.language.taskparse import STOP_WORDS, TaskIntent, norm
from screenpilot.language.words import stems, task_stems
from screenpilot.model import Action, ActionKind, BlockKind, ElementKind, Screen, Step
from screenpilot.planner.base import Decision
from screenpilot.planner.demos import TAPPABLE
from screenpilot.planner.forms import in_system_bar, satisfied
from screenpilot.planner.offline.files import file_to_pick
from screenpilot.planner.offline.steps import acted_on, label_at

#: Verbs whose own control ends a task ("Call", "Delete", "Sign out", "Add to cart").
ACT_VERBS = frozenset(
    {
        "call",
        "dial",
        "phone",
        "ring",
        "delete",
        "remove",
        "erase",
        "sign out",
        "log out",
        "mark all",
        "add",
        "start",
        "stop",
        "pause",
        "resume",
        "apply",
        "import",
        "export",
        "send",
        "reply",
        "save",
        "share",
        "block",
        "unblock",
        "archive",
        "star",
        "buy",
        "order",
        "cancel",
        "clear",
        "install",
        "uninstall",
        "download",
        "print",
        "reset",
        "restore",
        "rename",
        "copy",
        "move",
        "play",
        "follow",
        "like",
        "subscribe",
        "book",
        "create",
        "add to cart",
        "mute",
        "unmute",
        "accept",
        "decline",
    }
)
CREATE_VERBS = frozenset(
    {"add", "create", "new", "set", "make", "start", "compose", "write", "send"}
)
CREATE_STEMS = frozenset(stems(" ".join(CREATE_VERBS)))
#: App names as labels read them ("Contacts" tapped is a launch, never the act).
APP_LABELS = frozenset(norm(a) for a in app_names())

_SET_TO = re.compile(r"\b(?:set|change|switch|make)\b.*\bto\s+(.+?)\s*[.!]?\s*$", re.I)
ADD_TO = re.compile(
    r"\badd\b.*\bto (?:my |the |your )?(cart|basket|favou?rites|playlist|"
    r"wish ?list)\b",
    re.I,
)
_GIVE_A = re.compile(r"\b(?:give|make|place)\b.*?\ba (call)\b", re.I)


def act_words(intent: TaskIntent) -> set[str]:
    """The stems a control that does what the command asks carries: its verb ("call",
    "sign out"); "add X to my cart" -> add + cart; "to my favorites" -> star."""
    given = _GIVE_A.search(intent.text)  # "give Bob a call"
    named = intent.verb if intent.verb in ACT_VERBS else given.group(1).lower() if given else ""
    if not named:
        return set()  # "David Kim has a new number": no act is named
    verb = stems(named)
    onto = ADD_TO.search(intent.text)
    if onto:
        listed = stems(onto.group(1))
        verb = listed if "star" in listed else verb | listed
    return verb


def is_act(intent: TaskIntent, label: str) -> bool:
    """Whether a control labelled so is the act itself ("Call", "Add to cart"), not a
    way to it ("Import from file", the cart icon)."""
    verb = act_words(intent)
    words = stems(label) - STOP_WORDS
    task = task_stems(intent) | verb
    return bool(verb) and verb <= words and words <= task and norm(label) not in APP_LABELS


def _asks(screen: Screen) -> bool:
    """Whether the screen asks to confirm: a dialog, or a question ("Delete this
    conversation?")."""
    return any(b.kind is BlockKind.DIALOG for b in screen.blocks) or any(
        e.kind is ElementKind.TEXT and e.text.strip().endswith(("?", "？")) for e in screen.elements
    )


def finish_act(intent: TaskIntent, screen: Screen, history: Sequence[Step]) -> Decision | None:
    """The last tap did what the task's verb says ("Call", "Delete", "Sign out"): a
    confirmation that repeats it is tapped once, otherwise the task is done."""
    if file_to_pick(intent, screen) is not None:
        return None  # a file picker shows the file the command names: it is to be picked
    chosen = _SET_TO.search(intent.text)
    if chosen and history and history[-1].action.kind is ActionKind.TAP:
        # "set the screen timeout to 5 minutes": the option '5 minutes' was tapped
        want = stems(chosen.group(1)) - STOP_WORDS
        got = stems(label_at(history[-1]))
        if want and want <= got and got <= stems(intent.text) | want:
            return Decision(Action(ActionKind.STOP, done=True), f"chose '{label_at(history[-1])}'")
    verb = act_words(intent)
    typed = typed_values(history)
    if not verb or (
        verb & CREATE_STEMS and any(not satisfied(v, typed, screen) for v in intent.values)
    ):
        return None  # "Create contact" opens the form; values are to come
    last = history[-1] if history else None
    if last is None or last.action.kind is not ActionKind.TAP or last.action.element is None:
        return None
    tapped = acted_on(last)
    if tapped is None:
        return None
    label = tapped.label or tapped.icon_label
    if not is_act(intent, label):
        return None
    again = [
        e
        for e in screen.elements
        if e.kind in TAPPABLE
        and e.label
        and norm(e.label) == norm(tapped.text or label)
        and not in_system_bar(e, screen)
        and e.box.iou(tapped.box) < 0.5
    ]  # the same control again is no dialog
    if not _asks(screen):
        again = []  # another row's "Remove" is no confirmation either
    repeats = 0
    for s in reversed(history):
        if (
            s.action.kind is ActionKind.TAP
            and s.action.element is not None
            and verb <= stems(label_at(s))
        ):
            repeats += 1
        else:
            break
    if again and repeats < 2:
        e = max(again, key=lambda x: (x.kind is ElementKind.BUTTON, x.box.y1))
        return Decision(Action(ActionKind.TAP, element=e.id), f"confirm '{e.label}'")
    return Decision(Action(ActionKind.STOP, done=True), f"tapped '{label}'")
