"""Parameters of task knowledge: a command's values become slots (``{0}``, ``{0:first}``,
``{0:rest}``) in a stored path and its masked command, and new values fill them again.

    >>> template("type 'Alice Lee'", ["Alice Lee"]), fill("{0:first}", ["Bob Lee"])
    ("type '{0}'", 'Bob')
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from screenpilot.language.fields import value_kind
from screenpilot.language.taskparse import norm
from screenpilot.language.words import stems

_STOP = {
    "the",
    "a",
    "an",
    "to",
    "in",
    "into",
    "on",
    "off",
    "of",
    "my",
    "and",
    "for",
    "with",
    "is",
    "at",
    "it",
    "as",
    "be",
    "me",
    "i",
    "you",
    "please",
    "could",
    "can",
    "their",
    "his",
    "her",
    "x",
    "turn",
    "set",
    "switch",
    "put",
    "this",
    "that",
    "want",
    "need",
    "would",
    "like",
    "do",
    "don",
    "will",
    "so",
    "by",
    "up",
    "down",
    "from",
    "out",
    "new",
    "your",
    "am",
    "pm",
    "then",
    "also",
    "some",
    "all",
}

_SLOT = re.compile(r"\{(\d+)(?::(first|rest))?\}")


def _pattern(value: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w{{]){re.escape(value)}(?![\w}}])", re.IGNORECASE)


def template(text: str, values: Sequence[str]) -> str:
    """``text`` with each parameter value (and the first word / the rest of a
    several-word value) replaced by its slot."""
    if not text:
        return text
    stripped = text.rstrip("\n")
    tail = text[len(stripped) :]
    for i, v in enumerate(values):
        words = v.split()
        if len(words) >= 2 and stripped == words[0]:
            return f"{{{i}:first}}{tail}"
        if len(words) >= 2 and stripped == " ".join(words[1:]):
            return f"{{{i}:rest}}{tail}"
    out = stripped
    for i, v in sorted(enumerate(values), key=lambda p: -len(p[1])):
        if v:
            out = _pattern(v).sub(f"{{{i}}}", out)
    return out + tail


def fill(text: str, values: Sequence[str]) -> str:
    """The inverse of ``template`` with new values (a missing value is empty)."""

    def one(m: re.Match[str]) -> str:
        i = int(m.group(1))
        v = values[i] if i < len(values) else ""
        part = m.group(2)
        if part == "first":
            return v.split()[0] if v.split() else ""
        if part == "rest":
            return " ".join(v.split()[1:])
        return v

    return _SLOT.sub(one, text)


def mask(command: str, values: Sequence[str]) -> str:
    """The command with its values replaced by X (what the intent is matched on)."""
    out = command
    for v in sorted(values, key=len, reverse=True):
        if v:
            out = _pattern(v).sub("X", out)
    return out


def content_words(text: str) -> set[str]:
    """Stemmed words that say what to do (no stop words, no numbers, no X slots)."""
    return {w for w in stems(text) if w not in _STOP and not w.isdigit() and len(w) > 1}


def slots(text: str) -> set[int]:
    """The parameter numbers a template mentions."""
    return {int(m.group(1)) for m in _SLOT.finditer(text)}


def intent_name(masked: str) -> str:
    words = [w for w in norm(masked).split() if w not in _STOP and not w.isdigit()]
    return "_".join(words[:5]) or "task"


def bind(stored: Sequence[str], new: Sequence[str]) -> tuple[str, ...] | None:
    """New values for the stored parameter kinds, by kind and order (None if one is missing)."""
    pools: dict[str, list[str]] = {}
    for v in new:
        pools.setdefault(value_kind(v), []).append(v)
    out = []
    for kind in stored:
        pool = pools.get(kind)
        if not pool:
            return None
        out.append(pool.pop(0))
    return tuple(out)
