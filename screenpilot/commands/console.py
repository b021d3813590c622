"""``screenpilot console``: the local web page to watch and drive the phone.

A thin wrapper: the parts come from ``screenpilot.build`` (the same describer,
planner, safety check, store and run folders as ``screenpilot run``), the page and
its server from ``screenpilot.console``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from screenpilot import build
from screenpilot.commands.common import (
    DEVICE_OPTION,
    VIRTUAL_OPTION,
    config_from,
    console,
    loading_model,
    note,
    say,
)
from screenpilot.config import Config

if TYPE_CHECKING:
    from screenpilot.agent import RunOptions
    from screenpilot.console import Parts


def register(app: typer.Typer) -> None:
    app.command("console")(console_cmd)


def parts(cfg: Config, serial: str, *, allow: list[str], demos: bool | None) -> Parts:
    """The console's parts for the phone ``serial``, from the configuration."""
    from screenpilot.console import Parts
    from screenpilot.executor.adb import AdbDevice
    from screenpilot.planner.base import PlanHints
    from screenpilot.planner.base import Planner as PlannerType

    def planner(task: str) -> PlannerType:
        with loading_model():
            return build.planner(cfg)

    def options(task: str, folder: Path) -> RunOptions:
        hints = PlanHints(demonstrations=build.demonstrations(cfg, task, demos, say=say, warn=note))
        return build.run_options(cfg, folder, allow=allow, hints=hints)

    device = AdbDevice.connect(serial, capture=cfg["device.capture"])
    return Parts(
        device=device,
        describer=build.describer(cfg, device),
        safety=build.safety(cfg),
        planner=planner,
        options=options,
        runs=Path(cfg["run.out"]),
        run_folder=build.run_folder,
        store=lambda: build.store(cfg),
        planner_name=cfg["planner.kind"],
        record_idle_s=cfg["pbd.idle"],
    )


def console_cmd(
    ctx: typer.Context,
    device: str | None = DEVICE_OPTION,
    virtual: bool = VIRTUAL_OPTION,
    port: int = typer.Option(
        0, "--port", min=0, max=65535, help="Port on 127.0.0.1 (default: a free one)."
    ),
    planner: str | None = typer.Option(None, help="heuristic (offline) or llm."),
    out: Path | None = typer.Option(None, help="Folder for runs (default: runs/)."),
    allow: list[str] = typer.Option(
        [],
        "--allow",
        metavar="CATEGORY",
        help=f"Pre-approve a sensitive category for runs: {', '.join(build.CATEGORIES)}.",
    ),
    demos: bool | None = typer.Option(
        None,
        "--demos/--no-demos",
        help="Guide runs with similar recorded demonstrations (default: on when the store "
        "has any).",
    ),
    fps: float = typer.Option(4.0, "--fps", help="Live view: frames per second at most."),
) -> None:
    """A local web page: the phone live, runs with handover buttons, recording, past runs.

    It listens on 127.0.0.1 only and prints its URL with a random token; every request
    needs that token. Ctrl-C stops it."""
    from screenpilot.console import Console, serve

    cfg = config_from(
        ctx,
        **{"device.serial": device, "planner.kind": planner, "run.out": str(out) if out else None},
    )
    allowed = build.check_allow([*cfg["safety.allow"], *allow])
    build.check_llm(cfg)
    with build.on_phone(cfg, virtual) as (serial, _):
        page = Console(parts(cfg, serial, allow=allowed, demos=demos), fps=fps)

        def ready(url: str) -> None:
            console.print(
                f"screenpilot console for phone {serial}:\n  [bold]{url}[/bold]\n"
                "open it in a browser on this computer (the token in it is the "
                "key: do not share it); Ctrl-C stops",
                highlight=False,
            )

        serve(page, port=port, ready=ready)
