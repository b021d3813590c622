"""Times, days, numbers and levels as people write them, in one written form each.

>>> normalise_times("wake me at quarter past seven in the morning")
'wake me at 7:15 am'
>>> normalise_times("明天早上七点叫我")
'明天 7:00 am 叫我'
>>> parse_clock("6:45 pm")
(18, 45)
"""

from __future__ import annotations

import re

#: English number words (a person writes "five minutes", "three mugs").
NUMBER_WORDS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "forty-five": 45,
    "fifty": 50,
    "sixty": 60,
    "ninety": 90,
    "a hundred": 100,
    "hundred": 100,
}
_ZH_DIGITS = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_WORD = "|".join(sorted((re.escape(w) for w in NUMBER_WORDS), key=len, reverse=True))
_HOUR_WORD = r"(\d{1,2}|" + _WORD + r")"


def zh_number(text: str) -> int | None:
    """A Chinese numeral up to 99 ("七" 7, "十二" 12, "二十五" 25, "半" None)."""
    if text.isdigit():
        return int(text)
    if not text or any(c not in _ZH_DIGITS and c != "十" for c in text):
        return None
    if "十" in text:
        tens, _, ones = text.partition("十")
        return (_ZH_DIGITS[tens] if tens else 1) * 10 + (_ZH_DIGITS[ones] if ones else 0)
    value = 0
    for c in text:
        value = value * 10 + _ZH_DIGITS[c]
    return value


def _num(word: str) -> int:
    return int(word) if word.isdigit() else NUMBER_WORDS[word.lower()]


_ZH_NUM = r"([零〇一二两三四五六七八九十\d]{1,3})"
_ZH_PERIOD = {
    "凌晨": "am",
    "早上": "am",
    "早晨": "am",
    "上午": "am",
    "清晨": "am",
    "中午": "pm",
    "下午": "pm",
    "傍晚": "pm",
    "晚上": "pm",
    "今晚": "pm",
    "夜里": "pm",
}


def _zh_times(text: str) -> str:
    """'早上七点半' -> '7:30 am', '下午 3 点' -> '3:00 pm', '晚上 10:30' -> '10:30 pm'."""
    periods = "|".join(_ZH_PERIOD)

    def clock(m: re.Match[str]) -> str:
        period = _ZH_PERIOD.get(m.group(1) or "", "")
        hour = zh_number(m.group(2))
        if hour is None:
            return m.group(0)
        rest = m.group(3) or ""
        if rest in ("半",):
            minute = 30
        elif rest in ("一刻",):
            minute = 15
        elif rest in ("三刻",):
            minute = 45
        else:
            said = zh_number(rest.rstrip("分")) if rest else 0
            minute = 0 if said is None else said
        return f" {hour}:{minute:02d} {period} ".replace("  ", " ")

    minutes = r"(半|一刻|三刻|[零〇一二三四五六七八九十\d]{1,3}分?)?"
    text = re.sub(rf"({periods})?\s*{_ZH_NUM}\s*[点點时]\s*{minutes}", clock, text)

    def timed(m: re.Match[str]) -> str:
        return f" {m.group(2)}:{m.group(3)} {_ZH_PERIOD[m.group(1)]} "

    text = re.sub(rf"({periods})\s*(\d{{1,2}})[:：](\d{{2}})", timed, text)
    text = re.sub(r"(\d{1,2}:\d{2})\s+(am|pm)?\s*(am|pm)", r"\1 \3", text)
    return text


def normalise_times(text: str) -> str:
    """Every time of day in the form 'H:MM am' / 'H:MM pm' / 'H:MM' (24-hour as written),
    every spelled-out hour in digits; Chinese times included."""
    text = _zh_times(text)
    text = re.sub(r"\bnoon\b|\bmidday\b|中午十二点", "12:00 pm", text, flags=re.I)
    text = re.sub(r"\bmidnight\b|半夜十二点", "12:00 am", text, flags=re.I)

    def past(m: re.Match[str]) -> str:
        minute = {"half": 30, "quarter": 15}.get(m.group(1).lower())
        if minute is None:
            minute = _num(m.group(1))
        return f"{_num(m.group(2))}:{minute:02d}"

    def to(m: re.Match[str]) -> str:
        minute = 15 if m.group(1).lower() == "quarter" else _num(m.group(1))
        hour = (_num(m.group(2)) - 1) or 12
        return f"{hour}:{60 - minute:02d}"

    text = re.sub(
        rf"\b(half|quarter|{_WORD}|\d{{1,2}})(?: minutes?)? past {_HOUR_WORD}\b",
        past,
        text,
        flags=re.I,
    )
    text = re.sub(
        rf"\b(quarter|{_WORD}|\d{{1,2}})(?: minutes?)? (?:to|before) {_HOUR_WORD}\b",
        to,
        text,
        flags=re.I,
    )
    text = re.sub(
        rf"\b{_HOUR_WORD}\s*o'?\s?clock\b", lambda m: f"{_num(m.group(1))}:00", text, flags=re.I
    )
    # "6.45 am", "at 6.45"
    text = re.sub(
        r"\b(\d{1,2})\.(\d{2})(?=\s*(?:am|pm|a\.m\.|p\.m\.|in the|at night|tonight))",
        r"\1:\2",
        text,
        flags=re.I,
    )
    text = re.sub(r"(?<=\bat )(\d{1,2})\.(\d{2})\b", r"\1:\2", text, flags=re.I)

    # "at 3 in the afternoon", "7 in the morning", "10:30 at night"
    def period(m: re.Match[str]) -> str:
        clock = m.group(1) if ":" in m.group(1) else f"{m.group(1)}:00"
        word = m.group(2).lower()
        half = "am" if "morning" in word else "pm"
        return f"{clock} {half}"

    text = re.sub(
        r"(?<![:\d])(\d{1,2}(?::\d{2})?)\s*(?:am|a\.m\.)?\s+"
        r"(in the morning|in the afternoon|"
        r"in the evening|at night|tonight)\b",
        period,
        text,
        flags=re.I,
    )
    text = re.sub(
        r"(?<![:\d])(\d{1,2})\s*(a\.m\.|am|p\.m\.|pm)\b",
        lambda m: f"{m.group(1)}:00 {m.group(2)[0].lower()}m",
        text,
        flags=re.I,
    )
    text = re.sub(
        r"\b(\d{1,2}:\d{2})\s*(a\.m\.|am|p\.m\.|pm)\b",
        lambda m: f"{m.group(1)} {m.group(2)[0].lower()}m",
        text,
        flags=re.I,
    )
    # a half-day said before the hour ("morning alarm at 7" is rare; "7 am tomorrow morning")
    text = re.sub(
        r"\b(\d{1,2}:\d{2})(?!\s*[ap]m)\b(?=.*\b(tomorrow )?morning\b)", r"\1 am", text, flags=re.I
    )
    text = re.sub(
        r"\b(?:tomorrow|this) morning\b|\bmorning\b(?=.*\d:\d{2} am)", " ", text, flags=re.I
    )
    return re.sub(r"[ \t]+", " ", text).strip()


_CLOCK = re.compile(r"\b(\d{1,2}):(\d{2})(?:\s*([ap]m))?\b", re.I)


def parse_clock(text: str) -> tuple[int, int] | None:
    """The first time of day in ``text`` (as ``normalise_times`` writes it), 24-hour."""
    m = _CLOCK.search(text)
    if not m:
        return None
    hour, minute = int(m.group(1)), int(m.group(2))
    if hour > 23 or minute > 59:
        return None
    if m.group(3):
        hour = hour % 12 + (12 if m.group(3).lower() == "pm" else 0)
    return hour, minute


def clock_half_given(text: str) -> bool:
    """Whether the first time in ``text`` says am/pm or is past 12 (so the half is known)."""
    m = _CLOCK.search(text)
    return bool(m and (m.group(3) or int(m.group(1)) > 12 or int(m.group(1)) == 0))


def write_clock(hm: tuple[int, int], half_known: bool = True) -> str:
    """(18, 45) -> '6:45 pm'; without a known half, '6:45'."""
    hour, minute = hm
    if not half_known:
        return f"{hour}:{minute:02d}"
    return f"{hour % 12 or 12}:{minute:02d} {'pm' if hour >= 12 else 'am'}"


_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_SHORT = {d[:3]: i for i, d in enumerate(_DAYS)}
_ZH_DAYS = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}


def parse_days(text: str) -> tuple[int, ...]:
    """Days of the week a command repeats on (0 = Monday): 'every weekday', 'workdays',
    'mon-fri', 'Monday to Friday', 'weekends', 'Saturday and Sunday', '工作日', '周末',
    '每天', '周一'."""
    low = text.lower().replace("-", " - ")
    days: list[int] = []
    if re.search(r"\b(week ?days?|work ?days?|working days?|business days?)\b|工作日", low):
        days += range(5)
    if re.search(r"\bweek ?ends?\b|周末|週末", low):
        days += [5, 6]
    if not days and re.search(r"\b(every ?day|daily|each day)\b|每天|每日", low):
        days += range(7)
    name = (
        r"(monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|thu|"
        r"thur|thurs|fri|sat|sun)s?"
    )
    m = re.search(rf"\b{name}\s*(?:-|to|through|thru|until|till)\s*{name}\b", low)
    if m:
        a, b = _SHORT[m.group(1)[:3]], _SHORT[m.group(2)[:3]]
        days += range(a, b + 1)
    else:
        days += [i for i, d in enumerate(_DAYS) if re.search(rf"\b({d}|{d[:3]})s?\b", low)]
    for m2 in re.finditer(r"(?:周|星期|礼拜)([一二三四五六日天])", text):
        days.append(_ZH_DAYS[m2.group(1)])
    return tuple(sorted(set(days)))


def write_days(days: tuple[int, ...]) -> str:
    """(0, 1, 2, 3, 4) -> 'every weekday'; (5, 6) -> 'every weekend'; else day names."""
    if days == (0, 1, 2, 3, 4):
        return "every weekday"
    if days == (5, 6):
        return "every weekend"
    if days == tuple(range(7)):
        return "every day"
    return "every " + " and ".join(_DAYS[d].capitalize() for d in days)


def spelled_numbers(text: str) -> str:
    """Number words before a unit or a thing in digits: 'five minutes' -> '5 minutes',
    'three coffee mugs' -> '3 coffee mugs' ('one' only before a unit)."""
    words = [w for w in NUMBER_WORDS if w not in ("one", "zero", "a hundred", "hundred")]
    pattern = "|".join(sorted((re.escape(w) for w in words), key=len, reverse=True))
    text = re.sub(
        rf"\b({pattern})\b(?=\s+[a-z])",
        lambda m: str(NUMBER_WORDS[m.group(1).lower()]),
        text,
        flags=re.I,
    )
    text = re.sub(r"\bone\b(?=\s+(?:minute|hour|second)s?\b)", "1", text, flags=re.I)
    text = re.sub(r"\bzero\b", "0", text, flags=re.I)
    text = re.sub(
        r"\b(\d+)\s*x\b(?=\s+[a-z])|\b(\d+)x\b",
        lambda m: m.group(1) or m.group(2),
        text,
        flags=re.I,
    )
    return text


_UNITS = {
    "s": "seconds",
    "sec": "seconds",
    "secs": "seconds",
    "second": "seconds",
    "seconds": "seconds",
    "m": "minutes",
    "min": "minutes",
    "mins": "minutes",
    "minute": "minutes",
    "minutes": "minutes",
    "h": "hours",
    "hr": "hours",
    "hrs": "hours",
    "hour": "hours",
    "hours": "hours",
}


def parse_duration(text: str) -> tuple[int, str] | None:
    """'5 min', '5-minute', 'five minutes' (after ``spelled_numbers``) -> (5, 'minutes')."""
    m = re.search(
        r"\b(\d{1,3})\s*-?\s*(seconds?|secs?|minutes?|mins?|hours?|hrs?|[smh])\b", text, re.I
    )
    if not m:
        return None
    return int(m.group(1)), _UNITS[m.group(2).lower()]


_SECONDS = {"hours": 3600, "minutes": 60, "seconds": 1}
_AMOUNT = re.compile(
    r"(?<![\d.:])(\d{1,3}(?:\.\d+)?)(\s+and\s+a\s+half)?\s*-?\s*"
    r"(hours?|hrs?|minutes?|mins?|seconds?|secs?|[hms])\b(\s+and\s+a\s+half\b)?",
    re.I,
)
#: "1h30", "2m30": the second number in the next smaller unit.
_COMPACT = re.compile(r"(?<![\d.])(\d{1,2})\s*([hm])\s*(\d{1,2})(?!\s*[\d.:a-z])", re.I)
#: Durations said in words (everyday English): "half an hour", "an hour and a half".
_SAID = (
    (re.compile(r"\b(?:an? )?hour and a half\b", re.I), 5400),
    (re.compile(r"\bhalf (?:an |a )?hour\b", re.I), 1800),
    (re.compile(r"\b(?:a )?quarter (?:of )?an hour\b", re.I), 900),
    (re.compile(r"\b(?:an|a|one) (hour|minute|second)\b", re.I), 0),
)


def duration_seconds(text: str) -> int | None:
    """A duration in seconds, summed over its parts: '5 minutes' 300, '1h30' 5400,
    '1 hour 30 minutes' 5400, '90 seconds' 90, '1.5 hours' and '1 and a half hours'
    5400, 'half an hour' 1800, 'an hour' 3600; None when none is said."""
    total = 0
    rest = text
    for pattern, seconds in _SAID:
        for m in pattern.finditer(rest):
            total += seconds or _SECONDS[_UNITS[m.group(1).lower()]]
        rest = pattern.sub(" ", rest)
    for m in _COMPACT.finditer(rest):
        big = 3600 if m.group(2).lower() == "h" else 60
        total += int(m.group(1)) * big + int(m.group(3)) * big // 60
    rest = _COMPACT.sub(" ", rest)
    for m in _AMOUNT.finditer(rest):
        amount = float(m.group(1)) + (0.5 if m.group(2) or m.group(4) else 0.0)
        total += round(amount * _SECONDS[_UNITS[m.group(3).lower()]])
    return total or None


def write_duration(seconds: int) -> str:
    """3600 -> '1 hour', 5400 -> '1 hour 30 minutes', 90 -> '1 minute 30 seconds'."""
    parts = []
    for unit, size in _SECONDS.items():
        n, seconds = divmod(seconds, size)
        if n:
            parts.append(f"{n} {unit if n != 1 else unit[:-1]}")
    return " ".join(parts)
