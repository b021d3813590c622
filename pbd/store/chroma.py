"""The ChromaDB side of the store: one client and its collections by name, shared by the
local folder and the Chroma server, and the server backend itself. ChromaDB's own
embedder and telemetry are never used; nothing here downloads."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

import numpy as np

from screenpilot.core.offline import enforce_offline
from screenpilot.errors import ScreenpilotError, StoreError
from screenpilot.pbd.store.records import CollectionInfo, Entry, Scalar

PAYLOAD = "_payload"
#: Entries written to ChromaDB per call.
BATCH = 2000


def chroma_settings() -> Any:
    enforce_offline()
    from chromadb.config import Settings

    return Settings(anonymized_telemetry=False, allow_reset=False)


def chroma_errors() -> tuple[type[BaseException], ...]:
    from chromadb.errors import ChromaError

    return (ChromaError, ValueError, RuntimeError, OSError)


class Backend(Protocol):
    location: str

    def session(self, *, write: bool = False) -> contextlib.AbstractContextManager[None]: ...
    def info(self, name: str) -> CollectionInfo | None: ...
    def names(self) -> list[str]: ...
    def add(self, name: str, model: str, entries: Sequence[Entry], vectors: np.ndarray) -> None: ...
    def delete(self, name: str, ids: Sequence[str]) -> None: ...
    def get(
        self, name: str, ids: Sequence[str] | None = None, where: Mapping[str, Scalar] | None = None
    ) -> list[Entry]: ...
    def query(
        self, name: str, vector: np.ndarray, k: int, where: Mapping[str, Scalar] | None = None
    ) -> list[Entry]: ...
    def replace(
        self, name: str, model: str, entries: Sequence[Entry], vectors: np.ndarray
    ) -> None: ...
    def close(self) -> None: ...


class Chroma:
    """The ChromaDB side shared by both backends: one client, collections by name."""

    def __init__(self, what: str, *, cache: bool = True) -> None:
        self.what = what
        self.cache = cache  # a server's collections may be replaced by other clients
        self._client: Any = None
        self._handles: dict[str, Any] = {}

    @property
    def client(self) -> Any:
        return self._client

    @client.setter
    def client(self, value: Any) -> None:
        self._client, self._handles = value, {}

    def handle(self, name: str) -> Any:
        """The collection's handle (cached while the client lives); None if there is none."""
        from chromadb.errors import NotFoundError

        col = self._handles.get(name)
        if col is None:
            try:
                col = self.client.get_collection(name, embedding_function=None)
            except NotFoundError:
                return None
            except chroma_errors() as exc:
                raise StoreError(
                    f"the store at {self.what} failed to open collection {name!r}: {exc}"
                ) from exc
            if self.cache:
                self._handles[name] = col
        return col

    def call(self, doing: str, fn: Callable[[], Any]) -> Any:
        try:
            return fn()
        except ScreenpilotError:
            raise
        except chroma_errors() as exc:
            raise StoreError(
                f"the store at {self.what} failed to {doing}: {exc}",
                hint="if it persists, export what can be read "
                "(`screenpilot demos export`) and start a new store",
            ) from exc

    def create(self, name: str, *, model: str, dim: int) -> Any:
        col = self.handle(name)
        if col is None:
            meta = {"hnsw:space": "cosine", "embed_model": model, "embed_dim": dim}
            col = self.call(
                "create a collection",
                lambda: self.client.get_or_create_collection(
                    name, metadata=meta, embedding_function=None
                ),
            )
            if self.cache:
                self._handles[name] = col
        return col

    def info(self, name: str) -> CollectionInfo | None:
        col = self.handle(name)
        if col is None:
            return None
        meta = col.metadata or {}
        return CollectionInfo(
            name,
            str(meta.get("embed_model", "")),
            int(meta.get("embed_dim", 0) or 0),
            int(self.call("count", col.count)),
        )

    def names(self) -> list[str]:
        cols = self.call("list collections", self.client.list_collections)
        return sorted(c if isinstance(c, str) else c.name for c in cols)

    def add(self, name: str, model: str, entries: Sequence[Entry], vectors: np.ndarray) -> None:
        col = self.create(name, model=model, dim=int(vectors.shape[1]))
        for i in range(0, len(entries), BATCH):
            part, vec = entries[i : i + BATCH], vectors[i : i + BATCH]

            def upsert(p: Sequence[Entry] = part, v: np.ndarray = vec) -> Any:
                return col.upsert(
                    ids=[e.id for e in p],
                    embeddings=np.asarray(v, dtype=np.float32),
                    documents=[e.text for e in p],
                    metadatas=[
                        {**e.metadata, PAYLOAD: json.dumps(dict(e.payload), ensure_ascii=False)}
                        for e in p
                    ],
                )

            self.call("add entries", upsert)

    def delete(self, name: str, ids: Sequence[str]) -> None:
        col = self.handle(name)
        if ids and col is not None:
            self.call("delete entries", lambda: col.delete(ids=list(ids)))

    def drop(self, name: str) -> None:
        if self.handle(name) is not None:
            self.call("drop a collection", lambda: self.client.delete_collection(name))
            self._handles.pop(name, None)

    def get(
        self, name: str, ids: Sequence[str] | None = None, where: Mapping[str, Scalar] | None = None
    ) -> list[Entry]:
        col = self.handle(name)
        if col is None:
            return []
        got = self.call(
            "read entries",
            lambda: col.get(
                ids=list(ids) if ids is not None else None,
                where=where_clause(where),
                include=["documents", "metadatas"],
            ),
        )
        return [
            entry_of(i, d, m)
            for i, d, m in zip(
                got["ids"], got["documents"] or [], got["metadatas"] or [], strict=True
            )
        ]

    def query(
        self, name: str, vector: np.ndarray, k: int, where: Mapping[str, Scalar] | None = None
    ) -> list[Entry]:
        col = self.handle(name)
        if col is None:
            return []
        got = self.call(
            "search",
            lambda: col.query(
                query_embeddings=np.asarray(vector, dtype=np.float32).reshape(1, -1),
                n_results=max(1, k),
                where=where_clause(where),
                include=["documents", "metadatas", "distances"],
            ),
        )
        out = []
        for i, d, m, dist in zip(
            got["ids"][0],
            (got["documents"] or [[]])[0],
            (got["metadatas"] or [[]])[0],
            (got["distances"] or [[]])[0],
            strict=True,
        ):
            e = entry_of(i, d, m)
            out.append(Entry(e.id, e.text, e.payload, e.metadata, round(1.0 - float(dist), 4)))
        return out


def where_clause(where: Mapping[str, Scalar] | None) -> dict[str, Any] | None:
    if not where:
        return None
    items = [{k: v} for k, v in where.items()]
    return items[0] if len(items) == 1 else {"$and": items}


def entry_of(id_: str, text: str | None, meta: Mapping[str, Any] | None) -> Entry:
    meta = dict(meta or {})
    raw = meta.pop(PAYLOAD, "{}")
    try:
        payload = json.loads(raw) if isinstance(raw, str) else {}
    except json.JSONDecodeError:
        payload = {}
    return Entry(
        id_,
        text or "",
        payload if isinstance(payload, dict) else {},
        {k: v for k, v in meta.items() if isinstance(v, str | int | float | bool)},
    )


class ChromaReads:
    """Reads go straight to the Chroma index, whichever backend keeps it."""

    chroma: Chroma

    def get(
        self, name: str, ids: Sequence[str] | None = None, where: Mapping[str, Scalar] | None = None
    ) -> list[Entry]:
        return self.chroma.get(name, ids, where)

    def query(
        self, name: str, vector: np.ndarray, k: int, where: Mapping[str, Scalar] | None = None
    ) -> list[Entry]:
        return self.chroma.query(name, vector, k, where)


class ServerBackend(ChromaReads):
    """A Chroma server: it keeps the data and orders concurrent writers."""

    def __init__(self, host: str, port: int) -> None:
        self.location = f"http://{host}:{port}"
        self.chroma = Chroma(self.location, cache=False)
        try:
            import chromadb

            self.chroma.client = chromadb.HttpClient(
                host=host, port=port, settings=chroma_settings()
            )
            self.chroma.client.heartbeat()
        except Exception as exc:  # connection refused, DNS, auth: all mean "not there"
            raise StoreError(
                f"cannot reach the Chroma server at {self.location}: {exc}",
                hint="start it (`chroma run --path DIR --port N`), or leave "
                "store.host empty to use a local folder",
            ) from exc

    def session(self, *, write: bool = False) -> contextlib.AbstractContextManager[None]:
        return contextlib.nullcontext()

    def info(self, name: str) -> CollectionInfo | None:
        return self.chroma.info(name)

    def names(self) -> list[str]:
        return self.chroma.names()

    def add(self, name: str, model: str, entries: Sequence[Entry], vectors: np.ndarray) -> None:
        self.chroma.add(name, model, entries, vectors)

    def delete(self, name: str, ids: Sequence[str]) -> None:
        self.chroma.delete(name, ids)

    def replace(self, name: str, model: str, entries: Sequence[Entry], vectors: np.ndarray) -> None:
        self.chroma.drop(name)
        self.chroma.add(name, model, entries, vectors)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.chroma.client.close()
