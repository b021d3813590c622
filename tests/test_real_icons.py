"""Real icon crops: the description table and the crop extractor, on tiny data made here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image, ImageDraw

from screenpilot.datasets.real_icons import (
    CropReport,
    DescriptionTable,
    IconFilters,
    RealIcon,
    ScreenRecord,
    augmented_arrays,
    extract,
    screens_from_manifest,
)
from screenpilot.errors import DataError
from screenpilot.vision.icon_vocab import load_vocabulary

MODELS = Path(__file__).resolve().parent.parent / "models"


@pytest.mark.parametrize(
    ("text", "app", "label", "how"),
    [
        ("Navigate up", "", "back", "table"),
        ("navigate up", "", "back", "table"),
        ("More options", "", "more_options", "table"),
        ("Menu", "", "more_options", "table"),
        ("Open navigation drawer", "", "menu", "table"),
        ("Search", "", "search", "table"),
        ("更多", "", "more_options", "table"),
        ("请插入表情", "", "emoji", "table"),
        ("more", "com.sina.weibo", "add", "table"),
        ("Preview the file IMG_1.jpg", "", None, "excluded"),
        ("1.3K", "", None, "excluded"),
        ("Icon", "", None, "excluded"),
        ("Turn on bluetooth", "", "bluetooth", "vocabulary"),
        ("Qwertz", "", None, "unmapped"),
    ],
)
def test_shipped_table_lookups(text: str, app: str, label: str | None, how: str) -> None:
    assert DescriptionTable.load().lookup(text, app) == (label, how)


def test_shipped_table_entries_have_labels_of_the_vocabulary_and_reasons() -> None:
    doc = json.loads(
        (
            Path(__file__).resolve().parent.parent / "vision" / "data" / "icon_descriptions.json"
        ).read_text(encoding="utf-8")
    )
    vocab = load_vocabulary()
    assert len(doc["descriptions"]) > 50
    for entry in doc["descriptions"] + doc["patterns"]:
        assert entry["reason"].strip()
        assert entry["label"] is None or entry["label"] in vocab


@pytest.mark.parametrize(
    "entry",
    [
        {"text": "x", "label": "not_a_label", "reason": "r"},
        {"text": "x", "label": "back"},
    ],
)
def test_malformed_table_is_a_data_error(entry: dict[str, Any]) -> None:
    with pytest.raises(DataError):
        DescriptionTable({"descriptions": [entry]})


def _view(
    temp_id: int,
    parent: int,
    cls: str,
    box: tuple[int, int, int, int],
    children: list[int],
    **extra: Any,
) -> dict[str, Any]:
    x1, y1, x2, y2 = box
    return {
        "temp_id": temp_id,
        "parent": parent,
        "class": cls,
        "bounds": [[x1, y1], [x2, y2]],
        "children": children,
        "visible": True,
        **extra,
    }


def _screen(tmp_path: Path, name: str) -> tuple[Path, Path]:
    image = Image.new("RGB", (400, 800), (250, 250, 250))
    draw = ImageDraw.Draw(image)
    draw.line((20, 40, 60, 40), fill=(0, 0, 0), width=4)  # a back arrow at (10..70, 10..70)
    draw.line((20, 40, 35, 25), fill=(0, 0, 0), width=4)
    for y in (25, 40, 55):  # three dots at (330..390, 10..70)
        draw.ellipse((356, y - 4, 364, y + 4), fill=(0, 0, 0))
    draw.rectangle((100, 300, 160, 360), outline=(0, 0, 0), width=3)  # under an invisible view
    views = [
        _view(0, -1, "android.widget.FrameLayout", (0, 0, 400, 800), [1, 2, 4, 5, 6, 7]),
        _view(
            1,
            0,
            "android.widget.ImageButton",
            (10, 10, 70, 70),
            [],
            content_description="Navigate up",
            clickable=True,
        ),
        _view(
            2,
            0,
            "android.widget.FrameLayout",
            (330, 10, 390, 70),
            [3],
            content_description="More options",
            clickable=True,
        ),
        _view(3, 2, "android.widget.ImageView", (340, 20, 380, 60), []),
        _view(
            4,
            0,
            "android.widget.ImageView",
            (100, 300, 160, 360),
            [],
            content_description="Search",
            visible=False,
        ),
        _view(
            5, 0, "android.widget.ImageView", (0, 400, 400, 800), [], content_description="Search"
        ),  # a picture, not an icon
        _view(
            6,
            0,
            "android.widget.TextView",
            (10, 100, 70, 160),
            [],
            content_description="Search",
            text="Search",
        ),  # text, not an image
        _view(
            7, 0, "android.widget.ImageView", (200, 200, 240, 240), [], content_description="Search"
        ),  # blank pixels
    ]
    state = tmp_path / f"state_{name}.json"
    state.write_text(json.dumps({"views": views, "width": 400, "height": 800}), encoding="utf-8")
    png = tmp_path / f"screen_{name}.png"
    image.save(png)
    return state, png


def test_extract_keeps_visible_icon_sized_views_with_descriptions(tmp_path: Path) -> None:
    state, png = _screen(tmp_path, "a")
    records = [
        ScreenRecord("app.one", "train", "droidbot", state, png),
        ScreenRecord("app.one", "train", "droidbot", state, png),  # same icons again
        ScreenRecord("app.two", "val", "droidbot", state, png),
    ]
    report = CropReport()
    icons = extract(records, report=report)
    assert [(i.app, i.label, i.view_class, i.box) for i in icons] == [
        ("app.one", "back", "ImageButton", (10, 10, 70, 70)),
        ("app.one", "more_options", "FrameLayout", (330, 10, 390, 70)),
        ("app.two", "back", "ImageButton", (10, 10, 70, 70)),
        ("app.two", "more_options", "FrameLayout", (330, 10, 390, 70)),
    ]
    assert report.screens == 3 and report.candidates == 15
    assert report.dropped == {"duplicate in app": 2, "invisible": 3, "too large": 3, "blank": 3}
    assert report.kept_by_kind == {"image": 2, "container": 2}
    assert report.how == {"table": 4}
    assert icons[0].image.size == (60, 60)
    assert [i.split for i in extract(records, splits=["val"])] == ["val", "val"]
    arrays = augmented_arrays(icons[:2], 32, copies=3, seed=1)
    assert arrays.shape == (2, 4, 32, 32, 3) and arrays.dtype == np.uint8
    assert not np.array_equal(arrays[0, 0], arrays[0, 1])  # a jittered cut


def test_system_ui_views_are_credited_to_system_ui(tmp_path: Path) -> None:
    state, png = _screen(tmp_path, "s")
    doc = json.loads(state.read_text(encoding="utf-8"))
    for view in doc["views"]:
        view["package"] = "com.android.systemui" if view["temp_id"] == 1 else "app.one"
    state.write_text(json.dumps(doc), encoding="utf-8")
    icons = extract([ScreenRecord("app.one", "val", "droidbot", state, png)])
    assert [(i.app, i.label) for i in icons] == [
        ("com.android.systemui", "back"),
        ("app.one", "more_options"),
    ]


def test_filters_and_manifest(tmp_path: Path) -> None:
    state, png = _screen(tmp_path, "b")
    manifest = tmp_path / "manifest.jsonl"
    manifest.write_text(
        json.dumps(
            {
                "split": "val",
                "app": "app.one",
                "fmt": "droidbot",
                "state": str(state),
                "original": str(png),
                "image": "small.jpg",
            }
        )
        + "\n",
        encoding="utf-8",
    )
    records = screens_from_manifest(tmp_path)
    assert records == [ScreenRecord("app.one", "val", "droidbot", state, png)]
    strict = IconFilters(max_side=0.12)  # 48 px of 400: the 60 px buttons are too large now
    report = CropReport()
    assert extract(records, filters=strict, report=report) == []
    assert report.dropped["too large"] == 3
    with pytest.raises(DataError):
        screens_from_manifest(tmp_path / "missing")


@pytest.mark.skipif(not (MODELS / "icons.onnx").is_file(), reason="no shipped icon model")
def test_tower_rebuilt_from_the_shipped_onnx_matches_it() -> None:
    pytest.importorskip("open_clip")
    import torch

    from screenpilot.training.icons_onnx import max_embedding_error, tower_from_onnx

    torch.set_num_threads(1)
    visual = tower_from_onnx(MODELS / "icons.onnx", MODELS / "icons_labels.json")
    assert max_embedding_error(visual, MODELS / "icons.onnx", "gray", n=4) < 1e-4


@pytest.mark.skipif(not (MODELS / "icons.onnx").is_file(), reason="no shipped icon model")
def test_eval_icons_scores_the_held_out_apps_of_a_harvest(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from screenpilot.cli import app

    state, png = _screen(tmp_path, "c")
    harvest = tmp_path / "harvest"
    harvest.mkdir()
    rows = [
        {"split": split, "app": name, "fmt": "droidbot", "state": str(state), "original": str(png)}
        for split, name in (("train", "app.one"), ("val", "app.two"))
    ]
    (harvest / "manifest.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8"
    )
    (harvest / "harvest_report.json").write_text(
        json.dumps({"val_apps": ["app.two"]}), encoding="utf-8"
    )
    empty = tmp_path / "droidbot"
    empty.mkdir()
    result = CliRunner().invoke(
        app,
        [
            "eval",
            "icons",
            "--droidbot",
            str(empty),
            "--held-out",
            "",
            "--real",
            str(harvest),
            "--threads",
            "1",
        ],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.output.strip().splitlines()[-1])
    assert report["heldout_real_crops"] == 2 and report["heldout_real_apps"] == 1
    assert 0.0 <= report["heldout_real_top1"] <= report["heldout_real_top3"] <= 1.0
    assert 0.0 <= report["heldout_real_describe_top1"] <= 1.0
    assert 0.0 <= report["heldout_real_describe_printed"] <= 1.0


def test_fine_tune_without_a_start_model_says_which_to_pass(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from screenpilot.cli import app

    out = tmp_path / "run"
    result = CliRunner().invoke(
        app,
        ["train", "icons-real", "--onnx", str(tmp_path / "none.onnx"), "--out", str(out)],
    )
    assert isinstance(result.exception, DataError)  # the CLI prints it with its hint
    assert "none.onnx does not exist" in result.exception.message
    assert "models/candidates/icons_g32.onnx" in (result.exception.hint or "")
    assert not out.exists()  # nothing made for a run that cannot start


def test_answered_counts_what_describe_would_print() -> None:
    """The share of crops answered above "unknown", and how many of those are right."""
    from screenpilot.training.icons.measure import answered
    from screenpilot.vision.icons import IconResult

    results = [
        IconResult("back", 0.999, [("back", 0.999)]),
        IconResult("search", 0.995, [("search", 0.995)]),
        IconResult("unknown", 0.6, [("close", 0.6)]),
        IconResult("unknown", 0.5, [("add", 0.5)]),
    ]
    assert answered(["back", "close", "close", "add"], results) == (0.5, 0.5)
    assert answered([], []) == (0.0, 0.0)


@pytest.mark.skipif(not (MODELS / "icons.onnx").is_file(), reason="no shipped icon model")
def test_describe_answers_name_a_glyph_by_its_rule_before_the_model(tmp_path: Path) -> None:
    from screenpilot.training.icons.measure import describe_answers
    from screenpilot.vision.icons import IconLabeller

    page = Image.new("RGB", (1080, 600), (250, 250, 250))
    draw = ImageDraw.Draw(page)
    for k in range(3):  # the drawer's three bars in a toolbar button
        draw.rectangle((100, 100 + 16 * k, 159, 105 + 16 * k), fill=(40, 40, 40))
    draw.ellipse((400, 90, 470, 160), fill=(30, 120, 200))  # a plain disc: no rule's glyph
    path = tmp_path / "screen.png"
    page.save(path)
    icons = [
        RealIcon(
            image=page.crop(box),
            description="d",
            label="menu",
            how="table",
            app="app.one",
            split="val",
            screen=str(path),
            view_class=cls,
            box=box,
            screen_size=page.size,
        )
        for box, cls in (((90, 90, 170, 160), "ImageButton"), ((390, 80, 480, 170), "ImageView"))
    ]
    said = describe_answers(IconLabeller(MODELS / "icons.onnx"), icons)
    assert said[0] == ("menu", True)  # the bars rule, whatever the model says
    label, printed = said[1]
    assert label in IconLabeller(MODELS / "icons.onnx").labels and isinstance(printed, bool)


@pytest.mark.skipif(not (MODELS / "icons.onnx").is_file(), reason="no shipped icon model")
def test_eval_icons_scores_describe_on_the_droidbot_crops(tmp_path: Path) -> None:
    """A DroidBot crop keeps its screenshot and box, so ``eval icons`` scores describe's
    labelling of it (``real_describe_*``) beside the model's (``real_top1``)."""
    from screenpilot.datasets.icons import droidbot_icon_crops
    from screenpilot.training.icons.measure import measure_labeller
    from screenpilot.vision.icons import IconLabeller

    page = Image.new("RGB", (1080, 1920), (250, 250, 250))
    draw = ImageDraw.Draw(page)
    for k in range(3):  # the drawer's three bars
        draw.rectangle((100, 100 + 16 * k, 159, 105 + 16 * k), fill=(40, 40, 40))
    page.save(tmp_path / "screen_1.png")
    view = {
        "class": "android.widget.ImageButton",
        "content_description": "Open navigation drawer",
        "bounds": [[90, 90], [170, 160]],
        "visible": True,
    }
    state = {"width": 1080, "height": 1920, "views": [view]}
    (tmp_path / "state_1.json").write_text(json.dumps(state), encoding="utf-8")
    report = droidbot_icon_crops(tmp_path)
    (crop,) = report.crops
    assert crop.label == "menu" and crop.box == (90, 90, 170, 160)
    assert crop.screen == str(tmp_path / "screen_1.png")
    scores = measure_labeller(IconLabeller(MODELS / "icons.onnx"), report, batch=4)
    assert scores["real_describe_top1"] == 1.0  # the bars rule names it
    assert scores["real_describe_printed"] == 1.0
    assert scores["real_describe_precision_printed"] == 1.0
    assert isinstance(scores["real_top1"], float) and 0.0 <= scores["real_top1"] <= 1.0
