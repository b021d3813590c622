"""Scores of label rankings: top-k accuracy, softmax, and the "unknown" threshold
calibrated to hold a precision."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt


def topk_accuracy(
    scores: npt.NDArray[np.float32], labels: npt.NDArray[np.int64], ks: Sequence[int] = (1, 3)
) -> dict[str, float]:
    """top-k accuracy of score rows against label indices (rows with label -1 ignored)."""
    keep = labels >= 0
    scores, labels = scores[keep], labels[keep]
    if len(labels) == 0:
        return {f"top{k}": 0.0 for k in ks}
    order = np.argsort(-scores, axis=1)
    return {f"top{k}": float(np.mean((order[:, :k] == labels[:, None]).any(axis=1))) for k in ks}


def softmax(logits: npt.NDArray[np.floating[Any]]) -> npt.NDArray[np.float32]:
    """Row-wise softmax."""
    z = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    out: npt.NDArray[np.float32] = (e / e.sum(axis=1, keepdims=True)).astype(np.float32)
    return out


def calibrate_threshold(
    top_prob: npt.NDArray[np.float32], correct: npt.NDArray[np.bool_], target_precision: float = 0.9
) -> float:
    """The lowest top-1 probability at which accepted answers keep ``target_precision``.

    ``correct`` is False for every crop of an unmapped ("unknown") glyph, so the
    threshold also rejects icons outside the vocabulary.
    """
    order = np.argsort(-top_prob)
    hits = np.cumsum(correct[order])
    precision = hits / np.arange(1, len(order) + 1)
    ok = np.nonzero(precision >= target_precision)[0]
    if len(ok) == 0:
        return float(top_prob.max(initial=1.0))
    return float(top_prob[order][ok[-1]])
