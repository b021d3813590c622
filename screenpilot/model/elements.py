"""What a screen is made of: its ``Element``s, the ``Block``s grouping them, its ``Sensitivity``."""

from __future__ import annotations

from dataclasses import dataclass

from screenpilot.model.geometry import Box
from screenpilot.model.kinds import BlockKind, ElementKind, SensitiveCategory
from screenpilot.model.record import Record, fail


@dataclass(frozen=True, slots=True)
class Element(Record):
    """One thing on the screen the agent can read or act on."""

    id: int
    kind: ElementKind
    box: Box
    text: str = ""
    icon_label: str = ""
    caption: str = ""
    clickable: bool = False
    editable: bool = False
    scrollable: bool = False
    checked: bool | None = None
    selected: bool = False
    hint: bool = False
    password: bool = False
    block_id: int | None = None
    confidence: float = 1.0
    #: Where a tap on this element belongs when that differs from ``box`` (a list row's
    #: band around its text, an icon's touch target); see ``vision.targets``.
    target: Box | None = None

    def __post_init__(self) -> None:
        if type(self.id) is not int or self.id < 0:
            fail(Element, f"id must be a non-negative int, got {self.id!r}")
        if not isinstance(self.kind, ElementKind):
            fail(Element, f"unknown kind {self.kind!r}")
        if not 0.0 <= self.confidence <= 1.0:
            fail(Element, f"confidence {self.confidence} outside [0, 1]")
        if self.hint and not self.text:
            fail(Element, "a hint needs its text")

    @property
    def label(self) -> str:
        """What the element is called: its text, else its caption, else its icon label."""
        return self.text or self.caption or self.icon_label


@dataclass(frozen=True, slots=True)
class Block(Record):
    """A region of the screen that groups elements (a list, a tab bar, a dialog...)."""

    id: int
    box: Box
    kind: BlockKind = BlockKind.GENERIC
    caption: str = ""
    scrollable: bool = False
    active_element: int | None = None

    def __post_init__(self) -> None:
        if type(self.id) is not int or self.id < 0:
            fail(Block, f"id must be a non-negative int, got {self.id!r}")
        if not isinstance(self.kind, BlockKind):
            fail(Block, f"unknown kind {self.kind!r}")


@dataclass(frozen=True, slots=True)
class Sensitivity(Record):
    """Whether a screen needs the person, and the evidence for it."""

    category: SensitiveCategory = SensitiveCategory.NONE
    evidence: tuple[str, ...] = ()
    score: float = 0.0

    def __post_init__(self) -> None:
        if not isinstance(self.category, SensitiveCategory):
            fail(Sensitivity, f"unknown category {self.category!r}")
        if not 0.0 <= self.score <= 1.0:
            fail(Sensitivity, f"score {self.score} outside [0, 1]")

    @property
    def sensitive(self) -> bool:
        return self.category is not SensitiveCategory.NONE
