"""Dataset converters (DroidBot on a real sample, RICO and VINS on crafted files) and the
YOLO / COCO writer and reader."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image

from screenpilot.datasets.convert import (
    ConvertReport,
    Node,
    android_kind,
    assign_splits,
    convert,
    label_nodes,
    match_states,
)
from screenpilot.datasets.yolo import CLASS_NAMES, LabeledBox, Sample, read_split, write_yolo
from screenpilot.errors import DataError
from screenpilot.model import WIDGET_CLASSES, ElementKind

SAMPLE = Path(__file__).parent / "data" / "droidbot"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "droidbot"
K = ElementKind


def test_class_names_are_the_widget_classes() -> None:
    assert tuple(k.value for k in WIDGET_CLASSES) == CLASS_NAMES
    assert len(CLASS_NAMES) == 12


@pytest.mark.parametrize(
    ("cls", "kind"),
    [
        ("android.widget.Button", K.BUTTON),
        ("android.widget.ImageButton", K.BUTTON),
        ("androidx.appcompat.widget.AppCompatButton", K.BUTTON),
        ("android.widget.EditText", K.EDIT_TEXT),
        ("android.widget.Switch", K.SWITCH),
        ("androidx.appcompat.widget.SwitchCompat", K.SWITCH),
        ("android.widget.CheckBox", K.CHECK_BOX),
        ("android.widget.RadioButton", K.RADIO_GROUP),
        ("android.widget.SeekBar", K.SEEK_BAR),
        ("android.widget.RatingBar", K.RATING_BAR),
        ("android.widget.Spinner", K.SPINNER),
        ("android.widget.ImageView", K.IMAGE),
        ("com.viewpagerindicator.CirclePageIndicator", K.PAGE_INDICATOR),
        ("android.widget.TextView", None),
        ("android.widget.LinearLayout", None),
    ],
)
def test_android_class_mapping(cls: str, kind: ElementKind | None) -> None:
    assert android_kind(cls) == kind


def test_custom_class_maps_through_its_ancestors() -> None:
    assert android_kind("com.app.FancyThing", ancestors=["android.widget.Switch"]) == K.SWITCH


def test_droidbot_sample_converts_with_the_expected_classes(tmp_path: Path) -> None:
    report = ConvertReport()
    samples = {s.name: s for s in convert("droidbot", SAMPLE, report=report)}
    assert len(samples) == 5
    form = samples["jason54354321-droidbot-compose__screen_2024-03-20_005630"]
    kinds = Counter(b.kind for b in form.boxes)
    assert kinds == {K.RADIO_GROUP: 3, K.EDIT_TEXT: 1, K.BUTTON: 1, K.IMAGE: 1}
    assert form.app == "com.bitbar.testdroid" and (form.width, form.height) == (1080, 1920)
    for sample in samples.values():
        for box in sample.boxes:
            assert 0 <= box.x1 < box.x2 <= sample.width and 0 <= box.y1 < box.y2 <= sample.height
    edit = next(b for b in form.boxes if b.kind is K.EDIT_TEXT)
    assert edit.y1 > 900 and edit.x2 - edit.x1 > 900  # the name field across the form
    assert report.dropped["invisible"] > 0 and report.dropped["occluded"] > 0
    assert report.dropped["radio group with options"] == 1
    checkbox = samples["ToolmanInside-DroidbotExp__screen_2021-12-06_205209"]
    assert [b.kind for b in checkbox.boxes] == [K.CHECK_BOX]


def test_droidbot_screen_without_a_state_is_skipped(tmp_path: Path) -> None:
    src = tmp_path / "log"
    shutil.copytree(SAMPLE / "droidxp+benchmark", src)
    shutil.copyfile(src / "screen_2020-06-03_130155.jpg", src / "screen_2020-06-03_140000.jpg")
    report = ConvertReport()
    assert len(list(convert("droidbot", src, report=report))) == 2
    assert report.skipped_screens == [str(src / "screen_2020-06-03_140000.jpg")]


def test_states_match_screens_by_nearest_timestamp() -> None:
    screens = [Path("screen_2020-01-01_000010.jpg"), Path("screen_2020-01-01_000020.jpg")]
    states = [
        Path("state_2020-01-01_000011.json"),
        Path("state_2020-01-01_000019.json"),
        Path("state_2020-01-01_000500.json"),
    ]
    assert match_states(screens, states) == {screens[0]: states[0], screens[1]: states[1]}


def test_filters_on_crafted_nodes() -> None:
    nodes = [
        Node(0, "android.widget.FrameLayout", (0, 0, 100, 200), True, -1, children=[1, 2, 3, 4]),
        Node(1, "android.widget.Button", (10, 10, 50, 30), True, 0),  # kept
        Node(2, "android.widget.Button", (10, 40, 50, 60), False, 0),  # invisible
        Node(3, "android.widget.Button", (80, 40, 300, 60), True, 0),  # mostly off-screen
        Node(4, "android.widget.Button", (10, 70, 10, 90), True, 0),  # zero width
        Node(5, "android.widget.Button", (10, 100, 50, 120), True, 0),  # occluded by 6
        Node(6, "android.widget.LinearLayout", (0, 95, 100, 130), True, 0, clickable=True),
        Node(7, "android.widget.ImageView", (0, 0, 100, 150), True, 0),  # a background
    ]
    report = ConvertReport()
    boxes = label_nodes(nodes, 100, 200, report=report)
    assert [b.xyxy for b in boxes] == [(10, 10, 50, 30)]
    assert report.dropped == {
        "invisible": 1,
        "off-screen": 1,
        "zero-size": 1,
        "occluded": 1,
        "background": 1,
    }


def _rgb(path: Path, size: tuple[int, int]) -> None:
    image = Image.new("RGB", size, (240, 240, 240))
    for x in range(0, size[0], 7):  # texture, so no crop is flat
        for y in range(0, size[1], 5):
            image.putpixel((x, y), (x % 255, y % 255, 90))
    image.save(path)


def test_rico_semantic_and_view_hierarchy(tmp_path: Path) -> None:
    _rgb(tmp_path / "1.jpg", (144, 256))
    semantic = {
        "bounds": [0, 0, 1440, 2560],
        "class": "com.android.internal.policy.PhoneWindow",
        "children": [
            {
                "bounds": [100, 200, 700, 400],
                "componentLabel": "Text Button",
                "class": "android.widget.Button",
            },
            {
                "bounds": [100, 500, 400, 800],
                "componentLabel": "Icon",
                "class": "android.widget.ImageButton",
            },
            {"bounds": [100, 900, 400, 1000], "componentLabel": "Text"},
        ],
    }
    (tmp_path / "1.json").write_text(json.dumps(semantic))
    _rgb(tmp_path / "2.jpg", (144, 256))
    hierarchy = {
        "activity_name": "com.example/.Main",
        "activity": {
            "root": {
                "bounds": [0, 0, 1440, 2560],
                "class": "FrameLayout",
                "visibility": "visible",
                "children": [
                    {
                        "bounds": [0, 100, 1440, 300],
                        "class": "com.x.MySwitch",
                        "ancestors": ["android.widget.Switch"],
                        "visibility": "visible",
                        "visible-to-user": True,
                    },
                    {
                        "bounds": [0, 400, 1440, 600],
                        "class": "android.widget.EditText",
                        "visibility": "gone",
                    },
                ],
            }
        },
    }
    (tmp_path / "2.json").write_text(json.dumps(hierarchy))
    samples = {s.image.stem: s for s in convert("rico", tmp_path)}
    assert [(b.kind, b.xyxy) for b in samples["1"].boxes] == [
        (K.BUTTON, (10, 20, 70, 40)),
        (K.BUTTON, (10, 50, 40, 80)),
    ]
    assert [b.kind for b in samples["2"].boxes] == [K.SWITCH]
    assert samples["2"].app == "com.example"


def test_vins_pascal_voc(tmp_path: Path) -> None:
    (tmp_path / "JPEGImages").mkdir()
    (tmp_path / "Annotations").mkdir()
    _rgb(tmp_path / "JPEGImages" / "a.jpg", (100, 200))
    (tmp_path / "Annotations" / "a.xml").write_text(
        "<annotation><filename>a.jpg</filename><size><width>100</width><height>200</height>"
        "</size>"
        "<object><name>TextButton</name><bndbox><xmin>5</xmin><ymin>5</ymin><xmax>50</xmax>"
        "<ymax>30</ymax></bndbox></object>"
        "<object><name>Text</name><bndbox><xmin>5</xmin><ymin>40</ymin><xmax>50</xmax>"
        "<ymax>60</ymax></bndbox></object>"
        "<object><name>UpperTaskBar</name><bndbox><xmin>0</xmin><ymin>0</ymin><xmax>120</xmax>"
        "<ymax>10</ymax></bndbox></object></annotation>"
    )
    (sample,) = convert("vins", tmp_path)
    assert [(b.kind, b.xyxy) for b in sample.boxes] == [
        (K.BUTTON, (5, 5, 50, 30)),
        (K.STATUS_BAR, (0, 0, 100, 10)),
    ]


def test_unknown_source_and_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="unknown source"):
        convert("coco", tmp_path)
    with pytest.raises(DataError, match="not found"):
        convert("droidbot", tmp_path / "nope")


def test_yolo_round_trip_coco_and_app_split(tmp_path: Path) -> None:
    samples = assign_splits(list(convert("droidbot", SAMPLE)), ["com.android.browser"])
    data_yaml = write_yolo(samples, tmp_path / "ds")
    assert "names:" in data_yaml.read_text()
    train = read_split(data_yaml, "train")
    val = read_split(data_yaml, "val")
    assert len(train) == 1 and len(val) == 4
    by_stem = {s.stem: s for s in samples}
    for got in train + val:
        want = by_stem[got.stem]
        assert len(got.boxes) == len(want.boxes)
        for a, b in zip(got.boxes, want.boxes, strict=True):
            assert a.kind is b.kind
            assert all(abs(x - y) < 0.01 for x, y in zip(a.xyxy, b.xyxy, strict=True))
    coco = json.loads((tmp_path / "ds" / "coco_val.json").read_text())
    assert len(coco["images"]) == 4 and len(coco["categories"]) == 12
    assert len(coco["annotations"]) == sum(len(s.boxes) for s in val)


def test_write_rejects_duplicate_names(tmp_path: Path) -> None:
    image = tmp_path / "x.jpg"
    _rgb(image, (20, 20))
    box = LabeledBox(K.BUTTON, 1, 1, 5, 5)
    with pytest.raises(DataError, match="both named"):
        write_yolo([Sample(image, 20, 20, (box,)), Sample(image, 20, 20, ())], tmp_path / "d")


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/data/droidbot is absent (fresh clone)")
def test_full_shared_droidbot_converts() -> None:
    report = ConvertReport()
    samples = list(convert("droidbot", SHARED, report=report))
    assert len(samples) == 77 and not report.skipped_screens
    assert set(report.boxes) <= {k.value for k in WIDGET_CLASSES}
