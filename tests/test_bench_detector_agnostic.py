"""bench/detector_agnostic.py's scoring: a box found under another class counts only
when every class is one."""

from __future__ import annotations

from types import ModuleType

from bench_helpers import load_bench

from screenpilot.datasets.yolo import CLASS_NAMES
from screenpilot.training.evaluate import GroundTruth, Prediction


def _bench() -> ModuleType:
    return load_bench("detector_agnostic")


def test_a_button_found_as_an_image_counts_only_as_one_class() -> None:
    bench = _bench()
    button, image = CLASS_NAMES.index("button"), CLASS_NAMES.index("image")
    gts = [[GroundTruth(button, (10.0, 10.0, 110.0, 60.0))]]
    preds = [[Prediction(image, 0.9, (12.0, 11.0, 108.0, 61.0))]]
    assert bench.scores(gts, preds, one=False)["map50"] == 0.0
    assert bench.scores(gts, preds, one=True)["map50"] == 1.0


def test_bars_are_left_out_of_labels_and_detections() -> None:
    bench = _bench()
    bar, button = CLASS_NAMES.index("status_bar"), CLASS_NAMES.index("button")
    found = Prediction(button, 0.5, (1.0, 1.0, 9.0, 9.0))
    kept = bench._without([Prediction(bar, 0.9, (0.0, 0.0, 1080.0, 60.0)), found], {bar})
    assert kept == [found]
    assert bench._one_class([found]) == [Prediction(0, 0.5, (1.0, 1.0, 9.0, 9.0))]
