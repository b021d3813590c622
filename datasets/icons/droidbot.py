"""Real icon crops from DroidBot logs: visible ImageButton/ImageView nodes with a content
description the vocabulary maps (what ``eval icons`` scores as ``real_*``)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from screenpilot.errors import DataError
from screenpilot.vision.icon_vocab import Vocabulary, load_vocabulary


@dataclass(frozen=True)
class RealCrop:
    """An icon cut from a real screenshot, with its content description and label."""

    image: Image.Image
    description: str
    label: str
    source: str
    view_class: str
    #: the screenshot's path and the box cut from it (x1, y1, x2, y2 in its pixels)
    screen: str = ""
    box: tuple[int, int, int, int] = (0, 0, 0, 0)


@dataclass
class RealCropReport:
    """What ``droidbot_icon_crops`` found, kept and dropped."""

    crops: list[RealCrop]
    nodes: int = 0
    unmapped: dict[str, int] | None = None
    screens: int = 0
    screens_without_state: int = 0

    def summary(self) -> dict[str, object]:
        """Counts for a report: nodes with a description, mapped, unmapped descriptions."""
        return {
            "screens": self.screens,
            "screens_without_state": self.screens_without_state,
            "icon_nodes_with_description": self.nodes,
            "mapped": len(self.crops),
            "mapped_descriptions": sorted({c.description for c in self.crops}),
            "unmapped_descriptions": self.unmapped or {},
        }


_ICON_CLASSES = ("ImageButton", "ImageView")


def droidbot_icon_crops(
    root: Path, *, vocab: Vocabulary | None = None, max_screen_fraction: float = 0.05
) -> RealCropReport:
    """Crops of visible ImageButton/ImageView nodes with a content description in
    DroidBot logs under ``root`` (``screen_T.jpg|png`` + ``state_T.json``).

    Kept: visible, non-empty box inside the screen, at least 8 px a side, at most
    ``max_screen_fraction`` of the screen (icons, not pictures), a description the
    vocabulary maps. Boxes are scaled when the screenshot size differs from the
    hierarchy's.
    """
    vocab = vocab or load_vocabulary()
    if not root.is_dir():
        raise DataError(f"DroidBot folder {root} does not exist")
    report = RealCropReport(crops=[], unmapped={})
    for screen in sorted(root.rglob("screen_*")):
        state = screen.with_name("state_" + screen.stem.removeprefix("screen_") + ".json")
        report.screens += 1
        if not state.is_file():
            report.screens_without_state += 1
            continue
        _crops_of_screen(screen, state, vocab, max_screen_fraction, report)
    return report


def _crops_of_screen(
    screen: Path, state: Path, vocab: Vocabulary, max_fraction: float, report: RealCropReport
) -> None:
    try:
        doc = json.loads(state.read_text(encoding="utf-8"))
        with Image.open(screen) as opened:
            image = opened.convert("RGB")
    except (OSError, ValueError) as exc:
        raise DataError(f"cannot read {screen} / {state}: {exc}") from exc
    sx = image.width / float(doc.get("width") or image.width)
    sy = image.height / float(doc.get("height") or image.height)
    for view in doc.get("views", []):
        box = _icon_box(view, sx, sy, image.size, max_fraction)
        if box is None:
            continue
        description = str(view["content_description"]).strip()
        report.nodes += 1
        label = vocab.map_description(description)
        if label is None:
            assert report.unmapped is not None
            report.unmapped[description] = report.unmapped.get(description, 0) + 1
            continue
        report.crops.append(
            RealCrop(
                image=image.crop(box),
                description=description,
                label=label,
                source=screen.name,
                view_class=str(view.get("class", "")).rsplit(".", 1)[-1],
                screen=str(screen),
                box=box,
            )
        )


def _icon_box(
    view: dict[str, object], sx: float, sy: float, size: tuple[int, int], max_fraction: float
) -> tuple[int, int, int, int] | None:
    cls = str(view.get("class") or "")
    if not cls.endswith(_ICON_CLASSES) or not view.get("visible", True):
        return None
    if not str(view.get("content_description") or "").strip():
        return None
    try:
        bounds: Any = view["bounds"]
        x1, y1, x2, y2 = (float(v) for v in (*bounds[0], *bounds[1]))
    except (KeyError, TypeError, ValueError, IndexError):
        return None
    box = (
        max(0, round(x1 * sx)),
        max(0, round(y1 * sy)),
        min(size[0], round(x2 * sx)),
        min(size[1], round(y2 * sy)),
    )
    w, h = box[2] - box[0], box[3] - box[1]
    if min(w, h) < 8 or w * h > max_fraction * size[0] * size[1]:
        return None
    return box
