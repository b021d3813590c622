"""Real icon crops as the labeller's input arrays: each crop as cut plus jittered cuts
from its screenshot, squared and resized."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from PIL import Image

from screenpilot.datasets.real_icons.extract import RealIcon


def jittered(
    screen: Image.Image,
    box: tuple[int, int, int, int],
    rng: np.random.Generator,
    jitter: float = 0.12,
) -> Image.Image:
    """``box`` with each edge moved by up to ``jitter`` of its side, cut from ``screen``."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    dx = rng.uniform(-jitter, jitter, 2) * w
    dy = rng.uniform(-jitter, jitter, 2) * h
    nx1, nx2 = max(0, round(x1 + dx[0])), min(screen.width, round(x2 + dx[1]))
    ny1, ny2 = max(0, round(y1 + dy[0])), min(screen.height, round(y2 + dy[1]))
    if nx2 - nx1 < 4 or ny2 - ny1 < 4:
        return screen.crop(box)
    return screen.crop((nx1, ny1, nx2, ny2))


def to_array(image: Image.Image, size: int) -> npt.NDArray[np.uint8]:
    """A crop as the labeller sees it: ``squarish``, resized to ``size`` (uint8 HxWx3)."""
    from screenpilot.vision.icons import squarish

    resized = squarish(image.convert("RGB")).resize((size, size), Image.Resampling.BILINEAR)
    return np.asarray(resized, dtype=np.uint8)


def augmented_arrays(
    icons: Sequence[RealIcon], size: int, copies: int, seed: int = 0, jitter: float = 0.12
) -> npt.NDArray[np.uint8]:
    """(len(icons), 1 + copies, size, size, 3): each crop as cut, then ``copies``
    jittered cuts from its screenshot (opened once per screen)."""
    rng = np.random.default_rng(seed)
    out = np.zeros((len(icons), 1 + copies, size, size, 3), np.uint8)
    by_screen: dict[str, list[int]] = {}
    for i, icon in enumerate(icons):
        by_screen.setdefault(icon.screen, []).append(i)
    for path, indices in by_screen.items():
        with Image.open(path) as opened:
            screen = opened.convert("RGB")
        for i in indices:
            out[i, 0] = to_array(icons[i].image, size)
            for c in range(copies):
                out[i, 1 + c] = to_array(jittered(screen, icons[i].box, rng, jitter), size)
    return out
