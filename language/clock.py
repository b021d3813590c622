"""Parts of a command for the Clock app: an alarm (its time, days and label; created,
turned on or off, deleted), a timer of a duration, the stopwatch, a city added to the
world clock ("add the city X", "the time in X": a person's place name, capitalised)."""

from __future__ import annotations

import re

from screenpilot.language import times
from screenpilot.language.acts import switch_act
from screenpilot.language.apps import is_app
from screenpilot.language.record import OFF, ON, Command
from screenpilot.language.spans import restore, take_after

#: What names an alarm's label ("label it X", "called X", "named X").
_LABEL = re.compile(
    r"(?:,\s*)?\b(?:label(?:l?ed)?(?: it)?(?: as)?|call(?:ed)?(?= [A-Z\"'“])|"
    r"name(?:d)?(?: it)?|titled|标签)\s*[:：]?\s*",
    re.I,
)

_CLOCK_WORDS = re.compile(r"\balarm\b|闹钟|\bclock\b|叫我|\bwake\b", re.I)


def take_label(text: str, spans: list[str]) -> tuple[str, str]:
    """An alarm's label (quoted, or after "label it", "called", "named"): ``text`` with an
    unquoted label held as a slot, and the label ("" when none is said)."""
    if not _CLOCK_WORDS.search(text):
        return text, ""
    return take_after(text, spans, _LABEL, _label_words, keep_rest=True)


def _label_words(rest: str) -> str:
    """The label: the words after "label it" up to a comma or semicolon."""
    return re.split(r"\s*[,，;]\s*", rest.strip())[0].strip(" .\"'")


_ALARM_WORDS = re.compile(r"\balarm\b|\bwake me\b|\bclock\b(?= every)|\bcreate alarm\b", re.I)


def alarm_part(text: str, spans: list[str], label: str) -> Command | None:
    if not _ALARM_WORDS.search(text) or re.search(r"\balarm (?:volume|sound)\b", text, re.I):
        return None
    hm = times.parse_clock(text)
    days = times.parse_days(text)
    low = text.lower()
    if re.search(r"\b(?:delete|remove)\b", low):
        act = "delete"
    else:
        act = switch_act(re.sub(r"\bturn on\b(?=.*\bset to\b)", "", text))
        if (
            act
            and re.search(r"\b(?:set to|create|new|add|set)\b", low)
            and not re.search(r"\b(?:turn off|turn on|off|back on)\b", low)
        ):
            act = ""
        if act == ON and re.search(r"\bstart\b", low) and not re.search(r"\bturn on\b", low):
            act = ""
    if hm is None:
        if act:
            return Command(text, restore(text, spans), act=act, target="alarm", app="clock")
        return None
    clock = times.write_clock(hm, times.clock_half_given(text))
    if act in (ON, OFF):
        canonical = f"Turn {'on' if act == ON else 'off'} the alarm at {clock}"
    elif act == "delete":
        canonical = f"Delete the alarm at {clock}"
    else:
        act = "create"
        canonical = f"create alarm at {clock}"
        if days:
            canonical += f" on {times.write_days(days)}"
        if label:
            canonical += f' with the label "{label}"'
    return Command(
        text, canonical, act=act, target="alarm", app="clock", time=hm, days=days, label=label
    )


def clock_tool(text: str) -> Command | None:
    """A timer of a duration, the stopwatch started, a city added to the world clock."""
    low = text.lower()
    if re.search(r"\btimer\b", low):
        seconds = times.duration_seconds(text)
        if (
            seconds
            and re.search(r"\b(?:start|set|run|go|begin|make|create|add|new|timer)\b", low)
            and not re.search(r"\b(?:stop|pause|cancel|delete)\b", low)
        ):
            value = times.write_duration(seconds)
            n, _, unit = value.partition(" ")
            canonical = (
                f"Start a {n} {unit.removesuffix('s')} timer"
                if " " not in unit
                else f"Start a timer for {value}"
            )
            return Command(text, canonical, act="start", target="timer", app="clock", value=value)
    if re.search(r"\bstopwatch\b", low) and not re.search(r"\b(?:stop|pause|reset)\b", low):
        return Command(
            text, "Start the stopwatch in clock", act="start", target="stopwatch", app="clock"
        )
    return world_clock_part(text)


#: A place name: capitalised words ("Tokyo", "New York", "São Paulo", "Rio de Janeiro").
_PLACE = r"([A-Z][\w'’.-]+(?:\s+(?:(?:de|da|do|del|la|el)\s+)?[A-Z][\w'’.-]+){0,2})"
#: Where a command names a place whose time it wants (Android's world clock adds cities):
#: "the city X", "the time in X", "X time", "X in/to the world clock".
_CITY = (
    re.compile(rf"\b(?i:city)(?:\s+(?i:of))?\s+{_PLACE}"),
    re.compile(rf"\b(?i:time)\s+(?i:in|at)\s+{_PLACE}"),
    re.compile(
        rf"{_PLACE}\s+(?i:to|in|on|into)\s+(?:(?i:the|my)\s+)?(?i:world\s*clocks?|clocks)\b"
    ),
    re.compile(rf"(?<=\w )(?<!\bthe ){_PLACE}(?:'s)?\s+(?i:time)\b"),
)
#: Capitalised words before "time" that name no place ("Screen time", "Local time").
_NOT_PLACES = frozenset(
    {
        "screen",
        "local",
        "world",
        "current",
        "daylight",
        "standard",
        "summer",
        "winter",
        "bed",
        "sleep",
        "work",
        "home",
        "free",
        "real",
        "run",
        "prime",
        "the",
        "this",
        "that",
    }
)
_WORLD_WORDS = re.compile(r"\b(?:add|show|display|include|put|see|check|what)\b|\bclocks?\b", re.I)


def world_clock_part(text: str) -> Command | None:
    """A city added to the world clock: "add the city X", "the time in X", "add X time"."""
    if re.search(r"\b(?:alarm|timer|stopwatch|remove|delete)\b", text, re.I):
        return None
    if not _WORLD_WORDS.search(text):
        return None
    for pattern in _CITY:
        m = pattern.search(text)
        if m is None:
            continue
        city = m.group(1).strip(" .'’")
        while len(city.split()) > 1 and _WORLD_WORDS.fullmatch(city.split()[0]):
            city = city.split(maxsplit=1)[1]  # "Show Tokyo ...": the command's first word
        if city.split()[0].lower() in _NOT_PLACES or is_app(city):
            continue
        return Command(
            text,
            f"Add {city} to the world clock",
            act="add",
            target="world clock",
            app="clock",
            value=city,
        )
    return None
