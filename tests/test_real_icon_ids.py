"""Resource ids: parsed into ``Node.rid`` by every hierarchy format, and image views with
no description labelled by the resource-id table, on tiny data made here."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw

from screenpilot.datasets.convert import droidbot_nodes, label_nodes, rico_nodes
from screenpilot.datasets.convert.uiautomator import uiautomator_nodes
from screenpilot.datasets.real_icons import (
    HOW_ID,
    HOW_ID_EXCLUDED,
    HOW_ID_UNMAPPED,
    CropReport,
    ResourceIdTable,
    ScreenRecord,
    extract,
    id_name,
    split_words,
)
from screenpilot.errors import DataError

TABLE: dict[str, Any] = {
    "format": "screenpilot-icon-resource-ids/1",
    "generic": ["btn", "button", "icon", "iv", "img", "image", "view", "action", "ic"],
    "stop": ["avatar", "logo"],
    "weak": ["fab", "menu"],
    "words": [
        {"word": "edit", "label": "edit", "reason": "a pencil"},
        {"word": "delete", "label": "delete", "reason": "a bin"},
        {"word": "plus", "label": "add", "reason": "a plus"},
        {"word": "fab", "label": "add", "reason": "most often a plus"},
        {"word": "overflow", "label": "more_options", "reason": "three dots"},
        {"word": "menu", "label": "menu", "reason": "three lines"},
        {"word": "search", "label": "search", "reason": "a magnifier"},
        {"word": "share", "label": "share", "reason": "a share glyph"},
    ],
    "ids": [
        {"words": "badge", "label": None, "reason": "a count, no function"},
        {"words": "fab attach picture", "label": "camera", "reason": "seen: a camera"},
        {"words": "search entry", "label": None, "reason": "seen: a text box", "apps": ["a.b"]},
    ],
}


@pytest.mark.parametrize(
    ("rid", "name", "words"),
    [
        ("com.habitrpg:id/btnPlusIconView", "btnPlusIconView", ["btn", "plus", "icon", "view"]),
        ("com.ubercab:id/ub__back_arrow", "ub__back_arrow", ["ub", "back", "arrow"]),
        ("android:id/icon2", "icon2", ["icon", "2"]),
        ("io.x:id/MoonPhase.Image", "MoonPhase.Image", ["moon", "phase", "image"]),
        ("HTMLViewer", "HTMLViewer", ["html", "viewer"]),
    ],
)
def test_ids_split_into_words(rid: str, name: str, words: list[str]) -> None:
    assert id_name(rid) == name
    assert split_words(name) == words


@pytest.mark.parametrize(
    ("rid", "app", "label", "how"),
    [
        ("com.lolo:id/editIcon", "", "edit", HOW_ID),  # generic "icon" dropped
        ("com.x:id/btnPlusIconView", "", "add", HOW_ID),
        ("com.x:id/action_search", "", "search", HOW_ID),
        ("com.x:id/menu_overflow", "", "more_options", HOW_ID),  # weak "menu" gives way
        ("com.x:id/fab", "", "add", HOW_ID),  # a weak word alone still labels
        ("com.x:id/fab_edit_note", "", "edit", HOW_ID),
        ("com.x:id/fab_attach_picture", "", "camera", HOW_ID),  # an exact entry wins
        ("com.x:id/badge", "", None, HOW_ID_EXCLUDED),
        ("com.x:id/search_entry_button", "a.b", None, HOW_ID_EXCLUDED),  # app entry
        ("com.x:id/search_entry_button", "c.d", "search", HOW_ID),  # other apps: the word
        ("com.x:id/user_avatar_edit", "", None, HOW_ID_UNMAPPED),  # a stop word
        ("com.x:id/share_delete", "", None, HOW_ID_UNMAPPED),  # two labels: none
        ("com.x:id/title_text", "", None, HOW_ID_UNMAPPED),
        ("android:id/icon", "", None, HOW_ID_UNMAPPED),  # only generic words
    ],
)
def test_table_lookups(rid: str, app: str, label: str | None, how: str) -> None:
    assert ResourceIdTable(TABLE).lookup(rid, app) == (label, how)


def test_shipped_table_loads_and_labels_named_functions() -> None:
    table = ResourceIdTable.load()
    assert table.lookup("com.foo:id/deleteIcon") == ("delete", HOW_ID)
    assert table.lookup("com.foo:id/ic_action_share") == ("share", HOW_ID)
    assert table.lookup("com.foo:id/user_avatar_image")[0] is None
    assert table.words_of("android:id/icon") == ""


@pytest.mark.parametrize(
    "entry",
    [
        {"words": "x", "label": "not_a_label", "reason": "r"},
        {"words": "x", "label": "back"},
    ],
)
def test_malformed_id_table_is_a_data_error(entry: dict[str, Any]) -> None:
    with pytest.raises(DataError):
        ResourceIdTable({**TABLE, "ids": [entry]})


def test_every_format_parses_the_resource_id() -> None:
    views = [
        {
            "temp_id": 0,
            "parent": -1,
            "class": "android.widget.FrameLayout",
            "bounds": [[0, 0], [400, 800]],
            "children": [1],
            "resource_id": "com.a:id/root",
        },
        {
            "temp_id": 1,
            "parent": 0,
            "class": "android.widget.ImageView",
            "bounds": [[10, 10], [70, 70]],
            "children": [],
            "resource_id": None,
        },
    ]
    assert [n.rid for n in droidbot_nodes(views)] == ["com.a:id/root", ""]
    dump = ET.fromstring(
        '<hierarchy><node class="android.widget.FrameLayout" bounds="[0,0][400,800]" '
        'resource-id="com.a:id/root"><node class="android.widget.ImageButton" '
        'bounds="[10,10][70,70]" resource-id="com.a:id/editIcon"/>'
        '<node class="android.widget.TextView" bounds="[0,100][400,150]" resource-id=""/>'
        "</node></hierarchy>"
    )
    assert [n.rid for n in uiautomator_nodes(dump)] == ["com.a:id/root", "com.a:id/editIcon", ""]
    rico = {
        "class": "android.widget.FrameLayout",
        "bounds": [0, 0, 1440, 2560],
        "resource-id": "com.a:id/root",
        "children": [{"class": "android.widget.ImageView", "bounds": [0, 0, 100, 100]}],
    }
    assert [n.rid for n in rico_nodes(rico)] == ["com.a:id/root", ""]


def _view(
    temp_id: int, parent: int, cls: str, box: tuple[int, int, int, int], **extra: Any
) -> dict[str, Any]:
    x1, y1, x2, y2 = box
    return {
        "temp_id": temp_id,
        "parent": parent,
        "class": cls,
        "bounds": [[x1, y1], [x2, y2]],
        "children": [],
        "visible": True,
        **extra,
    }


def _screen(tmp_path: Path) -> tuple[Path, Path]:
    image = Image.new("RGB", (400, 800), (250, 250, 250))
    draw = ImageDraw.Draw(image)
    draw.line((20, 60, 60, 20), fill=(0, 0, 0), width=5)  # a pencil at (10..70, 10..70)
    draw.ellipse((110, 10, 170, 70), fill=(200, 120, 90))  # an avatar at (110..170)
    draw.rectangle((220, 20, 260, 60), outline=(0, 0, 0), width=4)  # described (210..270)
    draw.line((320, 40, 380, 40), fill=(0, 0, 0), width=4)  # in a container (310..390)
    draw.line((20, 140, 60, 140), fill=(0, 0, 0), width=4)  # unknown id (10..70, 110..170)
    I = "android.widget.ImageView"  # noqa: E741
    views = [
        _view(0, -1, "android.widget.FrameLayout", (0, 0, 400, 800), resource_id="a:id/root"),
        _view(1, 0, I, (10, 10, 70, 70), resource_id="com.a:id/editIcon"),
        _view(2, 0, I, (110, 10, 170, 70), resource_id="com.a:id/badge"),
        _view(
            3,
            0,
            "android.widget.ImageButton",
            (210, 10, 270, 70),
            resource_id="com.a:id/deleteIcon",
            content_description="Share",
        ),
        _view(
            4,
            0,
            "android.widget.FrameLayout",
            (310, 10, 390, 70),
            clickable=True,
            content_description="Search",
            resource_id="com.a:id/search_box",
        ),
        _view(5, 4, I, (320, 20, 380, 60), resource_id="com.a:id/search_icon"),
        _view(6, 0, I, (10, 110, 70, 170), resource_id="com.a:id/title_marker"),
        _view(7, 0, "android.widget.TextView", (100, 110, 300, 170), resource_id="com.a:id/edit"),
    ]
    views[0]["children"] = [1, 2, 3, 4, 6, 7]
    views[4]["children"] = [5]
    state = tmp_path / "state_a.json"
    state.write_text(json.dumps({"views": views}), encoding="utf-8")
    png = tmp_path / "screen_a.png"
    image.save(png)
    return state, png


def test_image_views_without_description_are_labelled_by_their_id(tmp_path: Path) -> None:
    state, png = _screen(tmp_path)
    records = [
        ScreenRecord("app.one", "train", "droidbot", state, png),
        ScreenRecord("app.one", "train", "droidbot", state, png),  # the same crops again
        ScreenRecord("app.two", "val", "droidbot", state, png),
    ]
    plain = extract(records)
    report = CropReport()
    icons = extract(records, ids=ResourceIdTable(TABLE), id_skip_apps={"app.two"}, report=report)
    # the described views are cut as before, whatever their id: "Share" by its
    # description (not deleteIcon), the "Search" container and not the image inside it
    described = [(i.app, i.label, i.how, i.box) for i in icons if not i.id_words]
    assert described == [(i.app, i.label, i.how, i.box) for i in plain]
    assert [(i.app, i.label, i.box) for i in plain] == [
        ("app.one", "share", (210, 10, 270, 70)),
        ("app.one", "search", (310, 10, 390, 70)),
        ("app.two", "share", (210, 10, 270, 70)),
        ("app.two", "search", (310, 10, 390, 70)),
    ]
    by_id = [(i.app, i.id_words, i.label, i.how, i.box, i.description) for i in icons if i.id_words]
    assert by_id == [
        ("app.one", "edit", "edit", HOW_ID, (10, 10, 70, 70), ""),
        ("app.one", "badge", None, HOW_ID_EXCLUDED, (110, 10, 170, 70), ""),
        ("app.one", "title marker", None, HOW_ID_UNMAPPED, (10, 110, 70, 170), ""),
    ]  # none of app.two (skipped), the second screen's copies are duplicates
    assert report.id_candidates == 6
    assert report.id_dropped == {"duplicate in app": 3}
    assert report.how == {"table": 4, HOW_ID: 1, HOW_ID_EXCLUDED: 1, HOW_ID_UNMAPPED: 1}
    assert report.ids_mapped == {"edit": 1}
    assert report.ids_unmapped == {"badge": 1, "title marker": 1}
    assert report.dropped == {"duplicate in app": 2}  # the description crops' own count


def test_resource_ids_leave_the_detector_boxes_unchanged() -> None:
    views = [
        _view(0, -1, "android.widget.FrameLayout", (0, 0, 400, 800)),
        _view(1, 0, "android.widget.ImageButton", (10, 10, 70, 70), clickable=True),
        _view(2, 0, "android.widget.TextView", (10, 100, 300, 150), text="Hello"),
    ]
    views[0]["children"] = [1, 2]
    with_ids = [{**v, "resource_id": f"com.a:id/v{v['temp_id']}"} for v in views]
    plain = label_nodes(droidbot_nodes(views), 400, 800)
    assert plain and label_nodes(droidbot_nodes(with_ids), 400, 800) == plain
