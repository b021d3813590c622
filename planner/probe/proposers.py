"""Generation: a proxy user proposes new single-task queries for the seed's app, an LLM
(with ``prompts/probe.yaml``) or an offline proposer built from the seed's screens."""

from __future__ import annotations

import dataclasses
import functools
import json
import logging
import random
from collections.abc import Sequence
from string import Template
from typing import ClassVar, Protocol

from screenpilot.errors import LLMResponseError
from screenpilot.model import ElementKind
from screenpilot.planner.llm import ChatModel
from screenpilot.planner.parse import extract_json
from screenpilot.planner.probe.queries import CATEGORIES, Query, QueryStep, Seed, summarise_screen
from screenpilot.planner.prompts import load_templates

log = logging.getLogger(__name__)


class Proposer(Protocol):
    """Proposes new single-task queries from the seed and the pool so far."""

    def propose(self, seed: Seed, pool: Sequence[Query], n: int, batch: int) -> list[Query]: ...


@functools.lru_cache(maxsize=1)
def probe_prompt() -> dict[str, Template]:
    """The proxy-user instruction prompt (``prompts/probe.yaml``)."""
    return load_templates("probe", ("system", "user"))


def parse_queries(answer: str, batch: int) -> list[Query]:
    """The queries in a proxy user's answer; unusable items are skipped."""
    data = extract_json(answer)
    items = data.get("queries")
    if not isinstance(items, list):
        raise LLMResponseError(
            "the answer has no 'queries' list",
            hint='answer {"queries": [{"query": "...", "steps": [...]}]}',
        )
    out = []
    for item in items:
        if not isinstance(item, dict):
            continue
        text = " ".join(str(item.get("query") or item.get("task") or "").split())
        if not text:
            continue
        raw = item.get("steps")
        raw = raw if isinstance(raw, list) else []
        steps = tuple(s for s in (QueryStep.from_dict(d) for d in raw) if s is not None)
        out.append(Query(text, steps, batch))
    return out


class LLMProposer:
    """The proxy user is an LLM (any ``ChatModel``), asked once per batch."""

    def __init__(self, llm: ChatModel, *, temperature: float = 0.8, pool_shown: int = 40) -> None:
        self.llm = llm
        self.temperature = temperature
        self.pool_shown = pool_shown
        self.failures = 0

    def messages(self, seed: Seed, pool: Sequence[Query], n: int) -> list[dict[str, str]]:
        prompt = probe_prompt()
        demo = json.dumps(
            {"query": seed.task, "steps": [s.to_dict() for s in seed.steps]},
            ensure_ascii=False,
            indent=1,
        )
        shown = [q.text for q in pool][-self.pool_shown :]
        values = {
            "app": seed.app or "the app",
            "n": str(n),
            "seed": demo,
            "pool": "\n".join(f"- {t}" for t in shown) or "(none yet)",
            "categories": ", ".join(CATEGORIES),
        }
        return [
            {"role": "system", "content": prompt["system"].safe_substitute(values)},
            {"role": "user", "content": prompt["user"].safe_substitute(values)},
        ]

    def propose(self, seed: Seed, pool: Sequence[Query], n: int, batch: int) -> list[Query]:
        result = self.llm.complete(self.messages(seed, pool, n), temperature=self.temperature)
        try:
            return parse_queries(result.text, batch)[:n]
        except LLMResponseError as exc:
            self.failures += 1
            log.warning("the proxy user's answer was unusable: %s", exc)
            return []


class OfflineProposer:
    """A proxy user without an LLM: "Show X in the APP app" for the labels the app's
    screens in the seed show and the demonstration did not tap, each with the seed's
    steps up to that screen."""

    QUERY_KINDS: ClassVar[frozenset[ElementKind]] = frozenset(
        {ElementKind.TEXT, ElementKind.BUTTON}
    )

    def __init__(self, *, seed_value: int = 0) -> None:
        self.rng = random.Random(seed_value)

    def candidates(self, seed: Seed) -> list[Query]:
        tapped = {s.action_purpose for s in seed.steps}
        out: list[Query] = []
        seen: set[str] = set()
        # the screens before the app was opened (the home screen) are not the app's
        first = next(
            (
                i + 1
                for i, s in enumerate(seed.steps)
                if seed.app and f"'{seed.app}'" in s.action_purpose
            ),
            0,
        )
        for i, screen in enumerate(seed.screens):
            if i < first:
                continue
            for e in screen.reading_order():
                label = e.label.strip()
                named = e.kind in self.QUERY_KINDS or (
                    e.kind in (ElementKind.IMAGE, ElementKind.ICON) and e.text
                )
                if (
                    not named
                    or label in seen
                    or not self.nameish(label)
                    or any(f"'{label}'" in t for t in tapped)
                    or e.box.y1 < screen.height * 0.05
                ):
                    continue
                seen.add(label)
                steps = (
                    *seed.steps[:i],
                    QueryStep(summarise_screen(screen), f"tap '{label}'", "none"),
                )
                # lower case: a capitalised label would read as a value to type
                what = label.lower() if label[:1].isupper() else label
                text = f"Show {what} in the {seed.app} app" if seed.app else f"Show {what}"
                out.append(Query(text, steps))
        return out

    @staticmethod
    def nameish(label: str) -> bool:
        """Whether a label reads like the name of a page or a control ('Stores', 'Sign
        out', '付款记录'), not a price, a rating or a sentence."""
        words = label.split()
        letters = sum(ch.isalpha() for ch in label)
        return (
            1 <= len(words) <= 4
            and letters >= 3
            and letters >= 0.7 * len(label.replace(" ", ""))
            and not label.endswith((".", "!", "?", ":"))
        )

    def propose(self, seed: Seed, pool: Sequence[Query], n: int, batch: int) -> list[Query]:
        asked = {q.text for q in pool}
        found = [q for q in self.candidates(seed) if q.text not in asked]
        self.rng.shuffle(found)
        return [dataclasses.replace(q, batch=batch) for q in found[:n]]
