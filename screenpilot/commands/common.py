"""What every CLI command shares: the console and the merged configuration."""

from __future__ import annotations

from typing import Any

import typer
from rich.console import Console

from screenpilot.config import Config, load_config

console = Console()
err_console = Console(stderr=True)


def config_from(ctx: typer.Context, **flags: Any) -> Config:
    """The configuration for this command: the root's ``--set`` values, then ``flags``.

    ``flags`` maps configuration keys to the command's own options; ``None``
    means the option was not given.
    """
    root = ctx.find_root()
    sets: dict[str, Any] = dict(root.obj or {})
    sets.update({k: v for k, v in flags.items() if v is not None})
    return load_config(sets)
