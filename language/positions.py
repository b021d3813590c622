"""Which item of a list a command means: "the second result", "第三个", "the last
message", and the words of the most recent conversation."""

from __future__ import annotations

import re

from screenpilot.language import times

_ORDINALS = {
    "first": 1,
    "1st": 1,
    "second": 2,
    "2nd": 2,
    "third": 3,
    "3rd": 3,
    "fourth": 4,
    "4th": 4,
    "fifth": 5,
    "5th": 5,
    "sixth": 6,
    "6th": 6,
    "top": 1,
    "last": -1,
    "bottom": -1,
}
_ORDINAL = re.compile(
    r"\bthe (first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|sixth|6th|"
    r"top|last|bottom)(?: one)?\s+(product|item|result|message|conversation|"
    r"text|contact|row|entry|alarm|order|thing|one|chat|thread|email|song|"
    r"photo|video|file|city)s?\b|第([一二三四五六七八九十\d]+)(?:个|条|项|位)?",
    re.I,
)
RECENT = re.compile(
    r"\b(?:most recent|latest|newest|last (?:message|text|sms|one)|"
    r"who(?:ever)? (?:last )?(?:texted|messaged|wrote)(?: me)?(?: last)?|"
    r"top conversation|first conversation)\b",
    re.I,
)


def ordinal_of(text: str) -> int | None:
    m = _ORDINAL.search(text)
    if not m:
        return None
    if m.group(3):
        return times.zh_number(m.group(3))
    return _ORDINALS[m.group(1).lower()]
