"""The icon description table: a content description -> a vocabulary label, with a reason
per entry (``vision/data/icon_descriptions.json``; ``null`` for descriptions that name no
button function), falling back to the vocabulary's own synonym matching."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from screenpilot.errors import DataError
from screenpilot.vision.icon_vocab import Vocabulary, load_vocabulary

TABLE_FORMAT = "screenpilot-icon-descriptions/1"


def normalise(text: str) -> str:
    """Lower case, punctuation to spaces, whitespace collapsed (CJK kept)."""
    text = re.sub(
        r"[^\w\u3040-\u30ff\u4e00-\u9fff\u0400-\u04ff\u0600-\u06ff]+",
        " ",
        text.lower().replace("_", " "),
    )
    return " ".join(text.split())


@dataclass(frozen=True, slots=True)
class TableEntry:
    """One description (or pattern) -> label (``None``: no button function)."""

    label: str | None
    reason: str
    apps: tuple[str, ...] = ()


class DescriptionTable:
    """Content description -> vocabulary label, with a reason per entry.

    The JSON has ``descriptions`` (exact match after ``normalise``; an entry with
    ``apps`` applies to those apps only and wins over one without) and ``patterns``
    (regular expressions on the normalised text, tried in order).
    """

    def __init__(self, doc: dict[str, Any], vocab: Vocabulary | None = None) -> None:
        self.vocab = vocab or load_vocabulary()
        self.exact: dict[str, list[TableEntry]] = {}
        self.patterns: list[tuple[re.Pattern[str], TableEntry]] = []
        try:
            for raw in doc["descriptions"]:
                entry = self._entry(raw)
                self.exact.setdefault(normalise(str(raw["text"])), []).append(entry)
            for raw in doc.get("patterns", []):
                self.patterns.append((re.compile(str(raw["regex"])), self._entry(raw)))
        except (KeyError, TypeError, re.error) as exc:
            raise DataError(f"icon description table is malformed: {exc}") from exc

    def _entry(self, raw: dict[str, Any]) -> TableEntry:
        label = raw.get("label")
        if label is not None and label not in self.vocab:
            raise DataError(f"icon description table: {label!r} is not in the vocabulary")
        if not str(raw.get("reason") or "").strip():
            raise DataError(f"icon description table: entry {raw!r} has no reason")
        return TableEntry(
            None if label is None else str(label),
            str(raw["reason"]),
            tuple(str(a) for a in raw.get("apps", ())),
        )

    @classmethod
    def load(cls, path: Path | None = None, vocab: Vocabulary | None = None) -> DescriptionTable:
        """The shipped table (``vision/data/icon_descriptions.json``) or ``path``."""
        try:
            if path is None:
                text = (
                    resources.files("screenpilot.vision") / "data" / "icon_descriptions.json"
                ).read_text(encoding="utf-8")
            else:
                text = Path(path).read_text(encoding="utf-8")
            doc = json.loads(text)
        except (OSError, ValueError) as exc:
            raise DataError(f"cannot read the icon description table: {exc}") from exc
        if doc.get("format") != TABLE_FORMAT:
            raise DataError(
                f"icon description table has format {doc.get('format')!r}, "
                f"expected {TABLE_FORMAT!r}"
            )
        return cls(doc, vocab)

    def lookup(self, description: str, app: str = "") -> tuple[str | None, str]:
        """(label or ``None``, how): how is ``table`` (an entry gave a label),
        ``excluded`` (an entry says it names no function), ``vocabulary`` (the
        vocabulary's synonym matching) or ``unmapped``."""
        norm = normalise(description)
        entries = self.exact.get(norm, [])
        entry = next((e for e in entries if app in e.apps), None) or next(
            (e for e in entries if not e.apps), None
        )
        if entry is None:
            entry = next(
                (e for rx, e in self.patterns if rx.search(norm) and (not e.apps or app in e.apps)),
                None,
            )
        if entry is not None:
            return entry.label, "table" if entry.label else "excluded"
        label = self.vocab.map_description(description)
        return label, "vocabulary" if label else "unmapped"
