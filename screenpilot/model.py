"""The records every part of screenpilot passes around.

``Screen`` is what vision/ makes of a screenshot and the only thing planner/
reads; ``Action`` is what the planner decides and executor/ performs; ``Step``
and ``Trajectory`` are the history that reports render, pbd/ stores and
exploration backtracks through; a ``Demonstration`` is a recorded task in words, as
pbd/ retrieves it for planners.

All records are frozen dataclasses that validate themselves on construction and
round-trip losslessly through JSON (``to_dict`` / ``from_dict`` / ``to_json`` /
``from_json``); serialised documents carry ``SCHEMA_VERSION``. The one planned
loss: the text of a *secret* ``type`` action (a password, a card number) is
never serialised; ``SECRET_PLACEHOLDER`` takes its place, and the value is
asked for again at replay.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar, Union

from screenpilot.errors import DataError

SCHEMA_VERSION = 1
SECRET_PLACEHOLDER = "<secret>"

T = TypeVar("T", bound="Record")


class ElementKind(StrEnum):
    """What an element is: the 12 widget classes of the detector, plus text and icon."""

    STATUS_BAR = "status_bar"
    NAVIGATION_BAR = "navigation_bar"
    BUTTON = "button"
    EDIT_TEXT = "edit_text"
    IMAGE = "image"
    PAGE_INDICATOR = "page_indicator"
    SEEK_BAR = "seek_bar"
    RATING_BAR = "rating_bar"
    CHECK_BOX = "check_box"
    RADIO_GROUP = "radio_group"
    SPINNER = "spinner"
    SWITCH = "switch"
    TEXT = "text"
    ICON = "icon"


#: The detector's classes, in the order of their YOLO class ids.
WIDGET_CLASSES: tuple[ElementKind, ...] = tuple(ElementKind)[:12]


class BlockKind(StrEnum):
    """What a block of the screen is."""

    GENERIC = "generic"
    STATUS_BAR = "status_bar"
    TOOLBAR = "toolbar"
    LIST = "list"
    GRID = "grid"
    CARD = "card"
    TAB_BAR = "tab_bar"
    DIALOG = "dialog"
    KEYBOARD = "keyboard"
    NAVIGATION_BAR = "navigation_bar"


class SensitiveCategory(StrEnum):
    """Why a screen needs the person (or ``NONE`` when it does not)."""

    NONE = "none"
    AUTHENTICATION = "authentication"
    PERSONAL_DATA = "personal_data"
    ACCOUNT = "account_management"
    PAYMENT = "payment"
    PERMISSION = "permission"


class ActionKind(StrEnum):
    """Everything the agent can do on the phone."""

    TAP = "tap"
    LONG_PRESS = "long_press"
    TYPE = "type"
    SWIPE = "swipe"
    SCROLL = "scroll"
    BACK = "back"
    HOME = "home"
    LAUNCH = "launch"
    WAIT = "wait"
    STOP = "stop"
    HANDOVER = "handover"


class Direction(StrEnum):
    """Scroll direction: the way the *content* moves into view ("down" shows what is below)."""

    UP = "up"
    DOWN = "down"
    LEFT = "left"
    RIGHT = "right"


class Outcome(StrEnum):
    """How a run ended."""

    RUNNING = "running"
    SUCCESS = "success"
    FAILURE = "failure"
    GAVE_UP = "gave_up"
    SAFETY_STOP = "safety_stop"
    ABORTED = "aborted"
    ERROR = "error"


def _fail(cls: type, message: str) -> typing.NoReturn:
    raise DataError(f"invalid {cls.__name__}: {message}")


class Record:
    """Mixin: JSON round trip for the frozen dataclasses below."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; top-level documents carry the schema version."""
        out = _encode(self)
        assert isinstance(out, dict)
        return {"schema": SCHEMA_VERSION, "type": type(self).__name__, **out}

    def to_json(self, *, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)

    @classmethod
    def from_dict(cls: type[T], data: Mapping[str, Any]) -> T:
        data = dict(data)
        schema = data.pop("schema", SCHEMA_VERSION)
        kind = data.pop("type", cls.__name__)
        if not isinstance(schema, int) or schema > SCHEMA_VERSION:
            _fail(
                cls,
                f"schema version {schema!r} is newer than this screenpilot "
                f"understands ({SCHEMA_VERSION}); upgrade screenpilot",
            )
        if kind != cls.__name__:
            _fail(cls, f"document holds a {kind}, not a {cls.__name__}")
        out = _decode(cls, data)
        assert isinstance(out, cls)
        return out

    @classmethod
    def from_json(cls: type[T], text: str | bytes) -> T:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DataError(f"invalid {cls.__name__} JSON: {exc}") from exc
        if not isinstance(data, dict):
            _fail(cls, "JSON document is not an object")
        return cls.from_dict(data)


def _encode(value: Any) -> Any:
    if isinstance(value, Action) and value.secret:
        value = dataclasses.replace(value, text=SECRET_PLACEHOLDER)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, tuple | list):
        return [_encode(v) for v in value]
    return value


def _decode(tp: Any, value: Any) -> Any:
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        args = typing.get_args(tp)
        if value is None and type(None) in args:
            return None
        inner = [a for a in args if a is not type(None)]
        return _decode(inner[0], value)
    if origin is tuple:
        args = typing.get_args(tp)
        if not isinstance(value, list | tuple):
            raise DataError(f"expected a list for {tp}, got {value!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], v) for v in value)
        if len(args) != len(value):
            raise DataError(f"expected {len(args)} items for {tp}, got {value!r}")
        return tuple(_decode(a, v) for a, v in zip(args, value, strict=True))
    if isinstance(tp, type) and issubclass(tp, StrEnum):
        try:
            return tp(value)
        except ValueError as exc:
            raise DataError(f"unknown {tp.__name__} {value!r}") from exc
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(value, Mapping):
            raise DataError(f"expected an object for {tp.__name__}, got {value!r}")
        hints = typing.get_type_hints(tp)
        names = {f.name for f in dataclasses.fields(tp)}
        unknown = set(value) - names - {"schema", "type"}
        if unknown:
            raise DataError(f"unknown field(s) for {tp.__name__}: {sorted(unknown)}")
        kwargs = {k: _decode(hints[k], v) for k, v in value.items() if k in names}
        try:
            return tp(**kwargs)
        except TypeError as exc:
            raise DataError(f"invalid {tp.__name__}: {exc}") from exc
    if tp is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if tp in (int, float, str, bool) and type(value) is not tp:
        raise DataError(f"expected {tp.__name__}, got {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class Box(Record):
    """An axis-aligned box in screen pixels: left, top, right (exclusive), bottom (exclusive)."""

    x1: int
    y1: int
    x2: int
    y2: int

    def __post_init__(self) -> None:
        for name in ("x1", "y1", "x2", "y2"):
            if type(getattr(self, name)) is not int:
                _fail(Box, f"{name} must be an int, got {getattr(self, name)!r}")
        if self.x2 <= self.x1 or self.y2 <= self.y1:
            _fail(Box, f"empty box {self.as_tuple()}")

    @classmethod
    def of(cls, x1: float, y1: float, x2: float, y2: float) -> Box:
        """Round float coordinates to a box (at least one pixel each way)."""
        a, b = round(x1), round(y1)
        return cls(a, b, max(a + 1, round(x2)), max(b + 1, round(y2)))

    def as_tuple(self) -> tuple[int, int, int, int]:
        return (self.x1, self.y1, self.x2, self.y2)

    @property
    def width(self) -> int:
        return self.x2 - self.x1

    @property
    def height(self) -> int:
        return self.y2 - self.y1

    @property
    def area(self) -> int:
        return self.width * self.height

    @property
    def center(self) -> tuple[int, int]:
        return ((self.x1 + self.x2) // 2, (self.y1 + self.y2) // 2)

    def intersection(self, other: Box) -> int:
        w = min(self.x2, other.x2) - max(self.x1, other.x1)
        h = min(self.y2, other.y2) - max(self.y1, other.y1)
        return max(0, w) * max(0, h)

    def iou(self, other: Box) -> float:
        inter = self.intersection(other)
        return inter / (self.area + other.area - inter)

    def contains(self, x: float, y: float) -> bool:
        return self.x1 <= x < self.x2 and self.y1 <= y < self.y2


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

    def __post_init__(self) -> None:
        if type(self.id) is not int or self.id < 0:
            _fail(Element, f"id must be a non-negative int, got {self.id!r}")
        if not isinstance(self.kind, ElementKind):
            _fail(Element, f"unknown kind {self.kind!r}")
        if not 0.0 <= self.confidence <= 1.0:
            _fail(Element, f"confidence {self.confidence} outside [0, 1]")
        if self.hint and not self.text:
            _fail(Element, "a hint needs its text")

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
            _fail(Block, f"id must be a non-negative int, got {self.id!r}")
        if not isinstance(self.kind, BlockKind):
            _fail(Block, f"unknown kind {self.kind!r}")


@dataclass(frozen=True, slots=True)
class Sensitivity(Record):
    """Whether a screen needs the person, and the evidence for it."""

    category: SensitiveCategory = SensitiveCategory.NONE
    evidence: tuple[str, ...] = ()
    score: float = 0.0

    def __post_init__(self) -> None:
        if not isinstance(self.category, SensitiveCategory):
            _fail(Sensitivity, f"unknown category {self.category!r}")
        if not 0.0 <= self.score <= 1.0:
            _fail(Sensitivity, f"score {self.score} outside [0, 1]")

    @property
    def sensitive(self) -> bool:
        return self.category is not SensitiveCategory.NONE


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
            _fail(Screen, "width and height must be ints")
        if self.width <= 0 or self.height <= 0:
            _fail(Screen, f"empty screen {self.width}x{self.height}")
        ids = [e.id for e in self.elements]
        if len(ids) != len(set(ids)):
            _fail(Screen, "element ids are not unique")
        block_ids = {b.id for b in self.blocks}
        if len(block_ids) != len(self.blocks):
            _fail(Screen, "block ids are not unique")
        for e in self.elements:
            if e.block_id is not None and e.block_id not in block_ids:
                _fail(Screen, f"element {e.id} names block {e.block_id}, which is not on screen")
        for b in self.blocks:
            if b.active_element is not None and b.active_element not in ids:
                _fail(
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

    def describe(self) -> str:
        """The natural-language text the planner reads: one line per element, by block."""
        lines: list[str] = []
        if self.secure:
            lines.append("The screen is blank (the app hides its content from screenshots).")
        by_block: dict[int | None, list[Element]] = {}
        for e in self.elements:
            by_block.setdefault(e.block_id, []).append(e)
        order = sorted(self.blocks, key=lambda b: (b.box.y1, b.box.x1))
        groups: list[tuple[Block | None, list[Element]]] = [(None, by_block.get(None, []))]
        groups += [(b, by_block.get(b.id, [])) for b in order]
        for block, elements in groups:
            if not elements:
                continue
            indent = ""
            if block is not None:
                name = block.kind.value.replace("_", " ")
                lines.append(f"[{name}" + (f" '{block.caption}']" if block.caption else "]"))
                indent = "  "
            active = block.active_element if block is not None else None
            for e in self.reading_order(elements):
                lines.append(indent + describe_element(e, active=e.id == active))
        return "\n".join(lines)


def describe_element(e: Element, *, active: bool = False) -> str:
    """One line for one element: ``[id] kind 'label' (state)``."""
    kind = e.kind.value.replace("_", " ")
    parts = [f"[{e.id}] {kind}"]
    if e.text and e.hint:
        parts.append(f"(empty, hint '{e.text}')")
    elif e.text:
        parts.append(f"'{e.text}'")
    if e.caption and e.caption != e.text:
        parts.append(f"labelled '{e.caption}'")
    if e.icon_label and not e.text:
        parts.append(f"icon '{e.icon_label}'")
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


_TARGETED = {ActionKind.TAP, ActionKind.LONG_PRESS}
_FIELDS_ALLOWED: dict[ActionKind, set[str]] = {
    ActionKind.TAP: {"element", "point"},
    ActionKind.LONG_PRESS: {"element", "point", "duration_ms"},
    ActionKind.TYPE: {"element", "text", "secret"},
    ActionKind.SWIPE: {"start", "end", "duration_ms"},
    ActionKind.SCROLL: {"element", "direction"},
    ActionKind.BACK: set(),
    ActionKind.HOME: set(),
    ActionKind.LAUNCH: {"app"},
    ActionKind.WAIT: {"duration_ms"},
    ActionKind.STOP: {"done"},
    ActionKind.HANDOVER: set(),
}
_OPTIONAL_FIELDS = ("element", "point", "text", "direction", "start", "end", "app", "duration_ms")


@dataclass(frozen=True, slots=True)
class Action(Record):
    """One thing to do on the phone; rejects unknown kinds and contradictory fields."""

    kind: ActionKind
    element: int | None = None
    point: tuple[int, int] | None = None
    text: str | None = None
    direction: Direction | None = None
    start: tuple[int, int] | None = None
    end: tuple[int, int] | None = None
    app: str | None = None
    duration_ms: int | None = None
    secret: bool = False
    done: bool = False
    reason: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.kind, ActionKind):
            _fail(Action, f"unknown kind {self.kind!r}; one of {', '.join(ActionKind)}")
        allowed = _FIELDS_ALLOWED[self.kind]
        for name in _OPTIONAL_FIELDS:
            if getattr(self, name) is not None and name not in allowed:
                _fail(Action, f"{self.kind} takes no {name}")
        if self.secret and self.kind is not ActionKind.TYPE:
            _fail(Action, "only a type action can be secret")
        if self.done and self.kind is not ActionKind.STOP:
            _fail(Action, "only a stop action can say the task is done")
        self._check_kind()

    def _check_kind(self) -> None:
        k = self.kind
        if k in _TARGETED and (self.element is None) == (self.point is None):
            _fail(Action, f"{k} needs exactly one of an element id or a point")
        if k is ActionKind.TYPE and not self.text:
            _fail(Action, "type needs the text to type")
        if k is ActionKind.SCROLL and not isinstance(self.direction, Direction):
            _fail(Action, "scroll needs a direction (up, down, left, right)")
        if k is ActionKind.SWIPE and (self.start is None or self.end is None):
            _fail(Action, "swipe needs a start and an end point")
        if k is ActionKind.LAUNCH and not self.app:
            _fail(Action, "launch needs the app's package name")
        if k is ActionKind.HANDOVER and not self.reason:
            _fail(Action, "handover needs a reason to show the person")
        if self.element is not None and (type(self.element) is not int or self.element < 0):
            _fail(Action, f"element id must be a non-negative int, got {self.element!r}")
        if self.duration_ms is not None and self.duration_ms < 0:
            _fail(Action, "duration_ms must not be negative")
        for name in ("point", "start", "end"):
            p = getattr(self, name)
            if p is not None and (len(p) != 2 or any(type(v) is not int or v < 0 for v in p)):
                _fail(Action, f"{name} must be two non-negative ints, got {p!r}")

    def __repr__(self) -> str:
        fields = [f"kind={self.kind.value!r}"]
        for f in dataclasses.fields(self)[1:]:
            value = getattr(self, f.name)
            if value != f.default:
                if f.name == "text" and self.secret:
                    value = SECRET_PLACEHOLDER
                fields.append(f"{f.name}={value!r}")
        return f"Action({', '.join(fields)})"

    @property
    def shown_text(self) -> str:
        """The text to show in logs and reports: a placeholder when it is a secret."""
        return SECRET_PLACEHOLDER if self.secret else (self.text or "")

    def describe(self, screen: Screen | None = None) -> str:
        """The action in words, e.g. "Tap the 'Wi-Fi' switch"."""
        target = ""
        if self.element is not None:
            target = f"element {self.element}"
            if screen is not None:
                try:
                    e = screen.element(self.element)
                    label = f" '{e.label}'" if e.label else ""
                    target = f"the{label} {e.kind.value.replace('_', ' ')}"
                except KeyError:
                    target = f"element {self.element} (not on screen)"
        elif self.point is not None:
            target = f"point {self.point}"
        k = self.kind
        words = {
            ActionKind.TAP: f"Tap {target}",
            ActionKind.LONG_PRESS: f"Long-press {target}",
            ActionKind.TYPE: f"Type '{self.shown_text}'" + (f" into {target}" if target else ""),
            ActionKind.SWIPE: f"Swipe from {self.start} to {self.end}",
            ActionKind.SCROLL: f"Scroll {self.direction}" + (f" in {target}" if target else ""),
            ActionKind.BACK: "Go back",
            ActionKind.HOME: "Go to the home screen",
            ActionKind.LAUNCH: f"Open {self.app}",
            ActionKind.WAIT: f"Wait {self.duration_ms or 0} ms",
            ActionKind.STOP: "Stop: task done" if self.done else "Stop: giving up",
            ActionKind.HANDOVER: f"Hand over to the person: {self.reason}",
        }
        return words[k]


@dataclass(frozen=True, slots=True)
class Step(Record):
    """One turn of the run loop: the screen seen, the action taken, the screen after."""

    index: int
    before: Screen
    action: Action
    after: Screen | None = None
    reason: str = ""
    timings: tuple[tuple[str, float], ...] = ()
    error: str = ""
    undone: bool = False

    def __post_init__(self) -> None:
        if type(self.index) is not int or self.index < 0:
            _fail(Step, f"index must be a non-negative int, got {self.index!r}")
        for name, seconds in self.timings:
            if seconds < 0:
                _fail(Step, f"timing {name!r} is negative")
        if self.action.element is not None:
            try:
                self.before.element(self.action.element)
            except KeyError as exc:
                _fail(Step, f"action targets {exc.args[0]}")

    @property
    def timing(self) -> dict[str, float]:
        return dict(self.timings)

    def to_messages(self) -> list[dict[str, str]]:
        """This step as chat messages (what the planner saw and what it answered)."""
        return [
            {"role": "user", "content": self.before.describe()},
            {
                "role": "assistant",
                "content": json.dumps(
                    {"action": self.action.describe(self.before), "reason": self.reason},
                    ensure_ascii=False,
                ),
            },
        ]


@dataclass(frozen=True, slots=True)
class Trajectory(Record):
    """A task and every step taken for it, with how it ended."""

    task: str
    steps: tuple[Step, ...] = ()
    outcome: Outcome = Outcome.RUNNING
    app: str = ""
    device: str = ""
    planner: str = ""
    started_at: str = ""
    finished_at: str = ""
    note: str = ""

    def __post_init__(self) -> None:
        if not self.task.strip():
            _fail(Trajectory, "task must not be empty")
        if not isinstance(self.outcome, Outcome):
            _fail(Trajectory, f"unknown outcome {self.outcome!r}")
        for i, s in enumerate(self.steps):
            if s.index != i:
                _fail(Trajectory, f"step {i} carries index {s.index}")

    def add(self, step: Step) -> Trajectory:
        """A new trajectory with ``step`` appended (its index set to fit)."""
        step = dataclasses.replace(step, index=len(self.steps))
        return dataclasses.replace(self, steps=(*self.steps, step))

    def pop(self) -> tuple[Trajectory, Step]:
        """A new trajectory without its last step, and that step (for backtracking)."""
        if not self.steps:
            raise IndexError("pop from an empty trajectory")
        return dataclasses.replace(self, steps=self.steps[:-1]), self.steps[-1]

    def finish(self, outcome: Outcome, *, note: str = "", finished_at: str = "") -> Trajectory:
        return dataclasses.replace(
            self,
            outcome=outcome,
            note=note or self.note,
            finished_at=finished_at or self.finished_at,
        )

    def to_messages(self) -> list[dict[str, str]]:
        msgs = [{"role": "user", "content": f"Task: {self.task}"}]
        for s in self.steps:
            msgs.extend(s.to_messages())
        return msgs


@dataclass(frozen=True, slots=True)
class Demonstration:
    """A recorded task retrieved as a reference: its instruction and steps in words.

    What pbd/ keeps and retrieves and what planners read among their hints."""

    instruction: str
    steps: tuple[str, ...]
    app: str = ""
    score: float | None = None
