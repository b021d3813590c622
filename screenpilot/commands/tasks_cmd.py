"""``screenpilot tasks [--json] [--app APP]``: list the virtual phone's task suite."""

from __future__ import annotations

import json

import typer

from screenpilot.commands.common import console
from screenpilot.errors import ConfigError


def register(app: typer.Typer) -> None:
    """Add ``tasks`` to the root command."""
    app.command("tasks")(tasks)


def _matches(package: str, wanted: str) -> bool:
    """``--app`` takes a package or its last part (``contacts``, ``deskclock``)."""
    wanted = wanted.lower()
    return package.lower() == wanted or package.lower().rsplit(".", 1)[-1] == wanted


def tasks(
    as_json: bool = typer.Option(False, "--json", help="Print JSON (every field of each task)."),
    app_name: str = typer.Option(
        "",
        "--app",
        metavar="APP",
        help="Only this app's tasks: a package or its last part, "
        "e.g. com.android.settings or settings.",
    ),
) -> None:
    """List the virtual phone's tasks: id, app, command and minimal number of steps."""
    from screenpilot.simulator.tasks import all_tasks

    suite = all_tasks()
    if app_name:
        suite = [t for t in suite if _matches(t.app, app_name)]
        if not suite:
            apps = sorted({t.app for t in all_tasks()})
            raise ConfigError(f"no tasks for app {app_name!r}", hint=f"apps: {', '.join(apps)}")
    if as_json:
        typer.echo(json.dumps([t.as_dict() for t in suite], indent=2, ensure_ascii=False))
        return
    from rich.table import Table

    table = Table(show_edge=False, box=None, pad_edge=False)
    for col in ("id", "app", "command", "steps"):
        table.add_column(col, overflow="fold")
    for t in suite:
        table.add_row(t.id, t.app, t.command, str(t.min_steps))
    console.print(table)
    console.print(f"[dim]{len(suite)} tasks[/dim]", highlight=False)
