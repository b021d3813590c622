"""Real labelled screens -> the detector's YOLO format (DroidBot, uiautomator, RICO, VINS).

View classes and labels are mapped to the 12 widget classes by ``classes`` (its
docstring has the table), and view-hierarchy nodes are kept or dropped by
``filters`` (its docstring lists the filters). One module per source format:
``droidbot``, ``uiautomator``, ``rico``, ``vins``; ``records`` holds ``Node``,
``Filters`` and ``ConvertReport``, ``files`` reads JSON and screenshots, and
``entry`` picks the converter for a source and makes the app-level split.

uiautomator dumps (``<hierarchy><node class bounds="[x1,y1][x2,y2]" ...>``)
are read like DroidBot states: document order is paint order, ``visible-to-user``
(where present) is visibility, and the PNG of the same stem is the screen.

Screens and states are matched by the timestamps in their file names
(``screen_2020-06-03_130208.jpg`` <-> ``state_2020-06-03_130208.json``),
nearest within ``max_gap_s`` seconds, one state per screen; screens without a
state are skipped and counted.
"""

from screenpilot.datasets.convert.classes import (
    ANDROID_CLASSES,
    RICO_LABELS,
    VINS_LABELS,
    android_kind,
    node_kind,
    simple_name,
)
from screenpilot.datasets.convert.droidbot import (
    convert_droidbot,
    droidbot_app,
    droidbot_nodes,
    droidbot_sample,
    match_states,
    paint_order,
    stamp,
)
from screenpilot.datasets.convert.entry import SOURCES, assign_splits, convert
from screenpilot.datasets.convert.files import bounds_scale, load_json, read_image, slug
from screenpilot.datasets.convert.filters import (
    area,
    clickable_kind,
    clip,
    glyph_box,
    is_visible,
    label_nodes,
    lineage,
    occluded,
)
from screenpilot.datasets.convert.records import ConvertReport, Filters, Node
from screenpilot.datasets.convert.rico import convert_rico, rico_nodes
from screenpilot.datasets.convert.vins import convert_vins, vins_boxes

# The names bench/vision_truth.py reads from this package (``convert._scale``...).
_area, _clip, _lineage, _occluded, _scale = area, clip, lineage, occluded, bounds_scale

__all__ = [
    "ANDROID_CLASSES",
    "RICO_LABELS",
    "SOURCES",
    "VINS_LABELS",
    "ConvertReport",
    "Filters",
    "Node",
    "android_kind",
    "area",
    "assign_splits",
    "bounds_scale",
    "clickable_kind",
    "clip",
    "convert",
    "convert_droidbot",
    "convert_rico",
    "convert_vins",
    "droidbot_app",
    "droidbot_nodes",
    "droidbot_sample",
    "glyph_box",
    "is_visible",
    "label_nodes",
    "lineage",
    "load_json",
    "match_states",
    "node_kind",
    "occluded",
    "paint_order",
    "read_image",
    "rico_nodes",
    "simple_name",
    "slug",
    "stamp",
    "vins_boxes",
]
