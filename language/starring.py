"""Making something a favourite: "make X a favorite (contact)", "mark X as a favourite",
"favourite X", "add X as a favorite" star the X that exists (Contacts calls its starred
contacts Favorites), written back as "Add X to my favorites"; nothing is created.
Runs on words the lexicon already rewrote ("favourite" -> "favorites").

    >>> c = star_part("make Grace Park a favorites contact")
    >>> (c.act, c.target, c.canonical)
    ('star', 'Grace Park', 'Add Grace Park to my favorites')
    >>> star_part("Add a new contact Grace Park") is None
    True
"""

from __future__ import annotations

import re

from screenpilot.language.record import Command

_FAVORITE = r"(?:favorites?|starred(?:\s+ones?)?|stars?)"
_AS_FAVORITE = re.compile(
    r"^\s*(?:make|set|mark|save|put|add|keep|list)\s+(?P<who>.+?)\s+"
    r"(?:as|among|in|with|to)?\s*(?:a|an|one of|one of my|my|the|your)?\s*"
    rf"{_FAVORITE}(?:\s+(?:contacts?|list|people))?\s*[.!]*\s*$",
    re.I,
)
#: "favourite X" / "fave X": the word as a verb, first in the command.
_FAVORITE_X = re.compile(r"^\s*favorites?\s+(?P<who>.+?)\s*[.!]*\s*$", re.I)
_CONTACT = re.compile(r"^(?:the\s+|my\s+)?contacts?\s+(?:card\s+)?(?:of\s+|for\s+)?", re.I)


def star_part(text: str) -> Command | None:
    """A command to make something a favourite, else None."""
    m = _AS_FAVORITE.match(text) or _FAVORITE_X.match(text)
    if m is None:
        return None
    who = _CONTACT.sub("", m.group("who").strip())
    if not who or re.match(r"^(?:a|an|new)\b", who, re.I):
        return None  # "add a new contact to favorites": a contact to create first
    return Command(text, f"Add {who} to my favorites", act="star", target=who)
