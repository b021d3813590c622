"""The local store's record: a SQLite ledger (WAL) with one row per entry and its
embedding, a generation counter and the dirty mark that says the index needs a rebuild."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np

from screenpilot.errors import StoreError
from screenpilot.pbd.store.records import Entry

LEDGER_FILE = "ledger.sqlite3"
LEDGER_FORMAT = 1
#: Seconds to wait for the store's lock (and SQLite's) before the store counts as busy.
LOCK_TIMEOUT_S = 30.0


class Ledger:
    """The local store's record: SQLite (WAL), one row per entry with its embedding."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.db = sqlite3.connect(
            path, timeout=LOCK_TIMEOUT_S, isolation_level=None, check_same_thread=False
        )
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        with self.transaction():
            self.db.execute(
                "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)"
            )
            self.db.execute(
                "CREATE TABLE IF NOT EXISTS collections(name TEXT PRIMARY KEY, "
                "model TEXT NOT NULL, dim INTEGER NOT NULL)"
            )
            self.db.execute(
                "CREATE TABLE IF NOT EXISTS entries(collection TEXT NOT NULL, "
                "id TEXT NOT NULL, text TEXT NOT NULL, payload TEXT NOT NULL, "
                "metadata TEXT NOT NULL, embedding BLOB NOT NULL, "
                "seq INTEGER NOT NULL, PRIMARY KEY(collection, id))"
            )
            for key, value in (("format", str(LEDGER_FORMAT)), ("generation", "0"), ("dirty", "0")):
                self.db.execute("INSERT OR IGNORE INTO meta VALUES(?, ?)", (key, value))
        fmt = int(self.meta("format"))
        if fmt > LEDGER_FORMAT:
            raise StoreError(
                f"the store at {path.parent} was written by a newer screenpilot "
                f"(ledger format {fmt})",
                hint="upgrade screenpilot",
            )

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
        row = self.db.execute(
            "SELECT model, dim FROM collections WHERE name = ?", (name,)
        ).fetchone()
        return (str(row[0]), int(row[1])) if row else None

    def names(self) -> list[str]:
        return [str(r[0]) for r in self.db.execute("SELECT name FROM collections ORDER BY name")]

    def count(self, name: str) -> int:
        row = self.db.execute(
            "SELECT COUNT(*) FROM entries WHERE collection = ?", (name,)
        ).fetchone()
        return int(row[0])

    def entries(self, name: str) -> Iterator[tuple[Entry, np.ndarray]]:
        rows = self.db.execute(
            "SELECT id, text, payload, metadata, embedding FROM entries "
            "WHERE collection = ? ORDER BY seq",
            (name,),
        )
        for id_, text, payload, metadata, blob in rows:
            yield (
                Entry(id_, text, json.loads(payload), json.loads(metadata)),
                np.frombuffer(blob, dtype=np.float32),
            )

    def put(
        self, db: sqlite3.Connection, name: str, entries: Sequence[Entry], vectors: np.ndarray
    ) -> None:
        row = db.execute("SELECT COALESCE(MAX(seq), 0) FROM entries").fetchone()
        seq = int(row[0])
        db.executemany(
            "INSERT OR REPLACE INTO entries VALUES(?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    name,
                    e.id,
                    e.text,
                    json.dumps(dict(e.payload), ensure_ascii=False),
                    json.dumps(dict(e.metadata), ensure_ascii=False),
                    np.asarray(v, dtype=np.float32).tobytes(),
                    seq + i + 1,
                )
                for i, (e, v) in enumerate(zip(entries, vectors, strict=True))
            ],
        )

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self.db.close()
