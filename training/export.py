"""Export a trained detector checkpoint (``.pt``) to ONNX, simplified with onnxslim.

The ONNX file keeps ultralytics' metadata (class names, stride, imgsz) that
:mod:`screenpilot.vision.detect` reads. By default the input has dynamic height
and width, so the detector can run rectangular and tiled inference; the raw
YOLOv8 head is exported (NMS is done by screenpilot, not inside the graph).
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from screenpilot.errors import DataError


def export_onnx(
    weights: Path,
    out: Path,
    *,
    imgsz: int | None = None,
    dynamic: bool = True,
    simplify: bool = True,
    opset: int | None = None,
) -> Path:
    """Write ``weights`` (an ultralytics .pt) as ONNX to ``out``; returns ``out``."""
    weights, out = Path(weights), Path(out)
    if not weights.is_file():
        raise DataError(
            f"weights {weights} not found", hint="train one with `screenpilot train detector ...`"
        )
    from screenpilot.training.detector import prepare_ultralytics

    prepare_ultralytics()
    from ultralytics.models.yolo.model import YOLO

    with tempfile.TemporaryDirectory(prefix="screenpilot-export-") as tmp:
        local = Path(tmp) / (weights.stem + ".pt")
        shutil.copyfile(weights, local)
        try:
            model = YOLO(str(local), task="detect")
            kwargs: dict[str, object] = {
                "format": "onnx",
                "dynamic": dynamic,
                "simplify": simplify,
                "device": "cpu",
                "nms": False,
            }
            if imgsz:
                kwargs["imgsz"] = imgsz
            if opset:
                kwargs["opset"] = opset
            produced = Path(str(model.export(**kwargs)))
        except (
            RuntimeError,
            ValueError,
            TypeError,
            AttributeError,
            KeyError,
            ModuleNotFoundError,
        ) as exc:
            raise DataError(f"cannot export {weights} to ONNX: {exc}") from exc
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(produced), out)
    return out
