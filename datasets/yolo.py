"""YOLO-format detection datasets: write, read, and export to COCO JSON.

Layout written by :func:`write_yolo` (what ultralytics reads)::

    DIR/data.yaml              path, train, val, nc, names (the 12 widget classes)
    DIR/images/{train,val}/    the screenshots (copied as they are)
    DIR/labels/{train,val}/    one ``.txt`` per image: ``class cx cy w h`` normalised to [0, 1]
    DIR/coco_{train,val}.json  the same boxes as COCO JSON (optional)

Class ids are the positions of :data:`screenpilot.model.WIDGET_CLASSES`. A
split with no images still gets its (empty) folders, so a dataset meant only
for evaluation fails loudly if someone tries to train on it.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from screenpilot.errors import DataError
from screenpilot.model import WIDGET_CLASSES, ElementKind

#: The detector's class names, in YOLO class-id order.
CLASS_NAMES: tuple[str, ...] = tuple(kind.value for kind in WIDGET_CLASSES)
SPLITS: tuple[str, ...] = ("train", "val")
IMAGE_SUFFIXES: frozenset[str] = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".webp"})


@dataclass(frozen=True, slots=True)
class LabeledBox:
    """One ground-truth box in image pixels (x2/y2 exclusive) with its widget class."""

    kind: ElementKind
    x1: float
    y1: float
    x2: float
    y2: float

    def __post_init__(self) -> None:
        if self.kind not in WIDGET_CLASSES:
            raise DataError(f"{self.kind} is not one of the detector's classes")
        if self.x2 <= self.x1 or self.y2 <= self.y1:
            raise DataError(f"empty box {(self.x1, self.y1, self.x2, self.y2)}")

    @property
    def class_id(self) -> int:
        return WIDGET_CLASSES.index(self.kind)

    @property
    def xyxy(self) -> tuple[float, float, float, float]:
        return (self.x1, self.y1, self.x2, self.y2)


@dataclass(frozen=True, slots=True)
class Sample:
    """One labelled screenshot: where the image is, its size, its boxes, its app."""

    image: Path
    width: int
    height: int
    boxes: tuple[LabeledBox, ...] = ()
    app: str = ""
    split: str = "val"
    name: str = ""
    meta: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def stem(self) -> str:
        """The file stem used inside the dataset (``name`` or the image's stem)."""
        return self.name or self.image.stem


def to_yolo_line(box: LabeledBox, width: int, height: int) -> str:
    """``class cx cy w h`` normalised to the image size, six decimals."""
    cx = (box.x1 + box.x2) / 2 / width
    cy = (box.y1 + box.y2) / 2 / height
    w = (box.x2 - box.x1) / width
    h = (box.y2 - box.y1) / height
    return f"{box.class_id} {cx:.6f} {cy:.6f} {w:.6f} {h:.6f}"


def from_yolo_line(line: str, width: int, height: int) -> LabeledBox:
    """Parse one label line back to a pixel box; ``DataError`` if malformed."""
    parts = line.split()
    if len(parts) != 5:
        raise DataError(f"label line {line!r} does not have 5 fields")
    try:
        cls = int(parts[0])
        cx, cy, w, h = (float(p) for p in parts[1:])
    except ValueError as exc:
        raise DataError(f"label line {line!r} is not numeric") from exc
    if not 0 <= cls < len(WIDGET_CLASSES):
        raise DataError(f"class id {cls} outside 0..{len(WIDGET_CLASSES) - 1}")
    return LabeledBox(
        WIDGET_CLASSES[cls],
        (cx - w / 2) * width,
        (cy - h / 2) * height,
        (cx + w / 2) * width,
        (cy + h / 2) * height,
    )


def write_yolo(samples: Iterable[Sample], out: Path, *, coco: bool = True) -> Path:
    """Write ``samples`` as a YOLO dataset under ``out``; returns the path of data.yaml."""
    out = Path(out)
    for split in SPLITS:
        (out / "images" / split).mkdir(parents=True, exist_ok=True)
        (out / "labels" / split).mkdir(parents=True, exist_ok=True)
    by_split: dict[str, list[Sample]] = {s: [] for s in SPLITS}
    seen: set[str] = set()
    for sample in samples:
        if sample.split not in by_split:
            raise DataError(f"unknown split {sample.split!r}; use one of {SPLITS}")
        if sample.stem in seen:
            raise DataError(f"two samples are both named {sample.stem!r}")
        seen.add(sample.stem)
        _write_sample(sample, out)
        by_split[sample.split].append(sample)
    if coco:
        for split, items in by_split.items():
            write_coco(items, out / f"coco_{split}.json", image_dir=out / "images" / split)
    return write_data_yaml(out, counts={s: len(v) for s, v in by_split.items()})


def _write_sample(sample: Sample, out: Path) -> None:
    image_name = sample.stem + sample.image.suffix.lower()
    target = out / "images" / sample.split / image_name
    if sample.image.resolve() != target.resolve():
        shutil.copyfile(sample.image, target)
    lines = [to_yolo_line(b, sample.width, sample.height) for b in sample.boxes]
    label = out / "labels" / sample.split / f"{sample.stem}.txt"
    label.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def write_data_yaml(out: Path, *, counts: dict[str, int] | None = None) -> Path:
    """The data.yaml ultralytics reads: absolute root, splits, and the 12 class names."""
    lines = ["# screenpilot widget-detector dataset (YOLO format)"]
    if counts is not None:
        lines.append("# images: " + ", ".join(f"{k}={v}" for k, v in counts.items()))
        if counts.get("train", 0) == 0:
            lines.append("# no training split: this dataset is for evaluation only")
    lines += [
        f"path: {json.dumps(str(Path(out).resolve()))}",
        "train: images/train",
        "val: images/val",
        f"nc: {len(CLASS_NAMES)}",
        "names:",
    ]
    lines += [f"  {i}: {name}" for i, name in enumerate(CLASS_NAMES)]
    path = Path(out) / "data.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def read_data_yaml(data_yaml: Path) -> dict[str, Any]:
    """Parse data.yaml and check its class names are the detector's."""
    import yaml

    path = Path(data_yaml)
    if not path.is_file():
        raise DataError(
            f"dataset file {path} not found",
            hint="make one with `screenpilot dataset convert ... --out DIR`",
        )
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise DataError(f"{path} is not valid YAML: {exc}") from exc
    if not isinstance(data, dict) or "names" not in data:
        raise DataError(f"{path} has no 'names' list")
    names = data["names"]
    names = [names[k] for k in sorted(names)] if isinstance(names, dict) else list(names)
    if tuple(names) != CLASS_NAMES:
        raise DataError(f"{path} names classes {names}, not the detector's {list(CLASS_NAMES)}")
    data["names"] = names
    return data


def split_dir(data_yaml: Path, split: str = "val") -> Path:
    """The image folder of ``split`` named by data.yaml (relative to its ``path``)."""
    data = read_data_yaml(data_yaml)
    if split not in data:
        raise DataError(f"{data_yaml} has no {split!r} split")
    root = Path(data.get("path") or Path(data_yaml).parent)
    if not root.is_absolute():
        root = Path(data_yaml).parent / root
    folder = Path(str(data[split]))
    return folder if folder.is_absolute() else root / folder


def read_split(data_yaml: Path, split: str = "val") -> list[Sample]:
    """Every image of a split with its boxes (labels found by the images -> labels rule)."""
    from PIL import Image

    images = split_dir(data_yaml, split)
    if not images.is_dir():
        raise DataError(f"image folder {images} not found")
    samples: list[Sample] = []
    for image in sorted(p for p in images.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES):
        with Image.open(image) as im:
            width, height = im.size
        label = label_path(image)
        lines = label.read_text(encoding="utf-8").splitlines() if label.is_file() else []
        boxes = tuple(from_yolo_line(line, width, height) for line in lines if line.strip())
        samples.append(Sample(image, width, height, boxes, split=split))
    return samples


def label_path(image: Path) -> Path:
    """The YOLO label file of ``image`` (its last ``images`` folder becomes ``labels``)."""
    parts = list(image.parts)
    for i in range(len(parts) - 1, -1, -1):
        if parts[i] == "images":
            parts[i] = "labels"
            break
    return Path(*parts).with_suffix(".txt")


def coco_document(samples: Sequence[Sample], *, image_dir: Path | None = None) -> dict[str, Any]:
    """The COCO detection JSON of ``samples`` (category ids 1..12, boxes as x, y, w, h)."""
    images: list[dict[str, Any]] = []
    annotations: list[dict[str, Any]] = []
    for image_id, sample in enumerate(samples, start=1):
        name = sample.stem + sample.image.suffix.lower() if image_dir else str(sample.image)
        images.append(
            {"id": image_id, "file_name": name, "width": sample.width, "height": sample.height}
        )
        for box in sample.boxes:
            w, h = box.x2 - box.x1, box.y2 - box.y1
            annotations.append(
                {
                    "id": len(annotations) + 1,
                    "image_id": image_id,
                    "category_id": box.class_id + 1,
                    "bbox": [round(box.x1, 2), round(box.y1, 2), round(w, 2), round(h, 2)],
                    "area": round(w * h, 2),
                    "iscrowd": 0,
                }
            )
    categories = [
        {"id": i + 1, "name": n, "supercategory": "widget"} for i, n in enumerate(CLASS_NAMES)
    ]
    return {"images": images, "annotations": annotations, "categories": categories}


def write_coco(samples: Sequence[Sample], path: Path, *, image_dir: Path | None = None) -> Path:
    """Write :func:`coco_document` to ``path``."""
    doc = coco_document(samples, image_dir=image_dir)
    Path(path).write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return Path(path)
