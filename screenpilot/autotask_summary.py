"""What AutoTask shows the person when a run ends: the summary, and its answers.

The summary is the shortest path through the states the run observed (each operation
with the run's step that did it, for its screenshot and box), whether the agent judged
the task done, and whether the run only ran out of actions. The person answers it with
``YES`` (learn), ``NO`` (go on exploring) or ``STOP`` (keep only the transitions);
``unattended`` answers for ``--yes``. ``save_summary_images`` draws each step's box on
its screenshot, and ``report_rows`` is the summary as the report shows it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw

from screenpilot.language.taskparse import parse_task
from screenpilot.model import Step, Trajectory
from screenpilot.pbd.knowledge import Knowledge, PathOp
from screenpilot.pbd.paths import effective_path, op_words

YES, NO, STOP = "yes", "no", "stop"

#: The transition (source and target state) each observed step made, by step index.
Nodes = dict[int, tuple[int, int] | None]


@dataclass(frozen=True)
class SummaryStep:
    """One step of the shortest path: its words and the run's step that did it (for the
    screenshot and the box), or None when it comes from an earlier run."""

    words: str
    step: Step | None = None


@dataclass(frozen=True)
class Summary:
    task: str
    steps: tuple[SummaryStep, ...]
    done: bool
    exhausted: bool
    reason: str = ""
    replayed: bool = False

    def lines(self) -> list[str]:
        return [f"{i}. {s.words}" for i, s in enumerate(self.steps, 1)]


Confirm = Callable[[Summary], str]


def unattended(summary: Summary) -> str:
    """``--yes``: confirm what the agent judged done; a run that only ran out of steps
    is not confirmed."""
    return YES if summary.done and not summary.exhausted else STOP


def shortest_ops(knowledge: Knowledge, task: str, traj: Trajectory, nodes: Nodes) -> list[PathOp]:
    """The shortest known path from the first observed state of the run to its last."""
    path = [s for s in effective_path(traj.steps) if s.index in nodes]
    if not path:
        return []
    first, last = nodes.get(path[0].index), nodes.get(path[-1].index)
    if first is None or last is None:
        return []
    return knowledge.shortest_path(
        first[0], last[1], path, nodes, parse_task(task).parameters, task
    )


def summarise_run(
    ops: list[PathOp],
    task: str,
    traj: Trajectory,
    nodes: Nodes,
    *,
    done: bool,
    exhausted: bool,
    replayed: bool,
) -> Summary:
    """The summary of ``ops`` (the shortest path), each operation with the run's step
    that did it."""
    rows = []
    for op in ops:
        words = op.words()
        found = None
        for s in reversed(traj.steps):
            pair = nodes.get(s.index)
            if (
                pair is not None
                and pair[0] == op.src
                and not s.undone
                and op_words(s.action, s.before) == words
            ):
                found = s
                break
        rows.append(SummaryStep(words, found))
    last = traj.steps[-1] if traj.steps else None
    return Summary(
        task,
        tuple(rows),
        done,
        exhausted,
        last.reason if last is not None else "",
        replayed,
    )


def report_rows(summary: Summary | None) -> list[tuple[str, Step | None]] | None:
    """The summary as the report shows it: each step's words and the run's step."""
    if summary is None:
        return None
    return [(s.words, s.step) for s in summary.steps]


def save_summary_images(summary: Summary, folder: Path) -> list[Path]:
    """``summary_NN.png`` in ``folder`` for each summary step with a screenshot: the
    screen with the operated box drawn in red."""
    out = []
    for i, row in enumerate(summary.steps, 1):
        step = row.step
        if step is None or not step.before.image_path:
            continue
        try:
            with Image.open(step.before.image_path) as src:
                image = src.convert("RGB")
        except OSError:
            continue
        a = step.action
        box = None
        if a.element is not None:
            with contextlib.suppress(KeyError):
                box = step.before.element(a.element).box.as_tuple()
        elif a.point is not None:
            box = (
                max(0, a.point[0] - 24),
                max(0, a.point[1] - 24),
                a.point[0] + 24,
                a.point[1] + 24,
            )
        if box is not None:
            ImageDraw.Draw(image).rectangle(
                box, outline=(230, 20, 60), width=max(4, image.width // 150)
            )
        path = folder / f"summary_{i:02d}.png"
        folder.mkdir(parents=True, exist_ok=True)
        image.save(path)
        out.append(path)
    return out
