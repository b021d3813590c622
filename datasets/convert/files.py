"""Reading a source's files: JSON, screenshots (size and grey levels), the bounds' scale,
and sample names made safe for file names."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from screenpilot.errors import DataError


def load_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DataError(f"cannot read {path}: {exc}") from exc


def read_image(path: Path) -> tuple[int, int, Any]:
    """Image size and its grey levels (a numpy array) for the flat-pixel filter."""
    import numpy as np
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as im:
            gray = np.asarray(im.convert("L"), dtype=np.float32)
    except (OSError, UnidentifiedImageError) as exc:
        raise DataError(f"cannot read image {path}: {exc}") from exc
    return gray.shape[1], gray.shape[0], gray


def bounds_scale(root_width: float, image_width: int) -> float:
    """Screenshots may be downscaled from the display the bounds were taken on."""
    if root_width > image_width * 1.02:
        return image_width / root_width
    return 1.0


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-") or "x"
