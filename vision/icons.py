"""Icon labels from pixels: an ONNX image tower + precomputed label text embeddings.

``IconLabeller().label(crops, top=3)`` embeds each crop with the exported CLIP
image tower (``models/icons.onnx``), compares it with the label embeddings of the
vocabulary (``models/icons_labels.json``), and returns the top-k labels with
softmax probabilities. When the best probability is under the calibrated
threshold the crop's ``label`` is ``"unknown"`` (its candidates are still given).
Crops are resized to the model's input size; one more than 1.25 times as wide as
tall (or the reverse) is first padded to a square with its border colour. Runs on
onnxruntime only; no torch at inference.
"""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np
import numpy.typing as npt
from PIL import Image, UnidentifiedImageError

from screenpilot.errors import ImageError, VisionError
from screenpilot.vision.icon_vocab import UNKNOWN
from screenpilot.vision.image import border_colour
from screenpilot.vision.onnx import open_session

if TYPE_CHECKING:
    from onnxruntime import InferenceSession

MODELS_DIR = Path(__file__).resolve().parent.parent / "models"
DEFAULT_MODEL = MODELS_DIR / "icons.onnx"
DEFAULT_LABELS = MODELS_DIR / "icons_labels.json"
MODEL_HINT = "`screenpilot export icons` writes it, or set vision.icons"
MAX_CROP_SIDE = 4096
MAX_ASPECT = 1.25

Crop: TypeAlias = "Image.Image | npt.NDArray[np.uint8] | str | Path | bytes"
FloatArray: TypeAlias = npt.NDArray[np.float32]


@dataclass(frozen=True)
class IconResult:
    """One crop's answer: ``label`` (or ``"unknown"``), its probability, the top-k."""

    label: str
    score: float
    top: list[tuple[str, float]]

    @property
    def known(self) -> bool:
        """Whether the label cleared the threshold."""
        return self.label != UNKNOWN


def load_crop(crop: Crop) -> Image.Image:
    """An RGB image from a PIL image, an (H, W, 3|4) or (H, W) uint8 array, a path or bytes."""
    if isinstance(crop, Image.Image):
        image = crop
    elif isinstance(crop, np.ndarray):
        image = _from_array(crop)
    elif isinstance(crop, str | Path | bytes):
        image = _open(crop)
    else:
        raise ImageError(f"cannot read an icon crop from {type(crop).__name__}")
    if image.width < 1 or image.height < 1 or max(image.size) > MAX_CROP_SIDE:
        raise ImageError(f"icon crop has an unusable size {image.width}x{image.height}")
    return image.convert("RGB")


def _from_array(array: npt.NDArray[Any]) -> Image.Image:
    if array.dtype != np.uint8 or array.ndim not in (2, 3) or array.size == 0:
        raise ImageError(
            f"icon crop array must be non-empty uint8 (H, W[, C]), got {array.dtype} {array.shape}"
        )
    if array.ndim == 3 and array.shape[2] not in (1, 3, 4):
        raise ImageError(f"icon crop array has {array.shape[2]} channels")
    return Image.fromarray(array.squeeze(2) if array.ndim == 3 and array.shape[2] == 1 else array)


def _open(source: str | Path | bytes) -> Image.Image:
    try:
        with Image.open(io.BytesIO(source) if isinstance(source, bytes) else source) as image:
            image.load()
            return image.copy()
    except FileNotFoundError as exc:
        raise ImageError(f"icon crop {source!s} does not exist") from exc
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError) as exc:
        name = "bytes" if isinstance(source, bytes) else str(source)
        raise ImageError(f"icon crop {name} is not a readable image: {exc}") from exc


def squarish(image: Image.Image, max_aspect: float = MAX_ASPECT) -> Image.Image:
    """``image`` padded to a square with the median colour of its border when one side is
    more than ``max_aspect`` times the other (the model was trained on crops within
    +-20 % of square; a wide button box squashed to a square distorts its icon)."""
    w, h = image.size
    if max(w, h) <= max_aspect * min(w, h):
        return image
    r, g, b = (int(v) for v in border_colour(np.asarray(image.convert("RGB"))))
    side = max(w, h)
    canvas = Image.new("RGB", (side, side), (r, g, b))
    canvas.paste(image.convert("RGB"), ((side - w) // 2, (side - h) // 2))
    return canvas


def to_pixels(images: Sequence[Image.Image], size: int) -> FloatArray:
    """RGB images -> float32 (N, 3, size, size) in [0, 1] (see ``squarish``)."""
    rows = [
        np.asarray(squarish(img).resize((size, size), Image.Resampling.BILINEAR), dtype=np.float32)
        for img in images
    ]
    return (np.stack(rows) / 255.0).transpose(0, 3, 1, 2).astype(np.float32)


class OnnxImageTower:
    """The exported image tower: pixels -> unit-length embeddings."""

    def __init__(self, path: str | Path, *, threads: int = 2) -> None:
        self.path = Path(path)
        self.session = _open_session(self.path, threads)
        shape = self.session.get_inputs()[0].shape
        self.size = int(shape[-1]) if isinstance(shape[-1], int) else 64
        self.input_name = self.session.get_inputs()[0].name

    def embed(self, pixels: FloatArray) -> FloatArray:
        """(N, 3, S, S) float in [0, 1] -> (N, D)."""
        try:
            (out,) = self.session.run(None, {self.input_name: pixels})
        except Exception as exc:  # onnxruntime raises its own exception types
            raise VisionError(f"icon model failed on a batch of {len(pixels)}: {exc}") from exc
        return np.asarray(out, dtype=np.float32)

    def embed_uint8(self, images: npt.NDArray[np.uint8], batch: int = 256) -> FloatArray:
        """(N, S, S, 3) uint8 crops already at the input size -> (N, D)."""
        outs = [
            self.embed(
                (images[i : i + batch].astype(np.float32) / 255.0).transpose(0, 3, 1, 2).copy()
            )
            for i in range(0, len(images), batch)
        ]
        return np.concatenate(outs) if outs else np.zeros((0, 1), np.float32)


def _open_session(path: Path, threads: int) -> InferenceSession:
    # int8-stored weights (``export icons --quantize``): let the optimiser fold their
    # DequantizeLinear nodes into float constants once, at load time.
    return open_session(
        path,
        what="icon model",
        hint=MODEL_HINT,
        threads=max(1, threads),
        inter_threads=1,
        config={"session.disable_quant_qdq": "1"},
    )


@dataclass(frozen=True)
class LabelTable:
    """Label names, their unit embeddings, the logit scale and the reject threshold."""

    names: list[str]
    embeddings: FloatArray
    logit_scale: float
    threshold: float
    metrics: dict[str, float]

    @classmethod
    def load(cls, path: str | Path) -> LabelTable:
        """Read ``icons_labels.json``."""
        try:
            doc = json.loads(Path(path).read_text(encoding="utf-8"))
            table = cls(
                names=[str(n) for n in doc["labels"]],
                embeddings=np.asarray(doc["embeddings"], dtype=np.float32),
                logit_scale=float(doc["logit_scale"]),
                threshold=float(doc["threshold"]),
                metrics=dict(doc.get("metrics", {})),
            )
        except FileNotFoundError as exc:
            raise VisionError(
                f"icon label file {path} does not exist",
                hint="`screenpilot export icons` writes it next to the model",
            ) from exc
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise VisionError(f"icon label file {path} is malformed: {exc}") from exc
        if table.embeddings.shape[0] != len(table.names):
            raise VisionError(
                f"icon label file {path}: {len(table.names)} labels but "
                f"{table.embeddings.shape[0]} embeddings"
            )
        return table


class IconLabeller:
    """Labels icon crops; see the module docstring."""

    def __init__(
        self,
        model_path: str | Path | None = None,
        labels_path: str | Path | None = None,
        *,
        threads: int = 2,
        threshold: float | None = None,
        batch: int = 64,
    ) -> None:
        model_path = Path(model_path) if model_path else DEFAULT_MODEL
        if labels_path is None:
            labels_path = model_path.with_name(model_path.stem + "_labels.json")
        self.tower = OnnxImageTower(model_path, threads=threads)
        self.table = LabelTable.load(labels_path)
        if self.table.embeddings.shape[1] != self._embedding_dim():
            raise VisionError(f"{labels_path} does not match {model_path} (embedding sizes differ)")
        self.threshold = self.table.threshold if threshold is None else threshold
        self.batch = max(1, batch)

    def _embedding_dim(self) -> int:
        shape = self.tower.session.get_outputs()[0].shape
        dim = shape[-1]
        return int(dim) if isinstance(dim, int) else int(self.table.embeddings.shape[1])

    @property
    def labels(self) -> list[str]:
        """The vocabulary the model answers with."""
        return self.table.names

    def probabilities(self, crops: Sequence[Crop]) -> FloatArray:
        """(N, labels) softmax probabilities."""
        images = [load_crop(c) for c in crops]
        if not images:
            return np.zeros((0, len(self.table.names)), np.float32)
        embeddings = np.concatenate(
            [
                self.tower.embed(to_pixels(images[i : i + self.batch], self.tower.size))
                for i in range(0, len(images), self.batch)
            ]
        )
        # einsum, not ``@``: a small matrix product through multi-threaded BLAS took
        # 30-50 ms per batch on a busy 2-core machine (threads spinning), einsum 0.1 ms.
        logits = self.table.logit_scale * np.einsum("nd,ld->nl", embeddings, self.table.embeddings)
        logits -= logits.max(axis=1, keepdims=True)
        exp = np.exp(logits)
        probs: FloatArray = (exp / exp.sum(axis=1, keepdims=True)).astype(np.float32)
        return probs

    def label(self, crops: Sequence[Crop], top: int = 3) -> list[IconResult]:
        """The top-``top`` labels of each crop, ``"unknown"`` under the threshold."""
        probs = self.probabilities(crops)
        top = max(1, min(top, len(self.table.names)))
        results = []
        for row in probs:
            order = np.argsort(-row)[:top]
            candidates = [(self.table.names[i], round(float(row[i]), 4)) for i in order]
            best_name, best = candidates[0]
            results.append(
                IconResult(
                    label=best_name if best >= self.threshold else UNKNOWN,
                    score=best,
                    top=candidates,
                )
            )
        return results

    def label_one(self, crop: Crop, top: int = 3) -> IconResult:
        """``label`` for a single crop."""
        return self.label([crop], top=top)[0]
