"""``screenpilot config path|show``."""

from __future__ import annotations

import json

import typer

from screenpilot.commands.common import config_from, console
from screenpilot.config import DEFAULTS, user_config_path

app = typer.Typer(help="Show where configuration comes from and what it is.", no_args_is_help=True)


@app.command("path")
def path_cmd() -> None:
    """Print the path of the user's config file (TOML) and whether it exists."""
    path = user_config_path()
    state = "exists" if path.is_file() else "not created yet"
    console.print(f"{path}  [dim]({state})[/dim]", soft_wrap=True, highlight=False)


@app.command("show")
def show_cmd(
    ctx: typer.Context,
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
) -> None:
    """Print every key's merged value and where it came from (default, file, env, flag)."""
    cfg = config_from(ctx)
    if as_json:
        data = {k: {"value": cfg.shown(k), "source": cfg.sources[k]} for k in DEFAULTS}
        typer.echo(json.dumps(data, indent=2))
        return
    from rich.table import Table

    table = Table(show_edge=False, box=None, pad_edge=False)
    for col in ("key", "value", "source", "meaning"):
        table.add_column(col, overflow="fold")
    for key, opt in DEFAULTS.items():
        table.add_row(key, repr(cfg.shown(key)), cfg.sources[key], opt.help)
    console.print(table)
