"""``screenpilot probe``: guided exploration of where an app becomes sensitive.

From a seed (a saved ``trajectory.json``, a demonstration of the store, or a task
run first to make one), a proxy user (the LLM, or the offline proposer) proposes
new queries for the same app in batches; each kept query is rolled out on the
phone with the planner and the safety check (handover included), and the memory
bank, ``sft.jsonl`` and ``grpo.jsonl`` are written (see ``planner/probe/``).
``explore`` is its old name, kept hidden for one release.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from screenpilot import build
from screenpilot.commands.common import (
    DEVICE_OPTION,
    ask_person,
    config_from,
    console,
    loading_model,
)
from screenpilot.config import Config
from screenpilot.errors import ConfigError

if TYPE_CHECKING:
    from screenpilot.planner.probe import (
        BankEntry,
        BatchReport,
        ProbeResult,
        Proposer,
        Rollout,
        Seed,
    )
    from screenpilot.simulator.tasks import Setup

PROPOSERS = ("auto", "llm", "offline")


def register(app: typer.Typer) -> None:
    app.command("probe")(probe)
    app.command("explore", hidden=True)(probe)  # the old name, for one release


def load_seed(cfg: Config, demo: str | None, trajectory: Path | None) -> Seed:
    """The seed from a saved trajectory.json or from a demonstration of the store (its
    recorded trajectory when there is one, else its steps in words)."""
    from screenpilot.planner.probe import Seed

    if trajectory is not None:
        return Seed.load(trajectory)
    with build.store(cfg) as store:
        record = store.get(store.resolve(str(demo)))
    saved = Path(record.trajectory) if record.trajectory else None
    if saved is not None and saved.is_file():
        return Seed.load(saved)
    return Seed.from_demonstration(record.instruction, record.steps, record.app)


def probe(
    ctx: typer.Context,
    task: str = typer.Argument(
        "", help="A seed task to run first (instead of --demo or --trajectory)."
    ),
    demo: str | None = typer.Option(
        None, "--demo", metavar="ID", help="Start from this demonstration of the store."
    ),
    trajectory: Path | None = typer.Option(
        None, "--trajectory", "--seed", metavar="FILE", help="Start from a saved trajectory.json."
    ),
    batches: int | None = typer.Option(
        None, "--batches", "-n", help="At most this many batches (explore.max_batches, 10)."
    ),
    per_batch: int | None = typer.Option(
        None, "--per-batch", help="Queries proposed per batch (explore.per_batch, 8)."
    ),
    tau: float | None = typer.Option(
        None, help="Drop a query at least this similar to one kept (explore.tau, 0.85)."
    ),
    proposer: str = typer.Option(
        "auto",
        help="Who proposes queries: llm (llm.*), offline "
        "(the labels the seed's screens show), or auto "
        "(llm when planner.kind is llm).",
    ),
    rollout: bool = typer.Option(
        True, "--rollout/--no-rollout", help="Run each kept query on the phone."
    ),
    device: str | None = DEVICE_OPTION,
    virtual: bool = typer.Option(False, "--virtual", help="Explore on the virtual phone."),
    phone_task: str | None = typer.Option(
        None,
        "--task",
        metavar="ID",
        help="With --virtual: put the phone in this suite task's start state before each roll-out.",
    ),
    out: Path | None = typer.Option(
        None, help="Folder for the bank and the exports (default: runs/<time>-explore-...)."
    ),
    allow: list[str] = typer.Option(
        [], "--allow", metavar="CATEGORY", help="Pre-approve a sensitive category."
    ),
    yes: bool = typer.Option(
        False, "--yes", "-y", help="Unattended: a sensitive screen ends that roll-out."
    ),
) -> None:
    """Explore an app from one demonstrated task: propose new queries, keep the novel
    ones, run them (handover included), and score them into a memory bank with SFT and
    GRPO exports."""
    cfg = config_from(
        ctx,
        **{
            "device.serial": device,
            "explore.max_batches": batches,
            "explore.per_batch": per_batch,
            "explore.tau": tau,
        },
    )
    if sum(bool(x) for x in (task, demo, trajectory)) != 1:
        raise ConfigError(
            "give one seed: --demo ID, --trajectory FILE, or a task to run first",
            hint="e.g. screenpilot probe --trajectory runs/.../trajectory.json",
        )
    if proposer not in PROPOSERS:
        raise ConfigError(f"unknown proposer {proposer!r}", hint=f"one of {', '.join(PROPOSERS)}")
    if phone_task and not virtual:
        raise ConfigError("--task needs --virtual", hint="it sets up the virtual phone")
    if task and not rollout:
        raise ConfigError("a seed task is run on the phone: it needs --rollout")
    seed = None if task else load_seed(cfg, demo, trajectory)
    name = task or (seed.task if seed is not None else "")
    folder = out or build.run_folder(Path(cfg["run.out"]), f"explore {name}")
    allowed = build.check_allow([*cfg["safety.allow"], *allow])
    attended = not yes and sys.stdin.isatty()
    explore_on = _Exploration(cfg, folder, proposer, allowed, attended)
    if not rollout:
        result = explore_on.run(seed, task, None, None)
    elif virtual:
        with build.virtual_phone(cfg) as (serial, phone):
            setup = _suite_setup(phone_task) if phone_task else None

            def reset() -> None:
                phone.reset()
                if setup is not None:
                    setup(phone)

            result = explore_on.run(seed, task, serial, reset)
    else:
        with build.on_phone(cfg, False) as (serial, _):
            result = explore_on.run(seed, task, serial, None)
    _print_result(result)


def _suite_setup(task_id: str) -> Setup:
    from screenpilot.simulator.tasks import get_task

    try:
        return get_task(task_id).setup
    except KeyError as exc:
        raise ConfigError(str(exc.args[0]), hint="see `screenpilot tasks`") from exc


class _Exploration:
    """Builds the proposer, the embedder, the roll-out and the explorer from the config."""

    def __init__(
        self, cfg: Config, folder: Path, proposer: str, allow: list[str], attended: bool
    ) -> None:
        self.cfg, self.folder, self.proposer_name = cfg, folder, proposer
        self.allow, self.attended = allow, attended

    def proposer(self) -> Proposer:
        from screenpilot.planner.probe import LLMProposer, OfflineProposer

        cfg = self.cfg
        if self.proposer_name == "llm" or (
            self.proposer_name == "auto" and cfg["planner.kind"] == "llm"
        ):
            return LLMProposer(build.llm(cfg))
        console.print(
            "proposer: offline (the labels the seed's screens show); "
            "`--proposer llm` asks the configured LLM",
            highlight=False,
        )
        return OfflineProposer()

    def rollout(self, serial: str, reset: Callable[[], None] | None) -> Rollout:
        from screenpilot.agent import Agent, RunOptions
        from screenpilot.executor.adb import AdbDevice

        cfg = self.cfg
        device = AdbDevice.connect(serial)
        with loading_model():
            planner = build.planner(cfg)
        describer, safety = build.describer(cfg, device), build.safety(cfg)
        allow = build.allowed(self.allow)

        def make_agent(folder: Path) -> Agent:
            options = RunOptions(
                out=folder,
                max_steps=cfg["explore.max_steps"],
                settle_timeout=cfg["device.settle_timeout"],
                settle_interval=cfg["device.settle_interval"],
                allow=allow,
            )
            return Agent(
                device,
                describer,
                planner,
                options=options,
                safety=safety,
                handover=ask_person if self.attended else None,
                planner_name=cfg["planner.kind"],
            )

        def home() -> None:
            device.key("HOME")

        return build.rollout(make_agent, reset or home)

    def run(
        self, seed: Seed | None, task: str, serial: str | None, reset: Callable[[], None] | None
    ) -> ProbeResult:
        from screenpilot.planner.probe import Prober, Query, Seed

        cfg = self.cfg
        roll = self.rollout(serial, reset) if serial is not None else None
        if seed is None:
            assert roll is not None
            console.print(f"seed: running [bold]{task}[/bold] first", highlight=False)
            seed = Seed.from_trajectory(roll(Query(task), self.folder / "seed"))
        console.print(
            f"seed: [bold]{seed.task}[/bold]  app {seed.app or '?'}  {len(seed.steps)} steps",
            highlight=False,
        )
        proposer = self.proposer()
        with loading_model():
            embedder = build.encoder(cfg)

        def on_batch(report: BatchReport) -> None:
            console.print(
                f"batch {report.batch}: proposed {report.proposed}, kept "
                f"{len(report.kept)}, dropped {len(report.dropped)}"
                + ("  (at the elbow)" if report.elbow else ""),
                highlight=False,
            )
            for d in report.dropped:
                console.print(
                    f"    dropped '{d.query.text}' ({d.similarity:.2f} like '{d.like}')",
                    highlight=False,
                    style="dim",
                    markup=False,
                )

        def on_rollout(entry: BankEntry) -> None:
            cats = ", ".join(entry.categories) or "none"
            console.print(
                f"  '{entry.query.text}': {entry.outcome} after {len(entry.steps)} "
                f"steps; sensitive: {cats}",
                highlight=False,
                markup=False,
            )

        explorer = Prober(
            seed,
            proposer,
            embedder.encode,
            roll,
            out=self.folder,
            per_batch=cfg["explore.per_batch"],
            max_batches=cfg["explore.max_batches"],
            tau=cfg["explore.tau"],
            on_batch=on_batch,
            on_rollout=on_rollout,
        )
        return explorer.run()


def _print_result(result: ProbeResult) -> None:
    bank = result.bank
    console.print(f"stopped: {result.stopped}", highlight=False)
    console.print(
        f"memory bank: {len(bank) - 1} queries and the seed, {result.clusters} "
        "query clusters; by reward:",
        highlight=False,
    )
    ranked = sorted((e for e in bank.entries if not e.seed), key=lambda e: -e.reward)
    for e in ranked[:10]:
        console.print(
            f"  R={e.reward:.2f} = {e.novelty_query:.2f} x ({e.novelty_step:.2f} "
            f"+ {e.novelty_category:.2f})  '{e.query.text}'"
            + (f"  [{', '.join(e.categories)}]" if e.categories else ""),
            highlight=False,
            markup=False,
        )
    sensitive = sorted({c for e in bank.entries for c in e.categories})
    console.print(f"sensitive categories met: {', '.join(sensitive) or 'none'}", highlight=False)
    for name, path in result.files.items():
        console.print(f"{name}: {path}", highlight=False)
