"""The ground truth a rendered page reports: elements, blocks and hit targets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from screenpilot.model import BlockKind, Box, ElementKind

TargetRole = Literal["tap", "field", "seek", "rating", "key"]


@dataclass(frozen=True, slots=True)
class TruthElement:
    """One element as drawn: what a perfect detector + OCR would report."""

    kind: ElementKind
    box: Box
    text: str = ""
    icon: str = ""
    caption: str = ""
    key: str = ""
    field: str = ""
    clickable: bool = False
    editable: bool = False
    checked: bool | None = None
    selected: bool = False
    password: bool = False
    hint: bool = False
    block: int | None = None


@dataclass(frozen=True, slots=True)
class TruthBlock:
    """A region grouping elements; ``active`` indexes the selected element (tab bars)."""

    kind: BlockKind
    box: Box
    caption: str = ""
    scrollable: bool = False
    active: int | None = None


@dataclass(frozen=True, slots=True)
class Target:
    """A hit area: ``role`` says what a touch there does, ``key`` whom it tells."""

    box: Box
    key: str
    role: TargetRole = "tap"
    field: str = ""
    value: float | None = None
    track: tuple[int, int] | None = None
    steps: int = 0
    layer: int = 0
