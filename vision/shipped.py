"""The models of the pipeline's model stages: what a widget detector and an icon labeller
must answer (protocols), and the shipped ones used when a caller passes none
(``$SCREENPILOT_DETECTOR`` / ``$SCREENPILOT_ICONS`` or ``models/``), or why they cannot be.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from screenpilot.errors import ScreenpilotError
from screenpilot.vision.image import RGB

MODELS_DIR = Path(__file__).resolve().parent.parent / "models"


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


@functools.cache
def default_detector() -> tuple[Detector | None, str]:
    """The shipped detector (``$SCREENPILOT_DETECTOR`` or ``models/detector.onnx``), or why not."""
    path = model_path("SCREENPILOT_DETECTOR", "detector.onnx")
    if not path.is_file():
        return None, f"no widget detector ({path} is missing): texts only"
    try:
        from screenpilot.vision.detect import Detector as OnnxDetector

        return OnnxDetector(path), ""
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
