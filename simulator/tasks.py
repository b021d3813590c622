"""The task suite of the virtual phone: commands a person would type, with a check.

Each ``Task`` has a natural-language command (and paraphrases), its parameters,
a ``setup`` that puts the phone in the starting state, a ``check`` that says
from the phone's state whether the task is done, and the minimal number of
steps (taps, typed texts, scrolls) a person needs from the home screen.

Tasks live next to their app: every module in ``simulator/apps/`` may define a
module-level ``TASKS: list[Task]``; ``all_tasks()`` gathers them in the order of
``TASK_MODULES``. Commands are phrased the way public benchmarks phrase theirs
(AndroidWorld's "Turn wifi {on_or_off}.", Android-Lab's, B-MoCA's).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from screenpilot.simulator.phone import VirtualPhone

Check = Callable[["VirtualPhone"], bool]
Setup = Callable[["VirtualPhone"], None]

#: Modules under screenpilot.simulator.apps whose ``TASKS`` make up the suite.
TASK_MODULES = ("settings", "contacts", "clock", "messages", "shop")


def _no_setup(phone: VirtualPhone) -> None:
    return None


@dataclass(frozen=True)
class Task:
    """One command for the agent and how to tell that it was done."""

    id: str
    app: str
    command: str
    check: Check
    min_steps: int
    params: dict[str, Any] = field(default_factory=dict)
    paraphrases: tuple[str, ...] = ()
    setup: Setup = _no_setup
    difficulty: str = "easy"
    sensitive: str = ""
    #: The minimal solution as semantic steps ("tap 'Network & internet'", "type 'Alice'
    #: into 'Name'"), for step accuracy and for scripted demonstrations.
    solution: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.id or not self.command.strip():
            raise ValueError("a task needs an id and a command")
        if self.min_steps < 1:
            raise ValueError(f"task {self.id}: min_steps must be at least 1")
        if self.solution and len(self.solution) != self.min_steps:
            raise ValueError(
                f"task {self.id}: solution has {len(self.solution)} steps, "
                f"min_steps says {self.min_steps}"
            )

    def as_dict(self) -> dict[str, Any]:
        """What ``screenpilot tasks --json`` prints (no callables)."""
        return {
            "id": self.id,
            "app": self.app,
            "command": self.command,
            "params": self.params,
            "paraphrases": list(self.paraphrases),
            "min_steps": self.min_steps,
            "difficulty": self.difficulty,
            "sensitive": self.sensitive,
            "solution": list(self.solution),
        }


def all_tasks() -> list[Task]:
    """Every task of every app, in a stable order; ids are unique."""
    tasks: list[Task] = []
    for name in TASK_MODULES:
        try:
            module = importlib.import_module(f"screenpilot.simulator.apps.{name}")
        except ModuleNotFoundError:
            continue
        tasks.extend(getattr(module, "TASKS", []))
    ids = [t.id for t in tasks]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise ValueError(f"duplicate task ids: {duplicates}")
    return tasks


def get_task(task_id: str) -> Task:
    for task in all_tasks():
        if task.id == task_id:
            return task
    raise KeyError(f"no task {task_id!r}")
