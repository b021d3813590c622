"""How the offline planner compares a command's words with a label's: stems,
synonyms, times as one word, and the share of a label's words the command uses.

    >>> sorted(stems("Vibrate for calls"))
    ['call', 'for', 'vibr']
"""

from __future__ import annotations

import functools

from screenpilot.language.apps import app_names
from screenpilot.language.taskparse import TaskIntent, clock_words, norm

#: Words that mean the same thing on buttons.
SYNONYMS = {
    "add": "create",
    "new": "create",
    "remove": "delete",
    "erase": "delete",
    "dial": "call",
    "phone": "call",
    "text": "message",
    "sms": "message",
    "favorite": "star",
    "favourite": "star",
    "favorites": "star",
    "favourites": "star",
    "wifi": "wifi",
    "modify": "edit",
    "change": "edit",
    "pencil": "edit",
    "chat": "message",
    "conversation": "message",
    "log": "sign",
    "logout": "sign out",
}


#: Words of icon names that say how the icon is drawn, not what it does.
STYLE_WORDS = frozenset(
    {"outline", "outlined", "filled", "rounded", "sharp", "variant", "alt", "two", "tone"}
)


def stems(text: str) -> set[str]:
    """The words of ``text`` as compared: times as one word, icon style words out,
    synonyms folded, crudely stemmed ("Vibrate for calls" -> vibr, for, call)."""
    out = set()
    for w in norm(clock_words(text)).split():
        if w in STYLE_WORDS:
            continue
        out.add(stem(SYNONYMS.get(w, w)))
    return out


_SUFFIXES = ("ations", "ation", "ings", "ing", "ions", "ion", "ates", "ate", "ed", "es", "e", "s")


def stem(word: str) -> str:
    """A crude English stem: 'vibration', 'vibrate' -> 'vibr'; 'alarms' -> 'alarm'."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


#: App names (stemmed like ``stems``): where a task happens, not what it asks for.
APP_NAMES = frozenset({stem(w) for n in app_names() for w in n.split()})


@functools.lru_cache(maxsize=64)
def task_stems(intent: TaskIntent) -> frozenset[str]:
    """The stems of a command's words (stop words out), once per command: every label
    of every screen is compared with them."""
    return frozenset(stems(" ".join(intent.words)))


def lexical(intent: TaskIntent, label: str) -> float:
    """Share of the label's words (stemmed, synonyms folded) that the task uses; app
    names do not count ("Contact info" is no match for "delete contact Frank")."""
    words = stems(label) - APP_NAMES
    if not words:
        return 0.0
    return len(words & task_stems(intent)) / len(words)
