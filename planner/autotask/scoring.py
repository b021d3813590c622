"""How relevant each operation is to the task, as a Likert score 1-7: offline from the
heuristic planner's similarity, or from a chat model."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

import numpy as np

from screenpilot.errors import LLMResponseError
from screenpilot.language.taskparse import parse_task
from screenpilot.language.words import lexical
from screenpilot.model import ActionKind, Direction, Screen, Step
from screenpilot.planner.autotask.operations import Operation
from screenpilot.planner.autotask.prompts import history_words, load_autotask_prompts
from screenpilot.planner.base import Usage
from screenpilot.planner.llm import ChatModel
from screenpilot.planner.offline import HeuristicPlanner, purpose_bonus
from screenpilot.planner.parse import extract_json

#: Likert relevance of a scroll: above an unrelated element, below anything that matches.
SCROLL_LIKERT = {Direction.DOWN: 2.6, Direction.UP: 2.0}
TYPE_LIKERT = 4.0
RULE_LIKERT = 7.0
#: Heuristic similarity (cosine + lexical + app purpose) that maps to Likert 1 and 7.
RAW_LOW, RAW_HIGH = 0.1, 1.6

#: What knowledge saw behind each operation (its words -> the labels of the page it led to).
Targets = Mapping[str, Sequence[str]]


def to_likert(raw: float) -> float:
    """Heuristic similarity -> Likert 1..7."""
    return 1.0 + 6.0 * float(np.clip((raw - RAW_LOW) / (RAW_HIGH - RAW_LOW), 0.0, 1.0))


class Scorer(Protocol):
    """Rates how relevant each operation is to the task, 1 (not at all) to 7 (surely)."""

    def likert(
        self,
        task: str,
        screen: Screen,
        ops: Sequence[Operation],
        history: Sequence[Step],
        targets: Targets,
    ) -> list[float]: ...


class HeuristicScorer:
    """Offline Likert: the heuristic planner's similarity (embedding + words + app
    purpose) mapped to 1-7; an element with known targets counts their relevance too."""

    def __init__(self, heuristic: HeuristicPlanner) -> None:
        self.heuristic = heuristic

    def raw(self, task: str, texts: Sequence[str], labels: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros(0)
        intent = parse_task(task)
        lexical_part = np.array([0.5 * lexical(intent, lab) for lab in labels])
        out: np.ndarray = self.heuristic.similarity(task, texts) + lexical_part
        return out

    def likert(
        self,
        task: str,
        screen: Screen,
        ops: Sequence[Operation],
        history: Sequence[Step],
        targets: Targets,
    ) -> list[float]:
        intent = parse_task(task)
        out = [1.0] * len(ops)
        taps = [i for i, op in enumerate(ops) if op.action.kind is ActionKind.TAP and op.label]
        raw = self.raw(task, [ops[i].match_text for i in taps], [ops[i].label for i in taps])
        for j, i in enumerate(taps):
            e = ops[i].element
            bonus = purpose_bonus(intent, e) if e is not None else 0.0
            out[i] = to_likert(float(raw[j]) + bonus)
        for i, op in enumerate(ops):
            if op.action.kind is ActionKind.TYPE:
                out[i] = TYPE_LIKERT
            elif op.action.kind is ActionKind.SCROLL and op.action.direction is not None:
                out[i] = SCROLL_LIKERT.get(op.action.direction, 1.5)
            behind = targets.get(op.words)
            if behind:
                best = float(np.max(self.raw(task, list(behind), list(behind))))
                out[i] = max(out[i], to_likert(best) - 0.5)
        return out


class LLMScorer:
    """Likert relevance from a chat model (``prompts/autotask.yaml`` ``score``)."""

    def __init__(self, llm: ChatModel, *, temperature: float = 0.0) -> None:
        self.llm = llm
        self.temperature = temperature
        self.usage = Usage()

    def likert(
        self,
        task: str,
        screen: Screen,
        ops: Sequence[Operation],
        history: Sequence[Step],
        targets: Targets,
    ) -> list[float]:
        lines = []
        for i, op in enumerate(ops, 1):
            line = f"{i}. {op.words}"
            behind = targets.get(op.words)
            if behind:
                line += f" (leads to: {', '.join(list(behind)[:6])})"
            lines.append(line)
        prompt = load_autotask_prompts()["score"].substitute(
            task=task,
            history=history_words(history),
            screen=screen.describe(),
            operations="\n".join(lines),
            n=str(len(ops)),
        )
        result = self.llm.complete(
            [{"role": "user", "content": prompt}], temperature=self.temperature
        )
        self.usage = self.usage + result.usage
        try:
            scores = extract_json(result.text).get("scores")
        except LLMResponseError:
            scores = None
        if not isinstance(scores, list) or len(scores) != len(ops):
            raise LLMResponseError(
                f"expected {len(ops)} scores, got {result.text[:200]!r}",
                hint='answer {"scores": [1-7 for each operation]}',
            )
        out = []
        for s in scores:
            try:
                out.append(float(np.clip(float(s), 1.0, 7.0)))
            except (TypeError, ValueError):
                out.append(1.0)
        return out
