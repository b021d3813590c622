"""Ship a finished (or interrupted) detector run: export, copy, and score it.

    .venv/bin/python tools/finish_detector.py --run runs/detector/v1 \\
        --synth runs/data/synth_v1/data.yaml

1. ``RUN/weights/best.pt`` (``last.pt`` when there is no best yet) -> ``models/detector.pt``
   and ONNX (dynamic H/W, onnxslim) -> ``models/detector.onnx``;
2. ``screenpilot eval detector`` on the synthetic val split (letterbox) and on the
   real DroidBot screens of the held-out apps (every app not in
   ``DROIDBOT_TRAIN_APPS``; letterbox and rect), at the model's imgsz;
3. prints the scores and writes them to ``bench/results/detector_scores.json``.
``bench/detector.py`` then compares the modes and nested thresholds with timing.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DROIDBOT = ROOT.parent / "shared" / "data" / "droidbot"


def ship(run: Path, models: Path) -> Path:
    """Copy the run's best (else last) checkpoint to models/ and export it to ONNX."""
    from screenpilot.training.export import export_onnx

    weights = run / "weights" / "best.pt"
    if not weights.is_file():
        weights = run / "weights" / "last.pt"
    if not weights.is_file():
        raise SystemExit(f"no checkpoint under {run / 'weights'}")
    models.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(weights, models / "detector.pt")
    onnx: Path = export_onnx(weights, models / "detector.onnx")
    print(f"{weights} -> {models / 'detector.pt'}, {onnx}", flush=True)
    return onnx


def held_out(droidbot: Path, out: Path) -> Path:
    from screenpilot.datasets.convert import assign_splits, convert
    from screenpilot.datasets.synth import DROIDBOT_TRAIN_APPS
    from screenpilot.datasets.yolo import write_yolo

    samples = list(convert("droidbot", droidbot))
    data_yaml: Path = write_yolo(assign_splits(samples, DROIDBOT_TRAIN_APPS), out, coco=False)
    return data_yaml


def scores(data: Path, onnx: Path, mode: str) -> dict[str, Any]:
    from screenpilot.training.evaluate import evaluate_detector

    result = evaluate_detector(data, onnx, split="val", mode=mode)
    line = (
        f"{data.parent.name:14s} {mode:9s} images {result.images:4d}  "
        f"mAP@0.5 {result.map50:.3f}  mAP@0.5:0.95 {result.map50_95:.3f}  "
        + "  ".join(f"{c.name} {c.ap50:.2f}" for c in result.classes if c.ap50 is not None)
    )
    print(line, flush=True)
    scored: dict[str, Any] = result.to_dict()
    return scored


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="export and score a detector run")
    parser.add_argument("--run", type=Path, required=True, help="runs/detector/NAME")
    parser.add_argument("--synth", type=Path, required=True, help="synthetic data.yaml")
    parser.add_argument("--droidbot", type=Path, default=DROIDBOT)
    parser.add_argument("--models", type=Path, default=ROOT / "models")
    parser.add_argument("--no-export", action="store_true", help="score models/detector.onnx")
    parser.add_argument(
        "--out", type=Path, default=ROOT / "bench" / "results" / "detector_scores.json"
    )
    args = parser.parse_args(argv)
    onnx = args.models / "detector.onnx" if args.no_export else ship(args.run, args.models)
    report: dict[str, Any] = {"run": str(args.run), "onnx": str(onnx)}
    report["synthetic_val"] = scores(args.synth, onnx, "letterbox")
    with tempfile.TemporaryDirectory(prefix="finish-detector-") as tmp:
        real = held_out(args.droidbot, Path(tmp) / "droidbot_heldout")
        report["real_heldout"] = {mode: scores(real, onnx, mode) for mode in ("letterbox", "rect")}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
