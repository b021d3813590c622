"""``Screen``: what screenpilot knows of one screenshot, and the text planners read of it."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field

from screenpilot.model.elements import Block, Element, Sensitivity
from screenpilot.model.kinds import BlockKind, ElementKind
from screenpilot.model.record import Record, fail

#: A capture no brighter than this on any channel is black: a FLAG_SECURE screen
#: (``secure``), or a display that is off.
BLACK_LEVEL = 8


@dataclass(frozen=True, slots=True)
class Screen(Record):
    """What screenpilot knows of one screenshot."""

    width: int
    height: int
    elements: tuple[Element, ...] = ()
    blocks: tuple[Block, ...] = ()
    sensitivity: Sensitivity = field(default_factory=Sensitivity)
    app: str = ""
    secure: bool = False
    image_path: str = ""

    def __post_init__(self) -> None:
        if type(self.width) is not int or type(self.height) is not int:
            fail(Screen, "width and height must be ints")
        if self.width <= 0 or self.height <= 0:
            fail(Screen, f"empty screen {self.width}x{self.height}")
        ids = [e.id for e in self.elements]
        if len(ids) != len(set(ids)):
            fail(Screen, "element ids are not unique")
        block_ids = {b.id for b in self.blocks}
        if len(block_ids) != len(self.blocks):
            fail(Screen, "block ids are not unique")
        for e in self.elements:
            if e.block_id is not None and e.block_id not in block_ids:
                fail(Screen, f"element {e.id} names block {e.block_id}, which is not on screen")
        for b in self.blocks:
            if b.active_element is not None and b.active_element not in ids:
                fail(
                    Screen,
                    f"block {b.id} names element {b.active_element} as active, "
                    "which is not on screen",
                )

    def element(self, element_id: int) -> Element:
        """The element with this id; ``KeyError`` naming the ids on screen if absent."""
        for e in self.elements:
            if e.id == element_id:
                return e
        raise KeyError(
            f"no element {element_id} on screen (ids: "
            f"{', '.join(str(e.id) for e in self.elements) or 'none'})"
        )

    def block(self, block_id: int) -> Block:
        for b in self.blocks:
            if b.id == block_id:
                return b
        raise KeyError(f"no block {block_id} on screen")

    def reading_order(self, elements: Iterable[Element] | None = None) -> list[Element]:
        """Elements top to bottom, then left to right (rows by centre line)."""
        items = list(self.elements if elements is None else elements)
        row = max(8, self.height // 120)
        return sorted(items, key=lambda e: (e.box.center[1] // row, e.box.x1, e.box.y1))

    def behind(self) -> set[int]:
        """The ids of the elements under an open dialog's or drawer's scrim, or around an
        open popup menu (in a ``BEHIND`` block): shown, but a tap on them closes the
        dialog, drawer or menu."""
        blocks = {b.id for b in self.blocks if b.kind is BlockKind.BEHIND}
        return {e.id for e in self.elements if e.block_id in blocks} if blocks else set()

    def in_front(self) -> Screen:
        """This screen without what lies behind an open dialog or drawer (``behind``):
        what a tap can reach. The screen itself when nothing is behind."""
        hidden = self.behind()
        if not hidden:
            return self
        return dataclasses.replace(
            self,
            elements=tuple(e for e in self.elements if e.id not in hidden),
            blocks=tuple(b for b in self.blocks if b.kind is not BlockKind.BEHIND),
        )

    def describe(self) -> str:
        """The natural-language text the planner reads: one line per element, by block;
        an on-screen keyboard's keys and tools are one line (:data:`KEYBOARD_LINE`): text
        is typed, not tapped key by key; what lies under an open dialog's or drawer's
        scrim, or around a popup menu, comes last, under :data:`BEHIND_LINE`."""
        lines: list[str] = []
        if self.secure:
            lines.append("The screen is blank (the app hides its content from screenshots).")
        by_block: dict[int | None, list[Element]] = {}
        for e in self.elements:
            by_block.setdefault(e.block_id, []).append(e)
        for block, elements in self._sections(by_block):
            if not elements:
                continue
            indent = ""
            if block is not None and block.kind is BlockKind.KEYBOARD:
                lines.append(KEYBOARD_LINE.format(n=len(elements)))
                continue
            if block is not None and block.kind is BlockKind.BEHIND:
                what = block.caption or "dialog"
                dimmed = "" if what == "menu" else ", dimmed"  # a menu casts no scrim
                lines.append(BEHIND_LINE.format(what=what, dimmed=dimmed))
                indent = "  "
            elif block is not None:
                name = block.kind.value.replace("_", " ")
                lines.append(f"[{name}" + (f" '{block.caption}']" if block.caption else "]"))
                indent = "  "
            active = block.active_element if block is not None else None
            for e in self.reading_order(elements):
                lines.append(indent + describe_element(e, active=e.id == active))
        return "\n".join(lines)

    def _sections(
        self, by_block: dict[int | None, list[Element]]
    ) -> list[tuple[Block | None, list[Element]]]:
        """The blocks with their elements top to bottom, and between them the runs of
        elements in no block, each where its top lies (a list whose last rows make no
        block no longer has them read first, above the status bar); what lies behind a
        dialog's or drawer's scrim comes last, after what is in front."""
        front = [b for b in self.blocks if b.kind is not BlockKind.BEHIND]
        behind = [b for b in self.blocks if b.kind is BlockKind.BEHIND]
        placed: list[tuple[tuple[int, int, int], Block | None, Element | None]] = [
            ((b.box.y1, 0, b.box.x1), b, None) for b in front
        ]
        placed += [((e.box.y1, 1, e.box.x1), None, e) for e in by_block.get(None, [])]
        sections: list[tuple[Block | None, list[Element]]] = []
        for _, block, element in sorted(placed, key=lambda p: p[0]):
            if element is None:
                sections.append((block, by_block.get(block.id, []) if block else []))
            elif sections and sections[-1][0] is None:
                sections[-1][1].append(element)
            else:
                sections.append((None, [element]))
        behind.sort(key=lambda b: (b.box.y1, b.box.x1))
        return sections + [(b, by_block.get(b.id, [])) for b in behind]


#: What :meth:`Screen.describe` says above the elements of a ``BEHIND`` block.
BEHIND_LINE = "[behind the {what}{dimmed}] a tap on these closes the {what}"


#: What :meth:`Screen.describe` says for a keyboard block instead of its ``n`` elements.
KEYBOARD_LINE = (
    "[keyboard] open ({n} keys and tools, not listed): type text into a field; "
    'end it with "\\n" to press the keyboard\'s enter or search key'
)


def describe_element(e: Element, *, active: bool = False) -> str:
    """One line for one element: ``[id] kind 'label' (state)``."""
    kind = e.kind.words
    parts = [f"[{e.id}] {kind}"]
    if e.text and e.hint:
        parts.append(f"(empty, hint '{e.text}')")
    elif e.text:
        parts.append(f"'{e.text}'")
    if e.caption and e.caption != e.text:
        parts.append(f"labelled '{e.caption}'")
    if e.icon_label and not e.text:
        # an icon says "icon" once: "[7] icon 'back'", not "[7] icon icon 'back'"
        bare = e.kind is ElementKind.ICON and len(parts) == 1
        parts.append(f"'{e.icon_label}'" if bare else f"icon '{e.icon_label}'")
    states = []
    if e.checked is not None:
        states.append("on" if e.checked else "off")
    if e.selected or active:
        states.append("selected")
    if e.password:
        states.append("password")
    if states:
        parts.append("(" + ", ".join(states) + ")")
    return " ".join(parts)
