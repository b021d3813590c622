"""Real-screen harvest: uiautomator dumps, clickable views, check-box squares, screen
filters (web pages, partial hierarchies, duplicates) and the app-level split, on
files made here."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from screenpilot.datasets.convert import Filters, Node, convert, label_nodes, match_states
from screenpilot.datasets.convert.uiautomator import parse_bounds
from screenpilot.datasets.harvest import build, choose_val_apps, is_system
from screenpilot.datasets.screens import (
    Deduper,
    ScreenFilters,
    dhash,
    leaf_coverage,
    system_bars,
    web_share,
    web_view_share,
)
from screenpilot.datasets.yolo import read_split
from screenpilot.errors import DataError
from screenpilot.model import ElementKind

K = ElementKind
W, H = 360, 640

DUMP = """<?xml version='1.0' encoding='utf-8'?>
<hierarchy rotation="0">
  <node class="android.widget.FrameLayout" package="org.example.notes" bounds="[0,0][360,640]"
        clickable="false" text="" content-desc="">
    <node class="android.widget.FrameLayout" package="org.example.notes" clickable="true"
          bounds="[300,20][350,70]" text="" content-desc="More options">
      <node class="android.widget.ImageView" package="org.example.notes" clickable="false"
            bounds="[310,30][340,60]" text="" content-desc=""/>
    </node>
    <node class="android.widget.LinearLayout" package="org.example.notes" clickable="true"
          bounds="[0,100][360,160]" text="" content-desc="">
      <node class="android.widget.TextView" package="org.example.notes" clickable="false"
            bounds="[16,110][200,150]" text="Groceries" content-desc=""/>
    </node>
    <node class="android.widget.CheckBox" package="org.example.notes" clickable="true"
          checkable="true" bounds="[0,200][360,248]" text="Done" content-desc=""/>
    <node class="android.widget.Button" package="org.example.notes" clickable="true"
          bounds="[20,560][340,620]" text="SAVE" content-desc="" visible-to-user="false"/>
  </node>
</hierarchy>
"""


def _screen(path: Path, seed: int = 0) -> Path:
    """A screen with drawn content inside the dump's leaf views."""
    rng = np.random.default_rng(seed)
    im = Image.new("RGB", (W, H), (250, 250, 250))
    d = ImageDraw.Draw(im)
    for box in ((312, 32, 338, 58), (18, 112, 198, 148), (4, 204, 356, 244)):
        d.rectangle(box, outline=(20, 20, 20), width=3)
        d.text((box[0] + 6, box[1] + 6), f"x{int(rng.integers(0, 99))}", fill=(0, 0, 0))
    im.save(path)
    return path


def test_parse_bounds() -> None:
    assert parse_bounds("[0,63][1080,210]") == (0.0, 63.0, 1080.0, 210.0)
    with pytest.raises(DataError):
        parse_bounds("0,0,10,10")


def test_uiautomator_nodes_and_clickable_views(tmp_path: Path) -> None:
    (tmp_path / "0.xml").write_text(DUMP, encoding="utf-8")
    _screen(tmp_path / "0.png")
    (tmp_path / "0_SoM.png").write_bytes((tmp_path / "0.png").read_bytes())  # not a screen
    plain = list(convert("uiautomator", tmp_path, filters=Filters(min_std=0)))
    assert len(plain) == 1 and plain[0].app == "org.example.notes"
    assert Counter(b.kind for b in plain[0].boxes) == {K.IMAGE: 1, K.CHECK_BOX: 1}
    real = list(
        convert(
            "uiautomator",
            tmp_path,
            filters=Filters(min_std=0, clickable_share=0.25, glyph_boxes=True),
        )
    )
    kinds = Counter(b.kind for b in real[0].boxes)
    # the icon's clickable frame is the button (its ImageView nested); the row has text;
    # the invisible Save button is dropped
    assert kinds == {K.BUTTON: 1, K.CHECK_BOX: 1}
    button = next(b for b in real[0].boxes if b.kind is K.BUTTON)
    assert button.xyxy == (300.0, 20.0, 350.0, 70.0)
    square = next(b for b in real[0].boxes if b.kind is K.CHECK_BOX)
    assert square.x2 - square.x1 == pytest.approx(24.0) and square.y2 - square.y1 == 24.0
    assert square.x1 < 10 and 200 < square.y1 < square.y2 < 248


def test_large_clickable_views_are_pages_not_buttons() -> None:
    nodes = [Node(0, "android.widget.FrameLayout", (0, 0, W, H), True, -1, clickable=True)]
    assert label_nodes(nodes, W, H, filters=Filters(clickable_share=0.25)) == []


def test_states_match_by_name_before_time(tmp_path: Path) -> None:
    screens = [
        tmp_path / "screen_2020-02-21_235955-20.png",
        tmp_path / "screen_2020-02-21_235955-21.png",
    ]
    states = [
        tmp_path / "state_2020-02-21_235955-21.json",
        tmp_path / "state_2020-02-21_235955-20.json",
    ]
    matched = match_states(screens, states)
    assert matched == {screens[0]: states[1], screens[1]: states[0]}


def test_web_share_and_coverage() -> None:
    web = [
        Node(0, "android.webkit.WebView", (0, 0, W, H), True, -1, children=[1, 2]),
        Node(1, "android.view.View", (0, 0, 100, 50), True, 0),
        Node(2, "android.view.View", (0, 60, 100, 110), True, 0),
    ]
    assert web_share(web, W, H) == 1.0
    gray = np.full((H, W), 250, np.float32)
    gray[300:340, 40:320] = 0  # drawn content with no view over it
    filters = ScreenFilters(min_edges=10)
    coverage = leaf_coverage(web, gray, filters)
    assert coverage is not None and coverage < 0.2
    covered = [*web, Node(3, "android.widget.TextView", (30, 290, 330, 350), True, 0)]
    covered[0].children.append(3)
    assert leaf_coverage(covered, gray, filters) == pytest.approx(1.0)
    assert leaf_coverage(web, np.full((H, W), 9, np.float32), filters) is None


def test_deduper_by_state_and_pixels() -> None:
    a = np.zeros((64, 64), np.uint8)
    a[:, 32:] = 255
    b = a.copy()
    b[0, 0] = 40  # a blinking cursor
    c = a.T.copy()
    dedupe = Deduper()
    assert not dedupe.seen("app", "s1", dhash(a))
    assert dedupe.seen("app", "s1", dhash(c))  # same DroidBot state
    assert not dedupe.seen("app", "s2", dhash(a))  # another state, same look: kept
    assert not dedupe.seen("other", "", dhash(a))
    assert dedupe.seen("other", "", dhash(b))  # no state_str: pixels decide
    assert not dedupe.seen("other", "", dhash(c))


def test_val_apps_are_reproducible_and_never_system() -> None:
    counts = Counter({f"org.app{i}": 10 for i in range(30)})
    counts.update({"com.android.settings": 50, "com.android.launcher3": 40})
    chosen = choose_val_apps(counts, n_apps=15, seed=0, max_share=0.6)
    assert len(chosen) == 15 and chosen == choose_val_apps(counts, n_apps=15, seed=0, max_share=0.6)
    assert not any(is_system(a) for a in chosen)
    assert is_system("com.google.android.apps.nexuslauncher") and not is_system("org.app1")


def test_build_splits_by_app_and_writes_manifest(tmp_path: Path) -> None:
    root = tmp_path / "harvest"
    for i, app in enumerate(("org.example.notes", "org.example.mail", "org.example.notes")):
        folder = root / f"src{i}"
        folder.mkdir(parents=True)
        (folder / "0.xml").write_text(DUMP.replace("org.example.notes", app), encoding="utf-8")
        _screen(folder / "0.png", seed=i)
        (folder / ".done").write_text(f"owner/repo{i}\t{'0' * 40}\tuiautomator\n")
    data_yaml, report = build(root, tmp_path / "out", val_apps=["org.example.mail"], max_side=320)
    assert report.split_screens == {"train": 1, "val": 1}
    assert report.screens.dropped == {"duplicate state": 1}
    val = read_split(data_yaml, "val")
    assert len(val) == 1 and max(val[0].width, val[0].height) == 320
    lines = [json.loads(x) for x in (tmp_path / "out" / "manifest.jsonl").read_text().splitlines()]
    assert {x["split"]: x["app"] for x in lines} == {
        "train": "org.example.notes",
        "val": "org.example.mail",
    }
    assert all(x["fmt"] == "uiautomator" and Path(x["state"]).is_file() for x in lines)
    card = json.loads((tmp_path / "out" / "harvest_report.json").read_text())
    assert card["val_apps"] == ["org.example.mail"]


def test_no_sources_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="no extracted sources"):
        build(tmp_path, tmp_path / "out")


def test_system_bars_from_where_the_window_ends() -> None:
    nodes = [
        Node(0, "android.widget.FrameLayout", (0, 0, W, H), True, -1, children=[1]),
        Node(1, "android.widget.LinearLayout", (0, 24, W, 600), True, 0),
    ]
    bars = {b.kind: b.xyxy for b in system_bars(nodes, W, H)}
    assert bars == {
        K.STATUS_BAR: (0.0, 0.0, float(W), 24.0),
        K.NAVIGATION_BAR: (0.0, 600.0, float(W), float(H)),
    }
    edge_to_edge = [Node(0, "android.widget.FrameLayout", (0, 0, W, H), True, -1)]
    assert system_bars(edge_to_edge, W, H) == []
    assert system_bars(nodes, H, W) == []  # landscape


def test_a_page_under_a_web_view_is_a_web_page() -> None:
    nodes = [
        Node(0, "android.widget.FrameLayout", (0, 0, W, H), True, -1, children=[1]),
        Node(1, "android.webkit.WebView", (0, 60, W, H), True, 0),
    ]
    assert web_view_share(nodes, W, H) == pytest.approx((H - 60) / H)
    nodes[1].visible = False
    assert web_view_share(nodes, W, H) == 0.0


def test_every_format_keeps_a_views_checked_state() -> None:
    """A switch's or a check box's ``checked`` (the truth of bench/real_states.py) is
    read from DroidBot, uiautomator and RICO hierarchies alike."""
    import xml.etree.ElementTree as ET

    from screenpilot.datasets.convert.droidbot import droidbot_nodes
    from screenpilot.datasets.convert.rico import rico_nodes
    from screenpilot.datasets.convert.uiautomator import uiautomator_nodes

    views = [
        {"temp_id": 0, "parent": -1, "class": "android.widget.FrameLayout",
         "bounds": [[0, 0], [360, 640]], "children": [1, 2]},
        {"temp_id": 1, "parent": 0, "class": "android.widget.Switch", "checkable": True,
         "checked": True, "bounds": [[280, 100], [340, 140]]},
        {"temp_id": 2, "parent": 0, "class": "android.widget.CheckBox", "checkable": True,
         "checked": False, "bounds": [[20, 200], [60, 240]]},
    ]  # fmt: skip
    assert [n.checked for n in droidbot_nodes(views)] == [False, True, False]
    dump = ET.fromstring(
        DUMP.split("?>", 1)[1].replace('checkable="true"', 'checkable="true" checked="true"')
    )
    nodes = uiautomator_nodes(dump)
    assert [n.cls.rsplit(".", 1)[-1] for n in nodes if n.checked] == ["CheckBox"]
    root = {"class": "FrameLayout", "bounds": [0, 0, 360, 640], "children": [
        {"class": "android.widget.Switch", "checkable": True, "checked": True,
         "bounds": [280, 100, 340, 140]},
    ]}  # fmt: skip
    assert [n.checked for n in rico_nodes(root)] == [False, True]
