"""The ``screenpilot`` command line.

Every command lives in ``screenpilot/commands/``; heavy libraries (torch,
onnxruntime, chromadb...) are imported inside the command that needs them so
that ``screenpilot --help`` answers at once. Errors of ours become one line on
stderr and the exit code of their class (see ``screenpilot.errors``).
"""

from __future__ import annotations

import importlib
import sys

import typer

from screenpilot import __version__
from screenpilot.commands import config_cmd, groups
from screenpilot.config import parse_assignments
from screenpilot.errors import ScreenpilotError

app = typer.Typer(
    name="screenpilot",
    help="A vision-only GUI agent for Android phones: reads the screen from pixels, "
    "plans one screen at a time, acts over ADB.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(config_cmd.app, name="config")

#: Modules under screenpilot/commands/ that add commands: each exposes ``register(app)``
#: and/or adds commands to the shared groups in ``groups.py`` when imported.
COMMAND_MODULES: list[str] = [
    "describe",
    "detector",
    "device_cmds",
    "phone_cmd",
    "run_cmd",
    "probe_cmd",
    "autotask_cmd",
    "pbd_cmd",
    "icons",
    "ocr_cmd",
    "tasks_cmd",
    "console",
    "doctor",
]

for _name in COMMAND_MODULES:
    _module = importlib.import_module(f"screenpilot.commands.{_name}")
    if hasattr(_module, "register"):
        _module.register(app)
for _group, _typer in groups.GROUPS:
    if _typer.registered_commands:
        app.add_typer(_typer, name=_group)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"screenpilot {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    sets: list[str] = typer.Option(
        [],
        "--set",
        "-s",
        metavar="KEY=VALUE",
        help="Override a configuration key for this command (repeatable); "
        "see `screenpilot config show`.",
    ),
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Options that apply to every command."""
    ctx.obj = parse_assignments(sets)


def main() -> None:
    """Console entry point: run the CLI, turning our errors into one-line messages."""
    try:
        app()
    except ScreenpilotError as exc:
        typer.echo(f"error: {exc.message}", err=True)
        if exc.hint:
            typer.echo(f"  hint: {exc.hint}", err=True)
        sys.exit(exc.exit_code)
