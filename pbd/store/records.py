"""The store's records: entries of a collection, collection facts, and demonstrations as
stored, exported and handed to planners."""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

import numpy as np

from screenpilot.errors import DataError, StoreError
from screenpilot.model import Demonstration

#: The collection that holds demonstrations.
DEMOS = "demonstrations"
#: The embedding model a store loads when no embedder is given.
DEFAULT_MODEL = "bge-small-en-v1.5"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{1,61}[A-Za-z0-9]$")

Scalar = str | int | float | bool


class TextEncoder(Protocol):
    """What the store needs of an embedder (``pbd.embed.Embedder`` is one)."""

    @property
    def name(self) -> str: ...

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """(len(texts), dim) float32, L2-normalised."""
        ...


@dataclass(frozen=True, slots=True)
class Entry:
    """One item of a collection: ``text`` is what is embedded and searched;
    ``payload`` any JSON object; ``metadata`` flat scalars that can be filtered on.
    ``score`` is the cosine similarity to the query (search results only)."""

    id: str
    text: str
    payload: Mapping[str, Any] = field(default_factory=dict)
    metadata: Mapping[str, Scalar] = field(default_factory=dict)
    score: float | None = None


@dataclass(frozen=True, slots=True)
class CollectionInfo:
    """A collection's embedding model, dimension and size."""

    name: str
    model: str
    dim: int
    count: int


@dataclass(frozen=True, slots=True)
class DemoRecord:
    """A stored demonstration: the instruction, its steps in words, and where it came from."""

    instruction: str
    steps: tuple[str, ...]
    app: str = ""
    screen: str = ""  # "1080x2400"
    language: str = ""  # "en", "zh"
    created: str = ""  # ISO time, UTC
    source: str = ""  # "recorded", "imported", "task-suite", "synthetic"...
    trajectory: str = ""  # path of the recorded trajectory.json, when there is one
    id: str = ""
    score: float | None = None

    def demonstration(self) -> Demonstration:
        """The form planners take (``PlanHints.demonstrations``)."""
        return Demonstration(self.instruction, self.steps, self.app, self.score)

    def to_json(self) -> dict[str, Any]:
        """The JSONL export line (no score)."""
        return {
            "id": self.id,
            "instruction": self.instruction,
            "steps": list(self.steps),
            "app": self.app,
            "screen": self.screen,
            "language": self.language,
            "created": self.created,
            "source": self.source,
            "trajectory": self.trajectory,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, where: str = "") -> DemoRecord:
        """A record from an export line; ``DataError`` naming ``where`` when it is unusable."""
        at = f" ({where})" if where else ""
        if not isinstance(data, Mapping):
            raise DataError(f"a demonstration must be a JSON object{at}")
        instruction = data.get("instruction")
        steps = data.get("steps", [])
        if not isinstance(instruction, str) or not instruction.strip():
            raise DataError(f"a demonstration needs an 'instruction'{at}")
        if not isinstance(steps, list) or not all(isinstance(s, str) for s in steps):
            raise DataError(f"'steps' must be a list of strings{at}")
        known = {
            "id",
            "instruction",
            "steps",
            "app",
            "screen",
            "language",
            "created",
            "source",
            "trajectory",
            "score",
        }
        unknown = sorted(set(data) - known)
        if unknown:
            raise DataError(f"unknown field(s) {unknown}{at}")
        text = {
            k: data.get(k, "")
            for k in ("app", "screen", "language", "created", "source", "trajectory", "id")
        }
        for key, value in text.items():
            if not isinstance(value, str):
                raise DataError(f"'{key}' must be a string{at}")
        return cls(instruction.strip(), tuple(steps), **text)

    def entry(self) -> Entry:
        return Entry(
            self.id,
            self.instruction,
            {"steps": list(self.steps), "trajectory": self.trajectory},
            {
                "app": self.app,
                "screen": self.screen,
                "language": self.language,
                "created": self.created,
                "source": self.source,
            },
        )

    @classmethod
    def fromentry_of(cls, e: Entry) -> DemoRecord:
        m, p = e.metadata, e.payload
        steps = p.get("steps", [])
        return cls(
            e.text,
            tuple(str(s) for s in steps) if isinstance(steps, list) else (),
            app=str(m.get("app", "")),
            screen=str(m.get("screen", "")),
            language=str(m.get("language", "")),
            created=str(m.get("created", "")),
            source=str(m.get("source", "")),
            trajectory=str(p.get("trajectory", "")),
            id=e.id,
            score=e.score,
        )


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def language_of(text: str) -> str:
    """``zh`` when the text has CJK characters, else ``en``."""
    return "zh" if any("\u4e00" <= c <= "\u9fff" for c in text) else "en"


def new_id() -> str:
    return uuid.uuid4().hex[:12]


def check_name(name: str) -> str:
    if not _NAME.match(name) or ".." in name:
        raise StoreError(
            f"bad collection name {name!r}", hint="3-63 characters: letters, digits, '.', '_', '-'"
        )
    return name


def clean_metadata(metadata: Mapping[str, Any]) -> dict[str, Scalar]:
    out: dict[str, Scalar] = {}
    for key, value in metadata.items():
        if key.startswith("_"):
            raise StoreError(f"metadata key {key!r} is reserved (keys may not start with '_')")
        if not isinstance(value, str | int | float | bool):
            raise StoreError(
                f"metadata {key!r} must be a string, number or boolean, not {type(value).__name__}"
            )
        out[key] = value
    return out
