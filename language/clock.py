"""Parts of a command for the Clock app: an alarm (its time, days and label; created,
turned on or off, deleted), a timer of a duration, the stopwatch."""

from __future__ import annotations

import re

from screenpilot.language import times
from screenpilot.language.acts import switch_act
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
    """A timer of a duration, the stopwatch started."""
    low = text.lower()
    if re.search(r"\btimer\b", low):
        duration = times.parse_duration(text)
        if (
            duration
            and re.search(r"\b(?:start|set|run|go|begin|make|create|add|new|timer)\b", low)
            and not re.search(r"\b(?:stop|pause|cancel|delete)\b", low)
        ):
            n, unit = duration
            return Command(
                text,
                f"Start a {n} {unit[:-1]} timer",
                act="start",
                target="timer",
                app="clock",
                value=f"{n} {unit}",
            )
    if re.search(r"\bstopwatch\b", low) and not re.search(r"\b(?:stop|pause|reset)\b", low):
        return Command(
            text, "Start the stopwatch in clock", act="start", target="stopwatch", app="clock"
        )
    return None
