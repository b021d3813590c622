"""Lessons from undone steps (AutoTask's type-2 knowledge): templated sentences, the
undo's reason and penalty, and the backtracking penalties they become for a new run.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from screenpilot.model import Screen, Step
from screenpilot.pbd.pages import page_labels, same_page, title
from screenpilot.pbd.paths import UNDO_PREFIX, is_undo, op_words


@dataclass
class PenaltyBook:
    """Backtracking penalties of (page, operation), pages matched by their labels."""

    entries: list[tuple[frozenset[str], str, float]] = field(default_factory=list)

    def add(self, page: Screen | frozenset[str], words: str, amount: float) -> None:
        labels = page if isinstance(page, frozenset) else page_labels(page)
        self.entries.append((labels, words, float(amount)))

    def get(self, page: Screen | frozenset[str], words: str) -> float:
        labels = page if isinstance(page, frozenset) else page_labels(page)
        return sum(p for lab, w, p in self.entries if w == words and same_page(lab, labels))

    def add_step(self, step: Step, amount: float) -> None:
        self.add(step.before, op_words(step.action, step.before), amount)

    def total(self) -> float:
        return sum(p for _, _, p in self.entries)


def lesson_sentences(task: str, step: Step, why: str) -> tuple[str, str]:
    """Templated lessons from an undone step: (environment type-2, execution type-2)."""
    words = op_words(step.action, step.before)
    where = title(step.before)
    env = (
        f"On '{where}', {words} opens '{title(step.after)}'."
        if step.after is not None
        else f"On '{where}', {words} does not change the page."
    )
    run = f"For \"{task}\", {words} on '{where}' was a wrong turn" + (f": {why}" if why else ".")
    return env, run


def undo_reason(steps: Sequence[Step], undone: Step) -> str:
    """Why ``undone`` was undone: the reason the undo step gave."""
    for s in steps[undone.index + 1 :]:
        if is_undo(s):
            reason = s.reason.removeprefix(UNDO_PREFIX)
            return reason.split(" because ", 1)[1] if " because " in reason else reason
    return ""


def lesson_penalty(steps: Sequence[Step], undone: Step) -> float:
    """The backtracking penalty the undo of ``undone`` set (5 when it named none)."""
    for s in steps[undone.index + 1 :]:
        if is_undo(s):
            m = re.search(r"penalty (\d+)", s.reason)
            return float(m.group(1)) if m else 5.0
    return 5.0
