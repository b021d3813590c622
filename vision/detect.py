"""Widget detection with the shipped ONNX model on onnxruntime (no torch at inference).

Pipeline: image -> resize (``letterbox`` | ``rect`` | ``tile``) -> YOLOv8 head
output ``(1, 4 + nc, N)`` -> confidence filter -> class-wise NMS -> the
approach's nested-box suppression: boxes sorted by confidence, a box is dropped
when its intersection over the *smaller* of the two boxes with an already kept
box exceeds ``nested_threshold`` (nested UI boxes, whatever their classes).

Tall screens (1080x2400 squeezed into 640 makes small widgets tiny):

- ``letterbox``: the long side to ``imgsz``, padded to a square (what training sees);
- ``rect``: the long side to ``imgsz``, padded only to a multiple of the stride
  (needs a model exported with dynamic axes; same scale, fewer pixels);
- ``tile``: overlapping full-width tiles about as tall as they are wide, each run
  at ``imgsz`` (more pixels per widget, one run per tile), merged with NMS.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

import numpy as np
import numpy.typing as npt

from screenpilot.errors import ImageError, VisionError
from screenpilot.model import WIDGET_CLASSES, Box, Element, ElementKind
from screenpilot.vision.onnx import open_session

if TYPE_CHECKING:
    from onnxruntime import InferenceSession
    from PIL import Image as PILImage

Mode = Literal["letterbox", "rect", "tile"]
MODES: tuple[str, ...] = ("letterbox", "rect", "tile")
FloatArray = npt.NDArray[np.float32]
ImageInput: TypeAlias = "str | Path | npt.NDArray[np.uint8] | PILImage.Image"
PAD_VALUE = 114
MODEL_HINT = (
    "train and export one (`screenpilot train detector ...`, then `screenpilot export "
    "detector W.pt --out models/detector.onnx`) or pass the path of a YOLOv8 ONNX file"
)


@dataclass(frozen=True, slots=True)
class Detection:
    """One detected widget in image pixels."""

    class_id: int
    name: str
    confidence: float
    x1: float
    y1: float
    x2: float
    y2: float

    @property
    def kind(self) -> ElementKind | None:
        """The widget class, when the model's class name is one of ours."""
        try:
            return ElementKind(self.name)
        except ValueError:
            return None

    @property
    def xyxy(self) -> tuple[float, float, float, float]:
        return (self.x1, self.y1, self.x2, self.y2)

    def to_element(self, element_id: int) -> Element:
        kind = self.kind
        if kind is None:
            raise VisionError(f"detector class {self.name!r} is not a screenpilot widget class")
        return Element(
            id=element_id,
            kind=kind,
            box=Box.of(*self.xyxy),
            confidence=min(1.0, max(0.0, self.confidence)),
        )


# --------------------------------------------------------------------------- geometry


def iou_matrix(a: FloatArray, b: FloatArray) -> FloatArray:
    """Pairwise IoU of ``(n, 4)`` and ``(m, 4)`` xyxy boxes."""
    inter = _intersection(a, b)
    area_a = _areas(a)[:, None]
    area_b = _areas(b)[None, :]
    out: FloatArray = (inter / np.maximum(area_a + area_b - inter, 1e-9)).astype(np.float32)
    return out


def _areas(boxes: FloatArray) -> FloatArray:
    out: FloatArray = (
        (boxes[:, 2] - boxes[:, 0]).clip(0) * (boxes[:, 3] - boxes[:, 1]).clip(0)
    ).astype(np.float32)
    return out


def _intersection(a: FloatArray, b: FloatArray) -> FloatArray:
    w = np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0])
    h = np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1])
    out: FloatArray = (w.clip(0) * h.clip(0)).astype(np.float32)
    return out


def nms(boxes: FloatArray, scores: FloatArray, iou_threshold: float) -> list[int]:
    """Greedy non-maximum suppression; indices kept, best first."""
    order = list(np.argsort(-scores, kind="stable"))
    keep: list[int] = []
    while order:
        best = order.pop(0)
        keep.append(int(best))
        if not order:
            break
        ious = iou_matrix(boxes[best : best + 1], boxes[order])[0]
        order = [i for i, v in zip(order, ious, strict=True) if v <= iou_threshold]
    return keep


def suppress_nested(boxes: FloatArray, scores: FloatArray, threshold: float) -> list[int]:
    """The approach's post-processing: by confidence, drop a box whose intersection over
    the smaller box with an already kept box exceeds ``threshold``. Indices kept."""
    keep: list[int] = []
    areas = _areas(boxes)
    for i in np.argsort(-scores, kind="stable"):
        if keep:
            inter = _intersection(boxes[i : i + 1], boxes[keep])[0]
            smaller = np.maximum(np.minimum(areas[i], areas[keep]), 1e-9)
            if float((inter / smaller).max()) > threshold:
                continue
        keep.append(int(i))
    return keep


# --------------------------------------------------------------------------- image in


def load_image(image: ImageInput) -> npt.NDArray[np.uint8]:
    """Any supported input -> an RGB ``uint8`` array ``(H, W, 3)``; ``ImageError`` if unusable."""
    from PIL import Image, UnidentifiedImageError

    if isinstance(image, np.ndarray):
        return _check_array(image)
    try:
        if isinstance(image, str | Path):
            with Image.open(image) as im:
                return _check_array(np.asarray(im.convert("RGB")))
        return _check_array(np.asarray(image.convert("RGB")))
    except (OSError, UnidentifiedImageError, ValueError) as exc:
        raise ImageError(f"cannot read image {image!s:.200}: {exc}") from exc


def _check_array(array: npt.NDArray[Any]) -> npt.NDArray[np.uint8]:
    if array.ndim == 2:
        array = np.repeat(array[:, :, None], 3, axis=2)
    if array.ndim != 3 or array.shape[2] not in (3, 4):
        raise ImageError(f"expected an RGB image, got an array of shape {array.shape}")
    if array.dtype != np.uint8:
        raise ImageError(f"expected 8-bit pixels, got {array.dtype}")
    if min(array.shape[:2]) < 8:
        raise ImageError(f"image of {array.shape[1]}x{array.shape[0]} is too small to detect on")
    return np.ascontiguousarray(array[:, :, :3])


@dataclass(frozen=True, slots=True)
class Prepared:
    """A network input and how to map its boxes back to the image."""

    tensor: FloatArray
    scale: float
    pad_x: float
    pad_y: float
    offset_x: float = 0.0
    offset_y: float = 0.0


def prepare(image: npt.NDArray[np.uint8], shape: tuple[int, int]) -> Prepared:
    """Resize keeping the aspect ratio into ``shape`` (h, w), pad centred with grey 114."""
    import cv2

    h, w = image.shape[:2]
    scale = min(shape[0] / h, shape[1] / w)
    new_w, new_h = max(1, round(w * scale)), max(1, round(h * scale))
    resized = cv2.resize(image, (new_w, new_h), interpolation=cv2.INTER_LINEAR)
    pad_x, pad_y = (shape[1] - new_w) / 2, (shape[0] - new_h) / 2
    canvas = np.full((shape[0], shape[1], 3), PAD_VALUE, dtype=np.uint8)
    top, left = round(pad_y - 0.1), round(pad_x - 0.1)
    canvas[top : top + new_h, left : left + new_w] = resized
    tensor = canvas.transpose(2, 0, 1)[None].astype(np.float32) / 255.0
    return Prepared(np.ascontiguousarray(tensor), scale, float(left), float(top))


def rect_shape(h: int, w: int, imgsz: int, stride: int = 32) -> tuple[int, int]:
    """The smallest stride-multiple shape holding the image with its long side at ``imgsz``."""
    scale = imgsz / max(h, w)
    return (int(np.ceil(h * scale / stride) * stride), int(np.ceil(w * scale / stride) * stride))


def tiles(h: int, w: int, *, aspect: float = 1.0, overlap: float = 0.2) -> list[tuple[int, int]]:
    """(top, bottom) rows of full-width tiles about ``aspect * w`` tall, overlapping."""
    tile_h = min(h, max(1, round(w * aspect)))
    if tile_h >= h:
        return [(0, h)]
    step = max(1, round(tile_h * (1 - overlap)))
    count = int(np.ceil((h - tile_h) / step)) + 1
    tops = np.linspace(0, h - tile_h, count).round().astype(int)
    return [(int(t), int(t) + tile_h) for t in tops]


# --------------------------------------------------------------------------- the detector


class Detector:
    """A YOLOv8 ONNX widget detector on onnxruntime."""

    def __init__(
        self,
        model_path: str | Path,
        *,
        imgsz: int | None = None,
        mode: Mode = "letterbox",
        conf: float = 0.25,
        iou: float = 0.45,
        nested_threshold: float | None = 0.9,
        max_det: int = 300,
        threads: int | None = None,
        tile_aspect: float = 1.0,
    ) -> None:
        if mode not in MODES:
            raise VisionError(f"unknown detection mode {mode!r}", hint=f"use one of {MODES}")
        self.path = Path(model_path)
        self.session = _open_session(self.path, threads)
        self.input_name, self.fixed_shape = _input_spec(self.session)
        meta = self.session.get_modelmeta().custom_metadata_map
        self.names = _names(meta, self.session)
        self.stride = int(meta.get("stride", 32))
        self.imgsz = int(imgsz or _meta_imgsz(meta) or 640)
        self.mode, self.conf, self.iou = mode, conf, iou
        self.nested_threshold, self.max_det = nested_threshold, max_det
        self.tile_aspect = tile_aspect

    @property
    def dynamic(self) -> bool:
        return self.fixed_shape is None

    def detect(self, image: ImageInput, *, conf: float | None = None) -> list[Detection]:
        """Widgets on ``image``, best first, after NMS and nested-box suppression;
        ``conf``: the confidence floor of this call (``self.conf`` by default)."""
        pixels = load_image(image)
        h, w = pixels.shape[:2]
        floor = self.conf if conf is None else conf
        spans = tiles(h, w, aspect=self.tile_aspect) if self.mode == "tile" else [(0, h)]
        raw = [self._run_tile(pixels, top, bottom, floor) for top, bottom in spans]
        boxes = np.concatenate([r[0] for r in raw]) if raw else np.zeros((0, 4), np.float32)
        scores = np.concatenate([r[1] for r in raw]) if raw else np.zeros(0, np.float32)
        classes = np.concatenate([r[2] for r in raw]) if raw else np.zeros(0, np.int64)
        return self._postprocess(boxes, scores, classes, w, h)

    def elements(self, image: ImageInput, *, start_id: int = 0) -> list[Element]:
        """The detections as ``screenpilot.model.Element`` records, ids from ``start_id``."""
        return [d.to_element(start_id + i) for i, d in enumerate(self.detect(image))]

    def _shape_for(self, h: int, w: int) -> tuple[int, int]:
        if self.fixed_shape is not None:
            return self.fixed_shape
        if self.mode == "letterbox":
            return (self.imgsz, self.imgsz)
        return rect_shape(h, w, self.imgsz, self.stride)

    def _run_tile(
        self, pixels: npt.NDArray[np.uint8], top: int, bottom: int, conf: float
    ) -> tuple[FloatArray, FloatArray, npt.NDArray[np.int64]]:
        crop = pixels[top:bottom]
        prepared = prepare(crop, self._shape_for(*crop.shape[:2]))
        output = self._infer(prepared.tensor)
        boxes, scores, classes = decode(output, conf, len(self.names))
        boxes[:, [0, 2]] = (boxes[:, [0, 2]] - prepared.pad_x) / prepared.scale
        boxes[:, [1, 3]] = (boxes[:, [1, 3]] - prepared.pad_y) / prepared.scale + top
        return boxes, scores, classes

    def _infer(self, tensor: FloatArray) -> FloatArray:
        try:
            outputs = self.session.run(None, {self.input_name: tensor})
        except Exception as exc:  # onnxruntime raises its own untyped errors
            raise VisionError(
                f"detector {self.path} failed on an input of shape {tensor.shape}: {exc}"
            ) from exc
        return np.asarray(outputs[0], dtype=np.float32)

    def _postprocess(
        self, boxes: FloatArray, scores: FloatArray, classes: npt.NDArray[np.int64], w: int, h: int
    ) -> list[Detection]:
        boxes[:, [0, 2]] = boxes[:, [0, 2]].clip(0, w)
        boxes[:, [1, 3]] = boxes[:, [1, 3]].clip(0, h)
        valid = (boxes[:, 2] - boxes[:, 0] >= 1) & (boxes[:, 3] - boxes[:, 1] >= 1)
        boxes, scores, classes = boxes[valid], scores[valid], classes[valid]
        offset = classes[:, None].astype(np.float32) * (max(w, h) + 1)
        keep = nms(boxes + offset, scores, self.iou)
        if self.nested_threshold is not None and keep:
            nested = suppress_nested(boxes[keep], scores[keep], self.nested_threshold)
            keep = [keep[i] for i in nested]
        keep = keep[: self.max_det]
        return [
            Detection(
                int(classes[i]),
                self.names[int(classes[i])],
                float(scores[i]),
                *(float(v) for v in boxes[i]),
            )
            for i in keep
        ]


def decode(
    output: FloatArray, conf: float, num_classes: int
) -> tuple[FloatArray, FloatArray, npt.NDArray[np.int64]]:
    """YOLOv8 head ``(1, 4 + nc, N)`` -> xyxy boxes, best-class scores and class ids."""
    if output.ndim != 3 or output.shape[1] != 4 + num_classes:
        raise VisionError(
            f"detector output of shape {output.shape} is not a YOLOv8 head for "
            f"{num_classes} classes",
            hint=MODEL_HINT,
        )
    pred = output[0].T
    class_scores = pred[:, 4:]
    classes = class_scores.argmax(axis=1)
    scores = class_scores[np.arange(len(pred)), classes]
    mask = scores >= conf
    cxcywh, scores, classes = pred[mask, :4], scores[mask], classes[mask]
    boxes = np.empty_like(cxcywh)
    boxes[:, :2] = cxcywh[:, :2] - cxcywh[:, 2:] / 2
    boxes[:, 2:] = cxcywh[:, :2] + cxcywh[:, 2:] / 2
    return boxes.astype(np.float32), scores.astype(np.float32), classes.astype(np.int64)


# --------------------------------------------------------------------------- model loading


def _open_session(path: Path, threads: int | None) -> InferenceSession:
    return open_session(path, what="detector model", hint=MODEL_HINT, threads=threads)


def _input_spec(session: InferenceSession) -> tuple[str, tuple[int, int] | None]:
    inputs = session.get_inputs()
    if len(inputs) != 1 or len(inputs[0].shape) != 4:
        raise VisionError("detector model does not take one NCHW image", hint=MODEL_HINT)
    _n, _c, h, w = inputs[0].shape
    fixed = (h, w) if isinstance(h, int) and isinstance(w, int) else None
    return str(inputs[0].name), fixed


def _meta_imgsz(meta: dict[str, str]) -> int | None:
    try:
        value = ast.literal_eval(meta.get("imgsz", "None"))
    except (ValueError, SyntaxError):
        return None
    if isinstance(value, Sequence) and value:
        return int(max(value))
    return int(value) if isinstance(value, int) else None


def _names(meta: dict[str, str], session: InferenceSession) -> list[str]:
    """Class names from ultralytics' metadata, else the 12 widget classes."""
    raw = meta.get("names")
    if raw:
        try:
            parsed = ast.literal_eval(raw)
        except (ValueError, SyntaxError) as exc:
            raise VisionError(f"detector metadata names {raw[:80]!r} unreadable") from exc
        if isinstance(parsed, dict):
            return [str(parsed[k]) for k in sorted(parsed)]
        return [str(n) for n in parsed]
    channels = session.get_outputs()[0].shape[1]
    if isinstance(channels, int) and channels != 4 + len(WIDGET_CLASSES):
        raise VisionError(f"detector has {channels - 4} classes and no names", hint=MODEL_HINT)
    return [k.value for k in WIDGET_CLASSES]
