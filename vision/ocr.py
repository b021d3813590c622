"""Text recognition: PP-OCR models through ``rapidocr`` (offline), ``paddleocr`` optionally.

:func:`recognize` returns :class:`TextLine` records (text, box in image pixels,
recognition score) kept above a recognition threshold (the approach uses 0.95;
``bench/vision.py`` measures the trade-off). The bundled PP-OCRv6 models read
Chinese and English.

Sizing for phone screens, in two scales. The text *detector* runs on the image
scaled to at most ``det_width`` pixels wide; each line it finds is then cut for the
*recogniser* from the image scaled to at most ``max_width`` pixels wide (720 by
default: body text on a 1080-wide screen is ~40 px tall, ~27 px after scaling).
Both are 720 by default (what describe has always read). A smaller ``det_width``
(the ``vision.ocr_det_width`` setting, variable ``SCREENPILOT_VISION_OCR_DET_WIDTH``) is
faster, because the detector's time grows with the pixels, and loses the smallest
lines: measured side by side on the 394 held-out real screens of ``bench/real.py``
(2026-12-04, one thread), describe took 1.50 s a screen and hit 0.902 of the tap
targets at 720, 0.97 s and 0.899 at 480; on 200 screens of the harvest's train apps
hit 0.903 at 720, 0.892 at 540 and 0.889 at 480 (single small digits are missed).
The text detector's weights are rapidocr's own detector quantised to int8 here by
default (``models/ocr_det_int8.onnx``, ``screenpilot export ocr-det``; the
``vision.ocr_det_model`` setting, variable ``SCREENPILOT_VISION_OCR_DET_MODEL``, takes
``int8``, ``fp32`` for the wheel's own float detector, or a path to an ONNX file): it
runs ~4x faster than the float one on an Intel Xeon with AMX (887 -> 213 ms a
720-wide screen, one thread; describe 1.50 -> 0.81 s a held-out real screen) and less
on an AMD EPYC without it (describe 0.94 -> 0.81 s), with the same texts within 0.2
points and line boxes a few pixels apart; since stop 39 describe's figures on the
simulator, the held-out real screens and the task suite are level with the float
detector's (models/MODELS.md). The recogniser stays float: quantised, it changed a
fifth of the lines it read and gained 1.2x. Since stop 41 the detector does not see
the inside of long plain bands (``vision/squeeze.py``, setting ``vision.ocr_squeeze``),
and the recogniser pads a short line to 160 px instead of rapidocr's 320
(``vision.ocr_rec_width``; a line under twice as wide as tall, often an icon's glyph,
still to 320): OCR's time a screen falls by a fifth to a third with the same texts
(models/MODELS.md). Neither detector nor recogniser upscales further
(``limit_type=max``). Images much taller than wide (stitched long screenshots) are
read in overlapping tiles so their text is not shrunk into illegibility. The angle
classifier is off: screen text is upright. Lines are recognised one at a time
(``rec_batch=1``): in a batch, rapidocr pads every crop to the widest one, so a
line's text would depend on its neighbours (and incremental describe could not
reproduce a full one).
Because a line's result then depends only on its crop's pixels, recognition
results are cached by crop (:class:`RecognitionCache`): a line seen before (the
status bar's clock, every unchanged line in a band that incremental describe
re-reads) is not recognised again, and the result is the same by construction.
Engines are created lazily, once per configuration, and reused;
rapidocr / onnxruntime failures leave as :class:`VisionError`.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import importlib.util
import math
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from screenpilot.errors import VisionError
from screenpilot.model import Box
from screenpilot.vision.density import short_side
from screenpilot.vision.image import RGB, ImageInput, load_image
from screenpilot.vision.squeeze import squeeze_rows

#: Lines recognised below this score are dropped. The approach uses 0.95; 0.90 keeps
#: 1-2 points more true lines with a better exact match and CER on simulator and DroidBot
#: screens (bench/vision_truth.py, bench/results/vision_truth.json).
DEFAULT_THRESHOLD = 0.90
#: Lines are read (recognised) on the image scaled to at most this wide...
DEFAULT_MAX_WIDTH = 720
#: ... and found (detected) on it scaled to at most this wide (the module docstring)...
DEFAULT_DET_WIDTH = 720
#: ... unless this variable says otherwise (``vision.ocr_det_width`` sets it).
DET_WIDTH_ENV = "SCREENPILOT_VISION_OCR_DET_WIDTH"
#: The text detector's weights: ``int8`` (the default: the wheel's detector quantised
#: here, ``models/ocr_det_int8.onnx``), ``fp32`` (the wheel's own) or a path to an ONNX
#: file (``vision.ocr_det_model`` sets this variable).
DET_MODEL_ENV = "SCREENPILOT_VISION_OCR_DET_MODEL"
DEFAULT_DET_MODEL = "int8"
#: Whether the text detector skips long plain bands (``vision/squeeze.py``; on unless this
#: variable, which ``vision.ocr_squeeze`` sets, says false).
SQUEEZE_ENV = "SCREENPILOT_VISION_OCR_SQUEEZE"
#: The recogniser reads a line 48 px tall, padded on the right to at least this wide
#: (rapidocr's own is 320, which pads a short label to six times its width; 160 reads
#: the same texts in less time, models/MODELS.md; ``vision.ocr_rec_width`` sets this
#: variable).
REC_WIDTH_ENV = "SCREENPILOT_VISION_OCR_REC_WIDTH"
DEFAULT_REC_WIDTH = 160
#: ... except a line less than twice as wide as tall (one or two characters, or an icon's
#: glyph: a menu's three bars read as "三"), which is padded as rapidocr pads it, to
#: 320 x 48: less padding raises the recogniser's score for such glyphs over the
#: threshold.
NARROW_RATIO = 2.0
NARROW_PAD = 320 / 48
#: the recogniser's input height
REC_HEIGHT = 48
#: The shipped int8 text detector (``screenpilot export ocr-det`` writes it).
INT8_DET_FILE = "ocr_det_int8.onnx"
#: The detector inside the rapidocr wheel (PP-OCRv6 small, Apache-2.0).
WHEEL_DET_FILE = "PP-OCRv6_det_small.onnx"
#: Tiles for tall images are this many times as tall as they are wide...
TILE_ASPECT = 2.5
#: ... and at least this many pixels tall (a strip a few pixels wide is read in tiles
#: of this height, each overlapping the next by at most a quarter of it).
MIN_TILE = 256
#: Recognition results kept by :class:`RecognitionCache` (crops of ~30 KB are not kept,
#: only a 16-byte digest of each with its text and score).
REC_CACHE_SIZE = 4096
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

    def read(self, image: RGB, *, span: int | None = None) -> list[TextLine]:
        """Every line on ``image``; ``span``: the screen's short side, which sets the
        scales (default: ``image``'s own short side; a crop of a screen passes its
        screen's)."""
        ...


def recognize(
    image: ImageInput, *, threshold: float = DEFAULT_THRESHOLD, backend: OcrBackend | None = None
) -> list[TextLine]:
    """The text lines on ``image`` recognised with a score of at least ``threshold``."""
    if not 0.0 <= threshold <= 1.0:
        raise VisionError(f"OCR threshold {threshold} is outside [0, 1]")
    pixels = load_image(image)
    engine = backend or get_backend()
    return [line for line in read_tiled(engine, pixels) if line.score >= threshold]


def read_tiled(engine: OcrBackend, image: RGB, *, span: int | None = None) -> list[TextLine]:
    """``engine.read`` on ``image``, in overlapping tiles when it is much taller than wide
    (``span``: as :meth:`OcrBackend.read` takes it; default ``image``'s short side)."""
    h, w = image.shape[:2]
    span = span or short_side(w, h)
    if h <= TILE_ASPECT * w * 1.2:
        return engine.read(image, span=span)
    tile = max(int(TILE_ASPECT * w), MIN_TILE)
    if h <= tile:
        return engine.read(image, span=span)
    overlap = min(max(64, tile // 8), tile // 4)
    lines: list[TextLine] = []
    top = 0
    while True:
        bottom = min(h, top + tile)
        found = engine.read(np.ascontiguousarray(image[top:bottom]), span=span)
        lines.extend(_keep_tile_lines(found, top, bottom, h, overlap))
        if bottom >= h:
            return lines
        top = bottom - overlap


def _keep_tile_lines(
    found: list[TextLine], top: int, bottom: int, h: int, overlap: int
) -> list[TextLine]:
    """Lines of one tile whose centre lies in the part this tile owns (no duplicates)."""
    own_top = 0 if top == 0 else overlap // 2
    own_bottom = bottom - top if bottom >= h else bottom - top - overlap // 2
    return [line.shifted(0, top) for line in found if own_top <= line.box.center[1] < own_bottom]


@functools.cache
def get_backend(name: str = "rapidocr", max_width: int = DEFAULT_MAX_WIDTH) -> OcrBackend:
    """The shared engine for ``name`` (created once, loaded lazily on first use)."""
    if name == "rapidocr":
        return RapidOcrBackend(max_width=max_width)
    if name == "paddleocr":
        return PaddleOcrBackend(max_width=max_width)
    raise VisionError(f"unknown OCR backend {name!r}", hint=f"use one of {BACKENDS}")


def _pixels_setting(env: str, default: int, hint: str) -> int:
    """A width in pixels from the variable ``env`` when set, else ``default``."""
    raw = os.environ.get(env, "").strip()
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise VisionError(f"{env}={raw!r} is not a whole number of pixels", hint=hint) from None


def configured_det_width() -> int:
    """The text detector's width: ``SCREENPILOT_VISION_OCR_DET_WIDTH`` when set, else 720."""
    return _pixels_setting(
        DET_WIDTH_ENV,
        DEFAULT_DET_WIDTH,
        "set vision.ocr_det_width to e.g. 720 (the default) or 480 (faster)",
    )


def configured_rec_width() -> int:
    """The recogniser's least input width: ``vision.ocr_rec_width``'s variable, else 160."""
    return _pixels_setting(
        REC_WIDTH_ENV, DEFAULT_REC_WIDTH, f"set vision.ocr_rec_width to e.g. {DEFAULT_REC_WIDTH}"
    )


def pad_narrow(crop: RGB, rec_width: int) -> npt.NDArray[Any]:
    """``crop`` as rapidocr's recogniser would see it at 320 px: scaled to 48 px tall and
    padded on the right to 320 with what it pads with (mid grey, 127.5), when it is under
    ``NARROW_RATIO`` wide and ``rec_width`` pads less than that; else ``crop`` itself."""
    import cv2

    h, w = crop.shape[:2]
    if not h or not w or w >= NARROW_RATIO * h or rec_width >= NARROW_PAD * REC_HEIGHT:
        return crop
    width = round(NARROW_PAD * REC_HEIGHT)
    scaled = min(width, math.ceil(REC_HEIGHT * w / h))  # as the recogniser scales it
    out = np.full((REC_HEIGHT, width, *crop.shape[2:]), 127.5, dtype=np.float32)
    out[:, :scaled] = cv2.resize(crop, (scaled, REC_HEIGHT))
    return out


def configured_squeeze() -> bool:
    """Whether plain bands are left out of text detection (``vision.ocr_squeeze``)."""
    raw = os.environ.get(SQUEEZE_ENV, "").strip().lower()
    if raw in ("", "1", "true", "yes", "on"):
        return True
    if raw in ("0", "false", "no", "off"):
        return False
    raise VisionError(
        f"{SQUEEZE_ENV}={raw!r} is not true or false",
        hint="set vision.ocr_squeeze to true or false",
    )


def wheel_det_model() -> Path:
    """The text detector that ships inside the rapidocr wheel (float32)."""
    spec = importlib.util.find_spec("rapidocr")
    if spec is None or not spec.submodule_search_locations:
        raise VisionError("rapidocr is not installed", hint="pip install rapidocr")
    path = Path(next(iter(spec.submodule_search_locations))) / "models" / WHEEL_DET_FILE
    if not path.is_file():
        raise VisionError(
            f"rapidocr's text detector {path} is missing",
            hint="reinstall rapidocr (its models ship in the wheel)",
        )
    return path


def det_model_path(choice: str | None = None) -> Path | None:
    """The text detector to load for ``choice`` (default: ``$SCREENPILOT_VISION_OCR_DET_MODEL``,
    else ``int8``): ``None`` for the wheel's own (``fp32``), the shipped int8 file, or a
    path, which must exist."""
    raw = (os.environ.get(DET_MODEL_ENV, "") if choice is None else choice).strip()
    raw = raw or DEFAULT_DET_MODEL
    if raw == "fp32":
        return None
    from screenpilot.vision.shipped import MODELS_DIR

    path = MODELS_DIR / INT8_DET_FILE if raw == "int8" else Path(raw).expanduser()
    if not path.is_file():
        raise VisionError(
            f"the OCR text detector {path} is missing",
            hint="set vision.ocr_det_model to fp32 (rapidocr's own), int8 (the shipped "
            "one) or an ONNX file; `screenpilot export ocr-det` rebuilds the int8 one",
        )
    return path


def _scale_for(span: int, max_width: int) -> float:
    """The scale that brings a screen whose short side is ``span`` (its width in portrait,
    its height on its side) to ``max_width``, never up."""
    return min(1.0, max_width / span)


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
    return np.ascontiguousarray(
        cv2.copyMakeBorder(image, 0, bottom, 0, right, cv2.BORDER_REPLICATE)
    )


def _quad_to_box(quad: Any, scale: float, width: int, height: int) -> Box | None:
    pts = np.asarray(quad, dtype=np.float32).reshape(-1, 2) / scale
    x1, y1 = max(0.0, float(pts[:, 0].min())), max(0.0, float(pts[:, 1].min()))
    x2, y2 = min(float(width), float(pts[:, 0].max())), min(float(height), float(pts[:, 1].max()))
    if x2 - x1 < 1 or y2 - y1 < 1:
        return None
    return Box.of(x1, y1, x2, y2)


def _lines_from(
    boxes: Sequence[Any],
    texts: Sequence[str],
    scores: Sequence[float],
    scale: float,
    width: int,
    height: int,
) -> list[TextLine]:
    lines = []
    for quad, text, score in zip(boxes, texts, scores, strict=False):
        box = _quad_to_box(quad, scale, width, height)
        if box is not None and text.strip():
            lines.append(TextLine(text.strip(), box, round(float(score), 4)))
    return lines


def _float32_preprocess(detector: Any) -> None:
    """Make rapidocr's text detector prepare its input in float32: its own
    ``DetPreProcess`` normalises in float64 (a float32 image minus a float64 mean): 40
    against 6 ms for a 720 x 1600 screen on one core here (:class:`_Float32Pre` now
    looks the values up in a table). With a mean and std
    of 0.5 (rapidocr's, for every channel) each float32 step is exact, so the input is
    the same bit for bit; that is checked on a probe image before it is used, and the
    detector is left as it is otherwise (another rapidocr, other settings)."""
    make = getattr(detector, "get_preprocess", None)
    if make is None:
        return
    try:
        base = make()
        halves = np.concatenate([np.ravel(base.mean), np.ravel(base.std)])
        if not (halves == 0.5).all() or base.scale != 1 / 255.0:
            return  # exact only for rapidocr's own normalisation
        probe = np.random.default_rng(0).integers(0, 256, (64, 96, 3), dtype=np.uint8)
        mine, theirs = _Float32Pre(base)(probe), base(probe)
        if mine is None or theirs is None or not np.array_equal(mine, theirs):
            return
    except Exception:  # an unknown rapidocr: keep its own
        return
    detector.get_preprocess = lambda: _Float32Pre(make())


class _Float32Pre:
    """rapidocr's ``DetPreProcess`` (``base``: its resize) with the normalisation in
    float32 (see :func:`_float32_preprocess`). A uint8 image has 256 values a channel,
    so the float32 steps are done once, on those, and the image is looked up in the
    table (after its channels are put first, on the uint8 bytes): the same values,
    in a third less time than computing them for every pixel."""

    def __init__(self, base: Any) -> None:
        self.base = base
        self.scale = np.float32(base.scale)
        self.mean = np.asarray(base.mean, np.float32)
        self.std = np.asarray(base.std, np.float32)
        levels = np.arange(256, dtype=np.float32)[:, None] * np.ones_like(self.mean)
        self.table = np.ascontiguousarray(self._normalised(levels).T)  # channel x level
        self.shared = bool((self.table == self.table[0]).all())  # one table for every channel

    def _normalised(self, x: np.ndarray) -> np.ndarray:
        x *= self.scale
        x -= self.mean
        x /= self.std
        return x

    def __call__(self, img: np.ndarray) -> np.ndarray | None:
        resized = self.base.resize(img)
        if resized is None:
            return None
        if resized.dtype != np.uint8 or resized.ndim != 3 or resized.shape[2] != len(self.table):
            x = self._normalised(resized.astype(np.float32))
            return np.ascontiguousarray(x.transpose(2, 0, 1))[None]
        planes = np.ascontiguousarray(resized.transpose(2, 0, 1))
        if self.shared:
            return np.asarray(self.table[0][planes])[None]
        return np.stack([row[plane] for row, plane in zip(self.table, planes, strict=True)])[None]


CacheKey = tuple[tuple[int, ...], str, bytes]


class RecognitionCache:
    """rapidocr's text recogniser with its results remembered by crop pixels.

    Stands in for the engine's ``text_rec`` (``recognizer``, set when the engine
    starts): called with a ``TextRecInput`` (crops),
    it recognises only the crops it has not seen (an LRU of ``size`` entries keyed by
    shape and a BLAKE2 digest of the pixels) and answers a ``TextRecOutput`` in the
    order of the crops. Exact only when the recogniser reads one crop at a time
    (``rec_batch_num`` 1: a crop's result does not depend on the others), so the
    backend installs it only then; word boxes are never cached (passed through).
    """

    def __init__(self, recognizer: Any = None, size: int = REC_CACHE_SIZE) -> None:
        self.recognizer = recognizer
        self.size = size
        self.hits = 0
        self.misses = 0
        self._results: OrderedDict[CacheKey, tuple[str, float]] = OrderedDict()
        self._lock = threading.Lock()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.recognizer, name)

    def clear(self) -> None:
        """Forget every result (benchmarks that time a first sight of a screen)."""
        with self._lock:
            self._results.clear()

    @staticmethod
    def key(crop: np.ndarray) -> CacheKey:
        data = np.ascontiguousarray(crop)
        digest = hashlib.blake2b(data.tobytes(), digest_size=16).digest()
        return (tuple(data.shape), str(data.dtype), digest)

    def __call__(self, args: Any) -> Any:
        if args.return_word_box or args.img is None:
            return self.recognizer(args)
        crops = [args.img] if isinstance(args.img, np.ndarray) else list(args.img)
        keys = [self.key(c) for c in crops]
        with self._lock:
            known = {k: self._results[k] for k in keys if k in self._results}
        todo = [i for i, k in enumerate(keys) if k not in known]
        out: Any = None
        if todo:
            out = self.recognizer(dataclasses.replace(args, img=[crops[i] for i in todo]))
            if out.txts is None:
                return out
            fresh = {
                keys[i]: (str(t), float(sc))
                for i, t, sc in zip(todo, out.txts, out.scores, strict=True)
            }
            with self._lock:
                for k, v in fresh.items():
                    self._results[k] = v
                    self._results.move_to_end(k)
                while len(self._results) > self.size:
                    self._results.popitem(last=False)
            known.update(fresh)
        with self._lock:
            self.hits += len(keys) - len(todo)
            self.misses += len(todo)
        results = [known[k] for k in keys]
        txts = tuple(t for t, _ in results)
        scores = tuple(sc for _, sc in results)
        words = tuple(None for _ in results)
        if out is not None:
            return dataclasses.replace(
                out, imgs=crops, txts=txts, scores=scores, word_results=words
            )
        from rapidocr.ch_ppocr_rec.typings import TextRecOutput

        make: Any = TextRecOutput  # its annotations say 1-tuples; it holds any length
        return make(crops, txts, scores, words, 0.0)


class RapidOcrBackend:
    """PP-OCRv6 (det + rec, small) from the rapidocr wheel, on onnxruntime.

    ``rec_cache``: how many recognition results :class:`RecognitionCache` (``cache``)
    keeps (0: no cache; only used with ``rec_batch`` 1, where it cannot change a result).
    ``det_model``: the text detector (:func:`det_model_path`: ``int8`` by default,
    ``fp32`` or a path); ``None`` reads ``vision.ocr_det_model``'s variable.
    ``squeeze``: leave long plain bands out of text detection (:mod:`vision.squeeze`);
    ``None`` reads ``vision.ocr_squeeze``'s variable. ``rec_width``: the least width a
    line is padded to for the recogniser; ``None`` reads ``vision.ocr_rec_width``'s.
    """

    name = "rapidocr"

    def __init__(
        self,
        *,
        max_width: int = DEFAULT_MAX_WIDTH,
        det_width: int | None = None,
        threads: int | None = None,
        rec_batch: int = 1,
        rec_cache: int = REC_CACHE_SIZE,
        det_model: str | None = None,
        squeeze: bool | None = None,
        rec_width: int | None = None,
    ) -> None:
        if importlib.util.find_spec("rapidocr") is None:
            raise VisionError("rapidocr is not installed", hint="pip install rapidocr")
        self.det_model = det_model_path(det_model)
        det_width = configured_det_width() if det_width is None else det_width
        if max_width < 32 or det_width < 32:
            raise VisionError(
                f"OCR widths must be at least 32 px (lines read at {max_width} px wide, "
                f"found at {det_width})",
                hint="set vision.ocr_det_width to 32 or more (720 is the default, 480 faster)",
            )
        self.max_width = max_width
        self.det_width = det_width
        self.squeeze = configured_squeeze() if squeeze is None else squeeze
        self.rec_width = configured_rec_width() if rec_width is None else rec_width
        if not 16 <= self.rec_width <= 2048:
            raise VisionError(
                f"the recogniser's width must be 16-2048 px, not {self.rec_width}",
                hint=f"set vision.ocr_rec_width to e.g. {DEFAULT_REC_WIDTH}",
            )
        self.threads = threads
        self.rec_batch = rec_batch
        self.cache = RecognitionCache(size=rec_cache) if rec_batch == 1 and rec_cache > 0 else None
        self._engine: Any = None
        self._lock = threading.Lock()
        self._last_bgr: tuple[RGB, float, RGB] | None = None

    def _params(self) -> dict[str, Any]:
        params: dict[str, Any] = {
            "Global.log_level": "error",
            "Global.text_score": 0.0,  # we filter with our own threshold
            "Global.use_cls": False,  # screen text is upright
            "Global.use_rec": False,  # the engine finds lines; read() cuts and reads them
            "Global.use_preprocess_img": False,  # we scale ourselves
            "Det.limit_type": "max",
            "Det.limit_side_len": 100_000,  # no further resizing by the detector
            "Rec.rec_batch_num": self.rec_batch,
            "Rec.rec_img_shape": [3, 48, self.rec_width],
        }
        if self.threads:
            params["EngineConfig.onnxruntime.intra_op_num_threads"] = self.threads
        if self.det_model is not None:
            params["Det.model_path"] = str(self.det_model)
        return params

    def engine(self) -> Any:
        """The rapidocr engine, created on first use."""
        with self._lock:
            if self._engine is None:
                try:
                    from rapidocr import RapidOCR

                    engine: Any = RapidOCR(params=self._params())
                    if self.det_model is not None and hasattr(engine, "_load_det_model"):
                        engine._load_det_model()  # a broken detector file fails here, named
                    if hasattr(engine, "_load_det_model"):
                        _float32_preprocess(engine._load_det_model())
                    if self.cache is not None and hasattr(engine, "_load_rec_model"):
                        self.cache.recognizer = engine._load_rec_model()
                        engine.text_rec = self.cache
                    self._engine = engine
                except Exception as exc:  # rapidocr raises many kinds; all mean the same
                    hint = "reinstall rapidocr (its models ship in the wheel)"
                    if self.det_model is not None:
                        hint = (
                            f"is {self.det_model} an ONNX text detector? set "
                            "vision.ocr_det_model to fp32 (rapidocr's own) or int8 (shipped)"
                        )
                    raise VisionError(f"cannot start rapidocr: {exc}", hint=hint) from exc
            return self._engine

    def _bgr(self, image: RGB, scale: float) -> RGB:
        """``image`` scaled by ``scale`` in rapidocr's channel order (BGR), read-only; the
        last one is remembered, so that :meth:`read` (lines found and read at one scale)
        and then :meth:`read_boxes` on the same screen scale it once."""
        last = self._last_bgr
        if last is not None and last[0] is image and last[1] == scale:
            return last[2]
        import cv2

        out: RGB = np.asarray(
            cv2.cvtColor(np.ascontiguousarray(_resize(image, scale)), cv2.COLOR_RGB2BGR),
            dtype=np.uint8,
        )
        out.flags.writeable = False  # shared by callers: nobody may draw on it
        self._last_bgr = (image, scale, out)
        return out

    def read(self, image: RGB, *, span: int | None = None) -> list[TextLine]:
        """Lines found at ``det_width``, each read from the image at ``max_width`` (both
        across the screen's short side, ``span``: see :meth:`OcrBackend.read`)."""
        h, w = image.shape[:2]
        if image.ndim != 3 or not h or not w:
            return []
        span = span or short_side(w, h)
        from rapidocr.ch_ppocr_rec.typings import TextRecInput
        from rapidocr.utils.process_img import get_rotate_crop_image

        engine = self.engine()
        det_scale = _scale_for(span, self.det_width)
        small = self._bgr(image, det_scale)  # squeezing looks at every channel alike
        squeezed = squeeze_rows(small) if self.squeeze else None
        try:
            seen = _pad32(squeezed.image if squeezed is not None else small)
            found = engine(np.ascontiguousarray(seen))
            quads = getattr(found, "boxes", None)
            if quads is None or not len(quads):
                return []
            quads = np.asarray(quads, dtype=np.float32).reshape(-1, 4, 2)
            if squeezed is not None:
                quads[:, :, 1] = squeezed.unsqueeze_y(quads[:, :, 1])
            quads /= det_scale
            rec_scale = _scale_for(span, self.max_width)
            sides = np.ptp(quads, axis=1) * rec_scale  # (width, height) of each line there
            quads = quads[(sides >= 1.0).all(axis=1)]
            if not len(quads):
                return []
            source = self._bgr(image, rec_scale)  # the same array when both scales are one
            crops = [
                pad_narrow(get_rotate_crop_image(source, quad * rec_scale), self.rec_width)
                for quad in quads
            ]
            out = engine._load_rec_model()(TextRecInput(img=crops))
        except Exception as exc:
            raise VisionError(f"rapidocr failed on a {w}x{h} image: {exc}") from exc
        if getattr(out, "txts", None) is None:
            return []
        return _lines_from(quads, out.txts, out.scores, 1.0, w, h)

    def read_boxes(self, image: RGB, boxes: Sequence[Box]) -> list[TextLine]:
        """The recogniser alone on each of ``boxes`` (no detection): one line per box, in
        order, its text empty where nothing was read."""
        h, w = image.shape[:2]
        if image.ndim != 3 or not h or not w or not boxes:
            return [TextLine("", b, 0.0) for b in boxes]
        from rapidocr.ch_ppocr_rec.typings import TextRecInput

        scale = _scale_for(short_side(w, h), self.max_width)
        source = self._bgr(image, scale)  # read() scaled this screen already
        sh, sw = source.shape[:2]
        crops = []
        for b in boxes:
            x1, y1 = max(0, int(b.x1 * scale)), max(0, int(b.y1 * scale))
            x2 = min(sw, max(x1 + 1, round(b.x2 * scale)))
            y2 = min(sh, max(y1 + 1, round(b.y2 * scale)))
            crops.append(pad_narrow(np.ascontiguousarray(source[y1:y2, x1:x2]), self.rec_width))
        try:
            out = self.engine()._load_rec_model()(TextRecInput(img=crops))
        except Exception as exc:
            raise VisionError(f"rapidocr failed reading {len(boxes)} boxes: {exc}") from exc
        txts = getattr(out, "txts", None) or ("",) * len(boxes)
        scores = getattr(out, "scores", None) or (0.0,) * len(boxes)
        return [
            TextLine(str(t).strip(), b, round(float(sc), 4))
            for b, t, sc in zip(boxes, txts, scores, strict=True)
        ]


class PaddleOcrBackend:
    """PaddleOCR itself, only when it is installed and finds its models locally.

    Model folders come from ``SCREENPILOT_PADDLE_DET`` / ``SCREENPILOT_PADDLE_REC``
    (PaddleOCR downloads its defaults, which cannot work offline).
    """

    name = "paddleocr"

    def __init__(self, *, max_width: int = DEFAULT_MAX_WIDTH) -> None:
        import os

        if importlib.util.find_spec("paddleocr") is None:
            raise VisionError(
                "the paddleocr backend needs the paddleocr package",
                hint="pip install paddleocr paddlepaddle, or use rapidocr",
            )
        self.det_dir = os.environ.get("SCREENPILOT_PADDLE_DET", "")
        self.rec_dir = os.environ.get("SCREENPILOT_PADDLE_REC", "")
        if not (self.det_dir and self.rec_dir):
            raise VisionError(
                "paddleocr needs local models",
                hint="set SCREENPILOT_PADDLE_DET and SCREENPILOT_PADDLE_REC to the model folders",
            )
        self.max_width = max_width
        self._engine: Any = None
        self._lock = threading.Lock()

    def engine(self) -> Any:
        with self._lock:
            if self._engine is None:
                try:
                    from paddleocr import PaddleOCR

                    self._engine = PaddleOCR(
                        text_detection_model_dir=self.det_dir,
                        text_recognition_model_dir=self.rec_dir,
                        use_textline_orientation=False,
                    )
                except Exception as exc:
                    raise VisionError(f"cannot start paddleocr: {exc}") from exc
            return self._engine

    def read(self, image: RGB, *, span: int | None = None) -> list[TextLine]:
        h, w = image.shape[:2]
        if image.ndim != 3 or not h or not w:
            return []
        scale = _scale_for(span or short_side(w, h), self.max_width)
        small = np.ascontiguousarray(_resize(image, scale)[:, :, ::-1])
        try:
            results = self.engine().predict(small)
        except Exception as exc:
            raise VisionError(f"paddleocr failed on a {w}x{h} image: {exc}") from exc
        lines: list[TextLine] = []
        for res in results:
            lines += _lines_from(res["rec_polys"], res["rec_texts"], res["rec_scores"], scale, w, h)
        return lines
