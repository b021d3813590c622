"""What a typed command asks for, read without an LLM: the on/off wish, values to type,
a level for a slider, whether it only asks to open something.

    >>> parse_task("Save Alice, 2122000000 to contacts").values
    ('Alice', '2122000000')
    >>> parse_task("turn wifi off").switch_to
    False
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ON = re.compile(r"\b(turn|switch|toggle|put)\s+(\w+\s+){0,3}on\b|\b(enable|activate|start)\b"
                 r"|\bon\s*$|打开|开启|启用", re.I)
_OFF = re.compile(r"\b(turn|switch|toggle|put)\s+(\w+\s+){0,3}off\b|\b(disable|deactivate|stop)\b"
                  r"|\boff\s*$|关闭|停用", re.I)
_OPEN = re.compile(r"^\s*(open|go to|show|navigate to|launch|find|打开|进入)\b", re.I)
_QUOTED = re.compile(r"[\"“'‘]([^\"”'’]+)[\"”'’]")
_NUMBER = re.compile(r"(?<![\w:])\+?\d[\d\- ]{2,}\d(?![\w:])")
_TIME = re.compile(r"\b(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?", re.I)
_PERCENT = re.compile(r"(\d{1,3})\s*%")
_LEVELS = {"max": 1.0, "maximum": 1.0, "full": 1.0, "highest": 1.0, "min": 0.0,
           "minimum": 0.0, "lowest": 0.0, "half": 0.5, "middle": 0.5}
_STOP = {"the", "a", "an", "to", "in", "into", "on", "off", "and", "with", "for", "of", "my",
         "named", "called", "as", "new", "contact", "contacts", "number", "phone", "message",
         "save", "add", "create", "send", "set", "turn", "please", "alarm", "at", "from",
         "settings", "setting", "app", "open", "go", "show"}
_NAME = re.compile(r"\b([A-Z][a-z]+(?:\s+[A-Z][a-z]+)*)\b")


@dataclass(frozen=True, slots=True)
class TaskIntent:
    """The parts of a command the offline planner acts on."""

    text: str
    switch_to: bool | None
    values: tuple[str, ...]
    level: float | None
    open_only: bool

    @property
    def words(self) -> set[str]:
        return {w for w in norm(self.text).split() if w not in _STOP}


def norm(text: str) -> str:
    """Lower-case, punctuation out, 'Wi-Fi' == 'wifi'."""
    text = text.lower().replace("wi-fi", "wifi").replace("wlan", "wifi")
    return re.sub(r"[^\w\s]", "", text).strip()


def _values(text: str) -> list[str]:
    quoted = _QUOTED.findall(text)
    if quoted:
        return [q.strip() for q in quoted]
    values: list[str] = []
    for m in _NUMBER.finditer(text):
        values.append(re.sub(r"[\s-]", "", m.group(0)))
    for m in _NAME.finditer(text):
        word = m.group(1)
        if m.start() == 0:   # the capital of the sentence's first word means nothing
            word = word.partition(" ")[2]
        if word and norm(word) not in _STOP:
            values.append(word)
    return _ordered(text, values)


def _ordered(text: str, values: list[str]) -> list[str]:
    def position(v: str) -> int:
        pos = text.find(v)
        if pos < 0:
            digits = re.sub(r"\D", "", v)
            pos = re.sub(r"[\s-]", "", text).find(digits)
        return pos

    unique = list(dict.fromkeys(values))
    return sorted(unique, key=position)


def _level(text: str) -> float | None:
    m = _PERCENT.search(text)
    if m:
        return min(100, int(m.group(1))) / 100
    for word, level in _LEVELS.items():
        if re.search(rf"\b{word}\b", text, re.I):
            return level
    return None


def parse_task(text: str) -> TaskIntent:
    """Read a command: on/off, values to type, a slider level, open-only."""
    on, off = bool(_ON.search(text)), bool(_OFF.search(text))
    switch_to = True if on and not off else False if off and not on else None
    return TaskIntent(text=text, switch_to=switch_to, values=tuple(_values(text)),
                      level=_level(text), open_only=bool(_OPEN.search(text)))
