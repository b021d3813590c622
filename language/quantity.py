"""How many of a thing a command wants, and which thing: "add 3 coffee mugs to my
cart", "make it 2 backpacks", "set the quantity of the backpack to 2", "数量改成2",
"买三个杯子".

A count is read only where a shop's words say it is one (cart, basket, quantity,
buy, order ...): "add 2 cities" or "set a 5 minute timer" carry no count of items.
Units (minutes, %, o'clock, stars ...) are never counts.

    >>> count_of("Make it 2 backpacks in my Shop cart")
    Count(number=2, item='backpacks')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from screenpilot.language import times

#: Most a stepper is asked for (a larger number is a price, a code, a year).
MAX_COUNT = 99
#: Words that make a command about counts of items.
_SHOPPING = re.compile(
    r"\b(?:cart|basket|bag|trolley|quantity|quantities|qty|amount|buy|order|purchase|"
    r"checkout)\b|购物车|数量|买|购买|下单",
    re.I,
)
#: Words after a number that make it a measure, not a count of items.
_UNIT = (
    r"(?:%|percent|per ?cent|minutes?|mins?|hours?|hrs?|seconds?|secs?|days?|weeks?|"
    r"months?|years?|am|pm|a\.m\.|p\.m\.|o'?clock|stars?|times|degrees?|dollars?|"
    r"euros?|pounds?|km|miles?|kg|lbs?|gb|mb)"
)
_WORD = r"[^\W\d_][\w'-]*"
#: "quantity of the backpack (in my cart) to 2", "the Backpack quantity to 2",
#: "quantity: 2", "2 as the quantity".
_QUANTITY_TO = re.compile(
    rf"\b(?:quantity|qty|amount|number|count)\b(?:\s+of\s+(?:the\s+|my\s+|your\s+)?"
    rf"(?P<item>{_WORD}(?:\s+{_WORD}){{0,3}}?))?(?:\s+(?:in|on|inside)\s+[\w\s]+?)?"
    r"\s*(?:to|=|:|at|is|be)?\s+(?P<n>\d{1,3})\b(?!\s*" + _UNIT + ")",
    re.I,
)
_ITEM_QUANTITY = re.compile(
    rf"\b(?:the|my|your)\s+(?P<item>{_WORD}(?:\s+{_WORD}){{0,2}})\s+(?:quantity|qty|count)\b",
    re.I,
)
_AS_QUANTITY = re.compile(r"\b(?P<n>\d{1,3})\s+as\s+(?:the\s+)?(?:quantity|qty|amount)\b", re.I)
#: "add 3 coffee mugs", "make it 2 backpacks", "buy 2 of the mugs", "get me 4 x pens".
_N_ITEMS = re.compile(
    rf"(?<![\w:.$€£,])(?P<n>\d{{1,3}})(?!\s*{_UNIT})\s*(?:x\s+|×\s*|of\s+(?:the|these|those)\s+)?"
    rf"(?P<item>{_WORD}(?:\s+(?!(?:to|in|into|for|from|on|at|and|with|please)\b){_WORD}){{0,3}})",
    re.I,
)
#: "2x backpack", "backpack x2".
_TIMES_ITEM = re.compile(rf"\b(?P<item>{_WORD})\s*[x×]\s*(?P<n>\d{{1,2}})\b", re.I)
#: Chinese: "数量改成2", "买三个杯子", "加两件T恤".
_ZH_TO = re.compile(
    r"数量\s*(?:改成|改为|设为|设置为|设成|调到|调成|变成|为|是|:|：)?\s*"
    r"(?P<n>\d{1,3}|[一二两三四五六七八九十]+)"
)
_ZH_ITEMS = re.compile(
    r"(?P<n>\d{1,3}|[一二两三四五六七八九十]+)\s*(?:个|件|份|只|双|瓶|本|杯|盒|包|支|条)"
    r"(?P<item>[\u4e00-\u9fffA-Za-z]{1,8}?)(?=$|[，。,.\s]|到|加|放|进|在)"
)
_ZH_ITEM_BEFORE = re.compile(r"(?P<item>[\u4e00-\u9fffA-Za-z]{1,8})的数量")
#: Chinese words that end the phrase before an item ("购物车里背包": in the cart, the backpack).
_ZH_BEFORE_ITEM = re.compile(r".*(?:里|中|内|上|把|将|给)")
#: Words before a number that make it a name or a measure ("size 10", "No. 5").
_NOT_COUNT = re.compile(
    r"\b(?:size|no\.?|number|#|code|version|model|room|table|page|step|level|gate)\s*$", re.I
)
_PREPOSITION = re.compile(r"^(?:to|in|into|for|from|on|at|and|with|by|off)\b", re.I)
_LEADING = re.compile(r"^(?:more|extra|additional|new|of)\s+", re.I)
_TRAILING = re.compile(r"\s+(?:please|now|too|also)$", re.I)


@dataclass(frozen=True)
class Count:
    """A number of items and the words naming them ("" when not named)."""

    number: int
    item: str = ""


def _number(text: str) -> int | None:
    n = int(text) if text.isdigit() else times.zh_number(text) or 0
    return n if 1 <= n <= MAX_COUNT else None


def _item(words: str | None) -> str:
    words = (words or "").strip()
    words = _TRAILING.sub("", _LEADING.sub("", words))
    return "" if words.lower() in {"it", "them", "one", "ones", "items", "item", "of"} else words


@lru_cache(maxsize=512)
def count_of(text: str) -> Count | None:
    """The count of items ``text`` asks for, or ``None`` (no shop's words, no number)."""
    if not _SHOPPING.search(text):
        return None
    zh_item = _ZH_ITEM_BEFORE.search(text)
    for pattern in (_QUANTITY_TO, _AS_QUANTITY, _ZH_TO):
        m = pattern.search(text)
        if m is None:
            continue
        n = _number(m.group("n"))
        if n is None:
            continue
        item = m.groupdict().get("item")
        if not item:
            before = _ITEM_QUANTITY.search(text)
            item = before.group("item") if before else ""
        if not item and zh_item:
            item = _ZH_BEFORE_ITEM.sub("", zh_item.group("item"))
        return Count(n, _item(item))
    for pattern in (_ZH_ITEMS, _TIMES_ITEM, _N_ITEMS):
        for m in pattern.finditer(text):
            n = _number(m.group("n"))
            item = _item(m.group("item"))
            if n is None or not item or _PREPOSITION.match(item):
                continue
            if _NOT_COUNT.search(text[: m.start()]):
                continue
            return Count(n, item)
    return None
