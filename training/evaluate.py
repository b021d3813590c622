"""Detection metrics computed here, from any detector's boxes against YOLO labels.

:func:`evaluate` takes ground truth and predictions per image and returns
mAP@0.5, mAP@0.5:0.95 (COCO-style: greedy matching by confidence, each ground
truth matched once, 101-point interpolated AP, IoU thresholds 0.50..0.95 step
0.05) and, per class, AP@0.5, AP@0.5:0.95, and precision and recall at IoU 0.5
among predictions with confidence >= ``conf`` (the operating point the agent
uses). Means are over the classes that have ground truth.

:func:`evaluate_detector` runs the shipped ONNX pipeline
(:class:`screenpilot.vision.detect.Detector`, NMS and nested-box suppression
included) on a split of a YOLO dataset; a ``.pt`` is exported to ONNX first,
so every model is measured by the same code.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from screenpilot.datasets.yolo import CLASS_NAMES, read_split
from screenpilot.errors import DataError

IOU_THRESHOLDS: tuple[float, ...] = tuple(round(0.5 + 0.05 * i, 2) for i in range(10))
XYXY = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class GroundTruth:
    class_id: int
    box: XYXY


@dataclass(frozen=True, slots=True)
class Prediction:
    class_id: int
    confidence: float
    box: XYXY


@dataclass(frozen=True, slots=True)
class ClassScore:
    """One class's scores (``None`` where the class has no ground truth)."""

    name: str
    n_gt: int
    n_pred: int
    ap50: float | None
    ap50_95: float | None
    precision: float
    recall: float | None


@dataclass(frozen=True, slots=True)
class EvalResult:
    """The scores of one model on one labelled set."""

    map50: float
    map50_95: float
    images: int
    conf: float
    classes: tuple[ClassScore, ...]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)


def average_precision(tp: npt.NDArray[np.bool_], n_gt: int) -> float:
    """101-point interpolated AP of predictions already sorted by confidence."""
    if n_gt == 0:
        return 0.0
    if tp.size == 0:
        return 0.0
    hits = np.cumsum(tp)
    recall = hits / n_gt
    precision = hits / np.arange(1, tp.size + 1)
    envelope = np.maximum.accumulate(precision[::-1])[::-1]
    points = np.linspace(0, 1, 101)
    index = np.searchsorted(recall, points, side="left")
    values = np.where(index < tp.size, envelope[np.minimum(index, tp.size - 1)], 0.0)
    return float(values.mean())


def _iou(box: XYXY, others: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    w = (np.minimum(box[2], others[:, 2]) - np.maximum(box[0], others[:, 0])).clip(0)
    h = (np.minimum(box[3], others[:, 3]) - np.maximum(box[1], others[:, 1])).clip(0)
    inter = w * h
    area = (box[2] - box[0]) * (box[3] - box[1])
    areas = (others[:, 2] - others[:, 0]) * (others[:, 3] - others[:, 1])
    return np.asarray(inter / np.maximum(area + areas - inter, 1e-9), dtype=np.float64)


def match_image(gts: Sequence[XYXY], preds: Sequence[Prediction]) -> npt.NDArray[np.bool_]:
    """For predictions of one class on one image, sorted by confidence: a ``(P, 10)``
    true-positive table, one column per IoU threshold."""
    table = np.zeros((len(preds), len(IOU_THRESHOLDS)), dtype=bool)
    if not gts or not preds:
        return table
    boxes = np.asarray(gts, dtype=np.float64)
    for col, threshold in enumerate(IOU_THRESHOLDS):
        taken = np.zeros(len(gts), dtype=bool)
        for row, pred in enumerate(preds):
            ious = np.where(taken, -1.0, _iou(pred.box, boxes))
            best = int(ious.argmax())
            if ious[best] >= threshold:
                taken[best] = True
                table[row, col] = True
    return table


def evaluate(
    ground_truth: Sequence[Sequence[GroundTruth]],
    predictions: Sequence[Sequence[Prediction]],
    *,
    names: Sequence[str] = CLASS_NAMES,
    conf: float = 0.25,
) -> EvalResult:
    """Scores of ``predictions`` against ``ground_truth`` (one list per image, same order)."""
    if len(ground_truth) != len(predictions):
        raise DataError(
            f"{len(ground_truth)} labelled images but predictions for {len(predictions)}"
        )
    scores = [
        _class_score(c, name, ground_truth, predictions, conf) for c, name in enumerate(names)
    ]
    measured = [s for s in scores if s.n_gt > 0]
    map50 = float(np.mean([s.ap50 or 0.0 for s in measured])) if measured else 0.0
    map50_95 = float(np.mean([s.ap50_95 or 0.0 for s in measured])) if measured else 0.0
    return EvalResult(map50, map50_95, len(ground_truth), conf, tuple(scores))


def _class_score(
    class_id: int,
    name: str,
    ground_truth: Sequence[Sequence[GroundTruth]],
    predictions: Sequence[Sequence[Prediction]],
    conf: float,
) -> ClassScore:
    confidences: list[float] = []
    tables: list[npt.NDArray[np.bool_]] = []
    n_gt = 0
    for gts, preds in zip(ground_truth, predictions, strict=True):
        boxes = [g.box for g in gts if g.class_id == class_id]
        mine = sorted((p for p in preds if p.class_id == class_id), key=lambda p: -p.confidence)
        n_gt += len(boxes)
        tables.append(match_image(boxes, mine))
        confidences += [p.confidence for p in mine]
    table = np.concatenate(tables) if tables else np.zeros((0, len(IOU_THRESHOLDS)), bool)
    order = np.argsort(-np.asarray(confidences, dtype=np.float64), kind="stable")
    table = table[order]
    above = np.asarray(confidences, dtype=np.float64)[order] >= conf
    tp50 = int(table[above, 0].sum())
    n_pred = int(above.sum())
    precision = tp50 / n_pred if n_pred else 0.0
    if n_gt == 0:
        return ClassScore(name, 0, n_pred, None, None, precision, None)
    aps = [average_precision(table[:, i], n_gt) for i in range(len(IOU_THRESHOLDS))]
    return ClassScore(name, n_gt, n_pred, aps[0], float(np.mean(aps)), precision, tp50 / n_gt)


def evaluate_detector(
    data_yaml: Path,
    weights: Path,
    *,
    split: str = "val",
    imgsz: int | None = None,
    mode: str = "letterbox",
    conf: float = 0.25,
    nested_threshold: float | None = 0.9,
    progress: Callable[[int, int], None] | None = None,
) -> EvalResult:
    """Run a detector (``.onnx``, or ``.pt`` exported on the fly) over a split and score it."""
    samples = read_split(Path(data_yaml), split)
    if not samples:
        raise DataError(f"split {split!r} of {data_yaml} has no images")
    weights = Path(weights)
    with tempfile.TemporaryDirectory(prefix="screenpilot-eval-") as tmp:
        onnx_path = _as_onnx(weights, Path(tmp), imgsz)
        detector = _detector(onnx_path, imgsz, mode, nested_threshold)
        gts: list[list[GroundTruth]] = []
        preds: list[list[Prediction]] = []
        for i, sample in enumerate(samples):
            gts.append([GroundTruth(b.class_id, b.xyxy) for b in sample.boxes])
            preds.append(
                [
                    Prediction(d.class_id, d.confidence, d.xyxy)
                    for d in detector.detect(sample.image)
                ]
            )
            if progress is not None:
                progress(i + 1, len(samples))
    return evaluate(gts, preds, conf=conf)


def _as_onnx(weights: Path, tmp: Path, imgsz: int | None) -> Path:
    if weights.suffix == ".onnx":
        return weights
    if weights.suffix != ".pt":
        raise DataError(f"weights {weights} are neither .onnx nor .pt")
    from screenpilot.training.export import export_onnx

    return export_onnx(weights, tmp / "model.onnx", imgsz=imgsz)


def _detector(path: Path, imgsz: int | None, mode: str, nested: float | None) -> Any:
    from screenpilot.errors import VisionError
    from screenpilot.vision.detect import MODES, Detector

    if mode not in MODES:
        raise DataError(f"unknown mode {mode!r}", hint=f"use one of {', '.join(MODES)}")
    try:
        return Detector(
            path,
            imgsz=imgsz,
            mode=mode,  # type: ignore[arg-type]
            conf=0.001,
            nested_threshold=nested,
        )
    except VisionError as exc:
        raise DataError(str(exc.message), hint=exc.hint) from exc
