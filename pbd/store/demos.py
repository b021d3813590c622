"""The store's public side: ``DemoStore`` (opening a folder or a server, demonstrations,
JSONL export and import, re-embedding) and its named ``Collection``s."""

from __future__ import annotations

import builtins
import dataclasses
import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

import numpy as np

from screenpilot.errors import DataError, StoreError
from screenpilot.model import Demonstration
from screenpilot.pbd.store.chroma import Backend, ServerBackend
from screenpilot.pbd.store.ledger import LOCK_TIMEOUT_S
from screenpilot.pbd.store.local import default_path, local_backend
from screenpilot.pbd.store.records import (
    DEFAULT_MODEL,
    DEMOS,
    CollectionInfo,
    DemoRecord,
    Entry,
    Scalar,
    TextEncoder,
    check_name,
    clean_metadata,
    language_of,
    new_id,
    now,
)


class Collection:
    """A named collection of the store: add, search, get, remove, list entries."""

    def __init__(self, store: DemoStore, name: str) -> None:
        self.store = store
        self.name = check_name(name)

    @property
    def _backend(self) -> Backend:
        return self.store.backend

    def info(self) -> CollectionInfo | None:
        """The model, dimension and size; None while the collection is empty and new."""
        with self._backend.session():
            return self._backend.info(self.name)

    def count(self) -> int:
        info = self.info()
        return info.count if info else 0

    def _checked_model(self, info: CollectionInfo | None) -> str:
        embedder = self.store.embedder
        if info is not None and info.model and info.model != embedder.name:
            raise StoreError(
                f"the store's '{self.name}' were embedded with {info.model}, but the "
                f"embedding model now is {embedder.name}; the two cannot be mixed",
                hint=f"run `screenpilot demos reembed` to re-embed them with {embedder.name}, "
                f"or set embed.model={info.model}",
            )
        return embedder.name

    def add(self, entries: Sequence[Entry], vectors: np.ndarray | None = None) -> list[str]:
        """Store ``entries`` (an empty id gets a new one; an existing id is replaced);
        returns their ids. All of them are committed when this returns. ``vectors``:
        their embeddings when the caller made them already (with the store's embedder)."""
        if not entries:
            return []
        ready = [
            Entry(e.id or new_id(), e.text, dict(e.payload), clean_metadata(e.metadata))
            for e in entries
        ]
        for e in ready:
            if not e.text.strip():
                raise StoreError("an entry needs a text to embed")
        if vectors is None:
            vectors = self.store.encode([e.text for e in ready])
        vectors = np.asarray(vectors, dtype=np.float32)
        if vectors.ndim != 2 or len(vectors) != len(ready):
            raise StoreError(
                f"{len(ready)} entries need {len(ready)} vectors, "
                f"got an array of shape {vectors.shape}"
            )
        with self._backend.session(write=True):
            model = self._checked_model(self._backend.info(self.name))
            self._backend.add(self.name, model, ready, vectors)
        return [e.id for e in ready]

    def search(
        self,
        text: str,
        k: int = 3,
        threshold: float = 0.0,
        where: Mapping[str, Scalar] | None = None,
    ) -> list[Entry]:
        """The ``k`` entries most similar to ``text`` with similarity >= ``threshold``,
        best first (``Entry.score`` is the cosine similarity)."""
        with self._backend.session():
            info = self._backend.info(self.name)
        if info is None or info.count == 0:
            return []
        self._checked_model(info)
        return self.search_vector(self.store.encode([text])[0], k, threshold, where)

    def search_vector(
        self,
        vector: np.ndarray,
        k: int = 3,
        threshold: float = 0.0,
        where: Mapping[str, Scalar] | None = None,
    ) -> list[Entry]:
        """Like ``search``, for a query already embedded with the store's embedder."""
        with self._backend.session():
            found = self._backend.query(self.name, np.asarray(vector, dtype=np.float32), k, where)
        return [e for e in found if e.score is not None and e.score >= threshold]

    def get(self, entry_id: str) -> Entry | None:
        with self._backend.session():
            found = self._backend.get(self.name, [entry_id])
        return found[0] if found else None

    def list(self, where: Mapping[str, Scalar] | None = None) -> list[Entry]:
        """Every entry (optionally only those whose metadata matches ``where``)."""
        with self._backend.session():
            return self._backend.get(self.name, None, where)

    def remove(self, ids: Iterable[str]) -> int:
        """Delete these ids; returns how many there were."""
        wanted = list(dict.fromkeys(ids))
        with self._backend.session(write=True):
            present = [e.id for e in self._backend.get(self.name, wanted)]
            if present:
                self._backend.delete(self.name, present)
        return len(present)

    def reembed(self) -> int:
        """Embed every entry again with the store's embedder; returns how many."""
        with self._backend.session():
            entries = self._backend.get(self.name)
        vectors = (
            self.store.encode([e.text for e in entries])
            if entries
            else np.zeros((0, 0), dtype=np.float32)
        )
        with self._backend.session(write=True):
            self._backend.replace(self.name, self.store.embedder.name, entries, vectors)
        return len(entries)


class DemoStore:
    """The demonstration store (see the module docstring); other named collections of the
    same store come from ``collection(name)``."""

    def __init__(
        self, backend: Backend, *, embedder: TextEncoder | None = None, model: str = DEFAULT_MODEL
    ) -> None:
        self.backend = backend
        self.model = model
        self._embedder = embedder
        self.demos = Collection(self, DEMOS)

    # --- opening --------------------------------------------------------------------------
    @classmethod
    def open(
        cls,
        path: str | Path | None = None,
        *,
        host: str = "",
        port: int = 8000,
        embedder: TextEncoder | None = None,
        model: str = DEFAULT_MODEL,
        lock_timeout: float = LOCK_TIMEOUT_S,
    ) -> DemoStore:
        """The store in ``path`` (default: the user data dir), or on the Chroma server at
        ``host``:``port``. ``embedder`` (or the local model ``model``, loaded when first
        needed) embeds texts."""
        backend: Backend
        if host:
            backend = ServerBackend(host, port)
        else:
            root = Path(path).expanduser() if path else default_path()
            backend = local_backend(root.resolve(), lock_timeout)
        return cls(backend, embedder=embedder, model=model)

    def __enter__(self) -> DemoStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.backend.close()

    @property
    def location(self) -> str:
        return self.backend.location

    @property
    def embedder(self) -> TextEncoder:
        if self._embedder is None:
            from screenpilot.pbd.embed import load_embedder

            self._embedder = load_embedder(self.model)
        return self._embedder

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        vectors = np.asarray(self.embedder.encode(list(texts)), dtype=np.float32)
        if vectors.ndim != 2 or len(vectors) != len(texts):
            raise StoreError(
                f"the embedder {self.embedder.name} returned an array of shape "
                f"{vectors.shape} for {len(texts)} texts"
            )
        return vectors

    def collection(self, name: str) -> Collection:
        """Another named collection in the same store (knowledge, explored screens...)."""
        return Collection(self, name)

    def collections(self) -> list[CollectionInfo]:
        with self.backend.session():
            return [i for n in self.backend.names() if (i := self.backend.info(n)) is not None]

    # --- demonstrations -------------------------------------------------------------------
    def add(self, demo: DemoRecord | Demonstration) -> str:
        """Store one demonstration; returns its id."""
        return self.add_many([demo])[0]

    def add_many(self, demos: Sequence[DemoRecord | Demonstration]) -> list[str]:
        records = [_as_record(d) for d in demos]
        return self.demos.add([r.entry() for r in records])

    def get(self, demo_id: str) -> DemoRecord:
        """The demonstration with this id (or this unique id prefix)."""
        entry = self.demos.get(demo_id)
        if entry is None:
            entry = self.demos.get(self.resolve(demo_id))
        if entry is None:  # pragma: no cover - resolve raised already
            raise StoreError(f"no demonstration {demo_id}")
        return DemoRecord.fromentry_of(entry)

    def resolve(self, prefix: str) -> str:
        """The id that starts with ``prefix``; ``StoreError`` when none or several do."""
        ids = [e.id for e in self.demos.list()]
        if prefix in ids:
            return prefix
        hits = [i for i in ids if i.startswith(prefix)]
        if len(hits) == 1:
            return hits[0]
        if not hits:
            raise StoreError(
                f"no demonstration {prefix!r} in the store at {self.location}",
                hint="see `screenpilot demos list`",
            )
        raise StoreError(
            f"{len(hits)} demonstrations start with {prefix!r}", hint="give more of the id"
        )

    def remove(self, demo_id: str) -> None:
        self.demos.remove([self.resolve(demo_id)])

    def list(self, where: Mapping[str, Scalar] | None = None) -> list[DemoRecord]:
        """Every demonstration, oldest first."""
        records = [DemoRecord.fromentry_of(e) for e in self.demos.list(where)]
        return sorted(records, key=lambda r: r.created)  # stable: insertion order within

    def count(self) -> int:
        return self.demos.count()

    def search_records(
        self,
        text: str,
        k: int = 3,
        threshold: float = 0.0,
        where: Mapping[str, Scalar] | None = None,
    ) -> builtins.list[DemoRecord]:
        return [DemoRecord.fromentry_of(e) for e in self.demos.search(text, k, threshold, where)]

    def search(
        self,
        text: str,
        k: int = 3,
        threshold: float = 0.0,
        where: Mapping[str, Scalar] | None = None,
    ) -> builtins.list[Demonstration]:
        """Demonstrations similar to ``text`` (cosine >= ``threshold``), best first, as
        planners take them."""
        return [r.demonstration() for r in self.search_records(text, k, threshold, where)]

    def reembed(self) -> dict[str, int]:
        """Re-embed every collection with the current model; entries per collection."""
        names = [i.name for i in self.collections()]
        return {n: self.collection(n).reembed() for n in names}

    # --- JSONL ----------------------------------------------------------------------------
    def export_jsonl(self, out: IO[str]) -> int:
        """Write every demonstration as one JSON line; returns how many."""
        records = self.list()
        for r in records:
            out.write(json.dumps(r.to_json(), ensure_ascii=False) + "\n")
        return len(records)

    def import_jsonl(self, lines: Iterable[str], *, source: str = "") -> tuple[int, int]:
        """Add the demonstrations of an export (all lines are checked before any is
        stored); an id already in the store is skipped. Returns (added, skipped)."""
        records: builtins.list[DemoRecord] = []
        for n, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError as exc:
                raise DataError(
                    f"line {n} of {source or 'the import'} is not JSON: {exc}",
                    hint="nothing was imported",
                ) from exc
            records.append(DemoRecord.from_json(data, where=f"line {n} of {source or 'input'}"))
        existing = {e.id for e in self.demos.list()}
        fresh = [r for r in records if not r.id or r.id not in existing]
        fresh = [r if r.source else _replace(r, source="imported") for r in fresh]
        self.add_many(fresh)
        return len(fresh), len(records) - len(fresh)


def _replace(r: DemoRecord, **changes: Any) -> DemoRecord:
    return dataclasses.replace(r, **changes)


def _as_record(demo: DemoRecord | Demonstration) -> DemoRecord:
    if isinstance(demo, Demonstration):
        demo = DemoRecord(demo.instruction, demo.steps, demo.app)
    if not demo.instruction.strip():
        raise StoreError("a demonstration needs an instruction")
    return _replace(
        demo,
        instruction=demo.instruction.strip(),
        created=demo.created or now(),
        language=demo.language or language_of(demo.instruction),
        score=None,
    )


def retrieve(
    store: DemoStore, task: str, *, k: int = 3, threshold: float = 0.6
) -> tuple[Demonstration, ...]:
    """The demonstrations for ``task`` that go into ``PlanHints.demonstrations``."""
    return tuple(store.search(task, k=k, threshold=threshold))
