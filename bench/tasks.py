"""Task-suite benchmark: run the agent on the virtual phone's tasks (figures, not a test).

For every task: a fresh virtual phone over real adb, the task's setup, one run of
the agent, and the task's own check of the phone's state. Reported with the
AutoTask evaluation's definitions:

- success rate: share of tasks whose check holds after the run;
- step accuracy: the longest prefix of the minimal solution found, in order, among
  the executed steps, over the minimal length;
- step redundancy: (executed - correct) / executed;
- non-redundant completion: share of tasks done in exactly the minimal steps.

    .venv/bin/python bench/tasks.py [--planner heuristic|scripted] [--limit N] [--app APP]
                                    [--long-pages [on|off|both]]
                                    [--describer vision|truth] [--paraphrase K]
                                    [--wordings NAME] [--tag TAG]

``--wordings fresh`` runs every wording of bench/wordings/fresh.json for each task
(three each, written before the command-language work and never tuned on) instead of
its command. A run whose agent says "done" while the phone's check disagrees is a
false done claim; the summary counts them. ``--tag base`` names the result files, so
today's planner can be run beside a changed one in the same session:
``PYTHONPATH=/tmp/base_pkg .venv/bin/python bench/tasks.py --tag base`` (a folder
``screenpilot/`` whose parts link to an older checkout).

``--planner scripted`` drives the LLM planner with a ``ScriptedLLM`` that
answers from the task's minimal solution: it proves the chain-of-screens loop
(prompting, parsing, acting), not a model. Against a real endpoint:
``SCREENPILOT_LLM_BASE_URL=... SCREENPILOT_LLM_MODEL=... bench/tasks.py --planner llm``.
Writes bench/results/tasks-PLANNER.json.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from screenpilot import build
from screenpilot.agent import Agent, Describer, RunOptions
from screenpilot.config import Config, load_config
from screenpilot.errors import ScreenpilotError
from screenpilot.executor.adb import AdbDevice
from screenpilot.language.taskparse import norm
from screenpilot.model import ActionKind, ElementKind, Screen, Step
from screenpilot.planner.base import Planner
from screenpilot.planner.llm import ScriptedLLM
from screenpilot.planner.offline import acted_on
from screenpilot.planner.safety import KeywordSafety
from screenpilot.simulator.phone import VirtualPhone
from screenpilot.simulator.serve import serve_phone
from screenpilot.simulator.tasks import Task, all_tasks

RESULTS = Path(__file__).resolve().parent / "results"
WORDINGS = Path(__file__).resolve().parent / "wordings"


@dataclass
class TaskResult:
    id: str
    success: bool
    executed: int
    correct: int
    min_steps: int
    outcome: str
    seconds: float
    command: str = ""

    @property
    def false_done(self) -> bool:
        """The agent said done while the phone's own check disagrees."""
        return self.outcome == "success" and not self.success

    @property
    def accuracy(self) -> float:
        return self.correct / self.min_steps

    @property
    def redundancy(self) -> float:
        return (self.executed - self.correct) / self.executed if self.executed else 0.0


def step_words(step: Step) -> str:
    """An executed step in the words of the task suite's solutions."""
    a = step.action
    label = ""
    target = acted_on(step)
    if target is not None:
        label = target.label
    if (
        a.kind in (ActionKind.TAP, ActionKind.SWIPE)
        and a.element is None
        and target is not None
        and target.kind is ElementKind.SEEK_BAR
    ):
        return f"drag the '{label}' slider"  # a tap on the track sets the level
    if a.kind is ActionKind.TAP:
        return f"tap '{label}'"
    if a.kind is ActionKind.TYPE:
        return f"type '{a.text}'"
    if a.kind is ActionKind.SCROLL:
        return f"scroll {a.direction}"
    return a.kind.value


def matches(executed: str, wanted: str) -> bool:
    """Whether an executed step is the solution step (labels compared loosely)."""
    quoted = re.findall(r"'([^']+)'", wanted)
    verb = wanted.split()[0].lower()
    if not executed.startswith(verb.replace("press", "back")):
        return executed.split()[0] == verb
    if not quoted:
        return executed.split()[:2] == wanted.lower().split()[:2]
    got = re.findall(r"'([^']*)'", executed)
    if not got:
        return False
    a, b = norm(got[0]), norm(quoted[0])
    # a switch's label may carry its state or summary as read ("Wi-Fi Off")
    return (
        a == b or (len(b) >= 3 and a.startswith(b + " ")) or (len(a) >= 3 and b.startswith(a + " "))
    )


def correct_prefix(executed: Sequence[str], solution: Sequence[str]) -> int:
    """Length of the longest prefix of ``solution`` that is a subsequence of ``executed``."""
    i = 0
    for step in executed:
        if i < len(solution) and matches(step, solution[i]):
            i += 1
    return i


#: What the benchmark pins whatever the user's configuration says; the LLM endpoint of
#: ``--planner llm`` (and its timeout, deadline and retries) come from the configuration.
PINNED = {"embed.model": "all-MiniLM-L6-v2", "planner.max_steps": 20, "vision.ocr_threshold": 0.90}


def bench_config(planner_kind: str = "heuristic") -> Config:
    """The configuration a benchmark run builds its parts from (``build``)."""
    kind = "heuristic" if planner_kind == "heuristic" else "llm"
    return load_config({**PINNED, "planner.kind": kind})


def planner_for(kind: str, task: Task) -> Planner:
    """The planner of ``--planner``: heuristic, llm (the configured endpoint) or scripted
    (a ``ScriptedLLM`` following the task's minimal solution)."""
    if kind == "scripted":
        chat = ScriptedLLM([_solution_answer(task)] * (task.min_steps + 6))
        return build.planner(bench_config(kind), chat=chat)
    return build.planner(bench_config(kind))


def find_label(screen: str, label: str) -> int | None:
    """The id of the element whose quoted text is ``label`` (exactly, else as a prefix)."""
    want = norm(label)
    lines = [
        (int(m.group(1)), [norm(q) for q in re.findall(r"'([^']*)'", line)])
        for line in screen.splitlines()
        if (m := re.match(r"\s*\[(\d+)\] ", line))
    ]
    for eid, texts in lines:
        if want in texts:
            return eid
    for eid, texts in lines:
        if any(t.startswith(want + " ") for t in texts):
            return eid
    return None


def _solution_answer(task: Task) -> Any:
    """A scripted LLM that follows the task's minimal solution by label on each screen."""
    done: list[str] = []

    def answer(messages: Sequence[dict[str, Any]]) -> str:
        text = str(messages[-1]["content"])
        screen = text[text.rfind("<screen>") : text.rfind("</screen>")]
        if len(done) >= len(task.solution):
            return json.dumps({"action": "stop", "done": True, "reason": "solution done"})
        want = task.solution[len(done)]
        done.append(want)
        quoted = re.findall(r"'([^']+)'", want)
        verb = want.split()[0].lower()
        if verb == "type" and quoted:
            field = find_label(screen, quoted[1]) if len(quoted) > 1 else None
            return json.dumps(
                {
                    "action": "type",
                    "text": quoted[0],
                    "reason": want,
                    **({"element": field} if field is not None else {}),
                }
            )
        if verb == "scroll":
            return json.dumps({"action": "scroll", "direction": want.split()[-1], "reason": want})
        if verb in ("back", "press"):
            return json.dumps({"action": "back", "reason": want})
        eid = find_label(screen, quoted[0]) if quoted else None
        if eid is not None:
            return json.dumps({"action": "tap", "element": eid, "reason": want})
        return json.dumps({"action": "stop", "done": False, "reason": f"cannot see {want}"})

    return answer


class TruthDescriber:
    """The simulator's ground truth as the screen (``--describer truth``): measures
    planning without vision's errors."""

    def __init__(self, phone: VirtualPhone) -> None:
        self.phone = phone

    def describe(self, image: Any) -> Screen:
        return self.phone.screen(captured=True)


def describer_for(kind: str, phone: VirtualPhone) -> Describer:
    """``--describer``: the simulator's truth, or vision as ``screenpilot run`` builds it."""
    if kind == "truth":
        return TruthDescriber(phone)
    return build.describer(bench_config(), phone)


def load_wordings(name: str) -> dict[str, list[str]]:
    """A wording set of bench/wordings/: task id -> the wordings to run instead of its
    command."""
    path = WORDINGS / f"{name}.json"
    if not path.is_file():
        known = sorted(p.stem for p in WORDINGS.glob("*.json"))
        raise SystemExit(f"no wording set {name!r} (known: {', '.join(known)})")
    tasks = json.loads(path.read_text(encoding="utf-8"))["tasks"]
    return {str(k): [str(w) for w in v] for k, v in tasks.items()}


def run_task(
    task: Task,
    planner_kind: str,
    out: Path,
    long_pages: bool = False,
    describer: str = "vision",
    paraphrase: int = 0,
    command: str = "",
    run_id: str = "",
) -> TaskResult:
    """One run of ``task`` (its command, its ``paraphrase``-th paraphrase, 1-based, or
    the given ``command``); ``run_id`` names its run folder (the task's id)."""
    run_id = run_id or task.id
    shutil.rmtree(out / run_id, ignore_errors=True)  # no screenshots of an older run
    phone = VirtualPhone()
    task.setup(phone)
    start = time.perf_counter()
    outcome = "error"
    steps: list[Step] = []
    with serve_phone(phone) as serial:
        agent = Agent(
            AdbDevice(serial),
            describer_for(describer, phone),
            planner_for(planner_kind, task),
            options=RunOptions(
                out=out / run_id,
                max_steps=20,
                settle_timeout=2.0,
                settle_interval=0.05,
                long_pages=long_pages,
            ),
            safety=KeywordSafety(),
            handover=None,
        )
        command = command or (task.paraphrases[paraphrase - 1] if paraphrase else task.command)
        try:
            traj = agent.run(command)
            outcome, steps = traj.outcome.value, list(traj.steps)
        except ScreenpilotError as exc:
            outcome = type(exc).__name__
            saved = json.loads((out / run_id / "trajectory.json").read_text())
            steps = [Step.from_dict(s) for s in saved["steps"]]
    acted = [s for s in steps if s.action.kind is not ActionKind.STOP]
    words = [step_words(s) for s in acted]
    correct = correct_prefix(words, task.solution) if task.solution else 0
    return TaskResult(
        run_id,
        task.check(phone),
        len(acted),
        correct,
        task.min_steps,
        outcome,
        time.perf_counter() - start,
        command,
    )


def summarise(results: list[TaskResult]) -> dict[str, float]:
    n = len(results)
    return {
        "tasks": n,
        "success_rate": sum(r.success for r in results) / n,
        "step_accuracy": statistics.mean(r.accuracy for r in results),
        "step_redundancy": statistics.mean(r.redundancy for r in results),
        "non_redundant_completion": sum(r.success and r.executed == r.min_steps for r in results)
        / n,
        "seconds_per_task": statistics.mean(r.seconds for r in results),
        "false_done": sum(r.false_done for r in results),
    }


def parse_shard(text: str) -> tuple[int, int] | None:
    """``"1/2"`` -> ``(1, 2)``; ``None`` when it is not K/N with 1 <= K <= N."""
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
    if m is None:
        return None
    k, n = int(m.group(1)), int(m.group(2))
    return (k, n) if 1 <= k <= n else None


def merge(paths: Sequence[str], tag: str) -> int:
    """Join shards' result files into ``tasks-TAG.json`` beside the first; print its summary."""
    results: list[TaskResult] = []
    for path in paths:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
            results += [TaskResult(**t) for t in data["tasks"]]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            print(f"error: {path} is not a result file of bench/tasks.py ({exc})", file=sys.stderr)
            return 2
    if not results:
        print("error: the files hold no runs", file=sys.stderr)
        return 2
    summary = summarise(results)
    out = Path(paths[0]).parent / f"tasks-{tag}.json"
    out.write_text(
        json.dumps({"summary": summary, "tasks": [r.__dict__ for r in results]}, indent=1)
    )
    for key, value in summary.items():
        print(f"{key:26s} {value:.3f}" if isinstance(value, float) else f"{key:26s} {value}")
    print(f"wrote {out}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description="Run the agent on the task suite.")
    parser.add_argument("--planner", choices=("heuristic", "scripted", "llm"), default="heuristic")
    parser.add_argument("--limit", type=int, default=0, help="Only the first N tasks.")
    parser.add_argument("--app", default="", help="Only tasks of this app (package part).")
    parser.add_argument(
        "--task", default="", help="Only these tasks (comma-separated ids, e.g. clock_alarm_645am)."
    )
    parser.add_argument(
        "--long-pages",
        choices=("off", "on", "both"),
        default="off",
        nargs="?",
        const="on",
        help="Capture scrolling pages whole before planning; 'both' runs "
        "every task both ways, one after the other, and compares.",
    )
    parser.add_argument(
        "--describer",
        choices=("vision", "truth"),
        default="vision",
        help="vision (default: the product's pipeline on screenshots) or "
        "truth (the simulator's own screens: planning alone).",
    )
    parser.add_argument(
        "--paraphrase",
        type=int,
        default=0,
        metavar="K",
        help="Run each task's K-th paraphrase (1-3) instead of its command: "
        "wordings the offline planner was not tuned on.",
    )
    parser.add_argument(
        "--wordings",
        default="",
        metavar="NAME",
        help="Run every wording of bench/wordings/NAME.json for each task "
        "(e.g. fresh: held-out wordings) instead of its command.",
    )
    parser.add_argument(
        "--shuffle",
        type=int,
        default=None,
        metavar="SEED",
        help="Run in a shuffled order (the same SEED, the same order): a run "
        "cut short is still a sample of every app.",
    )
    parser.add_argument(
        "--shard",
        default="",
        metavar="K/N",
        help="Run only every N-th run, starting with the K-th (1-based): N processes "
        "side by side on N cores; --merge joins their results.",
    )
    parser.add_argument(
        "--merge",
        nargs="+",
        default=None,
        metavar="JSON",
        help="Join the result files of shards (bench/results/tasks-*.json) into one "
        "beside them, named by --tag, print its summary and exit.",
    )
    parser.add_argument(
        "--tag", default="", help="Added to the result names (e.g. base for today's planner)."
    )
    parser.add_argument(
        "--include-sensitive",
        action="store_true",
        help="Also run tasks that need a handover (they end in safety_stop).",
    )
    args = parser.parse_args()
    if args.merge:
        return merge(args.merge, args.tag or "merged")
    shard = parse_shard(args.shard) if args.shard else None
    if args.shard and shard is None:
        parser.error(f"--shard {args.shard}: write K/N with 1 <= K <= N, e.g. 1/2")
    if args.paraphrase < 0:
        parser.error("--paraphrase counts from 1")
    if args.paraphrase and args.wordings:
        parser.error("--paraphrase and --wordings are two different wordings: pick one")
    wordings = load_wordings(args.wordings) if args.wordings else {}
    tasks = [
        t
        for t in all_tasks()
        if args.app in t.app
        and (args.include_sensitive or not t.sensitive)
        and len(t.paraphrases) >= args.paraphrase
    ]
    if args.task:
        wanted = {t.strip() for t in args.task.split(",") if t.strip()}
        unknown = wanted - {t.id for t in all_tasks()}
        if unknown:
            parser.error(f"unknown task ids: {', '.join(sorted(unknown))}")
        tasks = [t for t in tasks if t.id in wanted]
    if args.limit:
        tasks = tasks[: args.limit]
    if not tasks:
        parser.error(
            "no task matches (--app, --task, --paraphrase: tasks have at most 3 "
            "paraphrases; `screenpilot tasks` lists them)"
        )
    sel = (
        ("-sel" if args.task or args.app or args.limit else "")
        + (f"-para{args.paraphrase}" if args.paraphrase else "")
        + (f"-{args.wordings}" if args.wordings else "")
        + (f"-{args.tag}" if args.tag else "")
        + (f"-shard{shard[0]}of{shard[1]}" if shard else "")
    )
    import screenpilot

    print(f"planner code: {Path(screenpilot.__file__).resolve().parent.parent}", flush=True)
    truth = "-truth" if args.describer == "truth" else ""
    modes = {"off": [False], "on": [True], "both": [False, True]}[args.long_pages]
    results: dict[bool, list[TaskResult]] = {m: [] for m in modes}
    runs: list[tuple[Task, str, str]] = []
    for task in tasks:
        if wordings:
            runs.extend(
                (task, w, f"{task.id}#{k}") for k, w in enumerate(wordings.get(task.id, []), 1)
            )
        else:
            runs.append((task, "", task.id))
    if args.shuffle is not None:
        import random

        random.Random(args.shuffle).shuffle(runs)
    if shard is not None:
        runs = runs[shard[0] - 1 :: shard[1]]
    for task, command, run_id in runs:
        for long_pages in modes:
            name = args.planner + ("-long" if long_pages else "") + truth + sel
            r = run_task(
                task,
                args.planner,
                RESULTS / f"runs-{name}",
                long_pages,
                args.describer,
                args.paraphrase,
                command,
                run_id,
            )
            results[long_pages].append(r)
            print(
                f"{'ok ' if r.success else 'NO '} {run_id:40s}{' long' if long_pages else ''}"
                f" {r.executed:2d}/{r.min_steps} steps  acc {r.accuracy:.2f}  "
                f"{r.outcome:12s} {r.seconds:5.1f}s"
                f"{'  FALSE DONE' if r.false_done else ''}",
                flush=True,
            )
    RESULTS.mkdir(parents=True, exist_ok=True)
    summaries = {m: summarise(rs) for m, rs in results.items()}
    for long_pages, summary in summaries.items():
        name = args.planner + ("-long" if long_pages else "") + truth + sel
        path = RESULTS / f"tasks-{name}.json"
        path.write_text(
            json.dumps(
                {"summary": summary, "tasks": [r.__dict__ for r in results[long_pages]]}, indent=1
            )
        )
        print(f"-- long pages {'on' if long_pages else 'off'}")
        for key, value in summary.items():
            print(f"{key:26s} {value:.3f}" if isinstance(value, float) else f"{key:26s} {value}")
        print(f"wrote {path}")
    if len(modes) == 2:
        off, on = summaries[False], summaries[True]
        steps = {m: statistics.mean(r.executed for r in rs) for m, rs in results.items()}
        compare = {
            "success_off": off["success_rate"],
            "success_on": on["success_rate"],
            "steps_off": steps[False],
            "steps_on": steps[True],
            "seconds_off": off["seconds_per_task"],
            "seconds_on": on["seconds_per_task"],
            "seconds_ratio_on_off": on["seconds_per_task"] / off["seconds_per_task"],
            "steps_ratio_on_off": steps[True] / max(steps[False], 1e-9),
        }
        path = RESULTS / f"tasks-{args.planner}{truth}{sel}-long-pages.json"
        path.write_text(json.dumps(compare, indent=1))
        print("-- long pages on vs off, side by side")
        for key, value in compare.items():
            print(f"{key:26s} {value:.3f}")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
