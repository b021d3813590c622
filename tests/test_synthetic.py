"""Synthetic detector data: valid YOLO/COCO output, determinism, boxes in bounds,
non-overlapping rare-class placement, and the ``dataset synth`` command."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from screenpilot.cli import app
from screenpilot.datasets.synth import (
    KINDS,
    SynthConfig,
    Texts,
    generate_screen,
    parse_mix,
    place_widget,
    radio_options,
    rare_screen,
    synthesize,
)
from screenpilot.datasets.yolo import CLASS_NAMES, read_data_yaml, read_split
from screenpilot.errors import DataError
from screenpilot.model import Box, ElementKind

runner = CliRunner()


def test_synth_writes_yolo_and_coco_with_the_12_classes(tmp_path: Path) -> None:
    report = synthesize(tmp_path, SynthConfig(n=4, seed=3, val_share=0.5, max_side=320), workers=1)
    assert report.data_yaml is not None
    data = read_data_yaml(report.data_yaml)
    assert tuple(data["names"]) == CLASS_NAMES
    samples = read_split(report.data_yaml, "train") + read_split(report.data_yaml, "val")
    assert len(samples) == 4 == sum(report.splits.values())
    assert all(max(s.width, s.height) <= 320 for s in samples)
    coco = [json.loads((tmp_path / f"coco_{s}.json").read_text()) for s in ("train", "val")]
    assert [c["name"] for c in coco[0]["categories"]] == list(CLASS_NAMES)
    assert sum(len(c["annotations"]) for c in coco) == sum(report.boxes.values()) > 0
    assert list(report.class_counts()) == list(CLASS_NAMES)


@pytest.mark.parametrize("kind", KINDS)
def test_screens_are_deterministic_by_seed(kind: str) -> None:
    a, b = generate_screen(5, 11, kind=kind), generate_screen(5, 11, kind=kind)
    assert a.boxes == b.boxes
    assert np.array_equal(np.asarray(a.image), np.asarray(b.image))
    other = generate_screen(5, 12, kind=kind)
    assert other.boxes != a.boxes or not np.array_equal(
        np.asarray(other.image), np.asarray(a.image)
    )


@pytest.mark.parametrize("kind", KINDS)
def test_every_box_lies_inside_its_image(kind: str) -> None:
    for index in range(3):
        screen = generate_screen(index, 0, kind=kind)
        w, h = screen.image.size
        assert screen.boxes, "every screen has at least its system bars"
        for box in screen.boxes:
            assert 0 <= box.x1 < box.x2 <= w and 0 <= box.y1 < box.y2 <= h


def test_rare_screen_has_bars_and_non_overlapping_widgets() -> None:
    screen = rare_screen(random.Random(4))
    kinds = [b.kind for b in screen.boxes]
    assert kinds[:2] == [ElementKind.STATUS_BAR, ElementKind.NAVIGATION_BAR]
    widgets = [b for b in screen.boxes[2:]]
    assert widgets
    for i, a in enumerate(widgets):
        for b in widgets[i + 1 :]:
            overlap_w = min(a.x2, b.x2) - max(a.x1, b.x1)
            overlap_h = min(a.y2, b.y2) - max(a.y1, b.y1)
            assert overlap_w <= 0.5 or overlap_h <= 0.5, (a, b)


def test_place_widget_never_overlaps_what_is_placed() -> None:
    from PIL import Image

    canvas = Image.new("RGB", (400, 800), (40, 120, 200))
    rng = random.Random(0)
    placed: list[tuple[float, float, float, float]] = []
    for i in range(30):
        kind = [ElementKind.SWITCH, ElementKind.RATING_BAR, ElementKind.SEEK_BAR][i % 3]
        place_widget(canvas, rng, Texts(rng, zh=False), kind, 1.5, False, (40, 760), placed)
    assert len(placed) >= 5
    for i, a in enumerate(placed):
        for b in placed[i + 1 :]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def test_radio_group_becomes_one_box_per_option() -> None:
    group = Box(0, 100, 500, 244)
    texts = [Box(60, 110, 200, 130), Box(60, 158, 300, 178), Box(60, 206, 150, 226)]
    boxes = radio_options(group, texts)
    assert [round(b.y1) for b in boxes] == [96, 144, 192]
    assert all(b.kind is ElementKind.RADIO_GROUP and b.x2 < 500 for b in boxes)


def test_bad_configs_are_data_errors() -> None:
    with pytest.raises(DataError):
        SynthConfig(n=0)
    with pytest.raises(DataError):
        SynthConfig(mix=(("nope", 1.0),))
    with pytest.raises(DataError):
        parse_mix("app=lots")


def test_cli_dataset_synth(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        [
            "dataset",
            "synth",
            "--out",
            str(tmp_path),
            "--n",
            "2",
            "--seed",
            "1",
            "--workers",
            "1",
            "--max-side",
            "256",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "boxes per class" in result.output and "status_bar" in result.output
    assert (tmp_path / "data.yaml").is_file()
    assert len(list((tmp_path / "images").rglob("*.jpg"))) == 2
