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

from screenpilot.language import parse_command
from screenpilot.language.apps import app_names
from screenpilot.language.quantity import count_of

_ON = re.compile(
    r"\b(turn|switch|toggle|put)\s+(\w+\s+){0,3}on\b|\b(enable|activate|start)\b"
    r"|^\s*(show|use)\b"
    r"|\bon\s*$|打开|开启|启用",
    re.I,
)
_OFF = re.compile(
    r"\b(turn|switch|toggle|put)\s+(\w+\s+){0,3}off\b|\b(disable|deactivate|stop)\b"
    r"|^\s*hide\b"
    r"|\boff\s*$|关闭|停用",
    re.I,
)
#: "Turn my phone to Dark theme": a mode's name (capitalised) after "to" turns it on.
_TO_MODE = re.compile(
    r"\b(?:[Tt]urn|[Ss]witch|[Cc]hange|[Pp]ut)\s+(?:\w+\s+){0,3}(?:to|into)\s+"
    r"(?:the\s+)?[A-Z][a-z]"
)
_OPEN = re.compile(
    r"^\s*(?:(?:please|can you|could you)\s+)?(open|go to|navigate to|launch|"
    r"show( me)?|view|check|see|find|look up|what is|what's|what are|where is|"
    r"how much|打开|进入|查看)\b",
    re.I,
)
#: The verb a command starts with ("sign out", "call", "delete"), after please / can you.
_VERB = re.compile(
    r"^\s*(?:(?:please|can you|could you|help me|i want to|i need to)\s+)?"
    r"(sign out|log out|mark all|add to cart|[a-z]+)\b",
    re.I,
)
_QUOTED = re.compile(r"[\"“'‘]([^\"”'’]+)[\"”'’]")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
#: A search verb right before a quoted text: "look for 'tickets'", "search for 'x'".
_SEARCH_BEFORE = re.compile(
    r"\b(?P<verb>search(?:\s+for)?|look\s+(?:(?:in\s+)?(?:my|the)\s+\w+\s+)?for|look\s+up|find)"
    r"\s*$",
    re.I,
)
_NUMBER = re.compile(r"(?<![\w:])\+?\d[\d\- ]{2,}\d(?![\w:])")
_CLOCK = re.compile(
    r"\b(\d{1,2}):(\d{2})(?=\s*(?:am|pm|a\.m\.|p\.m\.)|\b)"
    r"|\b(\d{1,2})(?=\s*(?:am|pm|a\.m\.|p\.m\.))",
    re.I,
)
#: "search (my contacts) (for) X (in the Shop app)", "find X", "look for X", "look up X":
#: X is what to type into a search field; it ends at the clause's end ("and open it").
_SEARCH = re.compile(
    r"\b(?P<verb>search(?:\s+(?:in\s+)?(?:(?:my|the)\s+)?[\w-]+(?=\s+for\b))?(?:\s+for)?"
    r"|look\s+(?:(?:in\s+)?(?:my|the)\s+\w+\s+)?for|look\s+up|find)\s+(?P<q>.+?)"
    r"(?:\s+(?:in|on|from)\s+(?:the\s+|my\s+)?\w+(?:\s+app)?)?"
    r"(?=\s*(?:[.!?,;]|\band\b|\bthen\b|$))",
    re.I,
)
#: "the message about X", "contacts named X": X is the query.
_ABOUT = re.compile(
    r"^(?:(?:the|a|an|my|any|some)\s+)?(?:\w+\s+){0,2}?"
    r"(?:about|named|called|mentioning|containing|titled|with the words?)\s+(.+)$",
    re.I,
)
#: "find the store", "find my phone": a definite thing to open, not words to search.
_DEFINITE = re.compile(r"^(?:the|my|our|your|this|that)\b", re.I)
#: "a yoga mat", "some socks": the query without its article.
_ARTICLE = re.compile(r"^(?:a|an|some|any)\s+", re.I)
#: Punctuation around a value that belongs to the sentence ("John, 12345678.").
_LIST_MARKS = re.compile(r"^[\s,;:]+|[\s,;:]+$")
#: "a.m.", "e.g.": a trailing period that belongs to the word.
_ABBREVIATION = re.compile(r"(?:^|\s)(?:\w\.){2,}$")
#: The body of a message after "saying", "message:" or a colon ("发短信：明天见").
_BODY = re.compile(r"(?:\bsaying|\bmessage\s*:|:|：)\s*(.+?)\s*$", re.I)
#: "in the Shop app", "in Messages", "using Clock": where, not what to type.
_WHERE = re.compile(r"\b(?:in|using)\s+(?:the\s+|my\s+)?([A-Z]\w+)(?:\s+app)?\b")
_PERCENT = re.compile(r"(\d{1,3})\s*%")
_LEVELS = {
    "max": 1.0,
    "maximum": 1.0,
    "full": 1.0,
    "highest": 1.0,
    "min": 0.0,
    "minimum": 0.0,
    "lowest": 0.0,
    "half": 0.5,
    "middle": 0.5,
}
#: Words that say nothing about where to go.
_STOP = {
    "the",
    "a",
    "an",
    "to",
    "in",
    "into",
    "on",
    "off",
    "and",
    "with",
    "for",
    "of",
    "my",
    "named",
    "called",
    "as",
    "new",
    "please",
    "at",
    "from",
    "is",
    "be",
    "their",
    "his",
    "her",
    "it",
    "this",
    "that",
    "settings",
    "setting",
    "app",
    "open",
    "go",
    "show",
    "turn",
    "set",
    "can",
    "you",
    "could",
    "me",
    "i",
}
STOP_WORDS = frozenset(_STOP)
#: Capitalised words that are no values to type.
_NOT_NAMES = (
    _STOP
    | {
        "contact",
        "contacts",
        "number",
        "phone",
        "message",
        "save",
        "add",
        "create",
        "send",
        "alarm",
        "delete",
        "call",
        "search",
        "text",
        "wifi",
        "wi",
        "fi",
        "bluetooth",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "am",
        "pm",
    }
    | app_names()
)
#: Verbs of commands whose capitalised names are typed (a new contact's name).
_TYPING_VERBS = {
    "add",
    "create",
    "save",
    "new",
    "make",
    "type",
    "write",
    "enter",
    "rename",
    "name",
    "label",
    "register",
    "sign",
}
_NAMING = re.compile(r"\b(named|called|name is|name as|label(?:led)? it|titled)\b", re.I)
#: Verbs acting on a thing already there ("delete the thread from 650-555-0177"): a
#: phone number they name is found on the screen, never typed.
_FINDING_VERBS = frozenset(
    {"delete", "remove", "archive", "open", "read", "mute", "unmute", "pin", "unpin", "star"}
)
_PHONE = re.compile(r"\+?\d{5,}")
#: "add X to my cart": X is picked, not typed.
_ONTO = re.compile(r"\bto (?:my |the |your )?(cart|basket|favou?rites|playlist|wish ?list)\b", re.I)
#: Codes to type: capitals and digits together ("SAVE10").
_CODE = re.compile(r"\b(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{4,}\b")
_NAME = re.compile(r"\b([A-Z][a-z]+(?:\s+[A-Z][a-z]+)*)\b")


@dataclass(frozen=True, slots=True)
class TaskIntent:
    """The parts of a command the offline planner acts on."""

    text: str
    switch_to: bool | None
    values: tuple[str, ...]
    level: float | None
    open_only: bool
    verb: str = ""
    #: Names the command acts on but does not ask to type ("Call Bob Lee").
    targets: tuple[str, ...] = ()
    #: A position the command names ("the second product": 2, "the last one": -1).
    ordinal: int | None = None
    #: Values that are a search's words ("find yoga mats"): typed into search fields only.
    queries: tuple[str, ...] = ()
    #: How many of a thing a shop's command wants ("add 3 coffee mugs": 3) ...
    count: int | None = None
    #: ... and the words naming that thing ("coffee mugs"; "" when not named).
    counted: str = ""

    @property
    def where(self) -> str:
        """The command without the texts it asks to type ("... saying 'Are you free?'"):
        what to look for on the screen, so a message like the one to send is no match."""
        text = self.text
        for v in self.values:
            digits = v.lstrip("+").isdigit()
            if (len(v) > 3 and not digits) or (digits and len(v) >= 7):
                text = text.replace(v, " ")
        text = re.sub(r"\+?\d[\d\- ]{5,}\d", " ", text)  # phone numbers as written
        return " ".join(text.split())

    @property
    def parameters(self) -> tuple[str, ...]:
        """Everything the command names: values to type, then targets."""
        return self.values + self.targets

    @property
    def words(self) -> set[str]:
        return {w for w in norm(clock_words(self.text)).split() if w not in _STOP}


_TIME = re.compile(r"\b(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)|\b(\d{1,2}):(\d{2})\b", re.I)


def clock_words(text: str) -> str:
    """Times as one word each: '6:30AM', '6:30 AM' and '6:30' all read 't0630'."""

    def word(m: re.Match[str]) -> str:
        if m.group(3):
            hour = int(m.group(1)) % 12 + (12 if m.group(3).lower().startswith("p") else 0)
            return f" t{hour:02d}{m.group(2) or '00'} "
        return f" t{int(m.group(4)):02d}{m.group(5)} "

    return _TIME.sub(word, text)


def norm(text: str) -> str:
    """Lower-case, punctuation out, 'Wi-Fi' == 'wifi', 'more_vert' == 'more vert'."""
    text = text.lower().replace("wi-fi", "wifi").replace("wlan", "wifi").replace("_", " ")
    return re.sub(r"[^\w\s]", "", text).strip()


def _bare(value: str) -> str:
    """A value without the sentence's punctuation around it: commas, semicolons and
    colons at either end, a period at the end (not an abbreviation's, "p.m.")."""
    value = _LIST_MARKS.sub("", value)
    if value.endswith(".") and not _ABBREVIATION.search(value):
        value = value.rstrip(".").rstrip()
    return value


def _asks_search(verb: re.Match[str], search: bool) -> bool:
    """Whether a search verb (the match's ``verb`` group) asks to search: "search" always,
    "find" / "look for" only when ``search`` (the command names no setting)."""
    return search or verb["verb"].lower().startswith("search")


def _values(
    text: str, search: bool = True, queries: set[str] | None = None
) -> list[tuple[str, bool]]:
    """Quoted texts, emails, clock times (hour, minute), numbers, codes, (when nothing
    is quoted) a search's query or a message's body, and capitalised names outside
    quotes, in the order the command gives them; each with whether it is such a name.
    ``search``: whether "find X" / "look up X" asks to search (no setting is named);
    ``queries`` gets the values that are a search's words (typed into search fields)."""
    found: list[tuple[int, str]] = []
    names: set[str] = set()

    def take(pattern: re.Pattern[str], rest: str) -> str:
        for m in pattern.finditer(rest):
            if pattern is _CLOCK:
                found.extend(
                    [(m.start(), m.group(1) or m.group(3)), (m.start() + 1, m.group(2) or "00")]
                )
            elif pattern is _NUMBER:
                found.append((m.start(), re.sub(r"[\s-]", "", m.group(0))))
            else:
                value = (m.group(1) if m.groups() else m.group(0)).strip()
                found.append((m.start(), value))
                verb = _SEARCH_BEFORE.search(text[: m.start()]) if pattern is _QUOTED else None
                if verb and _asks_search(verb, search) and queries is not None and value:
                    queries.add(value)  # "look for 'tickets'": a search's words
        return pattern.sub(lambda m: " " * len(m.group(0)), rest)

    rest = text
    for pattern in (_QUOTED, _EMAIL, _CLOCK, _NUMBER, _CODE):
        rest = take(pattern, rest)
    if not _QUOTED.search(text):
        for pattern in (_SEARCH, _BODY):
            m = pattern.search(rest)
            if m is None:
                continue
            group = "q" if pattern is _SEARCH else 1
            if pattern is _SEARCH and not _asks_search(m, search):
                continue  # "find the Android version": a setting's page, not a query
            value = m.group(group).strip()
            if pattern is _SEARCH:
                about = _ABOUT.match(value)
                if not about and _DEFINITE.match(value) and m.group("verb").lower() == "find":
                    continue  # "find the store nearest to me": a thing to open, no query
                value = _ARTICLE.sub("", about.group(1) if about else value)
            value = _bare(value)
            if value:
                found.append((m.start(group), value))
                if pattern is _SEARCH and queries is not None:
                    queries.add(value)
                start, end = m.start(group), m.end(group)
                rest = rest[:start] + " " * (end - start) + rest[end:]
    rest = _WHERE.sub(lambda m: " " * len(m.group(0)), rest)
    for m in _NAME.finditer(rest):
        word, start = m.group(1), m.start()
        before = rest[:start].rstrip()
        if not before or before[-1] in ".!?":  # a sentence's first capital means nothing
            word = word.partition(" ")[2]
            start += len(m.group(1)) - len(word)
        if word and norm(word) not in _NOT_NAMES:
            found.append((start, word))
            names.add(word)
    ordered = dict.fromkeys(v for _, v in sorted(found, key=lambda p: p[0]))
    return [(v, v in names) for v in ordered]


def _level(text: str) -> float | None:
    m = _PERCENT.search(text)
    if m:
        return min(100, int(m.group(1))) / 100
    for word, level in _LEVELS.items():
        if re.search(rf"\b{word}\b", text, re.I):
            return level
    return None


def parse_task(text: str) -> TaskIntent:
    """Read a command: on/off, values to type, a slider level, open-only. The command is
    first read by the command language (``screenpilot.language``): its canonical words
    are what the rest reads."""
    command = parse_command(text)
    text = command.canonical
    on, off = bool(_ON.search(text) or _TO_MODE.search(text)), bool(_OFF.search(text))
    switch_to = True if on and not off else False if off and not on else None
    m = _VERB.match(text)
    verb = m.group(1).lower() if m else ""
    # a name is typed only when the command creates or writes something with it
    typing = (verb in _TYPING_VERBS and not _ONTO.search(text)) or bool(_NAMING.search(text))
    queries: set[str] = set()
    found = _values(text, search=not command.kind, queries=queries)
    values = tuple(v for v, name in found if typing or not name)
    targets = tuple(v for v, name in found if name and not typing)
    if verb in _FINDING_VERBS and not typing:
        phones = tuple(v for v in values if _PHONE.fullmatch(v))
        values = tuple(v for v in values if v not in phones)
        targets = phones + targets
    level = command.level if command.level is not None else _level(text)
    count = count_of(text) or count_of(command.text)
    return TaskIntent(
        text=text,
        switch_to=switch_to,
        values=values,
        level=level,
        open_only=bool(_OPEN.search(text)),
        verb=verb,
        targets=targets,
        ordinal=command.ordinal,
        queries=tuple(v for v in values if v in queries),
        count=count.number if count else None,
        counted=count.item if count else "",
    )
