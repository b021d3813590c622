"""Validation of the icon CLIP during training: top-1/top-3 on rendered crops of the
validation glyphs and of the held-out test family."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from screenpilot.datasets import icons as icon_data
from screenpilot.training.icons.embed import PromptBank, image_embeddings, label_embeddings
from screenpilot.training.icons.metrics import topk_accuracy
from screenpilot.training.icons.model import normalisation_of
from screenpilot.vision.icon_vocab import Vocabulary


@dataclass
class EvalSet:
    """Rendered crops and their label indices."""

    images: npt.NDArray[np.uint8]
    labels: npt.NDArray[np.int64]


def eval_sets(
    splits: icon_data.Splits, size: int, per_glyph: int, vocab: Vocabulary, limit: int | None = None
) -> dict[str, EvalSet]:
    """``val`` and ``test`` crops, rendered once with fixed seeds."""
    sets = {}
    for name, glyphs, seed in (("val", splits.val, 101), ("test", splits.test, 202)):
        images, labels = icon_data.render_set(
            glyphs[:limit], per_glyph=per_glyph, seed=seed, size=size, vocab=vocab
        )
        sets[name] = EvalSet(images, labels)
    return sets


def evaluate(
    model: Any, bank: PromptBank, sets: dict[str, EvalSet], mode: str = "rgb"
) -> dict[str, float]:
    """top-1/top-3 of every evaluation set."""
    mean, std = normalisation_of(model)
    text = label_embeddings(model, bank)
    out: dict[str, float] = {}
    for name, data in sets.items():
        if len(data.labels) == 0:
            continue
        scores = image_embeddings(model, data.images, mean, std, mode=mode) @ text.T
        for key, value in topk_accuracy(scores, data.labels).items():
            out[f"{name}_{key}"] = round(value, 4)
    return out
