"""Pictures drawn for synthetic screens (photo-like noise, gradients, patterns, blobs)
and unlabelled clutter (progress bars, colour bands, rules) as hard negatives."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from screenpilot.model import ElementKind
from screenpilot.simulator.widgets import Widget

if TYPE_CHECKING:
    from screenpilot.simulator.widgets import RenderCtx

RGB = tuple[int, int, int]


def picture_pixels(seed: int, w: int, h: int) -> npt.NDArray[np.uint8]:
    """A photo-like picture: smooth noise, a gradient, a pattern, or blobs on a colour."""
    g = np.random.default_rng(seed)
    style = int(g.integers(0, 4))
    if style == 0:
        cells = int(g.integers(3, 9))
        coarse = g.uniform(0, 255, (cells, cells, 3)).astype(np.float32)
        fine = g.normal(0, 30, (cells * 4, cells * 4, 3)).astype(np.float32)
        out = _upsample(coarse, w, h) + _upsample(fine, w, h) + g.normal(0, 5, (h, w, 3))
    elif style == 1:
        a, b = g.uniform(0, 255, 3), g.uniform(0, 255, 3)
        t = np.linspace(0, 1, h)[:, None, None] * 0.6 + np.linspace(0, 1, w)[None, :, None] * 0.4
        out = a + (b - a) * t + g.normal(0, 4, (h, w, 3))
    elif style == 2:
        period = max(2, int(g.integers(4, 40)))
        yy, xx = np.mgrid[0:h, 0:w]
        mask = ((xx // period + yy // period) % 2)[..., None]
        a, b = g.uniform(0, 255, 3), g.uniform(0, 255, 3)
        out = np.where(mask == 1, a, b) + g.normal(0, 3, (h, w, 3))
    else:
        out = np.ones((h, w, 3)) * g.uniform(0, 255, 3)
        yy, xx = np.mgrid[0:h, 0:w]
        for _ in range(int(g.integers(2, 7))):
            cx, cy, r = g.uniform(0, w), g.uniform(0, h), g.uniform(0.1, 0.5) * max(w, h)
            inside = ((xx - cx) ** 2 + (yy - cy) ** 2) < r * r
            out[inside] = g.uniform(0, 255, 3)
    return np.clip(out, 0, 255).astype(np.uint8)


def _upsample(small: npt.NDArray[np.float32], w: int, h: int) -> npt.NDArray[np.float32]:
    from PIL import Image

    channels = [
        np.asarray(Image.fromarray(small[..., c]).resize((w, h), Image.Resampling.BICUBIC))
        for c in range(3)
    ]
    return np.stack(channels, axis=-1).astype(np.float32)


@dataclass(eq=False)
class Picture(Widget):
    """An image widget drawn by :func:`picture_pixels` (recorded as ``image``)."""

    seed: int = 0
    aspect: float = 0.56
    radius: float = 12.0

    def natural(self, rc: RenderCtx, max_w: float) -> tuple[float, float]:
        w = max_w if self.width is None else min(max_w, rc.dp(self.width))
        return (w, w * self.aspect)

    def paint(self, rc: RenderCtx, x: float, y: float, w: float, h: float) -> None:
        from PIL import Image

        from screenpilot.simulator import draw

        iw, ih = max(1, round(w)), max(1, round(h))
        pic = Image.fromarray(picture_pixels(self.seed, iw, ih))
        radius = min(round(rc.dp(self.radius)), iw // 2, ih // 2)
        rc.painter.paste(pic, x, y, draw.shape_mask("rrect", iw, ih, radius, 0))
        rc.add(ElementKind.IMAGE, (x, y, x + w, y + h))


@dataclass(eq=False)
class Clutter(Widget):
    """Unlabelled decoration: a progress bar (a seek bar's hard negative), a colour band
    or a thin rule."""

    seed: int = 0

    def natural(self, rc: RenderCtx, max_w: float) -> tuple[float, float]:
        return (max_w, rc.dp(4 + self.seed % 5 * 6))

    def paint(self, rc: RenderCtx, x: float, y: float, w: float, h: float) -> None:
        g = random.Random(self.seed)
        color = tuple(g.randrange(256) for _ in range(3))
        rgb: RGB = (color[0], color[1], color[2])
        style = g.randrange(3)
        p = rc.painter
        if style == 0:
            cy, t = y + h / 2, rc.dp(4)
            p.rounded(
                (x + rc.dp(16), cy - t / 2, x + w - rc.dp(16), cy + t / 2),
                t / 2,
                rc.color("accent_container"),
            )
            p.rounded(
                (
                    x + rc.dp(16),
                    cy - t / 2,
                    x + rc.dp(16) + (w - rc.dp(32)) * g.random(),
                    cy + t / 2,
                ),
                t / 2,
                rc.color("accent"),
            )
        elif style == 1:
            p.rect((x, y, x + w, y + h), rgb)
        else:
            p.line(x + rc.dp(16), y + h / 2, x + w - rc.dp(16), y + h / 2, rgb, rc.dp(1))
