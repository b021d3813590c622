"""What probing works with: a single-task query and its expected steps, and the seed
(one demonstrated task) that new queries are proposed from."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from screenpilot.errors import DataError
from screenpilot.model import (
    ActionKind,
    BlockKind,
    ElementKind,
    Screen,
    SensitiveCategory,
    Trajectory,
)

CATEGORIES = tuple(c.value for c in SensitiveCategory)


@dataclass(frozen=True, slots=True)
class QueryStep:
    """One step of a proposed (or demonstrated) task."""

    ui_summary: str
    action_purpose: str
    category: str = "none"

    def to_dict(self) -> dict[str, str]:
        return {
            "uiSummary": self.ui_summary,
            "actionPurpose": self.action_purpose,
            "category": self.category,
        }

    @classmethod
    def from_dict(cls, data: Any) -> QueryStep | None:
        if not isinstance(data, dict):
            return None
        summary = str(data.get("uiSummary") or data.get("ui_summary") or "").strip()
        purpose = str(data.get("actionPurpose") or data.get("action_purpose") or "").strip()
        category = str(data.get("category") or "none").strip().lower()
        if not purpose:
            return None
        return cls(summary, purpose, category if category in CATEGORIES else "none")


@dataclass(frozen=True, slots=True)
class Query:
    """A single-task query and the steps its proposer expects."""

    text: str
    steps: tuple[QueryStep, ...] = ()
    batch: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"query": self.text, "batch": self.batch, "steps": [s.to_dict() for s in self.steps]}


def summarise_screen(screen: Screen, limit: int = 8) -> str:
    """A short summary of a screen: its first labels, in reading order."""
    bars = {
        b.id for b in screen.blocks if b.kind in (BlockKind.STATUS_BAR, BlockKind.NAVIGATION_BAR)
    }
    labels: list[str] = []
    for e in screen.reading_order():
        label = e.label.strip()
        if (
            label
            and label not in labels
            and e.block_id not in bars
            and e.kind not in (ElementKind.STATUS_BAR, ElementKind.NAVIGATION_BAR)
        ):
            labels.append(label)
    if screen.secure:
        return "a screen that hides its content (FLAG_SECURE)"
    return ", ".join(f"'{t}'" for t in labels[:limit]) or "an empty screen"


def step_category(step: Any) -> str:
    """The sensitive category a trajectory step met (its screen's, or its handover's)."""
    sens = step.before.sensitivity
    if sens.sensitive:
        return str(sens.category.value)
    if step.action.kind is ActionKind.HANDOVER:
        m = re.search(r"\((" + "|".join(CATEGORIES) + r")\)", step.action.reason)
        if m:
            return m.group(1)
    return "none"


def _app_of(task: str) -> str:
    m = re.search(r"\bin (?:the )?([A-Z][\w-]*)(?: app)?\b", task)
    return m.group(1) if m else ""


@dataclass(frozen=True, slots=True)
class Seed:
    """What probing starts from: a task, its app, its steps (and its screens)."""

    task: str
    app: str = ""
    steps: tuple[QueryStep, ...] = ()
    screens: tuple[Screen, ...] = ()

    @classmethod
    def from_trajectory(cls, traj: Trajectory) -> Seed:
        steps, screens = [], []
        for s in traj.steps:
            if s.action.kind is ActionKind.STOP:
                continue
            steps.append(
                QueryStep(summarise_screen(s.before), s.action.describe(s.before), step_category(s))
            )
            screens.append(s.before)
        return cls(traj.task, traj.app or _app_of(traj.task), tuple(steps), tuple(screens))

    @classmethod
    def from_demonstration(cls, instruction: str, steps: Sequence[str], app: str = "") -> Seed:
        return cls(instruction, app or _app_of(instruction), tuple(QueryStep("", s) for s in steps))

    @classmethod
    def load(cls, path: Path) -> Seed:
        """A seed from a saved ``trajectory.json``."""
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise DataError(f"cannot read trajectory {path}: {exc.strerror}") from exc
        return cls.from_trajectory(Trajectory.from_json(text))

    def as_query(self) -> Query:
        return Query(self.task, self.steps, batch=0)
