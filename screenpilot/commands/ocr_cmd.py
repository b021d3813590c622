"""OCR commands: ``export ocr-det`` (rapidocr's text detector quantised to int8).

onnx and onnxruntime's quantiser are imported inside the command.
"""

from __future__ import annotations

from pathlib import Path

import typer

from screenpilot.commands.common import console, err_console
from screenpilot.commands.groups import export_app


@export_app.command("ocr-det")
def export_ocr_det_cmd(
    manifest: Path = typer.Option(
        Path("runs/data/real_v2/manifest.jsonl"),
        "--manifest",
        help="A `dataset harvest` manifest: calibration screens come from its train apps.",
    ),
    out: Path = typer.Option(
        Path("models/ocr_det_int8.onnx"),
        "--out",
        help="The int8 detector (its report goes beside it as .json).",
    ),
    screens: int = typer.Option(40, "--screens", min=1, help="Calibration screens."),
    check: int = typer.Option(
        10, "--check", min=0, help="Further screens to compare int8 with float on."
    ),
    det_width: int = typer.Option(
        720, "--det-width", min=32, help="The width lines are found at (vision.ocr_det_width)."
    ),
    threads: int = typer.Option(1, "--threads", min=1, help="onnxruntime threads."),
) -> None:
    """Quantise rapidocr's text detector to int8 (what vision.ocr_det_model=int8 loads),
    calibrated on real screens of the harvest's train apps."""
    from rich.progress import Progress

    from screenpilot.training.ocr_int8 import build

    with Progress(console=err_console, transient=True) as bar:
        task = bar.add_task("reading calibration screens", total=screens + check)
        report = build(
            manifest,
            out,
            screens=screens,
            check=check,
            det_width=det_width,
            threads=threads,
            progress=lambda: bar.advance(task),
        )
    console.print(
        f"{out} ({report.bytes_int8 / 1e6:.1f} MB, float {report.bytes_float / 1e6:.1f} MB) "
        f"calibrated on {report.calibration_inputs} screens in {report.seconds:.0f} s",
        highlight=False,
        soft_wrap=True,
    )
    if report.check_inputs:
        console.print(
            f"on {report.check_inputs} other screens: text-mask IoU with the float detector "
            f"{report.mask_iou:.3f} (lowest {report.mask_iou_min:.3f}); "
            f"{report.ms_float:.0f} ms -> {report.ms_int8:.0f} ms a screen, 1 thread",
            highlight=False,
            soft_wrap=True,
        )
    console.print(f"report: {out.with_suffix('.json')}", highlight=False)
