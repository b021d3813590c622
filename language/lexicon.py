"""The lexicons of the command language (package data, one reason per entry).

``concepts.json``: Android settings as people name them; ``phrases.json``: everyday
words for what apps do, in English and Chinese, rewritten to the words apps show.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any


@dataclass(frozen=True, slots=True)
class Concept:
    """One Android setting: its name as Settings shows it and what people call it."""

    name: str
    kind: str  # switch | level | choice | page
    en: tuple[str, ...]
    zh: tuple[str, ...]
    keys: tuple[tuple[str, ...], ...] = ()
    inverse: tuple[str, ...] = ()
    up: tuple[str, ...] = ()
    down: tuple[str, ...] = ()
    why: str = ""


@dataclass(frozen=True, slots=True)
class Phrase:
    """Words (``sources``) rewritten to ``to``; ``verb_only``: only as a command's verb."""

    sources: tuple[str, ...]
    to: str
    why: str
    verb_only: bool = False


def package_data(name: str) -> dict[str, Any]:
    """A JSON file of the command language's package data (``language/data/NAME``)."""
    text = resources.files("screenpilot.language").joinpath("data", name).read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@functools.cache
def concepts() -> tuple[Concept, ...]:
    out = []
    for c in package_data("concepts.json")["concepts"]:
        out.append(
            Concept(
                name=c["name"],
                kind=c["kind"],
                en=tuple(c["en"]),
                zh=tuple(c.get("zh", ())),
                keys=tuple(tuple(g) for g in c.get("keys", ())),
                inverse=tuple(c.get("inverse", ())),
                up=tuple(c.get("up", ())),
                down=tuple(c.get("down", ())),
                why=c["why"],
            )
        )
    return tuple(out)


@functools.cache
def phrases(language: str) -> tuple[Phrase, ...]:
    """The rewrites of ``language`` (en | zh), longest source first."""
    out = [
        Phrase(tuple(p["from"]), p["to"], p["why"], bool(p.get("verb_only")))
        for p in package_data("phrases.json")[language]
    ]
    return tuple(out)


@functools.cache
def _ordered(language: str) -> tuple[tuple[str, Phrase], ...]:
    pairs = [(s, p) for p in phrases(language) for s in p.sources]
    return tuple(sorted(pairs, key=lambda sp: -len(sp[0])))


@functools.cache
def vocabulary() -> frozenset[str]:
    """The English words the lexicons know (what a misspelt word is corrected to)."""
    words: set[str] = set()
    for c in concepts():
        for name in (c.name, *c.en, *c.inverse):
            words.update(w for w in re.findall(r"[a-z]+", name.lower()) if len(w) >= 4)
    for p in phrases("en"):
        for s in (*p.sources, p.to):
            words.update(w for w in re.findall(r"[a-z]+", s.lower()) if len(w) >= 4)
    return frozenset(words)


def rewrite_zh(text: str) -> str:
    """Chinese setting names to their English names, then Chinese phrases to English."""
    for c in sorted(concepts(), key=lambda c: -max((len(z) for z in c.zh), default=0)):
        for z in sorted(c.zh, key=len, reverse=True):
            if z in text and not z.isascii():
                text = text.replace(z, f" {c.name} ")
    for source, p in _ordered("zh"):
        if source in text:
            text = text.replace(source, p.to)
    return text


def _lead_then(to: str) -> Callable[[re.Match[str]], str]:
    def sub(m: re.Match[str]) -> str:
        return m.group(1) + to

    return sub


def rewrite_en(text: str) -> str:
    """Everyday English to the words apps show ("kill the wi-fi" -> "turn off the wi-fi");
    a ``verb_only`` phrase only where a command starts or a clause does."""
    for source, p in _ordered("en"):
        if p.verb_only:  # a verb before what it acts on, never before a number
            pattern = (
                rf"(^|[,;.!?]\s*|\b(?:and|then|please|pls)\s+)({re.escape(source)})\b"
                r"(?!\s+(?:number|numbers|call|calls|book|vibration)\b)(?!\s*[\d+])"
            )
            text = re.sub(pattern, _lead_then(p.to), text, flags=re.I)
        else:
            source_re = re.escape(source)
            lead = r"\b" if source[0].isalnum() else ""
            tail = r"\b" if source[-1].isalnum() else ""
            # "promo" -> "promo code" leaves "promo code" as it is
            already = p.to[len(source) :] if p.to.lower().startswith(source.lower()) else ""
            ahead = rf"(?!{re.escape(already)})" if already.strip() else ""
            text = re.sub(rf"{lead}{source_re}{tail}{ahead}", p.to, text, flags=re.I)
    return re.sub(r"[ \t]+", " ", text).strip()
