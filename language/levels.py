"""The level a command asks of a slider, 0 to 1: a percentage, "as dim as possible",
"max", "half", "to 30", "turn it all the way up"."""

from __future__ import annotations

import re

from screenpilot.language.lexicon import Concept

_MAX = re.compile(
    r"\bas (?:\w+ )?as (?:possible|it (?:can )?goes?|it can|can be)\b|\ball the way "
    r"up\b|\b(?:to )?(?:the )?(?:max(?:imum)?|highest|top|fullest)\b(?: (?:value|"
    r"level|setting))?|\bfull\b|\bmax out\b|\bmaxed\b|\b100 ?%"
    r"|最大|最高|调满|最亮|最响",
    re.I,
)
_MIN = re.compile(
    r"\ball the way down\b|\b(?:to )?(?:the )?(?:min(?:imum)?|lowest|bottom)\b"
    r"(?: (?:value|level|setting))?|\bmute\b|\bsilence\b|\bcompletely off\b|"
    r"\bzero\b|(?<![\d.])0 ?%|最小|最低|最暗|静音",
    re.I,
)
_AS_AS = re.compile(r"\bas (\w+) as (?:possible|it (?:can )?goes?|it can|can be)\b", re.I)
#: Adjectives of a low level ("as quiet as possible").
_DOWN_WORDS = frozenset({"dim", "dark", "quiet", "soft", "low", "faint", "silent", "small"})
_HALF = re.compile(r"\bhalf(?:way)?\b(?! past)|\bmiddle\b|一半", re.I)
_PERCENT = re.compile(r"(\d{1,3}) ?%")
_TO_NUMBER = re.compile(r"\bto (\d{1,3})\b(?!\s*[:\w])")


def level_of(text: str, concept: Concept | None) -> float | None:
    m = _PERCENT.search(text)
    if m:
        return min(100, int(m.group(1))) / 100
    extreme = _AS_AS.search(text)
    if extreme:  # "as dim as possible" is the bottom, "as bright as it goes" the top
        return 0.0 if extreme.group(1).lower() in _DOWN_WORDS else 1.0
    if _MIN.search(text):
        return 0.0
    if _MAX.search(text):
        return 1.0
    if _HALF.search(text):
        return 0.5
    if concept is not None:
        low = text.lower()
        if re.search(r"\bturn (?:\w+ ){0,3}(?:up)\b|\bcrank\b|\bboost\b", low):
            return 1.0 if re.search(r"\ball\b|\bmax", low) else None
        if re.search(r"\bturn (?:\w+ ){0,3}down\b", low):
            return 0.0 if re.search(r"\ball\b|\bmin", low) else None
        m2 = _TO_NUMBER.search(text)
        if m2 and int(m2.group(1)) <= 100:
            return int(m2.group(1)) / 100
    return None
