"""A command of several parts: "X, then Y", "first X and after that Y", "X but Y"
(Y its own part when it names a setting too, "X but not Y" is one part)."""

from __future__ import annotations

import re

from screenpilot.language.record import Command
from screenpilot.language.settings import concepts_in

_PARTS = re.compile(
    r"\s*(?:,?\s*(?:and )?then\b|,?\s*after that\b|;|，然后|然后|，再|,\s*再"
    r"|再(?=\s*turn))"
    r"\s*",
    re.I,
)
_BUT = re.compile(r"\s*,?\s*\bbut\b\s*", re.I)
_FIRST = re.compile(r"^\s*first\b[, ]*", re.I)


def split_parts(text: str) -> list[str]:
    """'X, then Y' / 'first X and after that Y' / 'X but Y' (Y a part of its own when it
    names a setting too) -> the parts."""
    parts = [p for p in _PARTS.split(_FIRST.sub("", text)) if p and p.strip(" ,.")]
    if len(parts) > 1:
        return parts
    parts = [p for p in _BUT.split(text) if p and p.strip(" ,.")]
    if len(parts) == 2 and re.match(r"\s*(?:not|leave|keep|don'?t touch)\b", parts[1], re.I):
        return [parts[0]]  # "X but not Y", "X but keep the rest": Y stays as it is
    if len(parts) == 2 and concepts_in(parts[0]) and concepts_in(parts[1]):
        return parts
    return [text]


def joined(text: str, parts: tuple[Command, ...]) -> Command:
    """The parts as one command: each part's parts in order, their canonical words joined
    with ", then", the first part's act, target, kind and app."""
    flat = tuple(q for p in parts for q in (p.parts or (p,)))
    words = ", then ".join(
        p.canonical[:1].lower() + p.canonical[1:] if i and p.canonical[:2] != "I " else p.canonical
        for i, p in enumerate(flat)
    )
    return Command(
        text,
        words,
        act=flat[0].act,
        target=flat[0].target,
        kind=flat[0].kind,
        app=flat[0].app,
        parts=flat,
    )
