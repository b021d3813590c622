"""The history of a run: ``Step`` (one turn of the loop) and ``Trajectory`` (a task's steps).

Reports render it, pbd/ stores it, exploration backtracks through it, and both turn
into the chat messages a planner reads (``to_messages``).
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass

from screenpilot.model.action import Action
from screenpilot.model.kinds import Outcome
from screenpilot.model.record import Record, fail
from screenpilot.model.screen import Screen


@dataclass(frozen=True, slots=True)
class Step(Record):
    """One turn of the run loop: the screen seen, the action taken, the screen after."""

    index: int
    before: Screen
    action: Action
    after: Screen | None = None
    reason: str = ""
    timings: tuple[tuple[str, float], ...] = ()
    error: str = ""
    undone: bool = False

    def __post_init__(self) -> None:
        if type(self.index) is not int or self.index < 0:
            fail(Step, f"index must be a non-negative int, got {self.index!r}")
        for name, seconds in self.timings:
            if seconds < 0:
                fail(Step, f"timing {name!r} is negative")
        if self.action.element is not None:
            try:
                self.before.element(self.action.element)
            except KeyError as exc:
                fail(Step, f"action targets {exc.args[0]}")

    @property
    def timing(self) -> dict[str, float]:
        return dict(self.timings)

    def to_messages(self) -> list[dict[str, str]]:
        """This step as chat messages (what the planner saw and what it answered)."""
        return [
            {"role": "user", "content": self.before.describe()},
            {
                "role": "assistant",
                "content": json.dumps(
                    {"action": self.action.describe(self.before), "reason": self.reason},
                    ensure_ascii=False,
                ),
            },
        ]


@dataclass(frozen=True, slots=True)
class Trajectory(Record):
    """A task and every step taken for it, with how it ended."""

    task: str
    steps: tuple[Step, ...] = ()
    outcome: Outcome = Outcome.RUNNING
    app: str = ""
    device: str = ""
    planner: str = ""
    started_at: str = ""
    finished_at: str = ""
    note: str = ""

    def __post_init__(self) -> None:
        if not self.task.strip():
            fail(Trajectory, "task must not be empty")
        if not isinstance(self.outcome, Outcome):
            fail(Trajectory, f"unknown outcome {self.outcome!r}")
        for i, s in enumerate(self.steps):
            if s.index != i:
                fail(Trajectory, f"step {i} carries index {s.index}")

    def add(self, step: Step) -> Trajectory:
        """A new trajectory with ``step`` appended (its index set to fit)."""
        step = dataclasses.replace(step, index=len(self.steps))
        return dataclasses.replace(self, steps=(*self.steps, step))

    def pop(self) -> tuple[Trajectory, Step]:
        """A new trajectory without its last step, and that step (for backtracking)."""
        if not self.steps:
            raise IndexError("pop from an empty trajectory")
        return dataclasses.replace(self, steps=self.steps[:-1]), self.steps[-1]

    def finish(self, outcome: Outcome, *, note: str = "", finished_at: str = "") -> Trajectory:
        return dataclasses.replace(
            self,
            outcome=outcome,
            note=note or self.note,
            finished_at=finished_at or self.finished_at,
        )

    def to_messages(self) -> list[dict[str, str]]:
        msgs = [{"role": "user", "content": f"Task: {self.task}"}]
        for s in self.steps:
            msgs.extend(s.to_messages())
        return msgs
