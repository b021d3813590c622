"""What the knowledge file holds: pages (nodes), transitions (edges), lessons, task
knowledge with its stored path, a command's match; and a step as a stored operation.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass, field

from screenpilot.language.fields import value_kind
from screenpilot.language.taskparse import norm
from screenpilot.model import SECRET_PLACEHOLDER, ActionKind, Element, ElementKind, Step
from screenpilot.pbd.knowledge.params import fill, slots


@dataclass
class Node:
    id: int
    labels: list[str]
    title: str = ""


@dataclass
class Edge:
    """A transition: on page ``src``, operation ``words`` led to page ``dst``."""

    src: int
    words: str
    dst: int
    kind: str = "tap"
    label: str = ""
    element_kind: str = ""
    text: str = ""
    count: int = 1
    changed: bool = True
    order: int = 0


@dataclass
class Lesson:
    kind: str  # "environment" | "execution"
    task: str
    text: str
    page: int
    words: str
    penalty: float = 0.0


@dataclass
class PathOp:
    """One operation of a stored path, with parameter slots in ``label`` and ``text``."""

    kind: str
    label: str = ""
    element_kind: str = ""
    text: str = ""
    src: int = -1
    dst: int = -1

    def words(self, values: Sequence[str] = ()) -> str:
        label, text = fill(self.label, values), fill(self.text, values)
        if self.kind == "type":
            return f"type '{text.rstrip()}'" + (f" into '{label}'" if label else "")
        if self.kind == "scroll":
            return f"scroll {text}"
        if self.kind in ("tap", "long_press"):
            verb = "tap" if self.kind == "tap" else "long press"
            if self.element_kind == ElementKind.SEEK_BAR.value and text:
                return f"{verb} '{label}' at {round(float(text) * 100)}%"
            return f"{verb} '{label}'"
        return self.kind


@dataclass
class TaskKnowledge:
    intent: str
    command: str
    masked: str
    params: dict[str, str]
    kinds: list[str]
    path: list[PathOp]
    start: int = -1
    end: int = -1
    uses: int = 0
    commands: list[str] = field(default_factory=list)

    @property
    def description(self) -> str:
        """The path in words (its labels), matched against new commands."""
        return " ".join(dict.fromkeys(op.label for op in self.path if op.label))


@dataclass(frozen=True)
class Match:
    knowledge: TaskKnowledge
    values: tuple[str, ...]
    score: float


def param_names(values: Sequence[str], path: Sequence[PathOp]) -> list[str]:
    """A name for each value: the label of the field it was typed into, else its kind."""
    names: list[str] = []
    for i, v in enumerate(values):
        name = next(
            (
                norm(op.label).replace(" ", "_")
                for op in path
                if op.kind == "type" and op.label and i in slots(op.text)
            ),
            "",
        )
        if not name:
            kind = value_kind(v)
            name = "name" if kind == "text" and v[:1].isupper() else kind
        base, n = name, 2
        while name in names:
            name, n = f"{base}_{n}", n + 1
        names.append(name)
    return names


def target_of(step: Step) -> Element | None:
    a = step.action
    if a.element is not None:
        with contextlib.suppress(KeyError):
            return step.before.element(a.element)
    if a.point is not None:
        hits = [e for e in step.before.elements if e.box.contains(*a.point)]
        return min(hits, key=lambda e: e.box.area) if hits else None
    return None


def op_of(step: Step) -> PathOp:
    """The operation of a step, independent of element ids."""
    a = step.action
    e = target_of(step)
    text = ""
    if a.kind is ActionKind.TYPE:
        text = SECRET_PLACEHOLDER if a.secret else (a.text or "")
    elif a.kind is ActionKind.SCROLL:
        text = str(a.direction)
    elif a.point is not None and e is not None and e.kind is ElementKind.SEEK_BAR:
        text = f"{(a.point[0] - e.box.x1) / max(1, e.box.width - 1):.3f}"
    return PathOp(
        a.kind.value, e.label if e is not None else "", e.kind.value if e is not None else "", text
    )
