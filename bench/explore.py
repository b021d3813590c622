"""Explore-and-learn benchmark (AutoTask): exploration on the task suite, then knowledge.

Part 1, exploration. Every task (non-sensitive; ``--tasks``/``--per-app`` for a
subset) runs from a fresh virtual phone with ``AutoTaskAgent`` and the offline
scorer and checker, no knowledge. The person who confirms the summary is
simulated by the task's own check of the phone (yes when it holds, else stop).
Reported with bench/tasks.py's definitions (success rate, step accuracy, step
redundancy, non-redundant completion; every executed action counts, undo steps
included) plus the number of backtracks. ``--baseline`` also runs the plain
offline planner (``Agent`` + ``HeuristicPlanner``) on the same tasks.

Part 2, knowledge. The tasks part 1 completed are shuffled (seeded); for each
share (0/20/40/60/80/100%) the knowledge of the first share of them (each run's
own knowledge file, merged) is loaded, and one paraphrase of *every* completed
task is run with it (replayed when it matches a known intent, explored
otherwise; knowledge is not updated between these runs). Reported per share:
success, redundancy, how many commands replayed and how many of those
succeeded; plotted into bench/results/explore_knowledge.png.

``--describer truth`` reads the simulator's ground-truth screens instead of the
vision pipeline (the screens are what the pipeline aims to produce; this makes a
run ~10x faster on a loaded CPU) - the figures say which one was used.

    .venv/bin/python bench/explore.py [--describer vision|truth] [--per-app N]
        [--tasks ID,...] [--shares 0,20,40,60,80,100] [--baseline] [--no-knowledge]

Writes bench/results/explore.json.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tasks import TaskResult, correct_prefix, describer_for, step_words, summarise

from screenpilot.core.offline import enforce_offline

enforce_offline()

from screenpilot.agent import Agent, RunOptions  # noqa: E402
from screenpilot.autotask import NO, STOP, YES, AutoTaskAgent, Summary  # noqa: E402
from screenpilot.errors import ScreenpilotError  # noqa: E402
from screenpilot.executor.adb import AdbDevice  # noqa: E402
from screenpilot.language.taskparse import parse_task  # noqa: E402
from screenpilot.model import ActionKind, Step, Trajectory  # noqa: E402
from screenpilot.pbd.embed import load_embedder  # noqa: E402
from screenpilot.pbd.knowledge import Knowledge  # noqa: E402
from screenpilot.planner.autotask import (  # noqa: E402
    AutoTaskPlanner,
    HeuristicChecker,
    HeuristicScorer,
)
from screenpilot.planner.offline import HeuristicPlanner  # noqa: E402
from screenpilot.planner.safety import KeywordSafety  # noqa: E402
from screenpilot.simulator.phone import VirtualPhone  # noqa: E402
from screenpilot.simulator.serve import serve_phone  # noqa: E402
from screenpilot.simulator.tasks import Task, all_tasks  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
MODEL = "all-MiniLM-L6-v2"
BUDGET = 20


@dataclass
class Run:
    result: TaskResult
    backtracks: int = 0
    replayed: bool = False
    replay_failed: str = ""
    command: str = ""
    answer: str = ""
    knowledge: dict[str, Any] = field(default_factory=dict)

    def row(self) -> dict[str, Any]:
        return {
            **self.result.__dict__,
            "accuracy": self.result.accuracy,
            "redundancy": self.result.redundancy,
            "backtracks": self.backtracks,
            "replayed": self.replayed,
            "replay_failed": self.replay_failed,
            "command": self.command,
            "answer": self.answer,
        }


def _score(
    task: Task, steps: Sequence[Step], success: bool, outcome: str, seconds: float
) -> TaskResult:
    acted = [s for s in steps if s.action.kind not in (ActionKind.STOP, ActionKind.HANDOVER)]
    words = [step_words(s) for s in acted]
    correct = correct_prefix(words, task.solution) if task.solution else 0
    return TaskResult(task.id, success, len(acted), correct, task.min_steps, outcome, seconds)


def explore_task(
    task: Task, command: str, describer_kind: str, out: Path, knowledge: Knowledge | None = None
) -> Run:
    """One exploring run from a fresh phone; the person's answer is the task's check."""
    encode = load_embedder(MODEL).encode
    phone = VirtualPhone()
    task.setup(phone)
    k = knowledge if knowledge is not None else Knowledge()
    heuristic = HeuristicPlanner(encode, max_steps=BUDGET)
    planner = AutoTaskPlanner(
        HeuristicScorer(heuristic), heuristic.encode, proposer=heuristic, targets=k.targets
    )

    def person(summary: Summary) -> str:
        return YES if task.check(phone) else (STOP if summary.exhausted else NO)

    start = time.perf_counter()
    with serve_phone(phone) as serial:
        agent = AutoTaskAgent(
            AdbDevice(serial),
            describer_for(describer_kind, phone),
            planner,
            checker=HeuristicChecker(planner, max_steps=BUDGET),
            knowledge=k,
            encode=encode,
            confirm=person,
            budget=BUDGET,
            max_rounds=2,
            options=RunOptions(
                out=out, max_steps=BUDGET + 6, settle_timeout=2.0, settle_interval=0.05
            ),
            safety=KeywordSafety(),
            handover=None,
        )
        try:
            res = agent.explore(command)
            traj, outcome = res.trajectory, res.trajectory.outcome.value
            backtracks, match, failed, answer = (
                res.backtracks,
                res.match,
                res.replay_failed,
                res.answer,
            )
        except ScreenpilotError as exc:
            traj = Trajectory.from_json((out / "trajectory.json").read_text())
            outcome, backtracks, match, failed, answer = type(exc).__name__, 0, None, "", ""
    success = task.check(phone)
    result = _score(task, traj.steps, success, outcome, time.perf_counter() - start)
    return Run(result, backtracks, match is not None, failed, command, answer, k.to_dict())


def baseline_task(task: Task, describer_kind: str, out: Path) -> TaskResult:
    """The plain offline planner on the same describer (no checking, no backtracking)."""
    encode = load_embedder(MODEL).encode
    phone = VirtualPhone()
    task.setup(phone)
    start = time.perf_counter()
    with serve_phone(phone) as serial:
        agent = Agent(
            AdbDevice(serial),
            describer_for(describer_kind, phone),
            HeuristicPlanner(encode, max_steps=BUDGET),
            options=RunOptions(out=out, max_steps=BUDGET, settle_timeout=2.0, settle_interval=0.05),
            safety=KeywordSafety(),
            handover=None,
        )
        try:
            traj = agent.run(task.command)
            outcome = traj.outcome.value
        except ScreenpilotError as exc:
            traj = Trajectory.from_json((out / "trajectory.json").read_text())
            outcome = type(exc).__name__
    return _score(task, traj.steps, task.check(phone), outcome, time.perf_counter() - start)


def paraphrase(task: Task) -> str:
    """The first paraphrase that carries the command's parameter values (for replay)."""
    want = len(parse_task(task.command).values)
    for p in task.paraphrases:
        if len(parse_task(p).values) == want:
            return p
    return task.paraphrases[0] if task.paraphrases else task.command


def knowledge_of(runs: Sequence[Run]) -> Knowledge:
    k = Knowledge()
    for r in runs:
        k.merge(Knowledge.from_dict(r.knowledge))
    return k


def pick(args: argparse.Namespace) -> list[Task]:
    tasks = [t for t in all_tasks() if not t.sensitive]
    if args.tasks:
        wanted = [x.strip() for x in args.tasks.split(",") if x.strip()]
        tasks = [t for t in tasks if t.id in wanted]
    elif args.per_app:
        by_app: dict[str, list[Task]] = {}
        for t in tasks:
            by_app.setdefault(t.app, []).append(t)
        tasks = [t for group in by_app.values() for t in group[: args.per_app]]
    return tasks


def plot(shares: list[dict[str, Any]], path: Path, describer: str) -> Path:
    xs = [s["share"] * 100 for s in shares]
    success = [s["success_rate"] for s in shares]
    redundancy = [s["step_redundancy"] for s in shares]
    extra = [s["extra_steps"] for s in shares]
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(6, 4), dpi=120)
        ax.plot(xs, success, "o-", label="success rate")
        ax.plot(xs, redundancy, "s-", label="step redundancy (solution labels)")
        ax.plot(xs, extra, "^--", label="steps beyond the minimum")
        ax.set_xlabel("share of completed tasks in the knowledge (%)")
        ax.set_ylim(0, 1.05)
        ax.set_title(f"Knowledge vs success and redundancy ({describer} screens)")
        ax.grid(alpha=0.3)
        ax.legend()
        fig.tight_layout()
        fig.savefig(path)
        plt.close(fig)
    except ImportError:
        from PIL import Image, ImageDraw

        img = Image.new("RGB", (640, 420), "white")
        d = ImageDraw.Draw(img)
        d.rectangle((60, 20, 620, 380), outline="black")
        for values, colour in ((success, "blue"), (redundancy, "red"), (extra, "orange")):
            pts = [(60 + x / 100 * 560, 380 - v * 360) for x, v in zip(xs, values, strict=True)]
            d.line(pts, fill=colour, width=3)
        d.text((70, 390), "share of knowledge 0-100%  blue: success  red: redundancy", fill="black")
        img.save(path)
    return path


def summary_row(runs: Sequence[Run]) -> dict[str, Any]:
    out: dict[str, Any] = dict(summarise([r.result for r in runs]))
    # bench/tasks.py's redundancy counts a step as correct when its label is the
    # solution's; another element of the same row (the Wi-Fi icon of 'Network &
    # internet') counts as redundant. This one counts steps beyond the minimum.
    out["extra_steps"] = statistics.mean(
        max(0, r.result.executed - r.result.min_steps) / r.result.executed
        if r.result.executed
        else 0.0
        for r in runs
    )
    out["backtracks_per_task"] = statistics.mean(r.backtracks for r in runs)
    replayed = [r for r in runs if r.replayed]
    out["replayed"] = len(replayed)
    out["replay_success_rate"] = (
        sum(r.result.success for r in replayed) / len(replayed) if replayed else None
    )
    return out


def show(label: str, summary: dict[str, Any]) -> None:
    print(
        f"{label}: "
        + ", ".join(
            f"{k} {v:.3f}" if isinstance(v, float) else f"{k} {v}" for k, v in summary.items()
        ),
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--describer", choices=("vision", "truth"), default="vision")
    parser.add_argument("--tasks", default="", help="Comma-separated task ids.")
    parser.add_argument("--per-app", type=int, default=0, help="Only the first N tasks per app.")
    parser.add_argument("--shares", default="0,20,40,60,80,100")
    parser.add_argument(
        "--baseline",
        action="store_true",
        help="Also run the plain offline planner on the same tasks.",
    )
    parser.add_argument("--no-knowledge", action="store_true", help="Part 1 only.")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=RESULTS / "explore.json")
    parser.add_argument(
        "--threads",
        type=int,
        default=1,
        help="torch threads for the embedder (1 is fastest on a busy CPU).",
    )
    args = parser.parse_args()
    import torch

    torch.set_num_threads(args.threads)
    tasks = pick(args)
    runs_dir = RESULTS / f"runs-explore-{args.describer}"
    t0 = time.perf_counter()
    report: dict[str, Any] = {
        "describer": args.describer,
        "budget": BUDGET,
        "command": " ".join(sys.argv),
        "tasks": [t.id for t in tasks],
    }
    print(f"part 1: exploring {len(tasks)} tasks ({args.describer} screens)", flush=True)
    runs: list[Run] = []
    for i, task in enumerate(tasks, 1):
        r = explore_task(task, task.command, args.describer, runs_dir / task.id)
        runs.append(r)
        res = r.result
        print(
            f"[{i}/{len(tasks)}] {'ok ' if res.success else 'NO '} {task.id:32s} "
            f"{res.executed:2d}/{res.min_steps} steps acc {res.accuracy:.2f} "
            f"backtracks {r.backtracks} {res.outcome:10s} {res.seconds:5.1f}s",
            flush=True,
        )
    report["exploration"] = {"summary": summary_row(runs), "runs": [r.row() for r in runs]}
    show("exploration", report["exploration"]["summary"])
    if args.baseline:
        base = []
        for i, task in enumerate(tasks, 1):
            b = baseline_task(task, args.describer, runs_dir / f"baseline-{task.id}")
            base.append(b)
            print(
                f"[baseline {i}/{len(tasks)}] {'ok ' if b.success else 'NO '} {task.id:32s} "
                f"{b.executed:2d}/{b.min_steps} steps {b.seconds:5.1f}s",
                flush=True,
            )
        base_summary: dict[str, Any] = dict(summarise(base))
        base_summary["extra_steps"] = statistics.mean(
            max(0, b.executed - b.min_steps) / b.executed if b.executed else 0.0 for b in base
        )
        report["baseline"] = {"summary": base_summary, "runs": [b.__dict__ for b in base]}
        show("baseline (heuristic planner)", report["baseline"]["summary"])
    if not args.no_knowledge:
        completed = [r for r in runs if r.result.success]
        random.Random(args.seed).shuffle(completed)
        by_id = {t.id: t for t in tasks}
        shares = [int(s) / 100 for s in args.shares.split(",") if s.strip()]
        rows = []
        print(
            f"part 2: knowledge from 0-100% of {len(completed)} completed tasks; "
            f"{len(completed)} paraphrases per share",
            flush=True,
        )
        for share in shares:
            known = completed[: round(share * len(completed))]
            known_ids = {r.result.id for r in known}
            test_runs = []
            for r in completed:
                task = by_id[r.result.id]
                k = knowledge_of(known)
                tr = explore_task(
                    task,
                    paraphrase(task),
                    args.describer,
                    runs_dir / f"k{round(share * 100)}-{task.id}",
                    knowledge=k,
                )
                tr.knowledge = {}
                test_runs.append(tr)
                res = tr.result
                print(
                    f"  [{round(share * 100):3d}%] {'ok ' if res.success else 'NO '} "
                    f"{task.id:32s} {'known  ' if task.id in known_ids else 'unknown'} "
                    f"{'replay' if tr.replayed else 'explore'}"
                    f"{' (failed: ' + tr.replay_failed + ')' if tr.replay_failed else ''} "
                    f"{res.executed:2d}/{res.min_steps} steps {res.seconds:5.1f}s",
                    flush=True,
                )
            row = {
                "share": share,
                "known": sorted(known_ids),
                **summary_row(test_runs),
                "runs": [t.row() for t in test_runs],
            }
            rows.append(row)
            show(
                f"share {round(share * 100)}%",
                {k: v for k, v in row.items() if k not in ("runs", "known")},
            )
        report["knowledge"] = rows
        if rows:
            png = plot(rows, RESULTS / "explore_knowledge.png", args.describer)
            report["plot"] = str(png.relative_to(RESULTS.parent.parent))
            print(f"wrote {png}")
    report["seconds"] = time.perf_counter() - t0
    for r in runs:
        r.knowledge = {}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1, default=str))
    print(f"wrote {args.out} ({report['seconds'] / 60:.1f} min)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
