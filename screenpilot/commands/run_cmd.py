"""``screenpilot run "TASK"`` and ``screenpilot demo``: the main job."""

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
    loading_model,
    note,
    say,
    show_files,
)
from screenpilot.config import Config
from screenpilot.errors import ConfigError

if TYPE_CHECKING:
    from screenpilot.agent import StepEvent
    from screenpilot.model import Trajectory

CATEGORIES = build.CATEGORIES


def register(app: typer.Typer) -> None:
    app.command("run")(run)
    app.command("demo")(demo)


def execute(
    cfg: Config,
    task: str,
    serial: str,
    *,
    out: Path,
    long_pages: bool,
    allow: list[str],
    attended: bool,
    demos: bool | None = False,
) -> Trajectory:
    """Build the agent and run ``task``; prints each step as it happens. ``demos``: use
    similar stored demonstrations (None: when the store has any)."""
    from screenpilot.agent import Agent
    from screenpilot.executor.adb import AdbDevice
    from screenpilot.planner.base import PlanHints

    device = AdbDevice.connect(serial, capture=cfg["device.capture"])
    with loading_model():
        planner = build.planner(cfg)
    describer = build.describer(cfg, device)

    def show(event: StepEvent) -> None:
        step = event.step
        times = " ".join(f"{k} {v:.2f}s" for k, v in step.timings)
        console.print(
            f"[bold]{step.index + 1:>2}.[/bold] {step.action.describe(step.before)}"
            f"  [dim]{times}[/dim]",
            highlight=False,
        )
        if step.reason:
            console.print(f"    [dim]{step.reason}[/dim]", highlight=False)

    hints = PlanHints(demonstrations=build.demonstrations(cfg, task, demos, say=say, warn=note))
    options = build.run_options(cfg, out, allow=allow, hints=hints, long_pages=long_pages)
    agent = Agent(
        device,
        describer,
        planner,
        options=options,
        safety=build.safety(cfg),
        handover=ask_person if attended else None,
        on_step=show,
        planner_name=cfg["planner.kind"],
    )
    console.print(
        f"task: [bold]{task}[/bold]  phone {serial}  planner {cfg['planner.kind']}", highlight=False
    )
    try:
        return agent.run(task)
    finally:
        show_files(agent.report_path, agent.trajectory_path)


def run(
    ctx: typer.Context,
    task: str = TASK_ARGUMENT,
    device: str | None = DEVICE_OPTION,
    virtual: bool = VIRTUAL_OPTION,
    planner: str | None = typer.Option(None, help="heuristic (offline) or llm."),
    max_steps: int | None = typer.Option(None, help="Give up after this many steps (20)."),
    out: Path | None = typer.Option(None, help="Folder for runs (default: runs/)."),
    long_pages: bool = typer.Option(
        False,
        "--long-pages/--no-long-pages",
        help="Capture scrolling pages whole before planning (off by default: measured "
        "slower and less successful on the task suite, see README).",
    ),
    allow: list[str] = typer.Option(
        [],
        "--allow",
        metavar="CATEGORY",
        help=f"Pre-approve a sensitive category: {', '.join(CATEGORIES)}.",
    ),
    yes: bool = typer.Option(
        False, "--yes", "-y", help="Unattended: stop (exit 7) instead of handing over."
    ),
    demos: bool | None = typer.Option(
        None,
        "--demos/--no-demos",
        help="Guide the planner with similar recorded demonstrations (default: on when "
        "the store has any).",
    ),
) -> None:
    """Run a task on the phone: look, plan one screen at a time, act, until done."""
    cfg = config_from(
        ctx,
        **{
            "device.serial": device,
            "planner.kind": planner,
            "planner.max_steps": max_steps,
            "run.out": str(out) if out else None,
        },
    )
    folder = build.run_folder(Path(cfg["run.out"]), task)
    attended = not yes and sys.stdin.isatty()
    allowed = build.check_allow([*cfg["safety.allow"], *allow])
    build.check_llm(cfg)
    with build.on_phone(cfg, virtual) as (serial, _):
        trajectory = execute(
            cfg,
            task,
            serial,
            out=folder,
            long_pages=long_pages,
            allow=allowed,
            attended=attended,
            demos=demos,
        )
    _finish(trajectory)


def _finish(trajectory: Trajectory) -> None:
    from screenpilot.model import Outcome

    colour = "green" if trajectory.outcome is Outcome.SUCCESS else "red"
    console.print(
        f"outcome: [{colour}]{trajectory.outcome.value}[/{colour}] after "
        f"{len(trajectory.steps)} steps" + (f" ({trajectory.note})" if trajectory.note else ""),
        highlight=False,
    )
    if trajectory.outcome is not Outcome.SUCCESS:
        raise typer.Exit(1)


def demo(
    ctx: typer.Context,
    task_id: str = typer.Option(
        "settings_wifi_on", "--task", help="A task id from `screenpilot tasks`."
    ),
    out: Path = typer.Option(Path("runs"), help="Folder for the run."),
) -> None:
    """The main job on the embedded default: the virtual phone, the offline planner, the
    shipped models; prints the report's path and whether the phone's state says done."""
    from screenpilot.simulator.tasks import get_task

    try:
        task = get_task(task_id)
    except KeyError as exc:
        raise ConfigError(str(exc.args[0]), hint="see `screenpilot tasks`") from exc
    cfg = config_from(ctx, **{"planner.kind": "heuristic"})
    build.check_llm(cfg)
    folder = build.run_folder(out, task.command)
    with build.virtual_phone(cfg, setup=task.setup) as (serial, phone):
        trajectory = execute(
            cfg, task.command, serial, out=folder, long_pages=False, allow=[], attended=False
        )
        verified = task.check(phone)
    console.print(
        f"the phone's state says the task is {'done' if verified else 'NOT done'} ({task.id})",
        highlight=False,
    )
    _finish(trajectory)
