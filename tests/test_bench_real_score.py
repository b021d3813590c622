"""bench/real.py's scoring: hit by an element's box, matched by its box or its tap extent."""

from __future__ import annotations

from types import ModuleType

import numpy as np
from bench_helpers import load_bench


def _real() -> ModuleType:
    return load_bench("real")


def test_a_row_is_hit_by_its_text_and_matched_by_the_texts_band() -> None:
    real = _real()
    row = np.array([[0, 500, 1080, 650]], dtype=np.float64)
    text = np.array([[180, 550, 500, 600]], dtype=np.float64)
    band = np.array([[0, 505, 1080, 645]], dtype=np.float64)
    assert real.score(row, text) == (1, 0, 0)
    assert real.score(row, text, band) == (1, 1, 0)


def test_a_huge_extent_does_not_hit_and_an_empty_screen_scores_nothing() -> None:
    real = _real()
    icon = np.array([[100, 100, 226, 226]], dtype=np.float64)
    whole = np.array([[0, 0, 1080, 2400]], dtype=np.float64)
    assert real.score(icon, whole, whole) == (0, 0, 0)  # centre outside, far too large
    assert real.score(icon, np.zeros((0, 4))) == (0, 0, 0)
