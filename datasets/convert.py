"""Real labelled screens -> the detector's YOLO format (RICO, VINS, DroidBot).

Class mapping (to the 12 classes of :data:`screenpilot.model.WIDGET_CLASSES`)
-----------------------------------------------------------------------------
Android view classes (DroidBot states, RICO view hierarchies) are matched on
the class, then on RICO's ``ancestors`` (the superclasses), by simple name:

==========================================  ==============
RadioButton (+ AppCompat/Material)          radio_group (one box per option)
RadioGroup                                  radio_group, only when no option inside is kept
CheckBox, CheckedTextView (checkable)       check_box
Switch, SwitchCompat, SwitchMaterial,
ToggleButton                                switch
SeekBar, Slider (material)                  seek_bar
RatingBar                                   rating_bar
Spinner                                     spinner
EditText, AutoCompleteTextView,
TextInputEditText, SearchView's text field  edit_text
ImageButton, FloatingActionButton           button
Button (+ AppCompat/Material)               button
ImageView, android.widget.Image (WebView)   image
*PageIndicator*, *PagerIndicator*,
*DotsIndicator*, TabPageIndicator           page_indicator
==========================================  ==============

Every other class (layouts, TextView, WebView, lists...) is not a widget box,
with one exception when ``Filters.clickable_share`` is set (the harvest of real
screens sets 0.25): a clickable or long-clickable view of no widget class with
no text of its own or inside it, no widget inside it but images, and covering
at most that share of the screen becomes a ``button`` (a tappable icon, avatar,
card or picture whose extent is what a person taps; the images inside it are
then nested, not boxes of their own). A clickable view with text is read by
OCR (its text is what a person taps), one holding a switch or check box is that
widget, and a larger one is a page. With ``Filters.glyph_boxes`` a check box view
wider than twice its height (the square and its text) is boxed as its square.
RICO semantic annotations map ``componentLabel``: Text Button -> button, Icon
-> the Android mapping of its class, else image; Image -> image; Input ->
edit_text; Checkbox -> check_box; Radio Button -> radio_group; On/Off Switch ->
switch; Slider -> seek_bar; Pager Indicator -> page_indicator; Date Picker and
Number Stepper are skipped. VINS labels: TextButton -> button; Icon, Image ->
image; EditText -> edit_text; CheckBox, Checkbox, CheckedTextView, Remember ->
check_box; Switch -> switch; Spinner -> spinner; PageIndicator ->
page_indicator; UpperTaskBar -> status_bar; the rest (Text, Card, Modal,
Toolbar, Drawer, BackgroundImage, Multi_Tab, Map, Bottom_Navigation) skipped.

View hierarchies hold no system bars, so DroidBot and RICO data carry no
status_bar / navigation_bar boxes: those two classes cannot be measured there.

Filters (view hierarchies)
--------------------------
1. invisible: the node or one of its ancestors is not visible
   (DroidBot ``visible``, RICO ``visibility``/``visible-to-user``);
2. off-screen: the box is clipped to the image, and dropped when less than
   ``min_visible`` (0.5) of its area is on screen;
3. zero-size / tiny: a clipped side under ``min_side`` (4 px);
4. nested widgets: a node inside a widget already kept (an ImageView inside a
   Button) is part of that widget, not a box of its own;
5. fully occluded: the box lies entirely inside a node painted later (a later
   sibling subtree, pre-order paint order) that is not its ancestor and is
   opaque-looking (clickable, or a widget other than an image: images are
   often translucent overlays such as header gradients);
6. flat pixels: the screenshot crop of the box has a grey-level standard
   deviation under ``min_std`` (2.0): nothing is drawn there;
7. backgrounds: an image covering more than ``max_image_share`` (0.5) of the
   screen is the page's background (a full-screen ImageView), not a widget.

uiautomator dumps (``<hierarchy><node class bounds="[x1,y1][x2,y2]" ...>``)
are read like DroidBot states: document order is paint order, ``visible-to-user``
(where present) is visibility, and the PNG of the same stem is the screen.

Screens and states are matched by the timestamps in their file names
(``screen_2020-06-03_130208.jpg`` <-> ``state_2020-06-03_130208.json``),
nearest within ``max_gap_s`` seconds, one state per screen; screens without a
state are skipped and counted.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from screenpilot.datasets.yolo import IMAGE_SUFFIXES, LabeledBox, Sample
from screenpilot.errors import DataError
from screenpilot.model import ElementKind

K = ElementKind
SOURCES: tuple[str, ...] = ("droidbot", "uiautomator", "rico", "vins")

#: Simple Android class names -> widget class (checked most specific first).
ANDROID_CLASSES: dict[str, ElementKind] = {
    "RadioButton": K.RADIO_GROUP, "AppCompatRadioButton": K.RADIO_GROUP,
    "MaterialRadioButton": K.RADIO_GROUP, "RadioGroup": K.RADIO_GROUP,
    "CheckBox": K.CHECK_BOX, "AppCompatCheckBox": K.CHECK_BOX, "MaterialCheckBox": K.CHECK_BOX,
    "Switch": K.SWITCH, "SwitchCompat": K.SWITCH, "SwitchMaterial": K.SWITCH,
    "MaterialSwitch": K.SWITCH, "ToggleButton": K.SWITCH,
    "SeekBar": K.SEEK_BAR, "AppCompatSeekBar": K.SEEK_BAR, "Slider": K.SEEK_BAR,
    "RatingBar": K.RATING_BAR, "AppCompatRatingBar": K.RATING_BAR,
    "Spinner": K.SPINNER, "AppCompatSpinner": K.SPINNER,
    "EditText": K.EDIT_TEXT, "AppCompatEditText": K.EDIT_TEXT,
    "TextInputEditText": K.EDIT_TEXT, "AutoCompleteTextView": K.EDIT_TEXT,
    "AppCompatAutoCompleteTextView": K.EDIT_TEXT, "MultiAutoCompleteTextView": K.EDIT_TEXT,
    "SearchAutoComplete": K.EDIT_TEXT,
    "ImageButton": K.BUTTON, "AppCompatImageButton": K.BUTTON,
    "FloatingActionButton": K.BUTTON, "ExtendedFloatingActionButton": K.BUTTON,
    "Button": K.BUTTON, "AppCompatButton": K.BUTTON, "MaterialButton": K.BUTTON,
    "ImageView": K.IMAGE, "AppCompatImageView": K.IMAGE, "Image": K.IMAGE,
}
PAGE_INDICATOR_RE = re.compile(r"(Page|Pager|Dots|Circle)Indicator", re.IGNORECASE)

RICO_LABELS: dict[str, ElementKind | None] = {
    "Text Button": K.BUTTON, "Image": K.IMAGE, "Input": K.EDIT_TEXT,
    "Checkbox": K.CHECK_BOX, "Radio Button": K.RADIO_GROUP, "On/Off Switch": K.SWITCH,
    "Slider": K.SEEK_BAR, "Pager Indicator": K.PAGE_INDICATOR,
}
VINS_LABELS: dict[str, ElementKind] = {
    "TextButton": K.BUTTON, "Icon": K.IMAGE, "Image": K.IMAGE, "EditText": K.EDIT_TEXT,
    "CheckBox": K.CHECK_BOX, "Checkbox": K.CHECK_BOX, "CheckedTextView": K.CHECK_BOX,
    "Remember": K.CHECK_BOX, "Switch": K.SWITCH, "Spinner": K.SPINNER,
    "PageIndicator": K.PAGE_INDICATOR, "UpperTaskBar": K.STATUS_BAR,
}


@dataclass(frozen=True, slots=True)
class Filters:
    """How view-hierarchy nodes are filtered (see the module docstring)."""

    min_visible: float = 0.5
    min_side: int = 4
    min_std: float = 2.0
    occlusion: bool = True
    max_image_share: float = 0.5
    #: A clickable view of no widget class, with no text and no widget inside and
    #: under this share of the screen, is a ``button`` (an icon or picture people
    #: tap); 0 keeps such views out (the behaviour before real-screen training).
    clickable_share: float = 0.0
    #: A check box view wider than twice its height (a square and its text) is
    #: boxed as its square alone (:func:`glyph_box`).
    glyph_boxes: bool = False


@dataclass(slots=True)
class ConvertReport:
    """What a conversion kept and dropped, for the log and for MODELS.md."""

    images: Counter[str] = field(default_factory=Counter)
    boxes: Counter[str] = field(default_factory=Counter)
    dropped: Counter[str] = field(default_factory=Counter)
    skipped_screens: list[str] = field(default_factory=list)

    def add(self, sample: Sample) -> None:
        self.images[sample.app] += 1
        self.boxes.update(b.kind.value for b in sample.boxes)


@dataclass(slots=True)
class Node:
    """A view-hierarchy node flattened in paint (pre-order) order."""

    index: int
    cls: str
    box: tuple[float, float, float, float]
    visible: bool
    parent: int
    clickable: bool = False
    checkable: bool = False
    ancestors: tuple[str, ...] = ()
    label: str = ""
    children: list[int] = field(default_factory=list)
    text: str = ""
    desc: str = ""


# --------------------------------------------------------------------------- mapping


def simple_name(cls: str) -> str:
    """``android.widget.Button`` -> ``Button``; ``a.b.Outer$Inner`` -> ``Inner``."""
    return cls.rsplit(".", 1)[-1].rsplit("$", 1)[-1]


def android_kind(cls: str, *, ancestors: Sequence[str] = (),
                 checkable: bool = False) -> ElementKind | None:
    """The widget class of an Android view class (or ``None``: not a widget box)."""
    for name in (cls, *ancestors):
        short = simple_name(name)
        if PAGE_INDICATOR_RE.search(short):
            return K.PAGE_INDICATOR
        if short == "CheckedTextView":
            return K.CHECK_BOX if checkable else None
        if short in ANDROID_CLASSES:
            return ANDROID_CLASSES[short]
    return None


def node_kind(node: Node) -> ElementKind | None:
    """The widget class of a node: its semantic label when it has one, else its class."""
    if node.label:
        if node.label == "Icon":
            return android_kind(node.cls, ancestors=node.ancestors) or K.IMAGE
        return RICO_LABELS.get(node.label)
    return android_kind(node.cls, ancestors=node.ancestors, checkable=node.checkable)


# --------------------------------------------------------------------------- filtering


def _clip(box: tuple[float, float, float, float], width: int,
          height: int) -> tuple[float, float, float, float]:
    x1, y1, x2, y2 = box
    return (max(0.0, x1), max(0.0, y1), min(float(width), x2), min(float(height), y2))


def _area(box: tuple[float, float, float, float]) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def _inside(inner: tuple[float, float, float, float],
            outer: tuple[float, float, float, float]) -> bool:
    return (outer[0] <= inner[0] and outer[1] <= inner[1]
            and inner[2] <= outer[2] and inner[3] <= outer[3])


def _lineage(nodes: Sequence[Node], index: int) -> set[int]:
    out: set[int] = set()
    parent = nodes[index].parent
    while 0 <= parent < len(nodes) and parent not in out:
        out.add(parent)
        parent = nodes[parent].parent
    return out


def is_visible(nodes: Sequence[Node], index: int) -> bool:
    """The node and every ancestor are visible."""
    return nodes[index].visible and all(nodes[a].visible for a in _lineage(nodes, index))


def _occluded(nodes: Sequence[Node], index: int, box: tuple[float, float, float, float],
              ancestors: set[int]) -> bool:
    for later in nodes[index + 1:]:
        if later.index in ancestors or index in _lineage(nodes, later.index):
            continue
        kind = node_kind(later)
        opaque = later.clickable or (kind is not None and kind is not K.IMAGE)
        if opaque and is_visible(nodes, later.index) and _inside(box, later.box):
            return True
    return False


def _flat(gray: Any, box: tuple[float, float, float, float], min_std: float) -> bool:
    if gray is None or min_std <= 0:
        return False
    x1, y1, x2, y2 = (round(v) for v in box)
    crop = gray[y1:y2, x1:x2]
    return bool(crop.size == 0 or float(crop.std()) < min_std)


def label_nodes(nodes: Sequence[Node], width: int, height: int, *, filters: Filters = Filters(),
                gray: Any = None, report: ConvertReport | None = None) -> list[LabeledBox]:
    """Apply the class mapping and the filters to nodes in screen pixels."""
    report = report if report is not None else ConvertReport()
    kept: dict[int, LabeledBox] = {}
    for node in nodes:
        kind = node_kind(node) or clickable_kind(nodes, node, width, height, filters)
        if kind is None:
            continue
        reason = _drop_reason(nodes, node, kept, width, height, filters, gray)
        if reason:
            report.dropped[reason] += 1
            continue
        x1, y1, x2, y2 = glyph_box(kind, node, _clip(node.box, width, height), filters)
        kept[node.index] = LabeledBox(kind, x1, y1, x2, y2)
    _drop_covered_groups(nodes, kept, report)
    return list(kept.values())


def glyph_box(kind: ElementKind, node: Node, box: tuple[float, float, float, float],
              filters: Filters) -> tuple[float, float, float, float]:
    """A labelled check box's box is its square (what the simulator and the
    detector call a check box), not the whole view with its text: Material draws
    the square at the view's start, centred, about half the view's height."""
    x1, y1, x2, y2 = box
    h = y2 - y1
    if not filters.glyph_boxes or kind is not K.CHECK_BOX or x2 - x1 < 2 * h:
        return box
    side, cy = 0.5 * h, (y1 + y2) / 2
    return (x1 + 0.08 * h, cy - side / 2, x1 + 0.08 * h + side, cy + side / 2)


def _descendants(nodes: Sequence[Node], index: int) -> Iterator[Node]:
    stack = list(nodes[index].children)
    while stack:
        child = nodes[stack.pop()]
        yield child
        stack.extend(child.children)


def clickable_kind(nodes: Sequence[Node], node: Node, width: int, height: int,
                   filters: Filters) -> ElementKind | None:
    """``button`` for a tappable view of no widget class that only text could not name.

    A clickable view with text in it (a list row, a text link) is read by OCR, and
    one holding a widget (a row with a switch) is that widget; a view over
    ``filters.clickable_share`` of the screen is a page, not a control.
    """
    if filters.clickable_share <= 0 or not node.clickable or node.text:
        return None
    if _area(_clip(node.box, width, height)) > filters.clickable_share * width * height:
        return None
    for inner in _descendants(nodes, node.index):
        if inner.text or node_kind(inner) not in (None, K.IMAGE):
            return None
    return K.BUTTON


def _drop_reason(nodes: Sequence[Node], node: Node, kept: Mapping[int, LabeledBox],
                 width: int, height: int, filters: Filters, gray: Any) -> str:
    if not is_visible(nodes, node.index):
        return "invisible"
    clipped = _clip(node.box, width, height)
    full = _area(node.box)
    if full <= 0 or min(clipped[2] - clipped[0], clipped[3] - clipped[1]) < filters.min_side:
        return "zero-size"
    if _area(clipped) < filters.min_visible * full:
        return "off-screen"
    if node_kind(node) is K.IMAGE and _area(clipped) > filters.max_image_share * width * height:
        return "background"
    ancestors = _lineage(nodes, node.index)
    if any(a in kept and simple_name(nodes[a].cls) != "RadioGroup" for a in ancestors):
        return "nested"
    if filters.occlusion and _occluded(nodes, node.index, clipped, ancestors):
        return "occluded"
    if _flat(gray, clipped, filters.min_std):
        return "flat"
    return ""


def _drop_covered_groups(nodes: Sequence[Node], kept: dict[int, LabeledBox],
                         report: ConvertReport) -> None:
    """A RadioGroup is a box only when none of its options is kept."""
    for index in list(kept):
        if simple_name(nodes[index].cls) != "RadioGroup":
            continue
        if any(index in _lineage(nodes, other) for other in kept if other != index):
            del kept[index]
            report.dropped["radio group with options"] += 1


# --------------------------------------------------------------------------- DroidBot

STAMP_RE = re.compile(r"(\d{4}-\d{2}-\d{2}_\d{6})")


def stamp(path: Path) -> datetime | None:
    """The timestamp in a DroidBot file name, or ``None``."""
    found = STAMP_RE.search(path.name)
    return datetime.strptime(found.group(1), "%Y-%m-%d_%H%M%S") if found else None


def match_states(screens: Sequence[Path], states: Sequence[Path], *,
                 max_gap_s: float = 3.0) -> dict[Path, Path]:
    """Each screen -> its state: the one of the same name (``screen_X.png`` <->
    ``state_X.json``), else the one nearest in time within ``max_gap_s``; each
    state is used once."""
    by_name = {s.stem.removeprefix("state_"): s for s in states}
    matched: dict[Path, Path] = {}
    for screen in screens:
        same = by_name.get(screen.stem.removeprefix("screen_"))
        if same is not None:
            matched[screen] = same
    used: set[Path] = set(matched.values())
    stamped = [(t, s) for s in states if s not in used and (t := stamp(s)) is not None]
    pairs: list[tuple[float, Path, Path]] = []
    for screen in (s for s in screens if s not in matched):
        t_screen = stamp(screen)
        if t_screen is None:
            continue
        for t_state, state in stamped:
            gap = abs((t_state - t_screen).total_seconds())
            if gap <= max_gap_s:
                pairs.append((gap, screen, state))
    for _gap, screen, state in sorted(pairs, key=lambda p: (p[0], str(p[1]))):
        if screen not in matched and state not in used:
            matched[screen] = state
            used.add(state)
    return matched


def paint_order(views: Sequence[Mapping[str, Any]]) -> list[int]:
    """temp_ids of DroidBot ``views[]`` in paint order (depth first, children in order)."""
    by_id = {int(v["temp_id"]): v for v in views}
    roots = [i for i, v in by_id.items() if int(v.get("parent", -1)) not in by_id]
    order: list[int] = []
    stack = sorted(roots, reverse=True)
    while stack:
        current = stack.pop()
        order.append(current)
        stack.extend(reversed([int(c) for c in by_id[current].get("children") or []
                               if int(c) in by_id]))
    return order


def droidbot_nodes(views: Sequence[Mapping[str, Any]], scale: float = 1.0) -> list[Node]:
    """DroidBot ``views[]`` (indexed by temp_id, parent links) -> nodes in paint order."""
    by_id = {int(v["temp_id"]): v for v in views}
    order = paint_order(views)
    position = {view_id: i for i, view_id in enumerate(order)}
    nodes = []
    for view_id in order:
        v = by_id[view_id]
        (x1, y1), (x2, y2) = v["bounds"]
        nodes.append(Node(position[view_id], str(v.get("class") or ""),
                          (x1 * scale, y1 * scale, x2 * scale, y2 * scale),
                          bool(v.get("visible", True)),
                          position.get(int(v.get("parent", -1)), -1),
                          clickable=bool(v.get("clickable") or v.get("long_clickable")),
                          checkable=bool(v.get("checkable")),
                          text=str(v.get("text") or "").strip(),
                          desc=str(v.get("content_description") or "").strip()))
    for node in nodes:
        if node.parent >= 0:
            nodes[node.parent].children.append(node.index)
    return nodes


def droidbot_app(state: Mapping[str, Any]) -> str:
    """The app a state shows: the most common package of its views (not system UI)."""
    packages = Counter(str(v.get("package")) for v in state.get("views", [])
                       if v.get("package") and v.get("package") != "com.android.systemui")
    if packages:
        return packages.most_common(1)[0][0]
    return str(state.get("foreground_activity", "")).split("/")[0] or "unknown"


def _load_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DataError(f"cannot read {path}: {exc}") from exc


def _image(path: Path) -> tuple[int, int, Any]:
    """Image size and its grey levels (a numpy array) for the flat-pixel filter."""
    import numpy as np
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as im:
            gray = np.asarray(im.convert("L"), dtype=np.float32)
    except (OSError, UnidentifiedImageError) as exc:
        raise DataError(f"cannot read image {path}: {exc}") from exc
    return gray.shape[1], gray.shape[0], gray


def _scale(root_width: float, image_width: int) -> float:
    """Screenshots may be downscaled from the display the bounds were taken on."""
    if root_width > image_width * 1.02:
        return image_width / root_width
    return 1.0


def convert_droidbot(src: Path, *, filters: Filters = Filters(), max_gap_s: float = 3.0,
                     report: ConvertReport | None = None) -> Iterator[Sample]:
    """Every matched screen/state pair under ``src`` (searched recursively)."""
    report = report if report is not None else ConvertReport()
    folders = sorted({p.parent for p in Path(src).rglob("state_*.json")})
    if not folders:
        raise DataError(f"no DroidBot state_*.json under {src}")
    for folder in folders:
        screens = sorted(p for p in folder.glob("screen_*") if p.suffix.lower() in IMAGE_SUFFIXES)
        matched = match_states(screens, sorted(folder.glob("state_*.json")), max_gap_s=max_gap_s)
        report.skipped_screens += [str(s) for s in screens if s not in matched]
        for screen, state_path in matched.items():
            sample = _droidbot_sample(screen, state_path, folder.name, filters, report)
            report.add(sample)
            yield sample


def _droidbot_sample(screen: Path, state_path: Path, group: str, filters: Filters,
                     report: ConvertReport) -> Sample:
    state = _load_json(state_path)
    views = state.get("views") or []
    width, height, gray = _image(screen)
    root_width = max((v["bounds"][1][0] for v in views), default=width)
    nodes = droidbot_nodes(views, _scale(root_width, width))
    boxes = label_nodes(nodes, width, height, filters=filters, gray=gray, report=report)
    name = f"{_slug(group)}__{screen.stem}"
    return Sample(screen, width, height, tuple(boxes), app=droidbot_app(state), name=name,
                  meta={"state": str(state_path), "source": group})


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-") or "x"


# --------------------------------------------------------------------------- RICO


def rico_nodes(root: Mapping[str, Any], scale: float = 1.0) -> list[Node]:
    """A RICO tree (view hierarchy or semantic annotation) -> nodes in paint order."""
    nodes: list[Node] = []
    stack: list[tuple[Mapping[str, Any], int]] = [(root, -1)]
    while stack:
        raw, parent = stack.pop()
        x1, y1, x2, y2 = (float(v) * scale for v in raw.get("bounds", (0, 0, 0, 0)))
        visible = (raw.get("visibility", "visible") == "visible"
                   and bool(raw.get("visible-to-user", True)))
        node = Node(len(nodes), str(raw.get("class") or ""), (x1, y1, x2, y2), visible, parent,
                    clickable=bool(raw.get("clickable")),
                    ancestors=tuple(str(a) for a in raw.get("ancestors") or ()),
                    label=str(raw.get("componentLabel") or ""),
                    checkable=bool(raw.get("checkable")),
                    text=str(raw.get("text") or "").strip(),
                    desc=_rico_desc(raw.get("content-desc")))
        nodes.append(node)
        if parent >= 0:
            nodes[parent].children.append(node.index)
        children = [c for c in raw.get("children") or [] if isinstance(c, Mapping)]
        stack.extend((c, node.index) for c in reversed(children))
    return nodes


def _rico_desc(value: Any) -> str:
    if isinstance(value, list):
        return " ".join(str(v) for v in value if v).strip()
    return str(value or "").strip()


def _rico_root(doc: Any) -> Mapping[str, Any]:
    if isinstance(doc, Mapping) and isinstance(doc.get("activity"), Mapping):
        root = doc["activity"].get("root")
        if isinstance(root, Mapping):
            return root
    if isinstance(doc, Mapping) and "bounds" in doc:
        return doc
    raise DataError("not a RICO view hierarchy or semantic annotation")


def _find_image(json_path: Path) -> Path | None:
    """``<id>.jpg|png`` beside the JSON, or RICO's ``original_picture/<id>.jpg``
    two folders up (``json/raw/<id>.json``)."""
    folders = [json_path.parent]
    if len(json_path.parents) > 2:
        folders.append(json_path.parents[2] / "original_picture")
    for folder in folders:
        for suffix in (".jpg", ".png", ".jpeg"):
            candidate = folder / (json_path.stem + suffix)
            if candidate.is_file():
                return candidate
    return None


def convert_rico(src: Path, *, filters: Filters = Filters(),
                 report: ConvertReport | None = None) -> Iterator[Sample]:
    """RICO ``<id>.json`` files with their ``<id>.jpg|png`` screenshots under ``src``."""
    report = report if report is not None else ConvertReport()
    files = sorted(Path(src).rglob("*.json"))
    if not files:
        raise DataError(f"no RICO .json files under {src}")
    for path in files:
        image = _find_image(path)
        if image is None:
            report.skipped_screens.append(str(path))
            continue
        doc = _load_json(path)
        root = _rico_root(doc)
        width, height, gray = _image(image)
        nodes = rico_nodes(root, _scale(float(root.get("bounds", [0, 0, width])[2]), width))
        boxes = label_nodes(nodes, width, height, filters=filters, gray=gray, report=report)
        app = str(doc.get("activity_name", "") if isinstance(doc, Mapping) else "").split("/")[0]
        sample = Sample(image, width, height, tuple(boxes), app=app or path.parent.name,
                        name=f"{_slug(path.parent.name)}__{path.stem}",
                        meta={"state": str(path), "source": path.parent.name})
        report.add(sample)
        yield sample


# --------------------------------------------------------------------------- VINS


def _xml_text(node: ET.Element, tag: str, default: str = "") -> str:
    found = node.find(tag)
    return (found.text or default).strip() if found is not None else default


def vins_boxes(xml_path: Path, report: ConvertReport) -> tuple[str, int, int, list[LabeledBox]]:
    """File name, size and mapped boxes of one Pascal VOC annotation."""
    try:
        root = ET.parse(xml_path).getroot()
    except (OSError, ET.ParseError) as exc:
        raise DataError(f"cannot read {xml_path}: {exc}") from exc
    size = root.find("size")
    width = int(float(_xml_text(size, "width", "0"))) if size is not None else 0
    height = int(float(_xml_text(size, "height", "0"))) if size is not None else 0
    boxes: list[LabeledBox] = []
    for obj in root.iter("object"):
        kind = VINS_LABELS.get(_xml_text(obj, "name"))
        bnd = obj.find("bndbox")
        if kind is None or bnd is None:
            report.dropped["unmapped label"] += 1
            continue
        x1, y1, x2, y2 = (float(_xml_text(bnd, t, "0")) for t in ("xmin", "ymin", "xmax", "ymax"))
        if x2 - x1 < 1 or y2 - y1 < 1:
            report.dropped["zero-size"] += 1
            continue
        boxes.append(LabeledBox(kind, x1, y1, x2, y2))
    return _xml_text(root, "filename"), width, height, boxes


def convert_vins(src: Path, *, filters: Filters = Filters(),
                 report: ConvertReport | None = None) -> Iterator[Sample]:
    """VINS Pascal VOC ``.xml`` annotations and their images, anywhere under ``src``."""
    report = report if report is not None else ConvertReport()
    files = sorted(Path(src).rglob("*.xml"))
    if not files:
        raise DataError(f"no Pascal VOC .xml files under {src}")
    images = {p.name: p for p in Path(src).rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES}
    images.update({p.stem: p for p in images.values()})
    for path in files:
        filename, _w, _h, boxes = vins_boxes(path, report)
        image = images.get(filename) or images.get(Path(filename).stem) or images.get(path.stem)
        if image is None:
            report.skipped_screens.append(str(path))
            continue
        width, height, _gray = _image(image)
        clipped = [_clip_label(b, width, height, filters) for b in boxes]
        sample = Sample(image, width, height, tuple(b for b in clipped if b is not None),
                        app=path.parent.name, name=f"{_slug(path.parent.name)}__{path.stem}")
        report.add(sample)
        yield sample


def _clip_label(box: LabeledBox, width: int, height: int, filters: Filters) -> LabeledBox | None:
    x1, y1, x2, y2 = _clip(box.xyxy, width, height)
    if min(x2 - x1, y2 - y1) < filters.min_side:
        return None
    return replace(box, x1=x1, y1=y1, x2=x2, y2=y2)


# --------------------------------------------------------------------------- entry point


def convert(source: str, src: Path, *, filters: Filters = Filters(),
            report: ConvertReport | None = None) -> Iterator[Sample]:
    """Samples from a ``droidbot``, ``uiautomator``, ``rico`` or ``vins`` folder."""
    if not Path(src).is_dir():
        raise DataError(f"source folder {src} not found")
    if source == "droidbot":
        return convert_droidbot(src, filters=filters, report=report)
    if source == "rico":
        return convert_rico(src, filters=filters, report=report)
    if source == "uiautomator":
        from screenpilot.datasets.uiautomator import convert_uiautomator

        return convert_uiautomator(src, filters=filters, report=report)
    if source == "vins":
        return convert_vins(src, filters=filters, report=report)
    raise DataError(f"unknown source {source!r}", hint=f"use one of {', '.join(SOURCES)}")


def assign_splits(samples: Sequence[Sample], train_apps: Sequence[str] = ()) -> list[Sample]:
    """App-level split: samples of ``train_apps`` go to train, every other app to val."""
    wanted = set(train_apps)
    return [replace(s, split="train" if s.app in wanted else "val") for s in samples]
