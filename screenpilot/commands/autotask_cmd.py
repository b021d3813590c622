"""``screenpilot autotask "TASK"``: explore and learn (AutoTask).

Runs a task the way ``run`` does, but checks every step, backtracks from wrong
ones, and learns: transitions between pages, lessons from the steps it undid,
and - once the person confirms the summary - the task's intent, parameters and
shortest path. A later command with the same intent replays that path with its
own values. See ``screenpilot/autotask.py``. ``explore-task`` is its old name, kept
hidden for one release.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from screenpilot import build
from screenpilot.commands.common import (
    DEVICE_OPTION,
    TASK_ARGUMENT,
    VIRTUAL_OPTION,
    ask_person,
    config_from,
    console,
    err_console,
    loading_model,
    show_files,
)
from screenpilot.config import Config

if TYPE_CHECKING:
    from screenpilot.agent import StepEvent
    from screenpilot.autotask import AutoTaskResult, Summary


def register(app: typer.Typer) -> None:
    app.command("autotask")(autotask)
    app.command("explore-task", hidden=True)(autotask)  # the old name, for one release


def ask_summary(summary: Summary) -> str:
    """The completion summary in the terminal; the person answers yes / no / stop."""
    err_console.print(
        f"\n[bold]Summary:[/bold] the shortest path found for [bold]{summary.task}[/bold]",
        highlight=False,
    )
    for line in summary.lines():
        err_console.print(f"  {line}", highlight=False)
    err_console.print(
        "Is the task done? [y]es (learn it) / [n]o, keep exploring / [s]top (learn nothing)"
    )
    try:
        answer = input("> ").strip().lower()
    except EOFError:
        return "stop"
    if answer in ("y", "yes", ""):
        return "yes"
    return "no" if answer in ("n", "no") else "stop"


def execute_explore(
    cfg: Config,
    task: str,
    serial: str,
    *,
    out: Path,
    kpath: Path,
    attended: bool,
    allow: list[str],
    replay: bool,
) -> AutoTaskResult:
    """Build the exploring agent and run ``task``; prints each step as it happens."""
    from screenpilot.autotask import AutoTaskAgent, save_summary_images, unattended
    from screenpilot.executor.adb import AdbDevice
    from screenpilot.pbd.knowledge import Knowledge
    from screenpilot.planner.base import PlanHints
    from screenpilot.planner.safety import KeywordSafety

    device = AdbDevice.connect(serial, capture=cfg["device.capture"])
    knowledge = Knowledge.load(kpath)
    with loading_model():
        embedder = build.encoder(cfg)
    budget = cfg["autotask.max_steps"]
    planner, checker, llm = build.autotask_planning(cfg, embedder.encode, knowledge.targets)

    def show(event: StepEvent) -> None:
        step = event.step
        mark = " [dim](undone)[/dim]" if step.undone else ""
        console.print(
            f"[bold]{step.index + 1:>2}.[/bold] {step.action.describe(step.before)}{mark}",
            highlight=False,
        )
        if step.reason:
            console.print(f"    [dim]{step.reason}[/dim]", highlight=False)

    def confirm(summary: Summary) -> str:
        images = save_summary_images(summary, out)
        if images:
            console.print(f"summary screenshots: {images[0].parent}/summary_*.png", highlight=False)
        if not attended:
            answer = unattended(summary)
            console.print(
                "summary:\n"
                + "\n".join(f"  {x}" for x in summary.lines())
                + f"\nunattended (--yes): {answer}",
                highlight=False,
            )
            return answer
        return ask_summary(summary)

    options = build.run_options(
        cfg,
        out,
        allow=allow,
        hints=PlanHints(knowledge=tuple(knowledge.notes(task, embedder.encode))),
        max_steps=budget + 6,
    )
    agent = AutoTaskAgent(
        device,
        build.describer(cfg, device),
        planner,
        checker=checker,
        knowledge=knowledge,
        encode=embedder.encode,
        confirm=confirm,
        budget=budget,
        replay=replay,
        lesson_llm=llm,
        options=options,
        safety=KeywordSafety(),
        handover=ask_person if attended else None,
        on_step=show,
        planner_name=f"explore-{cfg['planner.kind']}",
    )
    match = agent.start_replay(task)
    console.print(f"task: [bold]{task}[/bold]  phone {serial}  knowledge {kpath}", highlight=False)
    if match is not None:
        k = match.knowledge
        console.print(
            f"known task '{k.intent}' (from \"{k.command}\", match {match.score:.2f}): "
            f"replaying its {len(k.path)} steps with {list(match.values)}",
            highlight=False,
        )
    try:
        return agent.explore(task, match=match)
    finally:
        show_files(agent.report_path, agent.trajectory_path)


def autotask(
    ctx: typer.Context,
    task: str = TASK_ARGUMENT,
    device: str | None = DEVICE_OPTION,
    virtual: bool = VIRTUAL_OPTION,
    yes: bool = typer.Option(
        False,
        "--yes",
        "-y",
        help="Unattended: accept the summary when the agent judged the "
        "task done, and stop (exit 7) at a sensitive screen.",
    ),
    knowledge: Path | None = typer.Option(
        None,
        "--knowledge",
        metavar="PATH",
        help="Knowledge file (default: knowledge.path, else knowledge.json in the store folder).",
    ),
    planner: str | None = typer.Option(None, help="heuristic (offline) or llm."),
    max_steps: int | None = typer.Option(None, help="More actions than this count as done (20)."),
    replay: bool | None = typer.Option(
        None, "--replay/--no-replay", help="Replay a known task's path (default on)."
    ),
    out: Path | None = typer.Option(None, help="Folder for runs (default: runs/)."),
    allow: list[str] = typer.Option(
        [], "--allow", metavar="CATEGORY", help="Pre-approve a sensitive category."
    ),
) -> None:
    """Explore a task and learn from it: check each step, backtrack from wrong ones,
    summarise the shortest path, and replay known tasks with new values."""
    cfg = config_from(
        ctx,
        **{
            "device.serial": device,
            "planner.kind": planner,
            "autotask.max_steps": max_steps,
            "autotask.replay": replay,
            "run.out": str(out) if out else None,
        },
    )
    folder = build.run_folder(Path(cfg["run.out"]), task)
    kpath = build.knowledge_path(cfg, knowledge)
    attended = not yes and sys.stdin.isatty()
    allowed = build.check_allow([*cfg["safety.allow"], *allow])
    kwargs = {
        "out": folder,
        "kpath": kpath,
        "attended": attended,
        "allow": allowed,
        "replay": cfg["autotask.replay"],
    }
    with build.on_phone(cfg, virtual) as (serial, _):
        result = execute_explore(cfg, task, serial, **kwargs)
    _finish(result, kpath)


def _finish(result: AutoTaskResult, kpath: Path) -> None:
    from screenpilot.model import Outcome

    traj = result.trajectory
    learned = ""
    if result.knowledge is not None:
        k = result.knowledge
        learned = f"; learned '{k.intent}' ({len(k.path)} steps, parameters {list(k.params)})"
    console.print(f"knowledge: {kpath}{learned}; {result.backtracks} backtracks", highlight=False)
    colour = "green" if traj.outcome is Outcome.SUCCESS else "red"
    console.print(
        f"outcome: [{colour}]{traj.outcome.value}[/{colour}] after "
        f"{len(traj.steps)} steps" + (f" ({traj.note})" if traj.note else ""),
        highlight=False,
    )
    if traj.outcome is not Outcome.SUCCESS:
        raise typer.Exit(1)
