"""Command groups that several modules add commands to (``screenpilot dataset synth``,
``screenpilot dataset icons``...). A module adds one with ``@dataset_app.command("NAME")``."""

from __future__ import annotations

import typer

dataset_app = typer.Typer(
    help="Make and convert datasets (synthetic screens, icons, RICO/VINS/DroidBot).",
    no_args_is_help=True,
)
train_app = typer.Typer(help="Train models (widget detector, icon labeller).", no_args_is_help=True)
export_app = typer.Typer(help="Export trained models to ONNX.", no_args_is_help=True)
eval_app = typer.Typer(help="Evaluate models on labelled data.", no_args_is_help=True)

#: (name, typer app) pairs that cli.py mounts.
GROUPS: list[tuple[str, typer.Typer]] = [
    ("dataset", dataset_app),
    ("train", train_app),
    ("export", export_app),
    ("eval", eval_app),
]
