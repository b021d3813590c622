"""A command as data: its act, target, values, app, level, time, days, position and
parts, read once from the words a person typed and written back in the words apps
show (``canonical``), which every planner reads. This is the reader that assembles the
``Command``; each phenomenon is read in a module of its own (``spans``, ``typos``,
``acts``, ``levels``, ``positions``, ``parts``, ``settings``, ``clock``, ``messages``,
``freeform``).

    >>> c = parse_command("put the phone into flight mode")
    >>> (c.act, c.target, c.canonical)
    ('turn_on', 'airplane mode', 'Turn on airplane mode')
    >>> parse_command("把亮度调到最大").canonical
    'Set the brightness to 100%'
    >>> parse_command("turn it off").question
    'What should I turn off? Name the setting or the app.'
"""

from __future__ import annotations

import functools
import re
import unicodedata

from screenpilot.language import lexicon, times
from screenpilot.language.clock import alarm_part, clock_tool, take_label
from screenpilot.language.freeform import app_of, other_part
from screenpilot.language.levels import level_of
from screenpilot.language.messages import (
    is_messaging,
    message_part,
    take_body,
    take_chinese_body,
)
from screenpilot.language.parts import joined, split_parts
from screenpilot.language.positions import ordinal_of
from screenpilot.language.pronouns import resolve
from screenpilot.language.questions import as_open
from screenpilot.language.record import OFF, ON, Command, language_of
from screenpilot.language.settings import settings_part
from screenpilot.language.spans import clean, protect, restore
from screenpilot.language.typos import fix_typos

__all__ = ["OFF", "ON", "Command", "parse_command"]

_PRONOUN_ONLY = re.compile(
    r"^\s*(?:please\s+)?(?:turn|switch|shut|put|set|make|delete|remove|"
    r"open|close|change|do|start|stop)\s+(?:it|that|this|them|those|"
    r"the thing|everything)\s*(?:on|off|up|down|again)?\s*[.!?]?\s*$",
    re.I,
)

_STOPWORDS = {
    "the",
    "a",
    "an",
    "my",
    "to",
    "of",
    "on",
    "off",
    "in",
    "it",
    "is",
    "me",
    "for",
    "and",
    "with",
    "please",
    "i",
    "want",
    "need",
    "would",
    "like",
    "can",
    "you",
    "could",
    "turn",
    "set",
    "make",
    "phone",
    "screen",
    "mode",
    "at",
    "all",
    "way",
}


def _part(text: str, spans: list[str], body: str, label: str) -> Command:
    for got in (
        alarm_part(text, spans, label),
        message_part(text, spans, body),
        clock_tool(text),
        settings_part(text, spans),
    ):
        if got is not None:
            return got
    return other_part(restore(text, spans))


@functools.lru_cache(maxsize=512)
def parse_command(text: str) -> Command:
    """Read a command (English or Chinese) once: what it asks for and its canonical words."""
    original = text
    language = language_of(text)
    if _PRONOUN_ONLY.match(text):
        verb = re.match(r"^\s*(?:please\s+)?(\w+)", text)
        what = verb.group(1).lower() if verb else "do"
        rest = re.search(r"\b(on|off|up|down)\s*[.!?]?\s*$", text, re.I)
        what = f"{what} {rest.group(1).lower()}" if rest else what
        return Command(
            original,
            original,
            act="ask",
            question=f"What should I {what}? Name the setting or the app.",
            language=language,
        )
    text = unicodedata.normalize("NFKC", text)
    spans: list[str] = []
    body = ""
    messaging = is_messaging(text)
    if messaging:
        text, body = take_body(text, spans)
    text, label = take_label(text, spans)
    if messaging and not body and language == "zh":
        text, body = take_chinese_body(text, spans)
    text = protect(text, spans)
    text = times.normalise_times(text)
    if language == "zh":
        text = lexicon.rewrite_zh(text)
        text = times.normalise_times(text)
    text = fix_typos(text)
    text = lexicon.rewrite_en(text)
    text = times.spelled_numbers(text)
    text = re.sub(r"\s+", " ", text).strip()
    text = resolve(as_open(text))
    pieces = split_parts(text)
    parts = tuple(_part(p, spans, body, label) for p in pieces)
    one = parts[0] if len(parts) == 1 else joined(text, parts)
    canonical = restore(one.canonical, spans)
    canonical = clean(canonical)
    if canonical:
        canonical = (
            canonical[0].upper() + canonical[1:]
            if canonical[0].islower() and canonical[:2].lower() != "i "
            else canonical
        )
    app = one.app or app_of(canonical)
    ordinal = one.ordinal if one.ordinal is not None else ordinal_of(text)
    level = one.level
    if level is None and one.kind == "level":
        level = level_of(text, None)
    time = (
        one.time
        if one.time is not None
        else (times.parse_clock(text) if one.target == "alarm" else None)
    )
    question = ""
    if not canonical.strip() or (not one.target and not _meaningful(canonical)):
        question = "What should I do? Name the setting or the app and what to change."
    return Command(
        original,
        canonical,
        act=one.act,
        target=one.target,
        kind=one.kind,
        app=app,
        level=level,
        time=time,
        days=one.days,
        ordinal=ordinal,
        recipient=one.recipient,
        body=one.body or body,
        label=one.label or label,
        value=one.value,
        parts=one.parts,
        question=question,
        language=language,
    )


def _meaningful(text: str) -> bool:
    """Whether a command has any word beyond verbs, pronouns and politeness."""
    words = [
        w
        for w in re.findall(r"[\w%@.+-]+", text.lower())
        if w not in _STOPWORDS
        and w not in {"it", "that", "this", "them", "do", "something", "thing"}
    ]
    return bool(words)
