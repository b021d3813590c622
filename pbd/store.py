"""The demonstration store: demonstrations (and other named collections) on ChromaDB.

::

    store = DemoStore.open("~/demos")             # or DemoStore.from_config(cfg)
    demo_id = store.add(DemoRecord("Turn wifi on.", ("tap 'Settings'", ...), app="..."))
    store.search("switch on the wifi", k=3, threshold=0.6)   # -> [Demonstration]
    store.get(demo_id); store.list(); store.remove(demo_id)
    notes = store.collection("knowledge")        # another collection, same store

Two ways to hold it:

- a local folder (``store.path``; default ``<user data dir>/store``): a ledger
  (``ledger.sqlite3``: every entry with its text, payload, metadata and embedding)
  and a ChromaDB index built from it (``index/``). The ledger is the record and
  the index is how it is searched. Every operation holds the folder's lock
  (``store.lock``, released by the OS when its process dies), so processes take
  turns; a write commits to the ledger and marks the index dirty *before*
  touching ChromaDB, and clears the mark only once ChromaDB has been closed
  (flushed). A process killed mid-write therefore leaves a committed ledger and
  a dirty mark, and the next process to open the store rebuilds the index from
  the ledger: nothing committed is lost, and a half-written ChromaDB index
  (which crashes the process that loads it) is never opened;
- a Chroma server (``store.host``/``store.port``): the server keeps the data and
  takes care of concurrency; there is no ledger.

Each collection records the embedding model that embedded it (and its
dimension) and refuses texts embedded by another model (``StoreError`` with the
hint ``screenpilot demos reembed``). Nothing here downloads: the embedder is
given, or loaded with ``pbd.embed.load_embedder`` (local models only), and
ChromaDB's own embedder and telemetry are never used.
"""

from __future__ import annotations

import builtins
import contextlib
import gc
import json
import logging
import re
import shutil
import sqlite3
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, Protocol

import numpy as np

from screenpilot.errors import DataError, ScreenpilotError, StoreError
from screenpilot.offline import enforce_offline
from screenpilot.planner.base import Demonstration

log = logging.getLogger(__name__)

DEMOS = "demonstrations"
LEDGER_FILE = "ledger.sqlite3"
INDEX_DIR = "index"
LOCK_FILE = "store.lock"
LEDGER_FORMAT = 1
DEFAULT_MODEL = "bge-small-en-v1.5"
LOCK_TIMEOUT_S = 30.0
_PAYLOAD = "_payload"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{1,61}[A-Za-z0-9]$")
_BATCH = 2000

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
    screen: str = ""        # "1080x2400"
    language: str = ""      # "en", "zh"
    created: str = ""       # ISO time, UTC
    source: str = ""        # "recorded", "imported", "task-suite", "synthetic"...
    trajectory: str = ""    # path of the recorded trajectory.json, when there is one
    id: str = ""
    score: float | None = None

    def demonstration(self) -> Demonstration:
        """The form planners take (``PlanHints.demonstrations``)."""
        return Demonstration(self.instruction, self.steps, self.app, self.score)

    def to_json(self) -> dict[str, Any]:
        """The JSONL export line (no score)."""
        return {"id": self.id, "instruction": self.instruction, "steps": list(self.steps),
                "app": self.app, "screen": self.screen, "language": self.language,
                "created": self.created, "source": self.source, "trajectory": self.trajectory}

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
        known = {"id", "instruction", "steps", "app", "screen", "language", "created",
                 "source", "trajectory", "score"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise DataError(f"unknown field(s) {unknown}{at}")
        text = {k: data.get(k, "") for k in ("app", "screen", "language", "created", "source",
                                             "trajectory", "id")}
        for key, value in text.items():
            if not isinstance(value, str):
                raise DataError(f"'{key}' must be a string{at}")
        return cls(instruction.strip(), tuple(steps), **text)

    def entry(self) -> Entry:
        return Entry(self.id, self.instruction,
                     {"steps": list(self.steps), "trajectory": self.trajectory},
                     {"app": self.app, "screen": self.screen, "language": self.language,
                      "created": self.created, "source": self.source})

    @classmethod
    def from_entry(cls, e: Entry) -> DemoRecord:
        m, p = e.metadata, e.payload
        steps = p.get("steps", [])
        return cls(e.text, tuple(str(s) for s in steps) if isinstance(steps, list) else (),
                   app=str(m.get("app", "")), screen=str(m.get("screen", "")),
                   language=str(m.get("language", "")), created=str(m.get("created", "")),
                   source=str(m.get("source", "")), trajectory=str(p.get("trajectory", "")),
                   id=e.id, score=e.score)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def language_of(text: str) -> str:
    """``zh`` when the text has CJK characters, else ``en``."""
    return "zh" if any("\u4e00" <= c <= "\u9fff" for c in text) else "en"


def default_path() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("screenpilot")) / "store"


def _new_id() -> str:
    return uuid.uuid4().hex[:12]


def _check_name(name: str) -> str:
    if not _NAME.match(name) or ".." in name:
        raise StoreError(f"bad collection name {name!r}",
                         hint="3-63 characters: letters, digits, '.', '_', '-'")
    return name


def _clean_metadata(metadata: Mapping[str, Any]) -> dict[str, Scalar]:
    out: dict[str, Scalar] = {}
    for key, value in metadata.items():
        if key.startswith("_"):
            raise StoreError(f"metadata key {key!r} is reserved (keys may not start with '_')")
        if not isinstance(value, str | int | float | bool):
            raise StoreError(f"metadata {key!r} must be a string, number or boolean, "
                             f"not {type(value).__name__}")
        out[key] = value
    return out


def _chroma_settings() -> Any:
    enforce_offline()
    from chromadb.config import Settings

    return Settings(anonymized_telemetry=False, allow_reset=False)


def _chroma_errors() -> tuple[type[BaseException], ...]:
    from chromadb.errors import ChromaError

    return (ChromaError, ValueError, RuntimeError, OSError)


# ======================================================================================
# backends: where the entries live
# ======================================================================================
class _Backend(Protocol):
    location: str

    def session(self, *, write: bool = False) -> contextlib.AbstractContextManager[None]: ...
    def info(self, name: str) -> CollectionInfo | None: ...
    def names(self) -> list[str]: ...
    def add(self, name: str, model: str, entries: Sequence[Entry],
            vectors: np.ndarray) -> None: ...
    def delete(self, name: str, ids: Sequence[str]) -> None: ...
    def get(self, name: str, ids: Sequence[str] | None = None,
            where: Mapping[str, Scalar] | None = None) -> list[Entry]: ...
    def query(self, name: str, vector: np.ndarray, k: int,
              where: Mapping[str, Scalar] | None = None) -> list[Entry]: ...
    def replace(self, name: str, model: str, entries: Sequence[Entry],
                vectors: np.ndarray) -> None: ...
    def close(self) -> None: ...


class _Chroma:
    """The ChromaDB side shared by both backends: one client, collections by name."""

    def __init__(self, what: str, *, cache: bool = True) -> None:
        self.what = what
        self.cache = cache      # a server's collections may be replaced by other clients
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
            except _chroma_errors() as exc:
                raise StoreError(f"the store at {self.what} failed to open collection "
                                 f"{name!r}: {exc}") from exc
            if self.cache:
                self._handles[name] = col
        return col

    def call(self, doing: str, fn: Callable[[], Any]) -> Any:
        try:
            return fn()
        except ScreenpilotError:
            raise
        except _chroma_errors() as exc:
            raise StoreError(f"the store at {self.what} failed to {doing}: {exc}",
                             hint="if it persists, export what can be read "
                                  "(`screenpilot demos export`) and start a new store") from exc

    def create(self, name: str, *, model: str, dim: int) -> Any:
        col = self.handle(name)
        if col is None:
            meta = {"hnsw:space": "cosine", "embed_model": model, "embed_dim": dim}
            col = self.call("create a collection", lambda: self.client.get_or_create_collection(
                name, metadata=meta, embedding_function=None))
            if self.cache:
                self._handles[name] = col
        return col

    def info(self, name: str) -> CollectionInfo | None:
        col = self.handle(name)
        if col is None:
            return None
        meta = col.metadata or {}
        return CollectionInfo(name, str(meta.get("embed_model", "")),
                              int(meta.get("embed_dim", 0) or 0),
                              int(self.call("count", col.count)))

    def names(self) -> list[str]:
        cols = self.call("list collections", self.client.list_collections)
        return sorted(c if isinstance(c, str) else c.name for c in cols)

    def add(self, name: str, model: str, entries: Sequence[Entry], vectors: np.ndarray) -> None:
        col = self.create(name, model=model, dim=int(vectors.shape[1]))
        for i in range(0, len(entries), _BATCH):
            part, vec = entries[i:i + _BATCH], vectors[i:i + _BATCH]

            def upsert(p: Sequence[Entry] = part, v: np.ndarray = vec) -> Any:
                return col.upsert(
                    ids=[e.id for e in p], embeddings=np.asarray(v, dtype=np.float32),
                    documents=[e.text for e in p],
                    metadatas=[{**e.metadata, _PAYLOAD: json.dumps(dict(e.payload),
                                                                   ensure_ascii=False)}
                               for e in p])

            self.call("add entries", upsert)

    def delete(self, name: str, ids: Sequence[str]) -> None:
        col = self.handle(name)
        if ids and col is not None:
            self.call("delete entries", lambda: col.delete(ids=list(ids)))

    def drop(self, name: str) -> None:
        if self.handle(name) is not None:
            self.call("drop a collection", lambda: self.client.delete_collection(name))
            self._handles.pop(name, None)

    def get(self, name: str, ids: Sequence[str] | None = None,
            where: Mapping[str, Scalar] | None = None) -> list[Entry]:
        col = self.handle(name)
        if col is None:
            return []
        got = self.call("read entries", lambda: col.get(
            ids=list(ids) if ids is not None else None, where=_where(where),
            include=["documents", "metadatas"]))
        return [_entry(i, d, m) for i, d, m in zip(got["ids"], got["documents"] or [],
                                                    got["metadatas"] or [], strict=True)]

    def query(self, name: str, vector: np.ndarray, k: int,
              where: Mapping[str, Scalar] | None = None) -> list[Entry]:
        col = self.handle(name)
        if col is None:
            return []
        got = self.call("search", lambda: col.query(
            query_embeddings=np.asarray(vector, dtype=np.float32).reshape(1, -1),
            n_results=max(1, k), where=_where(where),
            include=["documents", "metadatas", "distances"]))
        out = []
        for i, d, m, dist in zip(got["ids"][0], (got["documents"] or [[]])[0],
                                 (got["metadatas"] or [[]])[0], (got["distances"] or [[]])[0],
                                 strict=True):
            e = _entry(i, d, m)
            out.append(Entry(e.id, e.text, e.payload, e.metadata, round(1.0 - float(dist), 4)))
        return out


def _where(where: Mapping[str, Scalar] | None) -> dict[str, Any] | None:
    if not where:
        return None
    items = [{k: v} for k, v in where.items()]
    return items[0] if len(items) == 1 else {"$and": items}


def _entry(id_: str, text: str | None, meta: Mapping[str, Any] | None) -> Entry:
    meta = dict(meta or {})
    raw = meta.pop(_PAYLOAD, "{}")
    try:
        payload = json.loads(raw) if isinstance(raw, str) else {}
    except json.JSONDecodeError:
        payload = {}
    return Entry(id_, text or "", payload if isinstance(payload, dict) else {},
                 {k: v for k, v in meta.items() if isinstance(v, str | int | float | bool)})


class _ChromaReads:
    """Reads go straight to the Chroma index, whichever backend keeps it."""

    chroma: _Chroma

    def get(self, name: str, ids: Sequence[str] | None = None,
            where: Mapping[str, Scalar] | None = None) -> list[Entry]:
        return self.chroma.get(name, ids, where)

    def query(self, name: str, vector: np.ndarray, k: int,
              where: Mapping[str, Scalar] | None = None) -> list[Entry]:
        return self.chroma.query(name, vector, k, where)


class _ServerBackend(_ChromaReads):
    """A Chroma server: it keeps the data and orders concurrent writers."""

    def __init__(self, host: str, port: int) -> None:
        self.location = f"http://{host}:{port}"
        self.chroma = _Chroma(self.location, cache=False)
        try:
            import chromadb

            self.chroma.client = chromadb.HttpClient(host=host, port=port,
                                                     settings=_chroma_settings())
            self.chroma.client.heartbeat()
        except Exception as exc:   # connection refused, DNS, auth: all mean "not there"
            raise StoreError(f"cannot reach the Chroma server at {self.location}: {exc}",
                             hint="start it (`chroma run --path DIR --port N`), or leave "
                                  "store.host empty to use a local folder") from exc

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

    def replace(self, name: str, model: str, entries: Sequence[Entry],
                vectors: np.ndarray) -> None:
        self.chroma.drop(name)
        self.chroma.add(name, model, entries, vectors)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.chroma.client.close()


class _Ledger:
    """The local store's record: SQLite (WAL), one row per entry with its embedding."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.db = sqlite3.connect(path, timeout=LOCK_TIMEOUT_S, isolation_level=None,
                                  check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        with self.transaction():
            self.db.execute("CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, "
                            "value TEXT NOT NULL)")
            self.db.execute("CREATE TABLE IF NOT EXISTS collections(name TEXT PRIMARY KEY, "
                            "model TEXT NOT NULL, dim INTEGER NOT NULL)")
            self.db.execute("CREATE TABLE IF NOT EXISTS entries(collection TEXT NOT NULL, "
                            "id TEXT NOT NULL, text TEXT NOT NULL, payload TEXT NOT NULL, "
                            "metadata TEXT NOT NULL, embedding BLOB NOT NULL, "
                            "seq INTEGER NOT NULL, PRIMARY KEY(collection, id))")
            for key, value in (("format", str(LEDGER_FORMAT)), ("generation", "0"),
                               ("dirty", "0")):
                self.db.execute("INSERT OR IGNORE INTO meta VALUES(?, ?)", (key, value))
        fmt = int(self.meta("format"))
        if fmt > LEDGER_FORMAT:
            raise StoreError(f"the store at {path.parent} was written by a newer screenpilot "
                             f"(ledger format {fmt})", hint="upgrade screenpilot")

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def meta(self, key: str) -> str:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return str(row[0]) if row else "0"

    def set_meta(self, db: sqlite3.Connection, key: str, value: str) -> None:
        db.execute("INSERT OR REPLACE INTO meta VALUES(?, ?)", (key, value))

    def bump(self, db: sqlite3.Connection) -> int:
        gen = int(self.meta("generation")) + 1
        self.set_meta(db, "generation", str(gen))
        return gen

    def info(self, name: str) -> tuple[str, int] | None:
        row = self.db.execute("SELECT model, dim FROM collections WHERE name = ?",
                              (name,)).fetchone()
        return (str(row[0]), int(row[1])) if row else None

    def names(self) -> list[str]:
        return [str(r[0]) for r in self.db.execute("SELECT name FROM collections ORDER BY name")]

    def count(self, name: str) -> int:
        row = self.db.execute("SELECT COUNT(*) FROM entries WHERE collection = ?",
                              (name,)).fetchone()
        return int(row[0])

    def entries(self, name: str) -> Iterator[tuple[Entry, np.ndarray]]:
        rows = self.db.execute("SELECT id, text, payload, metadata, embedding FROM entries "
                               "WHERE collection = ? ORDER BY seq", (name,))
        for id_, text, payload, metadata, blob in rows:
            yield (Entry(id_, text, json.loads(payload), json.loads(metadata)),
                   np.frombuffer(blob, dtype=np.float32))

    def put(self, db: sqlite3.Connection, name: str, entries: Sequence[Entry],
            vectors: np.ndarray) -> None:
        row = db.execute("SELECT COALESCE(MAX(seq), 0) FROM entries").fetchone()
        seq = int(row[0])
        db.executemany(
            "INSERT OR REPLACE INTO entries VALUES(?, ?, ?, ?, ?, ?, ?)",
            [(name, e.id, e.text, json.dumps(dict(e.payload), ensure_ascii=False),
              json.dumps(dict(e.metadata), ensure_ascii=False),
              np.asarray(v, dtype=np.float32).tobytes(), seq + i + 1)
             for i, (e, v) in enumerate(zip(entries, vectors, strict=True))])

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self.db.close()


class _LocalBackend(_ChromaReads):
    """A folder: the ledger, the ChromaDB index built from it, and the lock."""

    def __init__(self, root: Path, *, lock_timeout: float = LOCK_TIMEOUT_S) -> None:
        import filelock

        self.root = root
        self.location = str(root)
        self.lock_timeout = lock_timeout
        try:
            root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the store folder {root}: {exc}",
                             hint="set store.path to a writable folder") from exc
        self._lock = filelock.FileLock(root / LOCK_FILE, timeout=lock_timeout,
                                       thread_local=False)
        self._mutex = threading.RLock()
        self._ledger: _Ledger | None = None
        self.chroma = _Chroma(str(root))
        self._generation = -1
        self.rebuilds = 0

    def set_timeout(self, seconds: float) -> None:
        self.lock_timeout = seconds
        self._lock.timeout = seconds

    # --- the session: lock, open, check, refresh ----------------------------------------
    @contextlib.contextmanager
    def session(self, *, write: bool = False) -> Iterator[None]:
        import filelock

        with self._mutex:
            try:
                self._lock.acquire()
            except filelock.Timeout as exc:
                raise StoreError(f"the store at {self.root} is busy: another process has "
                                 f"held its lock for {self.lock_timeout:.0f} s",
                                 hint="wait for that screenpilot command to finish, or stop "
                                      "it; a lock is released when its process dies") from exc
            try:
                with self._sqlite_errors():
                    self._refresh()
                    yield
            finally:
                self._lock.release()

    @contextlib.contextmanager
    def _sqlite_errors(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                raise StoreError(f"the store at {self.root} is locked: {exc}",
                                 hint="another program holds its ledger open; close it and "
                                      "try again") from exc
            raise self._damaged(exc) from exc
        except sqlite3.DatabaseError as exc:
            raise self._damaged(exc) from exc

    def _damaged(self, exc: Exception) -> StoreError:
        self._close_ledger()
        return StoreError(f"the store at {self.root} is damaged: its ledger cannot be read "
                          f"({exc})", hint=f"nothing was changed; move {self.root} away and "
                          "import your last export (`screenpilot demos import FILE`)")

    @property
    def ledger(self) -> _Ledger:
        if self._ledger is None:
            self._ledger = _Ledger(self.root / LEDGER_FILE)
        return self._ledger

    def _refresh(self) -> None:
        """Rebuild the index if a writer died in it or it lost step with the ledger; reopen
        the ChromaDB client when another process has written since we opened it."""
        ledger = self.ledger
        generation = int(ledger.meta("generation"))
        if ledger.meta("dirty") != "0" or self._suspect():
            self._rebuild("a process stopped while writing it")
            generation = int(ledger.meta("generation"))
        if self.chroma.client is None or generation != self._generation:
            self._open_client()
            self._generation = generation
            stale = [n for n in ledger.names()
                     if (i := self.chroma.info(n)) is None or i.count != ledger.count(n)]
            if stale:
                self._rebuild(f"collection(s) {', '.join(stale)} out of step with the ledger")
                self._open_client()
                self._generation = int(ledger.meta("generation"))

    def _suspect(self) -> bool:
        """True when the index is missing, or its HNSW files have the shape a killed
        flush leaves (ChromaDB would crash the process on loading them)."""
        index = self.root / INDEX_DIR
        if not (index / "chroma.sqlite3").is_file():
            return bool(self.ledger.names())
        for segment in index.iterdir():
            data, links = segment / "data_level0.bin", segment / "link_lists.bin"
            if segment.is_dir() and data.is_file() and links.is_file():
                size = data.stat().st_size
                if links.stat().st_size > 64 * size + (1 << 20) or (
                        (segment / "header.bin").is_file() and size == 0):
                    return True
        return False

    def _open_client(self) -> None:
        import chromadb

        self._close_client()
        self.chroma.client = self.chroma.call("open its index", lambda: chromadb.PersistentClient(
            path=str(self.root / INDEX_DIR), settings=_chroma_settings()))

    def _close_client(self) -> None:
        client, self.chroma.client = self.chroma.client, None
        if client is not None:
            with contextlib.suppress(Exception):
                client.close()
            del client
            gc.collect()

    def _rebuild(self, why: str) -> None:
        """Drop the index and build it again from the ledger (we hold the lock)."""
        log.warning("rebuilding the index of the store at %s: %s", self.root, why)
        ledger = self.ledger
        with ledger.transaction() as db:
            ledger.set_meta(db, "dirty", "1")
        self._close_client()
        shutil.rmtree(self.root / INDEX_DIR, ignore_errors=True)
        self._open_client()
        for name in ledger.names():
            model, dim = ledger.info(name) or ("", 0)
            entries: list[Entry] = []
            vectors: list[np.ndarray] = []
            self.chroma.create(name, model=model, dim=dim)
            for entry, vector in ledger.entries(name):
                entries.append(entry)
                vectors.append(vector)
                if len(entries) >= _BATCH:
                    self.chroma.add(name, model, entries, np.stack(vectors))
                    entries, vectors = [], []
            if entries:
                self.chroma.add(name, model, entries, np.stack(vectors))
        self._close_client()
        with ledger.transaction() as db:
            ledger.set_meta(db, "dirty", "0")
            ledger.bump(db)
        self.rebuilds += 1

    @contextlib.contextmanager
    def _writing(self, change: Callable[[sqlite3.Connection], None]) -> Iterator[None]:
        """Commit ``change`` to the ledger with the dirty mark, let the caller write the
        index, then flush (close) it and clear the mark."""
        ledger = self.ledger
        with ledger.transaction() as db:
            change(db)
            ledger.set_meta(db, "dirty", "1")
        yield
        self._close_client()
        with ledger.transaction() as db:
            ledger.set_meta(db, "dirty", "0")
            self._generation = ledger.bump(db)
        self._open_client()

    # --- the operations (called inside a session) -----------------------------------------
    def info(self, name: str) -> CollectionInfo | None:
        found = self.ledger.info(name)
        return CollectionInfo(name, found[0], found[1], self.ledger.count(name)) \
            if found else None

    def names(self) -> list[str]:
        return self.ledger.names()

    def add(self, name: str, model: str, entries: Sequence[Entry], vectors: np.ndarray) -> None:
        def change(db: sqlite3.Connection) -> None:
            db.execute("INSERT OR IGNORE INTO collections VALUES(?, ?, ?)",
                       (name, model, int(vectors.shape[1])))
            self.ledger.put(db, name, entries, vectors)

        with self._writing(change):
            self.chroma.add(name, model, entries, vectors)

    def delete(self, name: str, ids: Sequence[str]) -> None:
        def change(db: sqlite3.Connection) -> None:
            db.executemany("DELETE FROM entries WHERE collection = ? AND id = ?",
                           [(name, i) for i in ids])

        with self._writing(change):
            self.chroma.delete(name, ids)

    def replace(self, name: str, model: str, entries: Sequence[Entry],
                vectors: np.ndarray) -> None:
        def change(db: sqlite3.Connection) -> None:
            db.execute("DELETE FROM entries WHERE collection = ?", (name,))
            db.execute("INSERT OR REPLACE INTO collections VALUES(?, ?, ?)",
                       (name, model, int(vectors.shape[1]) if len(vectors) else 0))
            self.ledger.put(db, name, entries, vectors)

        with self._writing(change):
            self.chroma.drop(name)
            if entries:
                self.chroma.add(name, model, entries, vectors)

    def close(self) -> None:
        with self._mutex:
            self._close_client()
            self._close_ledger()

    def _close_ledger(self) -> None:
        ledger, self._ledger = self._ledger, None
        if ledger is not None:
            ledger.close()


_LOCAL: dict[Path, _LocalBackend] = {}
_LOCAL_LOCK = threading.Lock()


def _local_backend(root: Path, lock_timeout: float) -> _LocalBackend:
    """One backend per folder per process: ChromaDB shares one client per path within a
    process, and the store must close (flush) that client after every write."""
    with _LOCAL_LOCK:
        backend = _LOCAL.get(root)
        if backend is None:
            backend = _LOCAL[root] = _LocalBackend(root, lock_timeout=lock_timeout)
        backend.set_timeout(lock_timeout)
        return backend


# ======================================================================================
# the public API
# ======================================================================================
class Collection:
    """A named collection of the store: add, search, get, remove, list entries."""

    def __init__(self, store: DemoStore, name: str) -> None:
        self.store = store
        self.name = _check_name(name)

    @property
    def _backend(self) -> _Backend:
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
                     f"or set embed.model={info.model}")
        return embedder.name

    def add(self, entries: Sequence[Entry], vectors: np.ndarray | None = None) -> list[str]:
        """Store ``entries`` (an empty id gets a new one; an existing id is replaced);
        returns their ids. All of them are committed when this returns. ``vectors``:
        their embeddings when the caller made them already (with the store's embedder)."""
        if not entries:
            return []
        ready = [Entry(e.id or _new_id(), e.text, dict(e.payload), _clean_metadata(e.metadata))
                 for e in entries]
        for e in ready:
            if not e.text.strip():
                raise StoreError("an entry needs a text to embed")
        if vectors is None:
            vectors = self.store.encode([e.text for e in ready])
        vectors = np.asarray(vectors, dtype=np.float32)
        if vectors.ndim != 2 or len(vectors) != len(ready):
            raise StoreError(f"{len(ready)} entries need {len(ready)} vectors, "
                             f"got an array of shape {vectors.shape}")
        with self._backend.session(write=True):
            model = self._checked_model(self._backend.info(self.name))
            self._backend.add(self.name, model, ready, vectors)
        return [e.id for e in ready]

    def search(self, text: str, k: int = 3, threshold: float = 0.0,
               where: Mapping[str, Scalar] | None = None) -> list[Entry]:
        """The ``k`` entries most similar to ``text`` with similarity >= ``threshold``,
        best first (``Entry.score`` is the cosine similarity)."""
        with self._backend.session():
            info = self._backend.info(self.name)
        if info is None or info.count == 0:
            return []
        self._checked_model(info)
        return self.search_vector(self.store.encode([text])[0], k, threshold, where)

    def search_vector(self, vector: np.ndarray, k: int = 3, threshold: float = 0.0,
                      where: Mapping[str, Scalar] | None = None) -> list[Entry]:
        """Like ``search``, for a query already embedded with the store's embedder."""
        with self._backend.session():
            found = self._backend.query(self.name, np.asarray(vector, dtype=np.float32), k,
                                        where)
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
        vectors = self.store.encode([e.text for e in entries]) if entries else \
            np.zeros((0, 0), dtype=np.float32)
        with self._backend.session(write=True):
            self._backend.replace(self.name, self.store.embedder.name, entries, vectors)
        return len(entries)


class DemoStore:
    """The demonstration store (see the module docstring); other named collections of the
    same store come from ``collection(name)``."""

    def __init__(self, backend: _Backend, *, embedder: TextEncoder | None = None,
                 model: str = DEFAULT_MODEL) -> None:
        self.backend = backend
        self.model = model
        self._embedder = embedder
        self.demos = Collection(self, DEMOS)

    # --- opening --------------------------------------------------------------------------
    @classmethod
    def open(cls, path: str | Path | None = None, *, host: str = "", port: int = 8000,
             embedder: TextEncoder | None = None, model: str = DEFAULT_MODEL,
             lock_timeout: float = LOCK_TIMEOUT_S) -> DemoStore:
        """The store in ``path`` (default: the user data dir), or on the Chroma server at
        ``host``:``port``. ``embedder`` (or the local model ``model``, loaded when first
        needed) embeds texts."""
        backend: _Backend
        if host:
            backend = _ServerBackend(host, port)
        else:
            root = Path(path).expanduser() if path else default_path()
            backend = _local_backend(root.resolve(), lock_timeout)
        return cls(backend, embedder=embedder, model=model)

    @classmethod
    def from_config(cls, cfg: Any, *, embedder: TextEncoder | None = None) -> DemoStore:
        """The store that the configuration names (``store.*``, ``embed.model``)."""
        return cls.open(cfg["store.path"] or None, host=cfg["store.host"],
                        port=cfg["store.port"], embedder=embedder, model=cfg["embed.model"])

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
            raise StoreError(f"the embedder {self.embedder.name} returned an array of shape "
                             f"{vectors.shape} for {len(texts)} texts")
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
        if entry is None:   # pragma: no cover - resolve raised already
            raise StoreError(f"no demonstration {demo_id}")
        return DemoRecord.from_entry(entry)

    def resolve(self, prefix: str) -> str:
        """The id that starts with ``prefix``; ``StoreError`` when none or several do."""
        ids = [e.id for e in self.demos.list()]
        if prefix in ids:
            return prefix
        hits = [i for i in ids if i.startswith(prefix)]
        if len(hits) == 1:
            return hits[0]
        if not hits:
            raise StoreError(f"no demonstration {prefix!r} in the store at {self.location}",
                             hint="see `screenpilot demos list`")
        raise StoreError(f"{len(hits)} demonstrations start with {prefix!r}",
                         hint="give more of the id")

    def remove(self, demo_id: str) -> None:
        self.demos.remove([self.resolve(demo_id)])

    def list(self, where: Mapping[str, Scalar] | None = None) -> list[DemoRecord]:
        """Every demonstration, oldest first."""
        records = [DemoRecord.from_entry(e) for e in self.demos.list(where)]
        return sorted(records, key=lambda r: r.created)   # stable: insertion order within

    def count(self) -> int:
        return self.demos.count()

    def search_records(self, text: str, k: int = 3, threshold: float = 0.0,
                       where: Mapping[str, Scalar] | None = None) -> builtins.list[DemoRecord]:
        return [DemoRecord.from_entry(e) for e in self.demos.search(text, k, threshold, where)]

    def search(self, text: str, k: int = 3, threshold: float = 0.0,
               where: Mapping[str, Scalar] | None = None) -> builtins.list[Demonstration]:
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
                raise DataError(f"line {n} of {source or 'the import'} is not JSON: {exc}",
                                hint="nothing was imported") from exc
            records.append(DemoRecord.from_json(data, where=f"line {n} of {source or 'input'}"))
        existing = {e.id for e in self.demos.list()}
        fresh = [r for r in records if not r.id or r.id not in existing]
        fresh = [r if r.source else _replace(r, source="imported") for r in fresh]
        self.add_many(fresh)
        return len(fresh), len(records) - len(fresh)


def _replace(r: DemoRecord, **changes: Any) -> DemoRecord:
    import dataclasses

    return dataclasses.replace(r, **changes)


def _as_record(demo: DemoRecord | Demonstration) -> DemoRecord:
    if isinstance(demo, Demonstration):
        demo = DemoRecord(demo.instruction, demo.steps, demo.app)
    if not demo.instruction.strip():
        raise StoreError("a demonstration needs an instruction")
    return _replace(demo, instruction=demo.instruction.strip(),
                    created=demo.created or now(),
                    language=demo.language or language_of(demo.instruction),
                    score=None)


def store_exists(cfg: Any) -> bool:
    """Whether the configured local store has a ledger (a server store always counts)."""
    if cfg["store.host"]:
        return True
    root = Path(cfg["store.path"]).expanduser() if cfg["store.path"] else default_path()
    return (root / LEDGER_FILE).is_file()


def retrieve(store: DemoStore, task: str, *, k: int = 3,
             threshold: float = 0.6) -> tuple[Demonstration, ...]:
    """The demonstrations for ``task`` that go into ``PlanHints.demonstrations``."""
    return tuple(store.search(task, k=k, threshold=threshold))


__all__ = ["DEMOS", "Collection", "CollectionInfo", "DemoRecord", "DemoStore", "Entry",
           "TextEncoder", "default_path", "language_of", "retrieve", "store_exists"]
