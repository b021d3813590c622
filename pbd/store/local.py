"""A store in a local folder: the ledger, the ChromaDB index built from it, and the
folder's lock that makes processes take turns (see ``screenpilot.pbd.store``)."""

from __future__ import annotations

import contextlib
import gc
import logging
import shutil
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import numpy as np

from screenpilot.errors import StoreError
from screenpilot.pbd.store.chroma import BATCH, Chroma, ChromaReads, chroma_settings
from screenpilot.pbd.store.ledger import LEDGER_FILE, LOCK_TIMEOUT_S, Ledger
from screenpilot.pbd.store.records import CollectionInfo, Entry

log = logging.getLogger(__name__)

INDEX_DIR = "index"
LOCK_FILE = "store.lock"


def default_path() -> Path:
    """Where the store lives unless ``store.path`` says otherwise."""
    import platformdirs

    return Path(platformdirs.user_data_dir("screenpilot")) / "store"


class LocalBackend(ChromaReads):
    """A folder: the ledger, the ChromaDB index built from it, and the lock."""

    def __init__(self, root: Path, *, lock_timeout: float = LOCK_TIMEOUT_S) -> None:
        import filelock

        self.root = root
        self.location = str(root)
        self.lock_timeout = lock_timeout
        try:
            root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(
                f"cannot create the store folder {root}: {exc}",
                hint="set store.path to a writable folder",
            ) from exc
        self._lock = filelock.FileLock(root / LOCK_FILE, timeout=lock_timeout, thread_local=False)
        self._mutex = threading.RLock()
        self._ledger: Ledger | None = None
        self.chroma = Chroma(str(root))
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
                raise StoreError(
                    f"the store at {self.root} is busy: another process has "
                    f"held its lock for {self.lock_timeout:.0f} s",
                    hint="wait for that screenpilot command to finish, or stop "
                    "it; a lock is released when its process dies",
                ) from exc
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
                raise StoreError(
                    f"the store at {self.root} is locked: {exc}",
                    hint="another program holds its ledger open; close it and try again",
                ) from exc
            raise self._damaged(exc) from exc
        except sqlite3.DatabaseError as exc:
            raise self._damaged(exc) from exc

    def _damaged(self, exc: Exception) -> StoreError:
        self._close_ledger()
        return StoreError(
            f"the store at {self.root} is damaged: its ledger cannot be read ({exc})",
            hint=f"nothing was changed; move {self.root} away and "
            "import your last export (`screenpilot demos import FILE`)",
        )

    @property
    def ledger(self) -> Ledger:
        if self._ledger is None:
            self._ledger = Ledger(self.root / LEDGER_FILE)
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
            stale = [
                n
                for n in ledger.names()
                if (i := self.chroma.info(n)) is None or i.count != ledger.count(n)
            ]
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
                    (segment / "header.bin").is_file() and size == 0
                ):
                    return True
        return False

    def _open_client(self) -> None:
        import chromadb

        self._close_client()
        self.chroma.client = self.chroma.call(
            "open its index",
            lambda: chromadb.PersistentClient(
                path=str(self.root / INDEX_DIR), settings=chroma_settings()
            ),
        )

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
                if len(entries) >= BATCH:
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
        return CollectionInfo(name, found[0], found[1], self.ledger.count(name)) if found else None

    def names(self) -> list[str]:
        return self.ledger.names()

    def add(self, name: str, model: str, entries: Sequence[Entry], vectors: np.ndarray) -> None:
        def change(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT OR IGNORE INTO collections VALUES(?, ?, ?)",
                (name, model, int(vectors.shape[1])),
            )
            self.ledger.put(db, name, entries, vectors)

        with self._writing(change):
            self.chroma.add(name, model, entries, vectors)

    def delete(self, name: str, ids: Sequence[str]) -> None:
        def change(db: sqlite3.Connection) -> None:
            db.executemany(
                "DELETE FROM entries WHERE collection = ? AND id = ?", [(name, i) for i in ids]
            )

        with self._writing(change):
            self.chroma.delete(name, ids)

    def replace(self, name: str, model: str, entries: Sequence[Entry], vectors: np.ndarray) -> None:
        def change(db: sqlite3.Connection) -> None:
            db.execute("DELETE FROM entries WHERE collection = ?", (name,))
            db.execute(
                "INSERT OR REPLACE INTO collections VALUES(?, ?, ?)",
                (name, model, int(vectors.shape[1]) if len(vectors) else 0),
            )
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


_LOCAL: dict[Path, LocalBackend] = {}
_LOCAL_LOCK = threading.Lock()


def local_backend(root: Path, lock_timeout: float) -> LocalBackend:
    """One backend per folder per process: ChromaDB shares one client per path within a
    process, and the store must close (flush) that client after every write."""
    with _LOCAL_LOCK:
        backend = _LOCAL.get(root)
        if backend is None:
            backend = _LOCAL[root] = LocalBackend(root, lock_timeout=lock_timeout)
        backend.set_timeout(lock_timeout)
        return backend
