"""VINS Pascal VOC annotations -> samples (labels mapped, boxes clipped to the image)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from screenpilot.datasets.convert.classes import VINS_LABELS
from screenpilot.datasets.convert.files import read_image, slug
from screenpilot.datasets.convert.filters import clip
from screenpilot.datasets.convert.records import ConvertReport, Filters
from screenpilot.datasets.yolo import IMAGE_SUFFIXES, LabeledBox, Sample
from screenpilot.errors import DataError


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


def convert_vins(
    src: Path, *, filters: Filters = Filters(), report: ConvertReport | None = None
) -> Iterator[Sample]:
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
        width, height, _gray = read_image(image)
        clipped = [_clip_label(b, width, height, filters) for b in boxes]
        sample = Sample(
            image,
            width,
            height,
            tuple(b for b in clipped if b is not None),
            app=path.parent.name,
            name=f"{slug(path.parent.name)}__{path.stem}",
        )
        report.add(sample)
        yield sample


def _clip_label(box: LabeledBox, width: int, height: int, filters: Filters) -> LabeledBox | None:
    x1, y1, x2, y2 = clip(box.xyxy, width, height)
    if min(x2 - x1, y2 - y1) < filters.min_side:
        return None
    return replace(box, x1=x1, y1=y1, x2=x2, y2=y2)
