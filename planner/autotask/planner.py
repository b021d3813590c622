"""AutoTask's deciding half: ``AutoTaskPlanner`` scores every operation on the screen
(score = (Likert + tie-break) / (1 + penalty)) and picks the best, or says it is at a
dead end."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from screenpilot.model import Action, ActionKind, Screen, Step
from screenpilot.pbd.knowledge import PenaltyBook
from screenpilot.pbd.pages import page_labels
from screenpilot.pbd.paths import effective_path, op_words
from screenpilot.planner.autotask.operations import Operation, operations, repetition
from screenpilot.planner.autotask.scoring import RULE_LIKERT, Scorer, Targets
from screenpilot.planner.base import Decision, PlanHints, Planner
from screenpilot.planner.encoding import CachedEncoder, Encoder


@dataclass(frozen=True)
class Scored:
    op: Operation
    likert: float
    tie: float
    penalty: float
    repeated: float = 0.0

    @property
    def score(self) -> float:
        return (self.likert + self.tie) / (1.0 + self.penalty)


@dataclass(frozen=True)
class Choice:
    """What ``AutoTaskPlanner.decide`` found: the decision and every scored operation."""

    decision: Decision
    scored: tuple[Scored, ...] = ()
    proposal: Decision | None = None
    dead_end: bool = False
    best: Scored | None = None

    @property
    def relevance(self) -> float:
        """The best Likert relevance of what is new on this page: no scroll, nothing
        already done (1 when nothing)."""
        return max(
            (
                s.likert
                for s in self.scored
                if s.op.action.kind is not ActionKind.SCROLL and s.repeated == 0
            ),
            default=1.0,
        )


def is_rule(proposal: Decision) -> bool:
    """Whether the heuristic's proposal came from a rule (toggle, slider, typing, confirm),
    not from plain similarity navigation or its scroll/back fallback."""
    a = proposal.action
    if a.kind not in (ActionKind.TAP, ActionKind.TYPE):
        return False
    return not (proposal.alternatives or "closest match" in proposal.reason)


class AutoTaskPlanner:
    """``Planner`` that scores every operation (see the package docstring)."""

    name = "explore"  # as trajectories and reports have always named it

    def __init__(
        self,
        scorer: Scorer,
        encode: Encoder,
        *,
        proposer: Planner | None = None,
        penalties: PenaltyBook | None = None,
        targets: Callable[[Screen], Targets] | None = None,
        min_score: float = 1.5,
    ) -> None:
        self.scorer = scorer
        self.encode = encode
        self.proposer = proposer
        self.penalties = penalties if penalties is not None else PenaltyBook()
        self.targets = targets
        self.min_score = min_score
        self._vectors = CachedEncoder(encode)

    def tie_break(self, task: str, ops: Sequence[Operation]) -> list[float]:
        """0-1: cosine similarity of each operation (the text it is matched on, else its
        words) and the task (0 below 0)."""
        if not ops:
            return []
        sims = self._vectors.similarity(task, [op.match_text or op.words for op in ops])
        return [float(np.clip(s, 0.0, 1.0)) for s in sims]

    def next(
        self, task: str, screen: Screen, history: Sequence[Step], *, hints: PlanHints | None = None
    ) -> Decision:
        return self.decide(task, screen, history, hints=hints).decision

    def decide(
        self,
        task: str,
        screen: Screen,
        history: Sequence[Step],
        *,
        hints: PlanHints | None = None,
        allow_done: bool = True,
    ) -> Choice:
        """Score every operation and choose; ``allow_done=False`` ignores the
        proposer's "done" (the person said the task is not done yet)."""
        path = effective_path(history)
        proposal = None
        if self.proposer is not None:
            proposal = self.proposer.next(task, screen, path, hints=hints)
            if proposal.done and allow_done:
                return Choice(proposal, proposal=proposal)
        ops = operations(task, screen, path)
        rule = proposal is not None and is_rule(proposal)
        if rule and proposal is not None:
            words = op_words(proposal.action, screen)
            if not any(op.words == words for op in ops):
                target = None
                if proposal.action.element is not None:
                    with contextlib.suppress(KeyError):
                        target = screen.element(proposal.action.element)
                ops.insert(
                    0,
                    Operation(
                        proposal.action, words, target.label if target else "", words, target
                    ),
                )
        if not ops:
            return Choice(
                Decision(Action(ActionKind.STOP), "nothing to operate on here"),
                proposal=proposal,
                dead_end=True,
            )
        targets = self.targets(screen) if self.targets is not None else {}
        likert = self.scorer.likert(task, screen, ops, path, targets)
        if rule and proposal is not None:
            words = op_words(proposal.action, screen)
            likert = [
                RULE_LIKERT if op.words == words else v for op, v in zip(ops, likert, strict=True)
            ]
        ties = self.tie_break(task, ops)
        labels = page_labels(screen)
        scored = []
        for op, lk, tie in zip(ops, likert, ties, strict=True):
            rep = repetition(labels, op.words, path)
            scored.append(Scored(op, lk, tie, rep + self.penalties.get(labels, op.words), rep))
        return self._choose(tuple(scored), proposal, rule, screen)

    def _choose(
        self, scored: tuple[Scored, ...], proposal: Decision | None, rule: bool, screen: Screen
    ) -> Choice:
        order = sorted(range(len(scored)), key=lambda i: -scored[i].score)
        best = scored[order[0]]
        alternatives = tuple((scored[i].op.action, scored[i].score) for i in order[1:4])
        if best.score < self.min_score:
            return Choice(
                Decision(
                    Action(ActionKind.STOP),
                    f"dead end: the best operation here, {best.op.words}, scores {best.score:.2f}",
                    alternatives=alternatives,
                ),
                scored,
                proposal,
                dead_end=True,
                best=best,
            )
        why = (
            proposal.reason
            if rule and proposal is not None and best.op.words == op_words(proposal.action, screen)
            else f"relevance {best.likert:.1f}/7"
        )
        reason = f"{why}; score {best.score:.2f}" + (
            f" (penalty {best.penalty:.0f})" if best.penalty else ""
        )
        return Choice(
            Decision(best.op.action, reason, alternatives=alternatives), scored, proposal, best=best
        )
