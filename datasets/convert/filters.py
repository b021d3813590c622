"""Which view-hierarchy nodes become boxes: the class mapping, then these filters.

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
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from screenpilot.datasets.convert.classes import K, node_kind, simple_name
from screenpilot.datasets.convert.records import ConvertReport, Filters, Node
from screenpilot.datasets.yolo import LabeledBox
from screenpilot.model import ElementKind


def clip(
    box: tuple[float, float, float, float], width: int, height: int
) -> tuple[float, float, float, float]:
    x1, y1, x2, y2 = box
    return (max(0.0, x1), max(0.0, y1), min(float(width), x2), min(float(height), y2))


def area(box: tuple[float, float, float, float]) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def _inside(
    inner: tuple[float, float, float, float], outer: tuple[float, float, float, float]
) -> bool:
    return (
        outer[0] <= inner[0]
        and outer[1] <= inner[1]
        and inner[2] <= outer[2]
        and inner[3] <= outer[3]
    )


def lineage(nodes: Sequence[Node], index: int) -> set[int]:
    out: set[int] = set()
    parent = nodes[index].parent
    while 0 <= parent < len(nodes) and parent not in out:
        out.add(parent)
        parent = nodes[parent].parent
    return out


def is_visible(nodes: Sequence[Node], index: int) -> bool:
    """The node and every ancestor are visible."""
    return nodes[index].visible and all(nodes[a].visible for a in lineage(nodes, index))


def occluded(
    nodes: Sequence[Node], index: int, box: tuple[float, float, float, float], ancestors: set[int]
) -> bool:
    for later in nodes[index + 1 :]:
        if later.index in ancestors or index in lineage(nodes, later.index):
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


def label_nodes(
    nodes: Sequence[Node],
    width: int,
    height: int,
    *,
    filters: Filters = Filters(),
    gray: Any = None,
    report: ConvertReport | None = None,
) -> list[LabeledBox]:
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
        x1, y1, x2, y2 = glyph_box(kind, node, clip(node.box, width, height), filters)
        kept[node.index] = LabeledBox(kind, x1, y1, x2, y2)
    _drop_covered_groups(nodes, kept, report)
    return list(kept.values())


def glyph_box(
    kind: ElementKind, node: Node, box: tuple[float, float, float, float], filters: Filters
) -> tuple[float, float, float, float]:
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


def clickable_kind(
    nodes: Sequence[Node], node: Node, width: int, height: int, filters: Filters
) -> ElementKind | None:
    """``button`` for a tappable view of no widget class that only text could not name.

    A clickable view with text in it (a list row, a text link) is read by OCR, and
    one holding a widget (a row with a switch) is that widget; a view over
    ``filters.clickable_share`` of the screen is a page, not a control.
    """
    if filters.clickable_share <= 0 or not node.clickable or node.text:
        return None
    if area(clip(node.box, width, height)) > filters.clickable_share * width * height:
        return None
    for inner in _descendants(nodes, node.index):
        if inner.text or node_kind(inner) not in (None, K.IMAGE):
            return None
    return K.BUTTON


def _drop_reason(
    nodes: Sequence[Node],
    node: Node,
    kept: Mapping[int, LabeledBox],
    width: int,
    height: int,
    filters: Filters,
    gray: Any,
) -> str:
    if not is_visible(nodes, node.index):
        return "invisible"
    clipped = clip(node.box, width, height)
    full = area(node.box)
    if full <= 0 or min(clipped[2] - clipped[0], clipped[3] - clipped[1]) < filters.min_side:
        return "zero-size"
    if area(clipped) < filters.min_visible * full:
        return "off-screen"
    if node_kind(node) is K.IMAGE and area(clipped) > filters.max_image_share * width * height:
        return "background"
    ancestors = lineage(nodes, node.index)
    if any(a in kept and simple_name(nodes[a].cls) != "RadioGroup" for a in ancestors):
        return "nested"
    if filters.occlusion and occluded(nodes, node.index, clipped, ancestors):
        return "occluded"
    if _flat(gray, clipped, filters.min_std):
        return "flat"
    return ""


def _drop_covered_groups(
    nodes: Sequence[Node], kept: dict[int, LabeledBox], report: ConvertReport
) -> None:
    """A RadioGroup is a box only when none of its options is kept."""
    for index in list(kept):
        if simple_name(nodes[index].cls) != "RadioGroup":
            continue
        if any(index in lineage(nodes, other) for other in kept if other != index):
            del kept[index]
            report.dropped["radio group with options"] += 1
