"""Commands of apps that name no setting: the words rewritten with the act in front
("I'd like X, put it in the cart" -> "add X to my cart"), a call, and the app named."""

from __future__ import annotations

import re
from dataclasses import replace

from screenpilot.language.apps import ALIASES, APPS
from screenpilot.language.messages import PHONE, recipient_of
from screenpilot.language.record import Command
from screenpilot.language.spans import clean
from screenpilot.language.starring import star_part


def other_part(text: str) -> Command:
    """Commands of apps, not settings: the rewritten words, the act in front."""
    starred = star_part(text)
    if starred is not None:  # "make X a favorite contact": the app said stays named
        return replace(starred, app=app_of(text))
    low = text.lower()
    canonical = re.sub(
        r"^\s*(?:i want|i'd like|i would like|i need)\s+(?:to\s+)?", "", text, flags=re.I
    )
    act = ""
    # "I'd like X, put it in the cart" / "I'm done with X, delete my account": the clause
    # with the act comes first, the rest after it
    clauses = [c.strip() for c in re.split(r",\s*|\s+so\s+", canonical) if c.strip()]
    lead = re.compile(
        r"^(?:i'?d like|i want|i need|i'?m done with|i don'?t want|i never use|"
        r"i'?m|i have|i wear|i downloaded|someone|where'?s|where is|"
        r"i don'?t need|i no longer need)\b",
        re.I,
    )
    if len(clauses) > 1 and lead.match(clauses[0]):
        canonical = " ".join(clauses[1:] + clauses[:1])
    canonical = re.sub(
        r"\bput (.+?) (?:in|into|on) (?:my |the )?(shop )?cart\b",
        r"add \1 to my \2cart",
        canonical,
        flags=re.I,
    )
    canonical = re.sub(  # "take X out of my cart": the cart's Remove
        r"\b(?:take|get) (.+?) out of (?:my |the )?(shop )?cart\b",
        r"remove \1 from my \2cart",
        canonical,
        flags=re.I,
    )
    canonical = (
        re.sub(
            r"^(.+?) (?:in|into) (?:my |the )?(?:\w+ )?cart\b",
            r"add \1 to my cart",
            canonical,
            flags=re.I,
        )
        if not re.search(
            r"\b(?:add|remove|delete|change|set|take|apply|use|enter|make|"
            r"bump)\b",
            canonical,
            re.I,
        )
        else canonical
    )
    if re.search(r"\b(?:delete|mark)\b.*\bunread\b|\bunread\b.*\bread\b", canonical, re.I):
        canonical = "Mark all my text messages as read"
        act = "mark"
    if re.search(r"\bcall\b", low) and not re.search(r"\bcalled\b", low):
        who = recipient_of(text)
        if who and not PHONE.fullmatch(who):
            canonical, act = f"Call {who}", "call"
    m = re.match(r"^\s*(\w+)", canonical)
    act = act or (m.group(1).lower() if m else "")
    return Command(text, clean(canonical), act=act)


def app_of(text: str) -> str:
    low = text.lower()
    for name in sorted(APPS, key=len, reverse=True):
        if name.isascii() and re.search(rf"\b{re.escape(name)}\b", low):
            return name
    for alias, app in ALIASES.items():
        if re.search(rf"\b{re.escape(alias)}\b", low):
            return app
    return ""
