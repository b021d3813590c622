"""Benchmark of the ONNX widget detector (a script, not a test): accuracy on the real
DroidBot screens of the held-out apps against time, for the input modes (letterbox,
rect, tile) and the nested-box thresholds, side by side in one run.

Each mode runs every image once (NMS, no nested suppression, conf 0.001); each
nested threshold is then applied to those detections, so the thresholds are
compared on the same raw output. Time is ``Detector.detect`` per image (p50 and
mean, onnxruntime on CPU), plus the nested suppression's own time. Writes
``bench/results/detector.json``.

    .venv/bin/python bench/detector.py [--weights models/detector.onnx]
        [--data DIR/data.yaml --split val | --droidbot ../shared/data/droidbot]
        [--modes letterbox,rect,tile] [--nested 1,0.95,0.9,0.8] [--imgsz 640]

Without ``--data`` the DroidBot folder is converted here and only the apps not in
``DROIDBOT_TRAIN_APPS`` (the ones the shipped detector was trained on) are measured.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
DROIDBOT = ROOT.parent / "shared" / "data" / "droidbot"
MODES = ("letterbox", "rect", "tile")
NESTED = (1.0, 0.95, 0.9, 0.8, 0.7)


def held_out_dataset(src: Path, out: Path) -> Path:
    """Convert DroidBot screens; the trained-on apps go to train, the rest to val."""
    from screenpilot.datasets.convert import assign_splits, convert
    from screenpilot.datasets.synth import DROIDBOT_TRAIN_APPS
    from screenpilot.datasets.yolo import write_yolo

    samples = list(convert("droidbot", src))
    data_yaml: Path = write_yolo(assign_splits(samples, DROIDBOT_TRAIN_APPS), out, coco=False)
    return data_yaml


def run_mode(
    weights: Path, samples: list[Any], mode: str, imgsz: int | None, threads: int | None
) -> tuple[list[list[Any]], list[float]]:
    """Detections (after NMS, before nested suppression) and seconds per image."""
    from screenpilot.vision.detect import Detector, load_image

    options: dict[str, Any] = {"mode": mode}  # checked by Detector against its MODES
    detector = Detector(
        weights, imgsz=imgsz, conf=0.001, nested_threshold=None, threads=threads, **options
    )
    pixels = [load_image(s.image) for s in samples]
    detector.detect(pixels[0])  # warm-up
    out: list[list[Any]] = []
    times: list[float] = []
    for image in pixels:
        started = time.perf_counter()
        out.append(detector.detect(image))
        times.append(time.perf_counter() - started)
    return out, times


def nested(detections: list[Any], threshold: float) -> tuple[list[Any], float]:
    """Apply the nested-box suppression to one image's detections (and its time)."""
    from screenpilot.vision.detect import suppress_nested

    if threshold >= 1.0 or not detections:
        return detections, 0.0
    started = time.perf_counter()
    boxes = np.asarray([d.xyxy for d in detections], dtype=np.float32)
    scores = np.asarray([d.confidence for d in detections], dtype=np.float32)
    keep = suppress_nested(boxes, scores, threshold)
    return [detections[i] for i in keep], time.perf_counter() - started


def score(samples: list[Any], detections: list[list[Any]], conf: float) -> dict[str, Any]:
    from screenpilot.training.evaluate import GroundTruth, Prediction, evaluate

    gts = [[GroundTruth(b.class_id, b.xyxy) for b in s.boxes] for s in samples]
    preds = [[Prediction(d.class_id, d.confidence, d.xyxy) for d in ds] for ds in detections]
    result = evaluate(gts, preds, conf=conf)
    return {
        "map50": round(result.map50, 4),
        "map50_95": round(result.map50_95, 4),
        "classes": {
            c.name: {
                "gt": c.n_gt,
                "ap50": _r(c.ap50),
                "ap50_95": _r(c.ap50_95),
                "precision": _r(c.precision),
                "recall": _r(c.recall),
            }
            for c in result.classes
            if c.n_gt
        },
    }


def _r(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def bench(
    weights: Path,
    data: Path,
    split: str,
    modes: list[str],
    thresholds: list[float],
    imgsz: int | None,
    threads: int | None,
    conf: float,
) -> dict[str, Any]:
    from screenpilot.datasets.synth import DROIDBOT_TRAIN_APPS
    from screenpilot.datasets.yolo import read_split

    samples = read_split(data, split)
    rows: list[dict[str, Any]] = []
    for mode in modes:
        raw, times = run_mode(weights, samples, mode, imgsz, threads)
        for threshold in thresholds:
            kept = [nested(d, threshold) for d in raw]
            row = {
                "mode": mode,
                "nested": threshold,
                "ms_p50": round(1000 * statistics.median(times), 1),
                "ms_mean": round(1000 * statistics.fmean(times), 1),
                "nested_ms_mean": round(1000 * statistics.fmean(k[1] for k in kept), 2),
                **score(samples, [k[0] for k in kept], conf),
            }
            rows.append(row)
            print(
                f"{mode:9s} nested {threshold:4.2f}  mAP50 {row['map50']:.3f}  "
                f"mAP50-95 {row['map50_95']:.3f}  {row['ms_p50']:7.1f} ms p50",
                flush=True,
            )
    sizes = sorted({f"{s.width}x{s.height}" for s in samples})
    return {
        "weights": str(weights),
        "data": str(data),
        "split": split,
        "images": len(samples),
        "image_sizes": sizes,
        "train_apps_excluded": list(DROIDBOT_TRAIN_APPS),
        "conf": conf,
        "imgsz": imgsz,
        "threads": threads,
        "rows": rows,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--weights", type=Path, default=ROOT / "models" / "detector.onnx")
    parser.add_argument("--data", type=Path, default=None, help="DIR/data.yaml to measure")
    parser.add_argument("--split", default="val")
    parser.add_argument("--droidbot", type=Path, default=DROIDBOT)
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--nested", default=",".join(str(t) for t in NESTED))
    parser.add_argument("--imgsz", type=int, default=None, help="default: the model's")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--conf", type=float, default=0.25, help="for precision/recall")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "detector.json")
    args = parser.parse_args(argv)
    if not args.weights.is_file():
        print(f"no detector at {args.weights}: train and export one first", file=sys.stderr)
        return 2
    modes = [m for m in args.modes.split(",") if m]
    thresholds = [float(t) for t in args.nested.split(",") if t]
    with tempfile.TemporaryDirectory(prefix="bench-detector-") as tmp:
        data = args.data
        if data is None:
            if not args.droidbot.is_dir():
                print(f"no DroidBot data at {args.droidbot}", file=sys.stderr)
                return 2
            data = held_out_dataset(args.droidbot, Path(tmp))
        result = bench(
            args.weights, data, args.split, modes, thresholds, args.imgsz, args.threads, args.conf
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
