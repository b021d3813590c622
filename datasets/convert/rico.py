"""RICO view hierarchies and semantic annotations -> samples."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from screenpilot.datasets.convert.files import bounds_scale, load_json, read_image, slug
from screenpilot.datasets.convert.filters import label_nodes
from screenpilot.datasets.convert.records import ConvertReport, Filters, Node
from screenpilot.datasets.yolo import Sample
from screenpilot.errors import DataError


def rico_nodes(root: Mapping[str, Any], scale: float = 1.0) -> list[Node]:
    """A RICO tree (view hierarchy or semantic annotation) -> nodes in paint order."""
    nodes: list[Node] = []
    stack: list[tuple[Mapping[str, Any], int]] = [(root, -1)]
    while stack:
        raw, parent = stack.pop()
        x1, y1, x2, y2 = (float(v) * scale for v in raw.get("bounds", (0, 0, 0, 0)))
        visible = raw.get("visibility", "visible") == "visible" and bool(
            raw.get("visible-to-user", True)
        )
        node = Node(
            len(nodes),
            str(raw.get("class") or ""),
            (x1, y1, x2, y2),
            visible,
            parent,
            clickable=bool(raw.get("clickable")),
            ancestors=tuple(str(a) for a in raw.get("ancestors") or ()),
            label=str(raw.get("componentLabel") or ""),
            checkable=bool(raw.get("checkable")),
            checked=bool(raw.get("checked")),
            text=str(raw.get("text") or "").strip(),
            desc=_rico_desc(raw.get("content-desc")),
            rid=str(raw.get("resource-id") or "").strip(),
        )
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


def convert_rico(
    src: Path, *, filters: Filters = Filters(), report: ConvertReport | None = None
) -> Iterator[Sample]:
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
        doc = load_json(path)
        root = _rico_root(doc)
        width, height, gray = read_image(image)
        nodes = rico_nodes(root, bounds_scale(float(root.get("bounds", [0, 0, width])[2]), width))
        boxes = label_nodes(nodes, width, height, filters=filters, gray=gray, report=report)
        app = str(doc.get("activity_name", "") if isinstance(doc, Mapping) else "").split("/")[0]
        sample = Sample(
            image,
            width,
            height,
            tuple(boxes),
            app=app or path.parent.name,
            name=f"{slug(path.parent.name)}__{path.stem}",
            meta={"state": str(path), "source": path.parent.name},
        )
        report.add(sample)
        yield sample
