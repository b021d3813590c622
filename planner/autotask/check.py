"""AutoTask's checking half: after each step a ``Checker`` says whether the task is
complete and whether the last step is on a path to the goal, with a backtracking
penalty 0-9 when it is not (offline ``HeuristicChecker``, or ``LLMChecker``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from screenpilot.model import ActionKind, Direction, Screen, Step
from screenpilot.pbd.pages import same_page, title
from screenpilot.pbd.paths import op_words
from screenpilot.planner.autotask.planner import AutoTaskPlanner
from screenpilot.planner.autotask.prompts import history_words, load_autotask_prompts
from screenpilot.planner.autotask.scoring import RULE_LIKERT
from screenpilot.planner.base import Usage
from screenpilot.planner.llm import ChatModel
from screenpilot.planner.parse import extract_json

MAX_CHECK_PENALTY = 9


@dataclass(frozen=True)
class Verdict:
    """The checker's word on the last step."""

    complete: bool
    correct: bool = True
    penalty: int = 0
    reason: str = ""
    exhausted: bool = False


class Checker(Protocol):
    def check(self, task: str, path: Sequence[Step], screen: Screen) -> Verdict:
        """Whether the task is complete on ``screen`` and whether ``path[-1]`` was right."""
        ...


def _settled(path: Sequence[Step], max_steps: int) -> Verdict | None:
    """The verdict before any judging: nothing done yet (not complete), or ``max_steps``
    steps taken (counted as complete, ``exhausted``); None when the step needs judging."""
    if not path:
        return Verdict(False)
    if len(path) >= max_steps:
        return Verdict(
            True,
            True,
            0,
            f"{len(path)} steps taken: counted as done (the limit is {max_steps})",
            exhausted=True,
        )
    return None


class HeuristicChecker:
    """Offline checker.

    - complete: the heuristic proposer says the task is done on this screen;
    - a tap that opened another page is wrong when its relevance (the best Likert of
      what is new there) is lower by more than ``drop`` than the best alternative the
      page before offered (screen relevance going down), or when
      nothing there is relevant (below ``low``) even after scrolling: the first
      time, the page gets the benefit of the doubt (exploration scrolls it);
    - a scroll that brought nothing relevant into view is wrong;
    the penalty grows with how far relevance fell. Typing and steps that kept the
    page are taken as right.
    """

    def __init__(
        self, planner: AutoTaskPlanner, *, max_steps: int = 20, low: float = 2.6, drop: float = 3.0
    ) -> None:
        self.planner = planner
        self.max_steps = max_steps
        self.low = low
        self.drop = drop

    def relevance(
        self, task: str, screen: Screen, path: Sequence[Step], besides: str = ""
    ) -> float:
        """The best Likert of what is new on ``screen``, the operation ``besides`` aside."""
        choice = self.planner.decide(task, screen, path)
        if choice.proposal is not None and choice.proposal.done:
            return RULE_LIKERT
        return max(
            (
                s.likert
                for s in choice.scored
                if s.op.action.kind is not ActionKind.SCROLL
                and s.repeated == 0
                and s.op.words != besides
            ),
            default=1.0,
        )

    def check(self, task: str, path: Sequence[Step], screen: Screen) -> Verdict:
        settled = _settled(path, self.max_steps)
        if settled is not None:
            return settled
        choice = self.planner.decide(task, screen, path)
        if choice.proposal is not None and choice.proposal.done:
            return Verdict(True, True, 0, choice.proposal.reason)
        last = path[-1]
        kind = last.action.kind
        if kind is ActionKind.TYPE or (
            kind is not ActionKind.SCROLL and same_page(last.before, screen)
        ):
            return Verdict(False, True, 0, "the step kept the page")
        now = choice.relevance
        where = title(screen)
        low = int(np.clip(round(3 + 2 * (self.low - now)), 1, MAX_CHECK_PENALTY))
        if kind is ActionKind.SCROLL:
            if now < self.low:
                return Verdict(
                    False,
                    False,
                    low,
                    f"scrolling '{where}' showed nothing relevant (best {now:.1f}/7)",
                )
            return Verdict(False, True, 0, f"scrolling showed something relevant ({now:.1f}/7)")
        before = self.relevance(
            task, last.before, path[:-1], besides=op_words(last.action, last.before)
        )
        if before - now > self.drop:
            penalty = int(np.clip(round(before - now), 1, MAX_CHECK_PENALTY))
            return Verdict(
                False,
                False,
                penalty,
                f"'{where}' is less relevant than what the "
                f"page before offered ({now:.1f} < "
                f"{before:.1f}/7)",
            )
        if now < self.low:
            arrived = last.after if last.after is not None else screen
            if self.planner.penalties.get(arrived, f"scroll {Direction.DOWN}") > 0:
                return Verdict(
                    False,
                    False,
                    low,
                    f"nothing on '{where}' is relevant to the "
                    f"task, even further down (best {now:.1f}/7)",
                )
            return Verdict(False, True, 0, f"nothing relevant in sight on '{where}' yet")
        return Verdict(False, True, 0, f"'{where}' is relevant ({now:.1f}/7)")


class LLMChecker:
    """Checker asking a chat model (``prompts/autotask.yaml`` ``check``)."""

    def __init__(self, llm: ChatModel, *, max_steps: int = 20, temperature: float = 0.0) -> None:
        self.llm = llm
        self.max_steps = max_steps
        self.temperature = temperature
        self.usage = Usage()

    def check(self, task: str, path: Sequence[Step], screen: Screen) -> Verdict:
        settled = _settled(path, self.max_steps)
        if settled is not None:
            return settled
        prompt = load_autotask_prompts()["check"].substitute(
            task=task,
            history=history_words(path),
            screen=screen.describe(),
            last=op_words(path[-1].action, path[-1].before),
        )
        result = self.llm.complete(
            [{"role": "user", "content": prompt}], temperature=self.temperature
        )
        self.usage = self.usage + result.usage
        data = extract_json(result.text)
        complete, correct = bool(data.get("complete")), bool(data.get("correct", True))
        try:
            penalty = int(np.clip(int(data.get("penalty", 0) or 0), 0, MAX_CHECK_PENALTY))
        except (TypeError, ValueError):
            penalty = 5
        if not correct and penalty == 0:
            penalty = 5
        return Verdict(
            complete, correct or complete, 0 if complete else penalty, str(data.get("reason", ""))
        )
