"""Icon crops cut from real screens by their view hierarchies: which nodes are icons
(class, own description, visible, icon-sized, not blank, not a duplicate in the app),
each labelled by the description table, and, when a resource-id table is given, image
views with no description labelled by their resource id; see the package docstring for
the filters."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from PIL import Image

from screenpilot.datasets.convert import Node, is_visible, simple_name
from screenpilot.datasets.real_icons.ids import ResourceIdTable
from screenpilot.datasets.real_icons.records import ScreenRecord
from screenpilot.datasets.real_icons.table import DescriptionTable, normalise
from screenpilot.errors import DataError

IMAGE_CLASSES = ("ImageButton", "ImageView", "FloatingActionButton")
ACTION_CLASSES = ("ActionMenuItemView",)
SYSTEM_UI = "com.android.systemui"


@dataclass(frozen=True, slots=True)
class IconFilters:
    """Thresholds of the crop filters (see the module docstring)."""

    min_side: float = 0.025
    max_side: float = 0.20
    max_aspect: float = 3.0
    min_on_screen: float = 0.9
    min_std: float = 3.0
    hash_dedupe: bool = True


@dataclass(frozen=True)
class RealIcon:
    """An icon cut from a real screenshot."""

    image: Image.Image
    description: str
    label: str | None
    how: str
    app: str
    split: str
    screen: str
    view_class: str
    box: tuple[int, int, int, int]
    screen_size: tuple[int, int]
    #: the resource id's words (``ResourceIdTable.words_of``) of a crop labelled by its
    #: resource id (``description`` is then ``""``); ``""`` for description crops
    id_words: str = ""


@dataclass
class CropReport:
    """Candidate nodes kept and dropped, by reason; descriptions mapped and not."""

    screens: int = 0
    screens_unreadable: int = 0
    candidates: int = 0
    dropped: Counter[str] = field(default_factory=Counter)
    kept_by_kind: Counter[str] = field(default_factory=Counter)
    how: Counter[str] = field(default_factory=Counter)
    unmapped: Counter[str] = field(default_factory=Counter)
    mapped: Counter[str] = field(default_factory=Counter)
    #: resource-id crops (no description) by their id words, labelled or not
    id_candidates: int = 0
    id_dropped: Counter[str] = field(default_factory=Counter)
    ids_mapped: Counter[str] = field(default_factory=Counter)
    ids_unmapped: Counter[str] = field(default_factory=Counter)

    def to_json(self) -> dict[str, Any]:
        """Counts for a report."""
        return {
            "screens": self.screens,
            "screens_unreadable": self.screens_unreadable,
            "candidates": self.candidates,
            "dropped": dict(self.dropped.most_common()),
            "kept_by_kind": dict(self.kept_by_kind),
            "labelled_by": dict(self.how),
            "mapped_descriptions": dict(self.mapped.most_common()),
            "unmapped_descriptions": dict(self.unmapped.most_common()),
            "id_candidates": self.id_candidates,
            "id_dropped": dict(self.id_dropped.most_common()),
            "mapped_ids": dict(self.ids_mapped.most_common()),
            "unmapped_ids": dict(self.ids_unmapped.most_common()),
        }


def _is_image(node: Node) -> bool:
    names = (simple_name(node.cls), *(simple_name(a) for a in node.ancestors))
    return any(n.endswith(IMAGE_CLASSES) for n in names)


def _is_action(node: Node) -> bool:
    return simple_name(node.cls).endswith(ACTION_CLASSES) and not node.text


def _descendants(nodes: Sequence[Node], node: Node) -> Iterator[Node]:
    stack = list(node.children)
    while stack:
        child = nodes[stack.pop()]
        if not child.visible:
            continue
        yield child
        stack.extend(child.children)


def icon_candidates(nodes: Sequence[Node]) -> list[tuple[Node, str]]:
    """(node, kind) of every node that may be an icon, before the size filters:
    ``image``, ``action`` or ``container`` (see the module docstring)."""
    out: list[tuple[Node, str]] = []
    taken: set[int] = set()
    for node in nodes:
        if not node.desc:
            continue
        if _is_image(node):
            out.append((node, "image"))
            taken.add(node.index)
        elif _is_action(node):
            out.append((node, "action"))
            taken.add(node.index)
    for node in nodes:
        if not node.desc or not node.clickable or node.index in taken or _is_image(node):
            continue
        inside = list(_descendants(nodes, node))
        if (
            inside
            and any(_is_image(n) for n in inside)
            and not any(n.text for n in inside)
            and not any(n.index in taken for n in inside)
        ):
            out.append((node, "container"))
    return out


def id_candidates(nodes: Sequence[Node]) -> list[Node]:
    """Image views (the class rules of ``icon_candidates``) with no content description
    but a resource id, none of their ancestors a description candidate (the described
    container or image already holds the icon)."""
    described = {node.index for node, _ in icon_candidates(nodes)}
    out = []
    for node in nodes:
        if node.desc or not node.rid or not _is_image(node):
            continue
        parent = node.parent
        while parent >= 0 and parent not in described:
            parent = nodes[parent].parent
        if parent < 0:
            out.append(node)
    return out


def _box_reason(
    box: tuple[float, float, float, float], size: tuple[int, int], filters: IconFilters
) -> str | tuple[int, int, int, int]:
    w_screen, h_screen = size
    x1, y1, x2, y2 = box
    area = max(0.0, x2 - x1) * max(0.0, y2 - y1)
    if area <= 0:
        return "zero size"
    cx1, cy1 = max(0.0, x1), max(0.0, y1)
    cx2, cy2 = min(float(w_screen), x2), min(float(h_screen), y2)
    inside = max(0.0, cx2 - cx1) * max(0.0, cy2 - cy1)
    if inside < filters.min_on_screen * area:
        return "off screen"
    w, h = cx2 - cx1, cy2 - cy1
    if min(w, h) < filters.min_side * w_screen:
        return "too small"
    if max(w, h) > filters.max_side * w_screen:
        return "too large"
    if max(w, h) > filters.max_aspect * min(w, h):
        return "too elongated"
    return (round(cx1), round(cy1), round(cx2), round(cy2))


def dhash(image: Image.Image) -> int:
    """64-bit difference hash of the grey pixels."""
    small = np.asarray(image.convert("L").resize((9, 8), Image.Resampling.BILINEAR), dtype=np.int16)
    bits = (small[:, 1:] > small[:, :-1]).flatten()
    return int(sum(1 << i for i, b in enumerate(bits) if b))


def _load_nodes(record: ScreenRecord, width: int) -> tuple[list[Node], list[str]]:
    """The screen's nodes and, for DroidBot states, each node's package ('' otherwise)."""
    from screenpilot.datasets.convert import paint_order
    from screenpilot.datasets.screens import hierarchy_nodes

    nodes, _ = hierarchy_nodes(record.fmt, record.state, width)
    packages = [""] * len(nodes)
    if record.fmt == "droidbot":
        views = json.loads(record.state.read_text(encoding="utf-8")).get("views") or []
        by_id = {int(v["temp_id"]): v for v in views}
        order = paint_order(views)
        if len(order) == len(nodes):
            packages = [str(by_id[i].get("package") or "") for i in order]
    return nodes, packages


def extract(
    records: Iterable[ScreenRecord],
    *,
    table: DescriptionTable | None = None,
    filters: IconFilters = IconFilters(),
    splits: Sequence[str] | None = None,
    report: CropReport | None = None,
    ids: ResourceIdTable | None = None,
    id_skip_apps: Collection[str] = (),
) -> list[RealIcon]:
    """The icon crops of ``records`` (those of ``splits`` only, if given); see the module
    docstring. Unmapped and excluded crops are returned too, with ``label`` ``None``.

    With ``ids``, image views with no description but a resource id are cut too (after
    the description crops of their screen, by the same filters; their duplicate key
    holds the id's words, marked apart from descriptions, so the description crops are
    the same with or without ``ids``), labelled by that table, except in the apps of
    ``id_skip_apps`` (the held-out apps, whose test set stays the description crops)."""
    table = table or DescriptionTable.load()
    report = report if report is not None else CropReport()
    seen: set[tuple[str, str, int]] = set()
    out: list[RealIcon] = []
    for record in records:
        if splits is not None and record.split not in splits:
            continue
        report.screens += 1
        try:
            with Image.open(record.original) as opened:
                screen = opened.convert("RGB")
            nodes, packages = _load_nodes(record, screen.width)
        except (OSError, ValueError, KeyError, TypeError, DataError):
            report.screens_unreadable += 1
            continue
        out.extend(_icons_of_screen(record, screen, nodes, packages, table, filters, report, seen))
        if ids is not None and record.app not in id_skip_apps:
            out.extend(_id_icons(record, screen, nodes, packages, ids, filters, report, seen))
    return out


def _icons_of_screen(
    record: ScreenRecord,
    screen: Image.Image,
    nodes: Sequence[Node],
    packages: Sequence[str],
    table: DescriptionTable,
    filters: IconFilters,
    report: CropReport,
    seen: set[tuple[str, str, int]],
) -> Iterator[RealIcon]:
    for node, kind in icon_candidates(nodes):
        # the notification shade over an app belongs to System UI, not to the app
        app = SYSTEM_UI if packages[node.index] == SYSTEM_UI else record.app
        report.candidates += 1
        cut = _cut(nodes, node, screen, filters, report.dropped)
        if cut is None:
            continue
        crop, box = cut
        key = (
            app,
            normalise(node.desc),
            dhash(crop) if filters.hash_dedupe else hash(crop.tobytes()),
        )
        if key in seen:
            report.dropped["duplicate in app"] += 1
            continue
        seen.add(key)
        label, how = table.lookup(node.desc, app)
        report.kept_by_kind[kind] += 1
        report.how[how] += 1
        (report.mapped if label else report.unmapped)[node.desc] += 1
        yield RealIcon(
            image=crop,
            description=node.desc,
            label=label,
            how=how,
            app=app,
            split=record.split,
            screen=str(record.original),
            view_class=simple_name(node.cls),
            box=box,
            screen_size=screen.size,
        )


def _cut(
    nodes: Sequence[Node],
    node: Node,
    screen: Image.Image,
    filters: IconFilters,
    dropped: Counter[str],
) -> tuple[Image.Image, tuple[int, int, int, int]] | None:
    """The node's crop and box, or ``None`` (the reason counted in ``dropped``)."""
    if not is_visible(nodes, node.index):
        dropped["invisible"] += 1
        return None
    box = _box_reason(node.box, screen.size, filters)
    if isinstance(box, str):
        dropped[box] += 1
        return None
    crop = screen.crop(box)
    if float(np.asarray(crop.convert("L"), dtype=np.float32).std()) < filters.min_std:
        dropped["blank"] += 1
        return None
    return crop, box


def _id_icons(
    record: ScreenRecord,
    screen: Image.Image,
    nodes: Sequence[Node],
    packages: Sequence[str],
    ids: ResourceIdTable,
    filters: IconFilters,
    report: CropReport,
    seen: set[tuple[str, str, int]],
) -> Iterator[RealIcon]:
    for node in id_candidates(nodes):
        app = SYSTEM_UI if packages[node.index] == SYSTEM_UI else record.app
        words = ids.words_of(node.rid)
        if not words:  # "android:id/icon": nothing but generic words
            continue
        report.id_candidates += 1
        cut = _cut(nodes, node, screen, filters, report.id_dropped)
        if cut is None:
            continue
        crop, box = cut
        # "id:" keeps these keys apart from descriptions (normalised, they hold no ":")
        key = (app, "id:" + words, dhash(crop) if filters.hash_dedupe else hash(crop.tobytes()))
        if key in seen:
            report.id_dropped["duplicate in app"] += 1
            continue
        seen.add(key)
        label, how = ids.lookup(node.rid, app)
        report.how[how] += 1
        (report.ids_mapped if label else report.ids_unmapped)[words] += 1
        yield RealIcon(
            image=crop,
            description="",
            label=label,
            how=how,
            app=app,
            split=record.split,
            screen=str(record.original),
            view_class=simple_name(node.cls),
            box=box,
            screen_size=screen.size,
            id_words=words,
        )
