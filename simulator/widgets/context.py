"""One rendering pass of a widget tree: units, colours, clipping, and the truth collected.

``RenderCtx`` converts dp and sp to pixels, memoises measurements, and records
what widgets draw: ``TruthElement``, ``TruthBlock`` and ``Target`` (``truth.py``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING

from screenpilot.model import BlockKind, Box, ElementKind
from screenpilot.simulator.draw import BoxF, Painter
from screenpilot.simulator.theme import RGB, Theme
from screenpilot.simulator.widgets.truth import Target, TargetRole, TruthBlock, TruthElement

if TYPE_CHECKING:
    from screenpilot.simulator.widgets.base import Widget

Size = tuple[float, float]


class RenderCtx:
    """State of one rendering pass: painter, theme, density, truth collected so far."""

    def __init__(
        self,
        painter: Painter,
        theme: Theme,
        scale: float,
        *,
        fields: Mapping[str, str] | None = None,
        focus: str | None = None,
        font_scale: float = 1.0,
    ) -> None:
        self.painter = painter
        self.theme = theme
        self.scale = scale
        self.font_scale = font_scale
        self.fields: Mapping[str, str] = fields or {}
        self.focus = focus
        self.width, self.height = painter.image.size
        self.clip: tuple[float, float] = (0.0, float(self.height))
        self.layer = 0
        self.scrollable = False
        self.elements: list[TruthElement] = []
        self.blocks: list[TruthBlock] = []
        self.targets: list[Target] = []
        self._block_stack: list[int] = []
        self._keys: list[str] = []
        self._measured: dict[tuple[int, int], Size] = {}

    # --- units and colours -------------------------------------------------------------
    def dp(self, v: float) -> float:
        return v * self.scale

    def sp(self, v: float) -> int:
        return max(1, round(v * self.scale * self.font_scale))

    def color(self, role: str) -> RGB:
        return self.theme.color(role)

    def measure(self, widget: Widget, max_w: float) -> Size:
        """A widget's size for a width constraint (memoised for the pass)."""
        k = (id(widget), round(max_w * 4))
        if k not in self._measured:
            self._measured[k] = widget.measure(self, max_w)
        return self._measured[k]

    # --- truth -------------------------------------------------------------------------
    def visible(self, y1: float, y2: float) -> bool:
        return y2 > self.clip[0] and y1 < self.clip[1]

    def clip_box(self, box: BoxF) -> Box | None:
        """``box`` clipped to the screen and the current vertical clip; None when hidden."""
        x1, y1 = max(0.0, box[0]), max(self.clip[0], box[1])
        x2, y2 = min(float(self.width), box[2]), min(self.clip[1], box[3])
        if x2 - x1 < 1 or y2 - y1 < 1:
            return None
        return Box.of(x1, y1, x2, y2)

    def add(
        self,
        kind: ElementKind,
        box: BoxF,
        *,
        text: str = "",
        icon: str = "",
        caption: str = "",
        field: str = "",
        editable: bool = False,
        checked: bool | None = None,
        selected: bool = False,
        password: bool = False,
        hint: bool = False,
        clickable: bool = False,
    ) -> int | None:
        """Record a drawn element; returns its index (None when clipped away)."""
        clipped = self.clip_box(box)
        if clipped is None:
            return None
        self.elements.append(
            TruthElement(
                kind=kind,
                box=clipped,
                text=text,
                icon=icon,
                caption=caption,
                key=self._keys[-1] if self._keys else "",
                field=field,
                clickable=clickable or bool(self._keys),
                editable=editable,
                checked=checked,
                selected=selected,
                password=password,
                hint=hint,
                block=self._block_stack[-1] if self._block_stack else None,
            )
        )
        return len(self.elements) - 1

    def target(
        self,
        box: BoxF,
        key: str,
        role: TargetRole = "tap",
        *,
        field: str = "",
        value: float | None = None,
        track: tuple[int, int] | None = None,
        steps: int = 0,
    ) -> None:
        clipped = self.clip_box(box)
        if clipped is not None and (key or field):
            self.targets.append(Target(clipped, key, role, field, value, track, steps, self.layer))

    @contextmanager
    def block(
        self, kind: BlockKind, box: BoxF, caption: str = "", scrollable: bool = False
    ) -> Iterator[int]:
        """Elements recorded inside belong to this block; yields its index."""
        clipped = self.clip_box(box) or Box(0, 0, 1, 1)
        self.blocks.append(TruthBlock(kind, clipped, caption, scrollable))
        index = len(self.blocks) - 1
        self._block_stack.append(index)
        try:
            yield index
        finally:
            self._block_stack.pop()

    def set_active(self, block: int, element: int | None) -> None:
        self.blocks[block] = dataclasses.replace(self.blocks[block], active=element)

    @contextmanager
    def clickable(self, key: str) -> Iterator[None]:
        """Elements recorded inside are clickable and carry ``key``."""
        self._keys.append(key)
        try:
            yield
        finally:
            self._keys.pop()
