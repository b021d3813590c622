"""rapidocr's text detector quantised to int8 (``screenpilot export ocr-det``).

The text detector (PP-OCRv6 small, float32, inside the rapidocr wheel) is most of
describe's time after recognition. Static int8 quantisation makes it ~4x faster on
this machine's CPU (VNNI); this module makes the shipped ``models/ocr_det_int8.onnx``
reproducible:

1. **Calibration inputs** (:func:`calibration_screens`, :func:`detector_inputs`):
   screens of the *train* apps of a ``dataset harvest`` manifest (never the held-out
   apps), in a fixed order (a SHA-1 of the screen's name), read at full size by the
   OCR backend itself at ``det_width`` with the float detector; a recorder around the
   detector's session keeps exactly the tensors the detector sees (sizes, padding,
   normalisation).
2. **Quantisation** (:func:`quantize`): the model is converted to ONNX opset 13 (per-
   channel ``DequantizeLinear`` needs it), shape-inferred, then quantised statically
   by onnxruntime: QDQ format, weights int8 per output channel, activations uint8,
   ranges by MinMax over the calibration inputs.
3. **Check** (:func:`compare`): on inputs not used for calibration, the text mask
   (probability > 0.3, the detector's own threshold) of the int8 model against the
   float one (IoU), and the seconds per input of each, one thread.

``onnx`` (the ``train`` extra) is imported inside; the provenance (source file and its
SHA-256, calibration screens, settings, onnxruntime version) goes next to the model
as JSON.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from importlib.metadata import version
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from screenpilot.errors import DataError
from screenpilot.vision.image import RGB, load_image
from screenpilot.vision.ocr import DEFAULT_DET_WIDTH, RapidOcrBackend, wheel_det_model
from screenpilot.vision.shipped import sha256 as sha256  # re-exported: reports name sources by it

#: The detector's own text threshold (rapidocr's ``Det.thresh``): a pixel is text above it.
MASK_THRESHOLD = 0.3
Array = npt.NDArray[np.float32]


@dataclass
class QuantReport:
    """What :func:`quantize` and :func:`compare` measured, written next to the model."""

    source: str
    source_sha256: str
    out: str
    det_width: int
    calibration_screens: list[str] = field(default_factory=list)
    calibration_inputs: int = 0
    check_inputs: int = 0
    mask_iou: float = 0.0
    mask_iou_min: float = 0.0
    ms_float: float = 0.0
    ms_int8: float = 0.0
    bytes_float: int = 0
    bytes_int8: int = 0
    seconds: float = 0.0
    onnxruntime: str = ""
    method: str = "static QDQ, per-channel int8 weights, uint8 activations, MinMax, opset 13"

    def write(self, path: Path) -> None:
        path.write_text(json.dumps(asdict(self), indent=1) + "\n", encoding="utf-8")


def calibration_screens(manifest: Path, count: int) -> list[dict[str, Any]]:
    """``count`` screens of the train apps of a ``dataset harvest`` manifest, in the order
    of a SHA-1 of their names (a fixed, app-mixed order)."""
    if not manifest.is_file():
        raise DataError(
            f"no screen manifest at {manifest}",
            hint="build one with `screenpilot dataset harvest` (README: real screens)",
        )
    rows = []
    for number, line in enumerate(manifest.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise DataError(f"{manifest}:{number} is not JSON: {exc}") from exc
    train = [r for r in rows if r.get("split") == "train"]
    if not train:
        raise DataError(f"{manifest} lists no train screens", hint="is it a harvest manifest?")
    train.sort(key=lambda r: hashlib.sha1(str(r.get("stem", "")).encode()).hexdigest())
    return train[:count]


class _Recorder:
    """Stands in for rapidocr's detector session and keeps a copy of every input."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.inputs: list[Array] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.session, name)

    def __call__(self, x: Array) -> Any:
        self.inputs.append(np.array(x, dtype=np.float32, copy=True))
        return self.session(x)


def detector_inputs(
    images: Iterable[RGB],
    det_width: int = DEFAULT_DET_WIDTH,
    threads: int = 1,
    progress: Callable[[], None] | None = None,
) -> list[Array]:
    """The tensors the float text detector sees when the OCR backend reads ``images``."""
    backend = RapidOcrBackend(det_width=det_width, det_model="fp32", threads=threads, rec_cache=0)
    engine = backend.engine()
    detector = engine._load_det_model() if hasattr(engine, "_load_det_model") else engine.text_det
    recorder = _Recorder(detector.session)
    detector.session = recorder
    try:
        for image in images:
            backend.read(image)
            if progress is not None:
                progress()
    finally:
        detector.session = recorder.session
    return recorder.inputs


def quantize(
    source: Path,
    inputs: Sequence[Array],
    out: Path,
    *,
    opset: int | None = 13,
    exclude: Sequence[str] = (),
) -> None:
    """Write ``source`` quantised to int8 with ranges calibrated on ``inputs`` to ``out``
    (written beside it first, then moved: a failure leaves no half-written model).
    ``opset``: the ONNX opset the model is converted to first (None: kept as it is);
    ``exclude``: names of nodes left in float."""
    try:
        import onnx
        from onnx import version_converter
        from onnxruntime.quantization import (
            CalibrationDataReader,
            CalibrationMethod,
            QuantFormat,
            QuantType,
            quantize_static,
        )
        from onnxruntime.quantization.shape_inference import quant_pre_process
    except ImportError as exc:
        raise DataError(f"cannot quantise: {exc}", hint="pip install -e '.[train]'") from exc
    if not inputs:
        raise DataError("no calibration inputs", hint="give at least one screen")
    model = onnx.load(str(source))
    name = model.graph.input[0].name

    class Reader(CalibrationDataReader):  # type: ignore[misc]
        def __init__(self) -> None:
            self._items = iter(inputs)

        def get_next(self) -> dict[str, Array] | None:
            x = next(self._items, None)
            return None if x is None else {name: x}

    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="ocr-int8-") as tmp:
        converted = Path(tmp) / "converted.onnx"
        inferred = Path(tmp) / "inferred.onnx"
        result = Path(tmp) / "int8.onnx"
        if opset is not None:
            model = version_converter.convert_version(model, opset)
        onnx.save(model, str(converted))
        quant_pre_process(str(converted), str(inferred), skip_symbolic_shape=True)
        quantize_static(
            str(inferred),
            str(result),
            Reader(),
            quant_format=QuantFormat.QDQ,
            per_channel=True,
            activation_type=QuantType.QUInt8,
            weight_type=QuantType.QInt8,
            calibrate_method=CalibrationMethod.MinMax,
            nodes_to_exclude=list(exclude),
        )
        partial = out.with_name(out.name + ".part")
        shutil.copyfile(result, partial)
        os.replace(partial, out)


def _session(path: Path, threads: int = 1) -> Any:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.log_severity_level = 3
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def _run(path: Path, inputs: Sequence[Array]) -> tuple[list[Array], float]:
    """Outputs and CPU milliseconds per input (one thread, after a warm-up run)."""
    session = _session(path)
    name = session.get_inputs()[0].name
    session.run(None, {name: inputs[0]})
    start = time.process_time()
    outputs = [session.run(None, {name: x})[0] for x in inputs]
    return outputs, (time.process_time() - start) / len(inputs) * 1000


def compare(source: Path, quantized: Path, inputs: Sequence[Array], report: QuantReport) -> None:
    """Fill ``report``'s check figures: text-mask IoU and time of both models on ``inputs``."""
    if not inputs:
        return
    reference, report.ms_float = _run(source, inputs)
    answers, report.ms_int8 = _run(quantized, inputs)
    ious = []
    for a, b in zip(answers, reference, strict=True):
        ma, mb = a > MASK_THRESHOLD, b > MASK_THRESHOLD
        union = int((ma | mb).sum())
        ious.append(float((ma & mb).sum()) / union if union else 1.0)
    report.check_inputs = len(inputs)
    report.mask_iou = round(float(np.mean(ious)), 4)
    report.mask_iou_min = round(float(np.min(ious)), 4)
    report.ms_float = round(report.ms_float, 1)
    report.ms_int8 = round(report.ms_int8, 1)


def build(
    manifest: Path,
    out: Path,
    *,
    screens: int = 40,
    check: int = 10,
    det_width: int = DEFAULT_DET_WIDTH,
    threads: int = 1,
    progress: Callable[[], None] | None = None,
) -> QuantReport:
    """Calibrate on ``screens`` train screens, quantise to ``out``, check on ``check``
    further ones, and write ``out``'s JSON report."""
    import onnxruntime

    began = time.monotonic()
    source = wheel_det_model()
    rows = calibration_screens(manifest, screens + check)
    if len(rows) < screens + check:
        raise DataError(
            f"{manifest} has {len(rows)} train screens; {screens} + {check} are asked for",
            hint="lower --screens / --check",
        )
    images = (load_screen(manifest, row) for row in rows)
    inputs = detector_inputs(images, det_width, threads, progress)
    quantize(source, inputs[:screens], out)
    report = QuantReport(
        source=f"rapidocr {version('rapidocr')}: rapidocr/models/{source.name}",
        source_sha256=sha256(source),
        out=str(out),
        det_width=det_width,
        calibration_screens=[str(r.get("stem")) for r in rows[:screens]],
        calibration_inputs=screens,
        bytes_float=source.stat().st_size,
        bytes_int8=out.stat().st_size,
        onnxruntime=onnxruntime.__version__,
    )
    compare(source, out, inputs[screens:], report)
    report.seconds = round(time.monotonic() - began, 1)
    report.write(out.with_suffix(".json"))
    return report


def load_screen(manifest: Path, row: dict[str, Any]) -> RGB:
    """A manifest row's original screenshot (paths relative to the working directory, as
    ``dataset harvest`` writes them, or to the manifest's folder)."""
    name = str(row.get("original") or row.get("image") or "")
    path = Path(name)
    if not path.is_file():
        path = manifest.parent / name
    if not name or not path.is_file():
        raise DataError(f"screenshot {name!r} of {row.get('stem')} is missing", hint="rebuild")
    return load_image(path)
