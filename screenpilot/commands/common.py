"""What every CLI command shares: the console, the merged configuration, and the
person's terminal (handover prompts, spinners, notes).

Commands import this module and ``screenpilot.build``, never one another; this module
imports neither build nor a command.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console

from screenpilot.config import Config, load_config

if TYPE_CHECKING:
    from screenpilot.model import Sensitivity

console = Console()
err_console = Console(stderr=True)

#: The options that commands driving a phone share (typer reads them; they hold no state).
DEVICE_OPTION: str | None = typer.Option(
    None, "--device", "-d", metavar="SERIAL", help="adb serial (default: the only phone connected)."
)
VIRTUAL_OPTION: bool = typer.Option(False, "--virtual", help="Start the virtual phone and use it.")
TASK_ARGUMENT: str = typer.Argument(..., help='What to do, e.g. "turn on wifi".')


def given_path(typed: str, param: str, what: str) -> Path:
    """An argument as typed, as a path; an empty one is refused (``Path("")`` is the
    working folder, which an unset shell variable such as ``"$F"`` would name)."""
    if not typed.strip():
        raise typer.BadParameter(
            f"an empty path was given (a shell variable that expanded to nothing?): name {what}",
            param_hint=param,
        )
    return Path(typed)


def config_from(ctx: typer.Context, **flags: Any) -> Config:
    """The configuration for this command: the root's ``--set`` values, then ``flags``.

    ``flags`` maps configuration keys to the command's own options; ``None``
    means the option was not given.
    """
    root = ctx.find_root()
    sets: dict[str, Any] = dict(root.obj or {})
    sets.update({k: v for k, v in flags.items() if v is not None})
    cfg = load_config(sets)
    use_configured_models(cfg)
    return cfg


#: Configuration keys that name a model, and the variable ``vision.shipped`` reads.
MODEL_KEYS = {"vision.detector": "SCREENPILOT_DETECTOR", "vision.icons": "SCREENPILOT_ICONS"}
#: The variable ``vision.ocr`` reads for the width OCR finds lines at (``vision.ocr_det_width``).
OCR_DET_WIDTH_VAR = "SCREENPILOT_VISION_OCR_DET_WIDTH"
#: ... and for its text detector's weights (``vision.ocr_det_model``).
OCR_DET_MODEL_VAR = "SCREENPILOT_VISION_OCR_DET_MODEL"
#: ... and for whether it leaves plain bands out (``vision.ocr_squeeze``).
OCR_SQUEEZE_VAR = "SCREENPILOT_VISION_OCR_SQUEEZE"
#: ... and for the least width its recogniser pads a line to (``vision.ocr_rec_width``).
OCR_REC_WIDTH_VAR = "SCREENPILOT_VISION_OCR_REC_WIDTH"


def use_configured_models(cfg: Config) -> None:
    """Make ``vision.detector`` / ``vision.icons`` the models describe loads (through
    the variables ``vision.shipped`` reads; one set in the environment wins), and
    ``vision.ocr_det_width`` / ``vision.ocr_det_model`` / ``vision.ocr_squeeze`` /
    ``vision.ocr_rec_width`` the width the OCR engine finds lines at, the weights it finds
    them with, whether it leaves plain bands out and how wide it reads a line."""
    for key, env in MODEL_KEYS.items():
        value = str(cfg[key] or "")
        if value and not os.environ.get(env):
            os.environ[env] = str(Path(value).expanduser())
    # the key's own variable, which vision.ocr reads: the configured value already took
    # it into account, and a --set flag overrides it
    os.environ[OCR_DET_WIDTH_VAR] = str(cfg["vision.ocr_det_width"])
    os.environ[OCR_DET_MODEL_VAR] = str(cfg["vision.ocr_det_model"])
    os.environ[OCR_SQUEEZE_VAR] = "true" if cfg["vision.ocr_squeeze"] else "false"
    os.environ[OCR_REC_WIDTH_VAR] = str(cfg["vision.ocr_rec_width"])


def loading_model() -> contextlib.AbstractContextManager[object]:
    """A spinner while the embedding model loads."""
    return console.status("loading the embedding model...")


def say(text: str) -> None:
    """Print a line as it is (``build.Say``)."""
    console.print(text, highlight=False)


def note(text: str) -> None:
    """Print a note on stderr (``build.Say`` for what went wrong but did not stop us)."""
    err_console.print(f"[yellow]note:[/yellow] {text}", highlight=False)


def ask_person(sens: Sensitivity, what: str) -> bool:
    """Handover in the terminal: the person acts on the phone, then Enter (or 'abort')."""
    err_console.print(
        f"\n[bold yellow]Handover:[/bold yellow] the {what} is sensitive "
        f"([bold]{sens.category.value}[/bold])."
    )
    for line in sens.evidence:
        err_console.print(f"  - {line}", highlight=False)
    err_console.print(
        "Do this part yourself on the phone, then press Enter: screenpilot "
        "looks at the phone again and goes on (it will not do this part "
        "itself). Type 'abort' to stop."
    )
    try:
        answer = input("> ").strip().lower()
    except EOFError:
        return False
    return answer not in ("abort", "a", "q", "quit", "stop")


def show_files(report: Path, trajectory: Path) -> None:
    """Print where a run wrote its report and its trajectory."""
    console.print(f"report: {report}\ntrajectory: {trajectory}", highlight=False)
