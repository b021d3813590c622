"""The icon resource-id table: an image view with no content description but a resource
id that names a button function (``editIcon``, ``btnPlusIconView``, ``search_entry_button``)
-> a vocabulary label, with a reason per entry (``vision/data/icon_resource_ids.json``).

An id is cut to its entry name (``com.foo:id/btnPlusIconView`` -> ``btnPlusIconView``),
split into lower-case words at camelCase humps, digits and any other character
(``btn plus icon view``), and the table's ``generic`` words (``btn``, ``button``,
``icon``, ``view``, ...) are dropped: ``plus``. The words left, joined by one space, are
the id's *words*, the key of the table:

- ``ids``: exact entries (an entry with ``apps`` applies to those apps only and wins
  over one without), label or ``null`` (the id names no function, or the crops seen do
  not show it), each with a reason;
- ``words``: single words -> label, tried when no entry matches. Conservative: the id is
  labelled only when its words name exactly one label, none of them is a ``stop`` word
  (``avatar``, ``logo``, ``thumb``, ``badge``, ...: a picture or a state, not a
  function), and the weak words (``fab``: ``add`` unless another word names the
  function) give way to the others.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from screenpilot.errors import DataError
from screenpilot.vision.icon_vocab import Vocabulary, load_vocabulary

IDS_FORMAT = "screenpilot-icon-resource-ids/1"

#: How an id-labelled crop was labelled (``RealIcon.how``, ``CropReport.how``).
HOW_ID = "resource id"
HOW_ID_EXCLUDED = "resource id excluded"
HOW_ID_UNMAPPED = "resource id unmapped"

_HUMP = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def id_name(rid: str) -> str:
    """The entry name of a resource id: ``com.foo:id/editIcon`` -> ``editIcon``
    (an id with no ``/`` is kept whole)."""
    return rid.rsplit("/", 1)[-1].strip()


def split_words(name: str) -> list[str]:
    """``btnPlusIconView`` -> ``['btn', 'plus', 'icon', 'view']``; ``ub__back_arrow``
    -> ``['ub', 'back', 'arrow']``; ``icon2`` -> ``['icon', '2']``."""
    return [w.lower() for w in _HUMP.findall(name)]


@dataclass(frozen=True, slots=True)
class IdEntry:
    """One id's words -> label (``None``: no button function)."""

    label: str | None
    reason: str
    apps: tuple[str, ...] = ()


class ResourceIdTable:
    """Resource id -> vocabulary label (see the module docstring)."""

    def __init__(self, doc: dict[str, Any], vocab: Vocabulary | None = None) -> None:
        self.vocab = vocab or load_vocabulary()
        try:
            self.generic = frozenset(str(w) for w in doc["generic"])
            self.stop = frozenset(str(w) for w in doc.get("stop", ()))
            self.weak = frozenset(str(w) for w in doc.get("weak", ()))
            self.exact: dict[str, list[IdEntry]] = {}
            for raw in doc["ids"]:
                self.exact.setdefault(str(raw["words"]), []).append(self._entry(raw))
            self.words: dict[str, IdEntry] = {
                str(raw["word"]): self._entry(raw) for raw in doc.get("words", ())
            }
        except (KeyError, TypeError) as exc:
            raise DataError(f"icon resource-id table is malformed: {exc}") from exc

    def _entry(self, raw: dict[str, Any]) -> IdEntry:
        label = raw.get("label")
        if label is not None and label not in self.vocab:
            raise DataError(f"icon resource-id table: {label!r} is not in the vocabulary")
        if not str(raw.get("reason") or "").strip():
            raise DataError(f"icon resource-id table: entry {raw!r} has no reason")
        return IdEntry(
            None if label is None else str(label),
            str(raw["reason"]),
            tuple(str(a) for a in raw.get("apps", ())),
        )

    @classmethod
    def load(cls, path: Path | None = None, vocab: Vocabulary | None = None) -> ResourceIdTable:
        """The shipped table (``vision/data/icon_resource_ids.json``) or ``path``."""
        try:
            if path is None:
                text = (
                    resources.files("screenpilot.vision") / "data" / "icon_resource_ids.json"
                ).read_text(encoding="utf-8")
            else:
                text = Path(path).read_text(encoding="utf-8")
            doc = json.loads(text)
        except (OSError, ValueError) as exc:
            raise DataError(f"cannot read the icon resource-id table: {exc}") from exc
        if doc.get("format") != IDS_FORMAT:
            raise DataError(
                f"icon resource-id table has format {doc.get('format')!r}, expected {IDS_FORMAT!r}"
            )
        return cls(doc, vocab)

    def words_of(self, rid: str) -> str:
        """The id's words: its entry name split, generic words dropped, joined by a space
        (``""`` when nothing is left)."""
        return " ".join(w for w in split_words(id_name(rid)) if w not in self.generic)

    def lookup(self, rid: str, app: str = "") -> tuple[str | None, str]:
        """(label or ``None``, how): ``HOW_ID`` (labelled by an entry or by its words),
        ``HOW_ID_EXCLUDED`` (an entry says it names no function) or ``HOW_ID_UNMAPPED``."""
        words = self.words_of(rid)
        if not words:
            return None, HOW_ID_UNMAPPED
        entries = self.exact.get(words, [])
        entry = next((e for e in entries if app in e.apps), None) or next(
            (e for e in entries if not e.apps), None
        )
        if entry is not None:
            return entry.label, HOW_ID if entry.label else HOW_ID_EXCLUDED
        label = self._by_words(words.split())
        return label, HOW_ID if label else HOW_ID_UNMAPPED

    def _by_words(self, words: list[str]) -> str | None:
        if any(w in self.stop for w in words):
            return None
        strong = {e.label for w in words if w not in self.weak and (e := self.words.get(w))}
        weak = {e.label for w in words if w in self.weak and (e := self.words.get(w))}
        if None in strong:
            return None
        found = strong or weak
        if len(found) != 1:
            return None
        return next(iter(found))
