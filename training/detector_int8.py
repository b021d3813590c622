"""The widget detector quantised to int8 (``screenpilot export detector-int8``).

The shipped detector (``models/detector.onnx``, YOLOv8s at 416) is the largest model
describe runs after OCR. Static int8 quantisation makes it about 2x faster on a CPU
with VNNI; this module makes the shipped ``models/detector_int8.onnx`` reproducible:

1. **Calibration inputs** (:func:`detector_inputs`): screens of the *train* apps of a
   ``dataset harvest`` manifest (never the held-out apps), in the fixed order of
   :func:`training.ocr_int8.calibration_screens`, and synthetic screens of a ``dataset
   synth`` folder (:func:`synthetic_screens`: the detector was trained on both kinds,
   and the virtual phone draws the second), prepared exactly as
   :class:`vision.detect.Detector` prepares them (letterboxed to the model's size).
2. **Quantisation** (:func:`training.ocr_int8.quantize`): QDQ, weights int8 per output
   channel, activations uint8, MinMax ranges, the model's own opset. The head's decoding
   stays float (:func:`float_head`): quantised, its concatenation of box coordinates
   (hundreds of pixels) with class scores (0-1) into one uint8 range loses every score,
   and its last convolutions (box distributions, class logits) keep boxes to the pixel.
3. **Check** (:func:`compare`): on train screens not used for calibration, the
   detections of the int8 model against the float one's (same class, IoU >= 0.5,
   greedy by confidence), their mean IoU, and the milliseconds of each, one thread.

``onnx`` (the ``train`` extra) is imported inside; the provenance goes beside the model
as JSON, with the float model's SHA-256, which :mod:`vision.shipped` checks so that an
int8 model is never used for a float one it was not made from.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from screenpilot.errors import DataError
from screenpilot.training.ocr_int8 import Array, calibration_screens, load_screen, quantize
from screenpilot.vision.image import RGB, load_image
from screenpilot.vision.shipped import sha256

#: Detections of the two models are the same widget at this IoU or more (and one class).
SAME_IOU = 0.5


@dataclass
class DetectorQuantReport:
    """What :func:`build` measured, written next to the model."""

    source: str
    source_sha256: str
    out: str
    imgsz: int
    calibration_screens: list[str] = field(default_factory=list)
    synthetic_screens: list[str] = field(default_factory=list)
    calibration_inputs: int = 0
    float_nodes: list[str] = field(default_factory=list)
    check_screens: int = 0
    detections_float: int = 0
    detections_int8: int = 0
    matched: int = 0
    matched_share: float = 0.0
    mean_iou: float = 0.0
    iou_90_share: float = 0.0
    ms_float: float = 0.0
    ms_int8: float = 0.0
    bytes_float: int = 0
    bytes_int8: int = 0
    seconds: float = 0.0
    onnxruntime: str = ""
    method: str = (
        "static QDQ, per-channel int8 weights, uint8 activations, MinMax, own opset; "
        "the head's decoding and last convolutions in float"
    )

    def write(self, path: Path) -> None:
        path.write_text(json.dumps(asdict(self), indent=1) + "\n", encoding="utf-8")


def float_head(model: Any) -> list[str]:
    """The nodes of a YOLOv8 export's last module (``/model.N/...``, the one that writes
    the graph's output) to keep in float: all of them but the convolutions followed by
    an activation (``Sigmoid``, SiLU's first half), i.e. the decoding, the distribution
    focal loss and each branch's last convolution."""
    nodes = list(model.graph.node)
    outputs = {o.name for o in model.graph.output}
    last = next((n for n in nodes if outputs & set(n.output)), None)
    if last is None or not last.name.startswith("/model."):
        raise DataError(
            "the detector's graph does not look like an ultralytics YOLOv8 export",
            hint="export it with `screenpilot export detector W.pt`",
        )
    prefix = "/".join(last.name.split("/")[:2]) + "/"
    consumers: dict[str, list[str]] = {}
    for node in nodes:
        for name in node.input:
            consumers.setdefault(name, []).append(node.op_type)
    keep_float = []
    for node in nodes:
        if not node.name.startswith(prefix):
            continue
        activated = any("Sigmoid" in consumers.get(out, []) for out in node.output)
        if node.op_type == "Conv" and activated:
            continue
        keep_float.append(node.name)
    return keep_float


def synthetic_screens(folder: Path, count: int) -> list[Path]:
    """The first ``count`` train images (by name) of a ``screenpilot dataset synth`` folder."""
    images = sorted((folder / "images" / "train").glob("*.jpg"))
    if len(images) < count:
        raise DataError(
            f"{folder} has {len(images)} synthetic train screens; {count} are asked for",
            hint=f"screenpilot dataset synth --out {folder} --n {count} --seed 45 --val-share 0",
        )
    return images[:count]


def detector_inputs(
    images: Iterable[RGB], imgsz: int, progress: Callable[[], None] | None = None
) -> list[Array]:
    """The tensors the detector sees for ``images`` (letterboxed to ``imgsz``)."""
    from screenpilot.vision.detect import prepare

    inputs = []
    for image in images:
        inputs.append(prepare(image, (imgsz, imgsz)).tensor)
        if progress is not None:
            progress()
    return inputs


def _match(a: Sequence[Any], b: Sequence[Any]) -> list[float]:
    """IoUs of ``a``'s detections (best first) matched one to one to ``b``'s of the same
    class at :data:`SAME_IOU` or more."""
    from screenpilot.vision.detect import iou_matrix

    if not a or not b:
        return []
    ious = iou_matrix(
        np.array([d.xyxy for d in a], np.float32), np.array([d.xyxy for d in b], np.float32)
    )
    used: set[int] = set()
    found = []
    for i in np.argsort([-d.confidence for d in a]):
        for j in np.argsort(-ious[i]):
            if ious[i, j] < SAME_IOU:
                break
            if int(j) in used or b[j].name != a[i].name:
                continue
            used.add(int(j))
            found.append(float(ious[i, j]))
            break
    return found


def compare(
    source: Path, quantized: Path, images: Sequence[RGB], report: DetectorQuantReport
) -> None:
    """Fill ``report``'s check figures: detections of both models on ``images``."""
    from screenpilot.vision.detect import Detector

    if not images:
        return
    timed = {}
    answers = {}
    for name, path in (("float", source), ("int8", quantized)):
        detector = Detector(path, threads=1)
        detector.detect(images[0])  # warm-up
        start = time.process_time()
        answers[name] = [detector.detect(image) for image in images]
        timed[name] = (time.process_time() - start) / len(images) * 1000
    ious = [
        iou for a, b in zip(answers["float"], answers["int8"], strict=True) for iou in _match(a, b)
    ]
    report.check_screens = len(images)
    report.detections_float = sum(map(len, answers["float"]))
    report.detections_int8 = sum(map(len, answers["int8"]))
    report.matched = len(ious)
    report.matched_share = round(len(ious) / max(1, report.detections_float), 4)
    report.mean_iou = round(float(np.mean(ious)), 4) if ious else 0.0
    report.iou_90_share = round(float(np.mean(np.array(ious) >= 0.9)), 4) if ious else 0.0
    report.ms_float = round(timed["float"], 1)
    report.ms_int8 = round(timed["int8"], 1)


def build(
    manifest: Path,
    source: Path,
    out: Path,
    *,
    screens: int = 100,
    check: int = 150,
    synthetic: Path | None = None,
    synthetic_count: int = 50,
    progress: Callable[[], None] | None = None,
) -> DetectorQuantReport:
    """Calibrate on ``screens`` train screens (and ``synthetic_count`` screens of the
    ``dataset synth`` folder ``synthetic``, when given), quantise ``source`` to ``out``,
    compare the two on ``check`` further real ones, and write ``out``'s JSON report."""
    import onnx
    import onnxruntime

    from screenpilot.vision.detect import Detector

    if not source.is_file():
        raise DataError(
            f"no float detector at {source}",
            hint="export one with `screenpilot export detector W.pt --out models/detector.onnx`",
        )
    began = time.monotonic()
    imgsz = Detector(source, threads=1).imgsz
    rows = calibration_screens(manifest, screens + check)
    if len(rows) < screens + check:
        raise DataError(
            f"{manifest} has {len(rows)} train screens; {screens} + {check} are asked for",
            hint="lower --screens / --check",
        )
    drawn = synthetic_screens(synthetic, synthetic_count) if synthetic is not None else []
    images = []
    for row in rows:
        images.append(load_screen(manifest, row))
        if progress is not None:
            progress()
    inputs = detector_inputs([*images[:screens], *map(load_image, drawn)], imgsz)
    images = images[screens:]  # the check screens
    keep_float = float_head(onnx.load(str(source)))
    quantize(source, inputs, out, opset=None, exclude=keep_float)
    report = DetectorQuantReport(
        source=str(source),
        source_sha256=sha256(source),
        out=str(out),
        imgsz=imgsz,
        calibration_screens=[str(r.get("stem")) for r in rows[:screens]],
        synthetic_screens=[p.name for p in drawn],
        calibration_inputs=len(inputs),
        float_nodes=keep_float,
        bytes_float=source.stat().st_size,
        bytes_int8=out.stat().st_size,
        onnxruntime=onnxruntime.__version__,
    )
    compare(source, out, images, report)
    report.seconds = round(time.monotonic() - began, 1)
    report.write(out.with_suffix(".json"))
    return report
