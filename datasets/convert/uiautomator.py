"""uiautomator dumps (``<hierarchy>`` XML) -> the converter's nodes and samples.

A dump such as ``adb shell uiautomator dump`` writes is a tree of ``<node>``
elements whose ``bounds="[x1,y1][x2,y2]"`` are screen pixels; document order is
paint order. Each ``NAME.xml`` pairs with the screenshot ``NAME.png`` (or .jpg)
beside it; annotated renderings of the same stem (``NAME_SoM.png``) are not
screens and are never read.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

from screenpilot.datasets.convert.files import bounds_scale, read_image, slug
from screenpilot.datasets.convert.filters import label_nodes
from screenpilot.datasets.convert.records import ConvertReport, Filters, Node
from screenpilot.datasets.yolo import Sample
from screenpilot.errors import DataError

BOUNDS_RE = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")


def parse_bounds(text: str) -> tuple[float, float, float, float]:
    """``[0,63][1080,210]`` -> (0, 63, 1080, 210); ``DataError`` if malformed."""
    found = BOUNDS_RE.fullmatch(text.strip())
    if not found:
        raise DataError(f"bounds {text!r} are not [x1,y1][x2,y2]")
    x1, y1, x2, y2 = (float(v) for v in found.groups())
    return (x1, y1, x2, y2)


def _flag(element: ET.Element, name: str, default: bool = False) -> bool:
    value = element.get(name)
    return default if value is None else value.strip().lower() == "true"


def uiautomator_nodes(root: ET.Element, scale: float = 1.0) -> list[Node]:
    """The ``<node>`` elements of a dump, in paint (document) order."""
    nodes: list[Node] = []
    stack: list[tuple[ET.Element, int]] = [(e, -1) for e in reversed(root.findall("node"))]
    while stack:
        element, parent = stack.pop()
        x1, y1, x2, y2 = (v * scale for v in parse_bounds(element.get("bounds", "")))
        node = Node(
            len(nodes),
            element.get("class", ""),
            (x1, y1, x2, y2),
            _flag(element, "visible-to-user", True),
            parent,
            clickable=_flag(element, "clickable") or _flag(element, "long-clickable"),
            checkable=_flag(element, "checkable"),
            checked=_flag(element, "checked"),
            text=(element.get("text") or "").strip(),
            desc=(element.get("content-desc") or "").strip(),
            rid=(element.get("resource-id") or "").strip(),
        )
        nodes.append(node)
        if parent >= 0:
            nodes[parent].children.append(node.index)
        stack.extend((c, node.index) for c in reversed(element.findall("node")))
    return nodes


def dump_nodes(root: ET.Element, width: int) -> list[Node]:
    """A dump's nodes in the pixels of a screenshot ``width`` wide (a downscaled
    screenshot scales the dump's bounds)."""
    nodes = uiautomator_nodes(root)
    scale = bounds_scale(max((n.box[2] for n in nodes), default=float(width)), width)
    return uiautomator_nodes(root, scale) if scale != 1.0 else nodes


def read_dump(path: Path) -> ET.Element:
    """The ``<hierarchy>`` root of a dump; ``DataError`` when it does not parse."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as exc:
        raise DataError(f"cannot read {path}: {exc}") from exc
    if root.tag != "hierarchy":
        raise DataError(f"{path} is not a uiautomator dump (root <{root.tag}>)")
    return root


def dump_app(root: ET.Element) -> str:
    """The most common package of a dump's nodes (system UI left out)."""
    counts: dict[str, int] = {}
    for element in root.iter("node"):
        package = element.get("package") or ""
        if package and package != "com.android.systemui":
            counts[package] = counts.get(package, 0) + 1
    return max(counts, key=lambda k: counts[k]) if counts else "unknown"


def screen_of(xml_path: Path) -> Path | None:
    """The screenshot of the same stem beside a dump."""
    for suffix in (".png", ".jpg", ".jpeg"):
        candidate = xml_path.with_suffix(suffix)
        if candidate.is_file():
            return candidate
    return None


def convert_uiautomator(
    src: Path, *, filters: Filters = Filters(), report: ConvertReport | None = None
) -> Iterator[Sample]:
    """Every ``NAME.xml`` dump under ``src`` that has a ``NAME.png|jpg`` beside it."""
    report = report if report is not None else ConvertReport()
    files = sorted(Path(src).rglob("*.xml"))
    if not files:
        raise DataError(f"no uiautomator .xml dumps under {src}")
    for path in files:
        image = screen_of(path)
        if image is None:
            report.skipped_screens.append(str(path))
            continue
        root = read_dump(path)
        width, height, gray = read_image(image)
        nodes = dump_nodes(root, width)
        boxes = label_nodes(nodes, width, height, filters=filters, gray=gray, report=report)
        sample = Sample(
            image,
            width,
            height,
            tuple(boxes),
            app=dump_app(root),
            name=f"{slug(path.parent.name)}__{path.stem}",
            meta={"state": str(path), "source": path.parent.name},
        )
        report.add(sample)
        yield sample
