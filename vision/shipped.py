"""The models of the pipeline's model stages: what a widget detector and an icon labeller
must answer (protocols), and the shipped ones used when a caller passes none
(``$SCREENPILOT_DETECTOR`` / ``$SCREENPILOT_ICONS`` or ``models/``), or why they cannot be.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from screenpilot.errors import ScreenpilotError

if TYPE_CHECKING:
    from screenpilot.vision.image import RGB

MODELS_DIR = Path(__file__).resolve().parent.parent / "models"
#: The shipped widget detector (float) ...
FLOAT_NAME = "detector.onnx"
#: ... and its int8 copy (``screenpilot export detector-int8``), which describe loads.
INT8_NAME = "detector_int8.onnx"


class Detector(Protocol):
    """A widget detector: element-like records (kind, box, confidence) for an RGB image."""

    def detect(self, image: RGB) -> Sequence[Any]: ...


class IconLabeller(Protocol):
    """An icon labeller: one answer per RGB crop, a ``(label, score)`` pair or a record with
    ``.label`` / ``.score`` (``vision.icons.IconResult``); label ``unknown`` when unsure."""

    def label(self, crops: Sequence[RGB]) -> Sequence[Any]: ...


def model_path(env: str, name: str) -> Path:
    """Where describe looks for a model: ``$env``, else the shipped ``models/`` file."""
    return Path(os.environ.get(env) or MODELS_DIR / name)


def sha256(path: Path) -> str:
    """The SHA-256 of a file, hex (what an int8 copy's report names its source by)."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@functools.lru_cache(maxsize=8)
def _sha256_of(path: Path, size: int, mtime_ns: int) -> str:
    """:func:`sha256` of ``path``, remembered while its size and time stay the same (the
    float detector is 45 MB: 50 ms to hash, asked by describe, doctor and benches)."""
    return sha256(path)


def _made_from(int8: Path, source: Path) -> bool:
    """Whether ``int8``'s report (its ``.json``) names ``source``'s SHA-256."""
    try:
        report = json.loads(int8.with_suffix(".json").read_text(encoding="utf-8"))
        stat = source.stat()
    except (OSError, ValueError):
        return False
    digest = _sha256_of(source, stat.st_size, stat.st_mtime_ns)
    return isinstance(report, dict) and report.get("source_sha256") == digest


def detector_path(models: Path = MODELS_DIR) -> tuple[Path, str]:
    """The widget detector describe loads, and a note when it is not the one asked for.

    ``$SCREENPILOT_DETECTOR`` (the ``vision.detector`` setting): empty or ``int8``, the
    shipped int8 copy (``models/detector_int8.onnx``); ``fp32``, the shipped float model
    (``models/detector.onnx``); anything else, a path. The int8 copy is used only while
    its report names the float model's SHA-256: after ``export detector`` replaced the
    float model, the float one is used (with a note) until ``export detector-int8``
    quantises it again, so an int8 copy of an older detector is never used."""
    value = os.environ.get("SCREENPILOT_DETECTOR", "").strip()
    if value not in ("", "int8", "fp32"):
        return Path(value), ""
    source = models / FLOAT_NAME
    if value == "fp32":
        return source, ""
    int8 = models / INT8_NAME
    if not int8.is_file():
        if source.is_file():
            return source, f"no int8 detector ({int8}): the float one is used"
        return int8, ""
    if source.is_file() and not _made_from(int8, source):
        return source, (
            f"{int8} was not made from {source} (its report, {int8.with_suffix('.json').name}, "
            f"does not name that file's SHA-256): the float one is used; `screenpilot export "
            f"detector-int8` remakes it"
        )
    return int8, ""


@functools.cache
def default_detector() -> tuple[Detector | None, str]:
    """The shipped detector (:func:`detector_path`), or why not; the second value is
    also a note when a detector other than the one asked for is used."""
    path, note = detector_path()
    if not path.is_file():
        return None, f"no widget detector ({path} is missing): texts only"
    try:
        from screenpilot.vision.detect import Detector as OnnxDetector

        return OnnxDetector(path), note
    except (ImportError, ScreenpilotError) as exc:
        return None, f"widget detector {path} cannot be used: {exc}"


@functools.cache
def default_icons() -> tuple[IconLabeller | None, str]:
    """The shipped icon labeller (``$SCREENPILOT_ICONS`` or ``models/icons.onnx``), or why not."""
    path = model_path("SCREENPILOT_ICONS", "icons.onnx")
    if not path.is_file():
        return None, f"no icon model ({path} is missing): icons stay unlabelled"
    try:
        from screenpilot.vision import icons as icons_mod

        factory: Any = getattr(icons_mod, "IconLabeller", None)
        if factory is None:
            return None, "screenpilot.vision.icons has no IconLabeller"
        labeller: IconLabeller = factory(path)
        return labeller, ""
    except (ImportError, ScreenpilotError) as exc:
        return None, f"icon model {path} cannot be used: {exc}"
