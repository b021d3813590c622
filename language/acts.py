"""Whether a command asks to turn something on or off: the words of each ("switch it
on", "no more", "don't want"), the last one said winning when both are."""

from __future__ import annotations

import re

from screenpilot.language.record import OFF, ON

_ON_WORDS = re.compile(
    r"\bturn on\b|\b(?:turn|switch|flip|put|set) (?:(?!off\b)[\w:]+\s+){1,4}"
    r"on\b(?!\s+(?:my|the|this|your|a|an)\b)|\bput (?:\w+\s+){0,3}(?:on|"
    r"in(?:to)?)\b|\bon\s*$|\bback on\b|\bstart\b|\buse\b|\bshow\b|"
    r"\bneeds? to be on\b|\bwant (?:\w+\s+){0,3}on\b|\bon\b(?= (?:but|and|,))",
    re.I,
)
_OFF_WORDS = re.compile(
    r"\bturn off\b|\b(?:turn|switch|flip|put|set) (?:(?!on\b)[\w:]+\s+){1,4}"
    r"off\b|\boff\s*$|\bno more\b|"
    r"\bdon'?t want\b|\bdo not want\b|\bdon'?t need\b|\bstop\b|\bhide\b|"
    r"\bdon'?t\b(?!\s+disturb)|\bno longer\b|\boff\b(?= (?:but|and|,))|"
    r"\bturn (?:it|that|them) off\b|\bclose\b",
    re.I,
)


def switch_act(text: str) -> str:
    on, off = bool(_ON_WORDS.search(text)), bool(_OFF_WORDS.search(text))
    if off and not on:
        return OFF
    if on and not off:
        return ON
    if on and off:  # "I don't need it, switch it on" -> the last word wins
        last_on = max(m.end() for m in _ON_WORDS.finditer(text))
        last_off = max(m.end() for m in _OFF_WORDS.finditer(text))
        return ON if last_on > last_off else OFF
    return ""
