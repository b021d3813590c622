"""What every planner promises the run loop: ``Planner.next(...) -> Decision``.

The run loop (``screenpilot.agent``) asks a planner for one action at a time::

    decision = planner.next(task, screen, history, hints=hints)

``screen`` is the ``Screen`` vision/ made of the current screenshot, ``history``
the steps taken so far (oldest first), and ``hints`` whatever the rest of the
system knows that may help: demonstrations retrieved from the store (pbd/),
paths that exploration already tried and found wrong (autotask/), and notes
summarised from earlier runs (knowledge). ``PlanHints`` only ever grows new
fields with defaults, so planners and callers written today keep working.

Planners raise ``PlannerError`` (or its ``LLMError`` / ``LLMResponseError``
subclasses) when they cannot choose; they never raise anything else on purpose.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from screenpilot.model import Action, ActionKind, Demonstration, Screen, Step


@dataclass(frozen=True, slots=True)
class Usage:
    """Tokens spent on LLM calls (zero for planners that call none)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            self.total_tokens + other.total_tokens,
        )


@dataclass(frozen=True, slots=True)
class ExploredPath:
    """A sequence of actions (in words) already tried from here, and why it was wrong."""

    steps: tuple[str, ...]
    why: str = ""


@dataclass(frozen=True, slots=True)
class PlanHints:
    """Everything beyond the task, the screen and the history that may help to plan.

    Every field defaults to empty; new kinds of hint are added as new fields with
    defaults, never by changing ``Planner.next``.
    """

    demonstrations: tuple[Demonstration, ...] = ()
    failed_paths: tuple[ExploredPath, ...] = ()
    knowledge: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.demonstrations or self.failed_paths or self.knowledge)


@dataclass(frozen=True, slots=True)
class Decision:
    """A planner's answer: the action, why, what it cost, and other candidates.

    ``alternatives`` lists other actions the planner considered, best first, with
    its score for each; exploration backtracks into them. ``attempts`` counts the
    LLM answers it took (2 when the first one had to be re-asked).
    """

    action: Action
    reason: str = ""
    usage: Usage = field(default_factory=Usage)
    attempts: int = 1
    alternatives: tuple[tuple[Action, float], ...] = ()

    @property
    def done(self) -> bool:
        """True when the planner says the task is complete."""
        return self.action.done

    @property
    def final(self) -> bool:
        """True when the run should end here (stop, done or not)."""
        return self.action.kind is ActionKind.STOP


@runtime_checkable
class Planner(Protocol):
    """Chooses the next action for a task on the current screen."""

    def next(
        self, task: str, screen: Screen, history: Sequence[Step], *, hints: PlanHints | None = None
    ) -> Decision:
        """The next action; raises ``PlannerError`` when none can be chosen."""
        ...
