"""One generated screen, ``SynthScreen``: pixels and widget boxes, and its downscaling."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from screenpilot.datasets.synth.labels import clip_box
from screenpilot.datasets.yolo import LabeledBox

if TYPE_CHECKING:
    from PIL import Image as PILImage

Rng = random.Random


@dataclass(frozen=True, slots=True)
class SynthScreen:
    """One generated screen: its pixels and its widget boxes (image pixels)."""

    image: PILImage.Image
    boxes: tuple[LabeledBox, ...]
    kind: str
    meta: dict[str, Any] = field(default_factory=dict)


def scaled(screen: SynthScreen, max_side: int) -> SynthScreen:
    """The screen with its long side at most ``max_side`` (boxes scaled, tiny ones dropped)."""
    from PIL import Image

    w, h = screen.image.size
    factor = min(1.0, max_side / max(w, h))
    if factor >= 1.0:
        return screen
    size = (max(1, round(w * factor)), max(1, round(h * factor)))
    image = screen.image.convert("RGB").resize(size, Image.Resampling.BILINEAR)
    boxes = [
        LabeledBox(b.kind, b.x1 * factor, b.y1 * factor, b.x2 * factor, b.y2 * factor)
        for b in screen.boxes
    ]
    kept = tuple(b for b in (clip_box(b, size) for b in boxes) if b is not None)
    return SynthScreen(image, kept, screen.kind, screen.meta)
