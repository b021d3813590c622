"""The converter's records: a view-hierarchy ``Node``, the ``Filters`` applied to nodes,
and the ``ConvertReport`` of what was kept and dropped."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from screenpilot.datasets.yolo import Sample


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
    #: The view's resource id as the hierarchy gives it, the package included
    #: (``com.foo:id/editIcon``; ``""`` when it has none or the format lacks it):
    #: extra information for the icon crops, never used for the detector's boxes.
    rid: str = ""
    #: Whether a checkable view is checked (a switch on, a box ticked), as the hierarchy
    #: says: the truth of ``bench/real_states.py``, never used for the detector's boxes.
    checked: bool = False
