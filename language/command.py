"""A command as data: its act, target, values, app, level, time, days, position and
parts, read once from the words a person typed and written back in the words apps
show (``canonical``), which every planner reads.

    >>> c = parse_command("put the phone into flight mode")
    >>> (c.act, c.target, c.canonical)
    ('turn_on', 'airplane mode', 'Turn on airplane mode')
    >>> parse_command("把亮度调到最大").canonical
    'Set the brightness to 100%'
    >>> parse_command("turn it off").question
    'What should I turn off? Name the setting or the app.'
"""

from __future__ import annotations

import difflib
import functools
import re
import unicodedata
from dataclasses import dataclass, field

from screenpilot.language import lexicon, times
from screenpilot.language.apps import ALIASES, APPS
from screenpilot.language.lexicon import Concept

ON, OFF = "turn_on", "turn_off"

_CJK = re.compile(r"[\u3400-\u9fff]")
_QUOTED = re.compile(r"[\"“‘「『]([^\"”’」』]+)[\"”’」』]|(?<![\w])'([^']+)'(?![\w])")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_PHONE = re.compile(r"\+?\d[\d\- ]{5,}\d")
_PROTECT = "\ue000{}\ue001"
_SLOT = re.compile("\ue000(\\d+)\ue001")

#: Verbs of messaging (then what follows a colon, "saying", "that" is the message body).
_MESSAGING = re.compile(
    r"\b(text|message|messages|sms|tell|ask|send|reply|respond|answer|"
    r"chat|write|shoot)\b|短信|信息|消息|告诉|回复|发",
    re.I,
)
_BODY = re.compile(
    r"(?:\s*[:：]\s*|\s+saying\s+|\s+asking\s+|\s+that\s+(?=i\b|we\b|you\b|"
    r"i'm\b|the\b|it\b)|说(?!明[^天])|\s+with\s*[:：]\s*)",
    re.I,
)
#: What names an alarm's label ("label it X", "called X", "named X").
_LABEL = re.compile(
    r"(?:,\s*)?\b(?:label(?:l?ed)?(?: it)?(?: as)?|call(?:ed)?(?= [A-Z\"'“])|"
    r"name(?:d)?(?: it)?|titled|标签)\s*[:：]?\s*",
    re.I,
)

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
_PRONOUN_ONLY = re.compile(
    r"^\s*(?:please\s+)?(?:turn|switch|shut|put|set|make|delete|remove|"
    r"open|close|change|do|start|stop)\s+(?:it|that|this|them|those|"
    r"the thing|everything)\s*(?:on|off|up|down|again)?\s*[.!?]?\s*$",
    re.I,
)

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
_RECENT = re.compile(
    r"\b(?:most recent|latest|newest|last (?:message|text|sms|one)|"
    r"who(?:ever)? (?:last )?(?:texted|messaged|wrote)(?: me)?(?: last)?|"
    r"top conversation|first conversation)\b",
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


@dataclass(frozen=True, slots=True)
class Command:
    """What a command asks for. ``canonical`` is the command in the words apps show;
    ``question`` is set when it cannot be acted on without guessing."""

    text: str
    canonical: str
    act: str = ""
    target: str = ""
    kind: str = ""  # the target's kind: switch, level, choice, page or ""
    app: str = ""
    level: float | None = None
    time: tuple[int, int] | None = None
    days: tuple[int, ...] = ()
    ordinal: int | None = None
    recipient: str = ""
    body: str = ""
    label: str = ""
    value: str = ""
    parts: tuple[Command, ...] = field(default=())
    question: str = ""
    language: str = "en"

    @property
    def switch_to(self) -> bool | None:
        return True if self.act == ON else False if self.act == OFF else None

    def summary(self) -> str:
        """One line for a prompt: what was understood."""
        if self.parts:
            return " ; then ".join(p.summary() for p in self.parts)
        bits = [f"act={self.act or '?'}"]
        for name in ("target", "app", "recipient", "body", "label", "value"):
            v = getattr(self, name)
            if v:
                bits.append(f"{name}={v!r}")
        if self.level is not None:
            bits.append(f"level={round(self.level * 100)}%")
        if self.time is not None:
            bits.append(f"time={self.time[0]:02d}:{self.time[1]:02d}")
        if self.days:
            bits.append(f"days={times.write_days(self.days)}")
        if self.ordinal is not None:
            bits.append(f"position={self.ordinal}")
        return ", ".join(bits)


def _protect(text: str, spans: list[str]) -> str:
    def keep(m: re.Match[str]) -> str:
        spans.append(m.group(0))
        return _PROTECT.format(len(spans) - 1)

    text = _QUOTED.sub(keep, text)
    return _EMAIL.sub(keep, text)


def _restore(text: str, spans: list[str]) -> str:
    return _SLOT.sub(lambda m: spans[int(m.group(1))], text)


def _fix_typos(text: str) -> str:
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


def _concept_in(text: str) -> list[tuple[int, Concept, bool]]:
    """Settings named in ``text``: (position, concept, inverse?) in the order named; a
    concept is named by one of its names or, failing that, by its key groups."""
    low = " " + text.lower() + " "
    found: list[tuple[int, Concept, bool]] = []
    taken: list[tuple[int, int]] = []
    names = [(n, c, False) for c in lexicon.concepts() for n in (c.name, *c.en)]
    names += [(n, c, True) for c in lexicon.concepts() for n in c.inverse]
    for name, c, inverse in sorted(names, key=lambda t: -len(t[0])):
        for m in re.finditer(rf"(?<![\w-]){re.escape(name.lower())}(?![\w])", low):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            if any(fc is c for _, fc, _ in found):
                continue
            taken.append((m.start(), m.end()))
            found.append((m.start(), c, inverse))
    for c in lexicon.concepts():
        if (
            c.keys
            and not any(fc is c for _, fc, _ in found)
            and all(any(k in low for k in group) for group in c.keys)
        ):
            pos = min(low.find(k) for group in c.keys for k in group if k in low)
            found.append((pos, c, False))
    return sorted(found, key=lambda t: t[0])


def _switch_act(text: str) -> str:
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


def _level(text: str, concept: Concept | None) -> float | None:
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


def _ordinal(text: str) -> int | None:
    m = _ORDINAL.search(text)
    if not m:
        return None
    if m.group(3):
        return times.zh_number(m.group(3))
    return _ORDINALS[m.group(1).lower()]


_PARTS = re.compile(
    r"\s*(?:,?\s*(?:and )?then\b|,?\s*after that\b|;|，然后|然后|，再|,\s*再"
    r"|再(?=\s*turn))"
    r"\s*",
    re.I,
)
_BUT = re.compile(r"\s*,?\s*\bbut\b\s*", re.I)
_FIRST = re.compile(r"^\s*first\b[, ]*", re.I)


def _split(text: str) -> list[str]:
    """'X, then Y' / 'first X and after that Y' / 'X but Y' (Y a part of its own when it
    names a setting too) -> the parts."""
    parts = [p for p in _PARTS.split(_FIRST.sub("", text)) if p and p.strip(" ,.")]
    if len(parts) > 1:
        return parts
    parts = [p for p in _BUT.split(text) if p and p.strip(" ,.")]
    if len(parts) == 2 and re.match(r"\s*(?:not|leave|keep|don'?t touch)\b", parts[1], re.I):
        return [parts[0]]  # "X but not Y", "X but keep the rest": Y stays as it is
    if len(parts) == 2 and _concept_in(parts[0]) and _concept_in(parts[1]):
        return parts
    return [text]


def _clean(text: str) -> str:
    text = re.sub(r"\s+([,.!?])", r"\1", text)
    text = re.sub(r"[ \t]+", " ", text)
    return text.strip(" ,")


def _settings_part(text: str, spans: list[str]) -> Command | None:
    """A part that names a setting: its act and canonical words, else None."""
    found = _concept_in(text)
    if not found:
        low = text.lower()
        for c in lexicon.concepts():  # "as bright as possible", "dim the screen"
            if c.kind == "level" and any(re.search(rf"\b{w}\b", low) for w in (*c.up, *c.down)):
                found = [(0, c, False)]
                break
    if not found:
        return None
    if re.search(r"\balarm\b(?! volume)|\btimer\b|\bstopwatch\b", text, re.I) and not any(
        c.name in ("alarm volume", "24-hour format") for _, c, _ in found
    ):
        return None  # "turn off the alarm at 6:30": the alarm, not a setting
    concept, inverse = found[0][1], found[0][2]
    if concept.kind == "level":
        level = _level(text, concept)
        if level is None:
            low = text.lower()
            up = any(re.search(rf"\b{u}\b", low) for u in concept.up)
            down = any(re.search(rf"\b{d}\b", low) for d in concept.down)
            level = 1.0 if up and not down else 0.0 if down and not up else None
        if level is None:
            return Command(
                text,
                _restore(text, spans),
                act="set",
                target=concept.name,
                kind="level",
                app="settings",
            )
        return Command(
            text,
            f"Set the {concept.name} to {round(level * 100)}%",
            act="set",
            target=concept.name,
            kind="level",
            level=level,
            app="settings",
        )
    # a level word named without a level concept ("as bright as possible")
    if concept.kind == "choice":
        duration = times.parse_duration(text)
        value = (
            f"{duration[0]} {duration[1] if duration[0] != 1 else duration[1][:-1]}"
            if duration
            else ""
        )
        canonical = f"Set the {concept.name} to {value}" if value else f"Open {concept.name}"
        return Command(
            text,
            canonical,
            act="set",
            target=concept.name,
            kind="choice",
            value=value,
            app="settings",
        )
    if concept.kind == "page":
        return Command(
            text,
            f"Check the {concept.name}",
            act="open",
            target=concept.name,
            kind="page",
            app="settings",
        )
    others = [(p, c, inv) for p, c, inv in found[1:] if c.kind == "switch"]
    if concept.kind == "switch" and others and re.search(r"\band\b|\bwith\b|&|,", text, re.I):
        # "turn off both wifi and bluetooth", "switch bluetooth on and wifi off": each
        # setting with the act said beside it, else the act said for all
        cuts = [p for p, _, _ in others]
        pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
        overall = _switch_act(text) or ON
        parts = []
        for piece, (_, c, inv) in zip(pieces, [found[0], *others], strict=True):
            act = _switch_act(piece) or overall
            if inv:
                act = OFF if act == ON else ON
            parts.append(
                Command(
                    piece,
                    f"Turn {'on' if act == ON else 'off'} {c.name}",
                    act=act,
                    target=c.name,
                    kind="switch",
                    app="settings",
                )
            )
        joined = ", then ".join(
            p.canonical if i == 0 else "t" + p.canonical[1:] for i, p in enumerate(parts)
        )
        return Command(
            text,
            joined,
            act=parts[0].act,
            target=concept.name,
            kind="switch",
            app="settings",
            parts=tuple(parts),
        )
    act = _switch_act(text)
    if not act:
        verb = re.match(r"^\s*(\w+)", text)
        looking = bool(verb) and verb.group(1).lower() in _LOOK_VERBS if verb else False
        act = "open" if looking and not re.search(r"\bback to\b|\bto the\b", text, re.I) else ON
    if act == "open":
        return Command(
            text,
            f"Open {concept.name}",
            act="open",
            target=concept.name,
            kind="switch",
            app="settings",
        )
    if inverse:
        act = OFF if act == ON else ON
    word = "on" if act == ON else "off"
    return Command(
        text,
        f"Turn {word} {concept.name}",
        act=act,
        target=concept.name,
        kind="switch",
        app="settings",
    )


#: First words of commands that ask to look at something, not to change it.
_LOOK_VERBS = frozenset(
    {
        "open",
        "go",
        "check",
        "find",
        "where",
        "what",
        "how",
        "see",
        "view",
        "look",
        "which",
        "is",
        "are",
    }
)

_ALARM_WORDS = re.compile(r"\balarm\b|\bwake me\b|\bclock\b(?= every)|\bcreate alarm\b", re.I)


def _alarm_part(text: str, spans: list[str], label: str) -> Command | None:
    if not _ALARM_WORDS.search(text) or re.search(r"\balarm (?:volume|sound)\b", text, re.I):
        return None
    hm = times.parse_clock(text)
    days = times.parse_days(text)
    low = text.lower()
    if re.search(r"\b(?:delete|remove)\b", low):
        act = "delete"
    else:
        act = _switch_act(re.sub(r"\bturn on\b(?=.*\bset to\b)", "", text))
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
            return Command(text, _restore(text, spans), act=act, target="alarm", app="clock")
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


_NAME = re.compile(r"\b([A-Z][a-z]+(?:\s+[A-Z][a-z]+)*)\b")


def _recipient(text: str) -> str:
    m = _PHONE.search(text)
    if m:
        return m.group(0).strip()
    for m2 in _NAME.finditer(text):
        name = m2.group(1)
        words = [w for w in name.split() if w.lower() not in _MSG_WORDS]
        if words:
            return " ".join(words)
    return ""


_MSG_WORDS = {
    "call",
    "phone",
    "ring",
    "dial",
    "text",
    "message",
    "messages",
    "tell",
    "ask",
    "send",
    "shoot",
    "sms",
    "new",
    "chat",
    "start",
    "reply",
    "answer",
    "respond",
    "write",
    "a",
    "the",
    "i",
    "hi",
}


def _message_part(text: str, spans: list[str], body: str) -> Command | None:
    low = text.lower()
    if not body:
        return None
    recent = bool(_RECENT.search(text)) or bool(re.search(r"\bmost recent\b", low))
    if re.search(r"\b(?:reply|respond|answer)\b", low) and (recent or not _recipient(text)):
        return Command(
            text,
            f"Reply to the most recent text message with '{body}'",
            act="reply",
            target="message",
            app="messages",
            body=body,
            ordinal=1,
        )
    who = _recipient(_restore(text, spans).replace(body, " "))
    if not who:
        return None
    return Command(
        text,
        f"Send a text message to {who} saying '{body}'",
        act="send",
        target="message",
        app="messages",
        recipient=who,
        body=body,
    )


def _clock_tool(text: str) -> Command | None:
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


def _other_part(text: str) -> Command:
    """Commands of apps, not settings: the rewritten words, the act in front."""
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
        r"i'?m|i have|i wear|i downloaded|someone|where'?s|where is)\b",
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
        who = _recipient(text)
        if who and not _PHONE.fullmatch(who):
            canonical, act = f"Call {who}", "call"
    m = re.match(r"^\s*(\w+)", canonical)
    act = act or (m.group(1).lower() if m else "")
    return Command(text, _clean(canonical), act=act)


def _app_of(text: str) -> str:
    low = text.lower()
    for name in sorted(APPS, key=len, reverse=True):
        if name.isascii() and re.search(rf"\b{re.escape(name)}\b", low):
            return name
    for alias, app in ALIASES.items():
        if re.search(rf"\b{re.escape(alias)}\b", low):
            return app
    return ""


def _part(text: str, spans: list[str], body: str, label: str) -> Command:
    for got in (
        _alarm_part(text, spans, label),
        _message_part(text, spans, body),
        _clock_tool(text),
        _settings_part(text, spans),
    ):
        if got is not None:
            return got
    return _other_part(_restore(text, spans))


@functools.lru_cache(maxsize=512)
def parse_command(text: str) -> Command:
    """Read a command (English or Chinese) once: what it asks for and its canonical words."""
    original = text
    language = "zh" if _CJK.search(text) else "en"
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
    label = ""
    messaging = bool(_MESSAGING.search(text)) and not re.search(
        r"\balarm\b|闹钟|^\s*(?:search|find|look|open|show|read|delete|remove|mark|clear)\b|搜索|查找|删除",
        text,
        re.I,
    )
    if messaging:
        m = _BODY.search(text)
        quoted = _QUOTED.search(text)
        if quoted:
            body = quoted.group(1) or quoted.group(2)
        elif m:
            body = text[m.end() :].strip().rstrip(".")
            if body:
                text = text[: m.start()] + " " + _PROTECT.format(len(spans))
                spans.append(body)
    if re.search(r"\balarm\b|闹钟|\bclock\b|叫我|\bwake\b", text, re.I):
        quoted = _QUOTED.search(text)
        m = _LABEL.search(text)
        if quoted:
            label = quoted.group(1) or quoted.group(2)
        elif m:
            label = re.split(r"\s*[,，;]\s*", text[m.end() :].strip())[0].strip(" .\"'")
            if label:
                text = (
                    text[: m.start()]
                    + " "
                    + _PROTECT.format(len(spans))
                    + text[m.end() + len(label) :]
                )
                spans.append(label)
    if messaging and not body and language == "zh":
        # "告诉 Bob Lee 明天见": the message is what follows the recipient
        who = _PHONE.search(text) or re.search(r"[A-Za-z][A-Za-z .'-]*[A-Za-z]", text)
        after = text[who.end() :].strip(" ，,:：说") if who else ""
        if after and _CJK.search(after):
            body = after
            text = text[: who.end()] + " " + _PROTECT.format(len(spans)) if who else text
            spans.append(body)
    text = _protect(text, spans)
    text = times.normalise_times(text)
    if language == "zh":
        text = lexicon.rewrite_zh(text)
        text = times.normalise_times(text)
    text = _fix_typos(text)
    text = lexicon.rewrite_en(text)
    text = times.spelled_numbers(text)
    text = re.sub(r"\s+", " ", text).strip()
    pieces = _split(text)
    parts = tuple(_part(p, spans, body, label) for p in pieces)
    if len(parts) == 1:
        one = parts[0]
    else:
        flat = tuple(q for p in parts for q in (p.parts or (p,)))
        joined = ", then ".join(
            p.canonical[:1].lower() + p.canonical[1:]
            if i and p.canonical[:2] != "I "
            else p.canonical
            for i, p in enumerate(flat)
        )
        one = Command(
            text,
            joined,
            act=flat[0].act,
            target=flat[0].target,
            kind=flat[0].kind,
            app=flat[0].app,
            parts=flat,
        )
    canonical = _restore(one.canonical, spans)
    canonical = _clean(canonical)
    if canonical:
        canonical = (
            canonical[0].upper() + canonical[1:]
            if canonical[0].islower() and canonical[:2].lower() != "i "
            else canonical
        )
    app = one.app or _app_of(canonical)
    ordinal = one.ordinal if one.ordinal is not None else _ordinal(text)
    level = one.level
    if level is None and one.kind == "level":
        level = _level(text, None)
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
