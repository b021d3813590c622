"""describe() against the virtual phone's ground truth: most truth texts are read exactly."""

from __future__ import annotations

import numpy as np
import pytest

from screenpilot.model import ElementKind, Screen
from screenpilot.simulator.phone import VirtualPhone
from screenpilot.vision.pipeline import describe

#: (app, page, least share of the truth's text elements found with their exact text).
#: Measured (threshold 0.95, no detector): Settings/main light 0.955 (0.909 dark zh),
#: Clock/timer dark 0.944, Clock/main 0.867; 0.8 leaves room for OCR jitter.
PAGES = [("settings", "main", 0.8), ("clock", "timer", 0.8)]


def _found(truth: Screen, got: Screen) -> float:
    """Share of truth TEXT elements with a described element of the same text at their place."""
    texts = [e for e in truth.elements if e.kind is ElementKind.TEXT and e.text.strip()]
    hits = 0
    for t in texts:
        hits += any(
            " ".join(e.text.split()) == " ".join(t.text.split())
            and t.box.intersection(e.box) >= 0.5 * t.box.area
            for e in got.elements
        )
    return hits / len(texts)


@pytest.mark.parametrize(("app", "page", "least"), PAGES)
def test_truth_texts_are_read(app: str, page: str, least: float) -> None:
    phone = VirtualPhone(theme="dark" if page == "timer" else "light")
    phone.open_page(app, page)
    pixels = np.asarray(phone.frame().image.convert("RGB"))
    got = describe(pixels, stages=["ocr", "blocks"])
    share = _found(phone.screen(), got)
    assert share >= least, f"{app}/{page}: {share:.2f} of the truth texts read exactly"


def test_recognition_cache_is_exact() -> None:
    """A screen described again is recognised from the cache, with the same result."""
    from screenpilot.vision.ocr import get_backend

    phone = VirtualPhone()
    phone.open_page("settings", "main")
    pixels = np.asarray(phone.frame().image.convert("RGB"))
    cache = getattr(get_backend(), "cache", None)
    if cache is None:
        pytest.skip("the OCR backend has no recognition cache")
    cache.clear()
    first = describe(pixels, stages=["ocr"])
    hits = cache.hits
    assert describe(pixels, stages=["ocr"]) == first
    assert cache.hits - hits >= len(first.elements)
