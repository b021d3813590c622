"""``screenpilot run "TASK"`` and ``screenpilot demo``: the main job."""

from __future__ import annotations

import contextlib
import re
import sys
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import typer

from screenpilot.commands.common import config_from, console, err_console
from screenpilot.config import Config
from screenpilot.errors import ConfigError

PLANNERS = ("heuristic", "llm")
CATEGORIES = ("authentication", "personal_data", "account_management", "payment", "permission")


def register(app: typer.Typer) -> None:
    app.command("run")(run)
    app.command("demo")(demo)


def run_folder(root: Path, task: str) -> Path:
    slug = re.sub(r"[^a-z0-9]+", "-", task.lower()).strip("-")[:40] or "task"
    return root / f"{datetime.now().strftime('%Y%m%d-%H%M%S')}-{slug}"


@contextlib.contextmanager
def virtual_phone(cfg: Config, setup: Any = None) -> Iterator[tuple[str, Any]]:
    """Start the virtual phone (after ``setup(phone)``) and yield (serial, phone)."""
    from screenpilot.commands.phone_cmd import make_phone
    from screenpilot.simulator.serve import serve_phone

    phone = make_phone(cfg)
    if setup is not None:
        setup(phone)
    with serve_phone(phone, host=cfg["phone.host"], port=cfg["phone.port"]) as serial:
        yield serial, phone


def make_llm(cfg: Config) -> Any:
    """The OpenAI-compatible chat client the configuration names (llm.*)."""
    from screenpilot.planner.llm import OpenAIChat

    return OpenAIChat(base_url=cfg["llm.base_url"], model=cfg["llm.model"],
                      api_key=cfg["llm.api_key"], timeout=cfg["llm.timeout"],
                      deadline=cfg["llm.deadline"], max_retries=cfg["llm.max_retries"])


def check_llm(cfg: Config) -> None:
    """When the run will ask the LLM (planner.kind llm, safety.llm), refuse settings that
    cannot work (``ConfigError``, exit 2) before the phone is touched."""
    if cfg["planner.kind"] != "llm" and not cfg["safety.llm"]:
        return
    from screenpilot.planner.llm import check_settings

    check_settings(cfg["llm.base_url"], cfg["llm.api_key"], cfg["llm.model"],
                   timeout=cfg["llm.timeout"], deadline=cfg["llm.deadline"],
                   max_retries=cfg["llm.max_retries"])


def make_safety(cfg: Config) -> Any:
    """The safety check: keywords and widgets, plus the labelled exemplars (the embedder
    loads at the first screen that needs it) and the LLM, as configured (safety.*)."""
    from screenpilot.planner.safety import ExemplarSafety, LLMSafety, Safety

    exemplars = None
    if cfg["safety.exemplars"]:
        name = cfg["embed.model"]

        def encode(texts: Any) -> Any:
            from screenpilot.pbd.embed import load_embedder

            return load_embedder(name).encode(texts)

        exemplars = ExemplarSafety(encode)
    llm = LLMSafety(make_llm(cfg)) if cfg["safety.llm"] else None
    return Safety(exemplars=exemplars, llm=llm)


def make_planner(cfg: Config) -> Any:
    kind = cfg["planner.kind"]
    if kind == "llm":
        from screenpilot.planner.chain import ChainPlanner

        return ChainPlanner(make_llm(cfg), max_steps=cfg["planner.max_steps"])
    from screenpilot.pbd.embed import load_embedder
    from screenpilot.planner.heuristic import HeuristicPlanner

    with console.status("loading the embedding model..."):
        embedder = load_embedder(cfg["embed.model"])
    return HeuristicPlanner(embedder.encode, max_steps=cfg["planner.max_steps"])


def make_describer(cfg: Config) -> Any:
    from screenpilot.vision.incremental import IncrementalDescriber

    return IncrementalDescriber(ocr_threshold=cfg["vision.ocr_threshold"])


def ask_person(sens: Any, what: str) -> bool:
    """Handover in the terminal: the person acts on the phone, then Enter (or 'abort')."""
    err_console.print(f"\n[bold yellow]Handover:[/bold yellow] the {what} is sensitive "
                      f"([bold]{sens.category.value}[/bold]).")
    for line in sens.evidence:
        err_console.print(f"  - {line}", highlight=False)
    err_console.print("Do this part yourself on the phone, then press Enter: screenpilot "
                      "looks at the phone again and goes on (it will not do this part "
                      "itself). Type 'abort' to stop.")
    try:
        answer = input("> ").strip().lower()
    except EOFError:
        return False
    return answer not in ("abort", "a", "q", "quit", "stop")


def execute(cfg: Config, task: str, serial: str, *, out: Path, long_pages: bool,
            allow: list[str], attended: bool, demos: bool | None = False) -> Any:
    """Build the agent and run ``task``; prints each step as it happens. ``demos``: use
    similar stored demonstrations (None: when the store has any)."""
    from screenpilot.agent import Agent, RunOptions, StepEvent
    from screenpilot.commands.pbd_cmd import demonstrations_for
    from screenpilot.executor.adb import AdbDevice
    from screenpilot.model import SensitiveCategory
    from screenpilot.planner.base import PlanHints

    device = AdbDevice.connect(serial)
    planner = make_planner(cfg)
    describer = make_describer(cfg)

    def show(event: StepEvent) -> None:
        step = event.step
        times = " ".join(f"{k} {v:.2f}s" for k, v in step.timings)
        console.print(f"[bold]{step.index + 1:>2}.[/bold] {step.action.describe(step.before)}"
                      f"  [dim]{times}[/dim]", highlight=False)
        if step.reason:
            console.print(f"    [dim]{step.reason}[/dim]", highlight=False)

    options = RunOptions(out=out, max_steps=cfg["planner.max_steps"], long_pages=long_pages,
                         settle_timeout=cfg["device.settle_timeout"],
                         settle_interval=cfg["device.settle_interval"],
                         allow=frozenset(SensitiveCategory(a) for a in allow),
                         hints=PlanHints(demonstrations=demonstrations_for(cfg, task, demos)))
    agent = Agent(device, describer, planner, options=options, safety=make_safety(cfg),
                  handover=ask_person if attended else None, on_step=show,
                  planner_name=cfg["planner.kind"])
    console.print(f"task: [bold]{task}[/bold]  phone {serial}  planner {cfg['planner.kind']}",
                  highlight=False)
    try:
        return agent.run(task)
    finally:
        console.print(f"report: {agent.report_path}\ntrajectory: {agent.trajectory_path}",
                      highlight=False)


def _check_allow(allow: list[str]) -> list[str]:
    for a in allow:
        if a not in CATEGORIES:
            raise ConfigError(f"unknown category {a!r} for --allow",
                              hint=f"one of {', '.join(CATEGORIES)}")
    return allow


def run(
    ctx: typer.Context,
    task: str = typer.Argument(..., help='What to do, e.g. "turn on wifi".'),
    device: str | None = typer.Option(None, "--device", "-d", metavar="SERIAL",
                                      help="adb serial (default: the only phone connected)."),
    virtual: bool = typer.Option(False, "--virtual", help="Start the virtual phone and use it."),
    planner: str | None = typer.Option(None, help="heuristic (offline) or llm."),
    max_steps: int | None = typer.Option(None, help="Give up after this many steps (20)."),
    out: Path | None = typer.Option(None, help="Folder for runs (default: runs/)."),
    long_pages: bool = typer.Option(
        False, "--long-pages/--no-long-pages",
        help="Capture scrolling pages whole before planning (off by default: measured "
             "slower and less successful on the task suite, see README)."),
    allow: list[str] = typer.Option(
        [], "--allow", metavar="CATEGORY",
        help=f"Pre-approve a sensitive category: {', '.join(CATEGORIES)}."),
    yes: bool = typer.Option(False, "--yes", "-y",
                             help="Unattended: stop (exit 7) instead of handing over."),
    demos: bool | None = typer.Option(
        None, "--demos/--no-demos",
        help="Guide the planner with similar recorded demonstrations (default: on when "
             "the store has any)."),
) -> None:
    """Run a task on the phone: look, plan one screen at a time, act, until done."""
    cfg = config_from(ctx, **{"device.serial": device, "planner.kind": planner,
                              "planner.max_steps": max_steps,
                              "run.out": str(out) if out else None})
    folder = run_folder(Path(cfg["run.out"]), task)
    attended = not yes and sys.stdin.isatty()
    allowed = _check_allow([*cfg["safety.allow"], *allow])
    check_llm(cfg)
    if virtual:
        with virtual_phone(cfg) as (serial, _):
            trajectory = execute(cfg, task, serial, out=folder, long_pages=long_pages,
                                 allow=allowed, attended=attended, demos=demos)
    else:
        from screenpilot.executor.adb import choose_serial

        trajectory = execute(cfg, task, choose_serial(cfg["device.serial"] or None),
                             out=folder, long_pages=long_pages, allow=allowed,
                             attended=attended, demos=demos)
    _finish(trajectory)


def _finish(trajectory: Any) -> None:
    from screenpilot.model import Outcome

    colour = "green" if trajectory.outcome is Outcome.SUCCESS else "red"
    console.print(f"outcome: [{colour}]{trajectory.outcome.value}[/{colour}] after "
                  f"{len(trajectory.steps)} steps" +
                  (f" ({trajectory.note})" if trajectory.note else ""), highlight=False)
    if trajectory.outcome is not Outcome.SUCCESS:
        raise typer.Exit(1)


def demo(
    ctx: typer.Context,
    task_id: str = typer.Option("settings_wifi_on", "--task",
                                help="A task id from `screenpilot tasks`."),
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
    check_llm(cfg)
    folder = run_folder(out, task.command)
    with virtual_phone(cfg, setup=task.setup) as (serial, phone):
        trajectory = execute(cfg, task.command, serial, out=folder, long_pages=False,
                             allow=[], attended=False)
        verified = task.check(phone)
    console.print(f"the phone's state says the task is {'done' if verified else 'NOT done'} "
                  f"({task.id})", highlight=False)
    _finish(trajectory)
