"""Typing slips in a command: a word one or two letters off a word the lexicons know
("bluetooh", "andriod") is read as that word; everyday words that look like such slips
(``_COMMON``) are left alone."""

from __future__ import annotations

import difflib
import re

from screenpilot.language import lexicon


def fix_typos(text: str) -> str:
    """Words one or two letters off a word the lexicons know ("bluetooh", "andriod")
    become that word; short words and known English words are left alone."""
    vocab = lexicon.vocabulary()

    def fix(m: re.Match[str]) -> str:
        word = m.group(0)
        low = word.lower()
        if (
            len(low) < 4
            or low in vocab
            or low in _COMMON
            or low + "s" in vocab
            or low.rstrip("s") in vocab
            or low.endswith(("ing", "ed", "ly"))
        ):
            return word
        close = difflib.get_close_matches(low, vocab, n=1, cutoff=0.84 if len(low) > 5 else 0.86)
        return close[0] if close else word

    return re.sub(r"(?<![\w\ue000])[A-Za-z]{4,}(?![\w\ue001])", fix, text)


#: Everyday words that look like misspellings of a lexicon word and are not.
_COMMON = frozenset(
    {
        "want",
        "need",
        "with",
        "this",
        "that",
        "they",
        "them",
        "mine",
        "more",
        "call",
        "calls",
        "alarm",
        "alarms",
        "phone",
        "make",
        "mode",
        "mute",
        "note",
        "name",
        "names",
        "rate",
        "save",
        "send",
        "sent",
        "show",
        "shown",
        "time",
        "timer",
        "text",
        "texts",
        "turn",
        "than",
        "then",
        "when",
        "what",
        "where",
        "while",
        "whole",
        "light",
        "night",
        "right",
        "tight",
        "sound",
        "found",
        "round",
        "ring",
        "sing",
        "wing",
        "king",
        "code",
        "mail",
        "email",
        "home",
        "some",
        "same",
        "game",
        "games",
        "lock",
        "look",
        "took",
        "book",
        "blue",
        "tooth",
        "pair",
        "paid",
        "pinned",
        "pins",
        "ping",
        "song",
        "songs",
        "open",
        "opens",
        "start",
        "stop",
        "your",
        "yours",
        "from",
        "into",
        "onto",
        "over",
        "just",
        "only",
        "also",
        "again",
        "once",
        "every",
        "each",
        "both",
        "other",
        "many",
        "much",
        "most",
        "least",
        "last",
        "first",
        "next",
        "before",
        "after",
        "here",
        "there",
        "data",
        "date",
        "dates",
        "late",
        "later",
        "have",
        "give",
        "take",
        "keep",
        "kept",
        "left",
        "rest",
        "away",
        "done",
        "down",
        "gone",
        "going",
        "goes",
        "like",
        "love",
        "good",
        "well",
        "tell",
        "told",
        "says",
        "said",
        "tonight",
        "today",
        "tomorrow",
        "morning",
        "noon",
        "evening",
        "week",
        "weeks",
        "weekday",
        "weekdays",
        "weekend",
        "weekends",
        "days",
        "hour",
        "hours",
        "minute",
        "minutes",
        "second",
        "seconds",
        "free",
        "meeting",
        "running",
        "watch",
        "football",
        "slides",
    }
)
