"""Text recognition: PP-OCR models through ``rapidocr`` (offline), ``paddleocr`` optionally.

:func:`recognize` returns :class:`TextLine` records (text, box in image pixels,
recognition score) kept above a recognition threshold (the approach uses 0.95;
``bench/vision.py`` measures the trade-off). The bundled PP-OCRv6 models read
Chinese and English.

Sizing for phone screens: the image is scaled to at most ``max_width`` pixels
wide (720 by default: body text on a 1080-wide screen is ~40 px tall, ~27 px
after scaling, well above what the detector needs) and the text detector runs
at that scale (``limit_type=max``, no further upscaling). Images much taller
than wide (stitched long screenshots) are read in overlapping tiles so their
text is not shrunk into illegibility. The angle classifier is off: screen text
is upright. Lines are recognised one at a time (``rec_batch=1``): in a batch,
rapidocr pads every crop to the widest one, so a line's text would depend on
its neighbours (and incremental describe could not reproduce a full one).
Engines are created lazily, once per configuration, and reused;
rapidocr / onnxruntime failures leave as :class:`VisionError`.
"""

from __future__ import annotations

import functools
import importlib.util
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from screenpilot.errors import VisionError
from screenpilot.model import Box
from screenpilot.vision.image import RGB, ImageInput, load_image

#: The approach's recognition threshold: lines recognised below it are dropped.
DEFAULT_THRESHOLD = 0.95
#: Images are read at most this wide (see the module docstring).
DEFAULT_MAX_WIDTH = 720
#: Tiles for tall images are this many times as tall as they are wide.
TILE_ASPECT = 2.5
BACKENDS = ("rapidocr", "paddleocr")


@dataclass(frozen=True, slots=True)
class TextLine:
    """One recognised line of text."""

    text: str
    box: Box
    score: float

    def shifted(self, dx: int, dy: int) -> TextLine:
        """The same line in the coordinates of an image that holds this one at (dx, dy)."""
        b = self.box
        return TextLine(self.text, Box(b.x1 + dx, b.y1 + dy, b.x2 + dx, b.y2 + dy), self.score)


class OcrBackend(Protocol):
    """What :func:`recognize` needs: every line found on an RGB image, unfiltered."""

    name: str

    def read(self, image: RGB) -> list[TextLine]: ...


def recognize(image: ImageInput, *, threshold: float = DEFAULT_THRESHOLD,
              backend: OcrBackend | None = None) -> list[TextLine]:
    """The text lines on ``image`` recognised with a score of at least ``threshold``."""
    if not 0.0 <= threshold <= 1.0:
        raise VisionError(f"OCR threshold {threshold} is outside [0, 1]")
    pixels = load_image(image)
    engine = backend or get_backend()
    return [line for line in read_tiled(engine, pixels) if line.score >= threshold]


def read_tiled(engine: OcrBackend, image: RGB) -> list[TextLine]:
    """``engine.read`` on ``image``, in overlapping tiles when it is much taller than wide."""
    h, w = image.shape[:2]
    if h <= TILE_ASPECT * w * 1.2:
        return engine.read(image)
    tile = int(TILE_ASPECT * w)
    overlap = max(64, tile // 8)
    lines: list[TextLine] = []
    top = 0
    while True:
        bottom = min(h, top + tile)
        found = engine.read(np.ascontiguousarray(image[top:bottom]))
        lines.extend(_keep_tile_lines(found, top, bottom, h, overlap))
        if bottom >= h:
            return lines
        top = bottom - overlap


def _keep_tile_lines(found: list[TextLine], top: int, bottom: int, h: int,
                     overlap: int) -> list[TextLine]:
    """Lines of one tile whose centre lies in the part this tile owns (no duplicates)."""
    own_top = 0 if top == 0 else overlap // 2
    own_bottom = bottom - top if bottom >= h else bottom - top - overlap // 2
    return [line.shifted(0, top) for line in found
            if own_top <= line.box.center[1] < own_bottom]


@functools.cache
def get_backend(name: str = "rapidocr", max_width: int = DEFAULT_MAX_WIDTH) -> OcrBackend:
    """The shared engine for ``name`` (created once, loaded lazily on first use)."""
    if name == "rapidocr":
        return RapidOcrBackend(max_width=max_width)
    if name == "paddleocr":
        return PaddleOcrBackend(max_width=max_width)
    raise VisionError(f"unknown OCR backend {name!r}", hint=f"use one of {BACKENDS}")


def _scale_for(width: int, max_width: int) -> float:
    return min(1.0, max_width / width)


def _resize(image: RGB, scale: float) -> RGB:
    if scale >= 1.0:
        return image
    import cv2

    h, w = image.shape[:2]
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    return np.ascontiguousarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA))


def _pad32(image: RGB) -> RGB:
    """``image`` padded (edge pixels repeated) to multiples of 32, so the text detector's own
    resize to its stride is a no-op and a crop is seen exactly as in the full image."""
    import cv2

    h, w = image.shape[:2]
    bottom, right = (-h) % 32, (-w) % 32
    if not (bottom or right):
        return image
    return np.ascontiguousarray(cv2.copyMakeBorder(image, 0, bottom, 0, right,
                                                   cv2.BORDER_REPLICATE))


def _quad_to_box(quad: Any, scale: float, width: int, height: int) -> Box | None:
    pts = np.asarray(quad, dtype=np.float32).reshape(-1, 2) / scale
    x1, y1 = max(0.0, float(pts[:, 0].min())), max(0.0, float(pts[:, 1].min()))
    x2, y2 = min(float(width), float(pts[:, 0].max())), min(float(height), float(pts[:, 1].max()))
    if x2 - x1 < 1 or y2 - y1 < 1:
        return None
    return Box.of(x1, y1, x2, y2)


def _lines_from(boxes: Sequence[Any], texts: Sequence[str], scores: Sequence[float],
                scale: float, width: int, height: int) -> list[TextLine]:
    lines = []
    for quad, text, score in zip(boxes, texts, scores, strict=False):
        box = _quad_to_box(quad, scale, width, height)
        if box is not None and text.strip():
            lines.append(TextLine(text.strip(), box, round(float(score), 4)))
    return lines


class RapidOcrBackend:
    """PP-OCRv6 (det + rec, small) from the rapidocr wheel, on onnxruntime."""

    name = "rapidocr"

    def __init__(self, *, max_width: int = DEFAULT_MAX_WIDTH, threads: int | None = None,
                 rec_batch: int = 1) -> None:
        if importlib.util.find_spec("rapidocr") is None:
            raise VisionError("rapidocr is not installed", hint="pip install rapidocr")
        self.max_width = max_width
        self.threads = threads
        self.rec_batch = rec_batch
        self._engine: Any = None
        self._lock = threading.Lock()

    def _params(self) -> dict[str, Any]:
        params: dict[str, Any] = {
            "Global.log_level": "error",
            "Global.text_score": 0.0,          # we filter with our own threshold
            "Global.use_cls": False,           # screen text is upright
            "Global.use_preprocess_img": False,  # we scale ourselves
            "Det.limit_type": "max",
            "Det.limit_side_len": 100_000,     # no further resizing by the detector
            "Rec.rec_batch_num": self.rec_batch,
        }
        if self.threads:
            params["EngineConfig.onnxruntime.intra_op_num_threads"] = self.threads
        return params

    def engine(self) -> Any:
        """The rapidocr engine, created on first use."""
        with self._lock:
            if self._engine is None:
                try:
                    from rapidocr import RapidOCR

                    self._engine = RapidOCR(params=self._params())
                except Exception as exc:  # rapidocr raises many kinds; all mean the same
                    raise VisionError(f"cannot start rapidocr: {exc}",
                                      hint="reinstall rapidocr (its models ship in the wheel)"
                                      ) from exc
            return self._engine

    def read(self, image: RGB) -> list[TextLine]:
        h, w = image.shape[:2]
        scale = _scale_for(w, self.max_width)
        small = _pad32(_resize(image, scale))
        bgr = np.ascontiguousarray(small[:, :, ::-1])
        engine = self.engine()
        try:
            out = engine(bgr)
        except Exception as exc:
            raise VisionError(f"rapidocr failed on a {w}x{h} image: {exc}") from exc
        if getattr(out, "txts", None) is None or getattr(out, "boxes", None) is None:
            return []
        return _lines_from(out.boxes, out.txts, out.scores, scale, w, h)


class PaddleOcrBackend:
    """PaddleOCR itself, only when it is installed and finds its models locally.

    Model folders come from ``SCREENPILOT_PADDLE_DET`` / ``SCREENPILOT_PADDLE_REC``
    (PaddleOCR downloads its defaults, which cannot work offline).
    """

    name = "paddleocr"

    def __init__(self, *, max_width: int = DEFAULT_MAX_WIDTH) -> None:
        import os

        if importlib.util.find_spec("paddleocr") is None:
            raise VisionError("the paddleocr backend needs the paddleocr package",
                              hint="pip install paddleocr paddlepaddle, or use rapidocr")
        self.det_dir = os.environ.get("SCREENPILOT_PADDLE_DET", "")
        self.rec_dir = os.environ.get("SCREENPILOT_PADDLE_REC", "")
        if not (self.det_dir and self.rec_dir):
            raise VisionError("paddleocr needs local models",
                              hint="set SCREENPILOT_PADDLE_DET and SCREENPILOT_PADDLE_REC to "
                                   "the model folders")
        self.max_width = max_width
        self._engine: Any = None
        self._lock = threading.Lock()

    def engine(self) -> Any:
        with self._lock:
            if self._engine is None:
                try:
                    from paddleocr import PaddleOCR

                    self._engine = PaddleOCR(text_detection_model_dir=self.det_dir,
                                             text_recognition_model_dir=self.rec_dir,
                                             use_textline_orientation=False)
                except Exception as exc:
                    raise VisionError(f"cannot start paddleocr: {exc}") from exc
            return self._engine

    def read(self, image: RGB) -> list[TextLine]:
        h, w = image.shape[:2]
        scale = _scale_for(w, self.max_width)
        small = np.ascontiguousarray(_resize(image, scale)[:, :, ::-1])
        try:
            results = self.engine().predict(small)
        except Exception as exc:
            raise VisionError(f"paddleocr failed on a {w}x{h} image: {exc}") from exc
        lines: list[TextLine] = []
        for res in results:
            lines += _lines_from(res["rec_polys"], res["rec_texts"], res["rec_scores"],
                                 scale, w, h)
        return lines
