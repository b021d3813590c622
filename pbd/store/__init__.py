"""The demonstration store: demonstrations (and other named collections) on ChromaDB.

::

    store = DemoStore.open("~/demos")             # or build.store(cfg)
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

The parts: ``records`` (entries, demonstrations), ``chroma`` (the ChromaDB client and
the server backend), ``ledger`` (the local folder's SQLite record), ``local`` (the
folder, its index and its lock) and ``demos`` (``DemoStore`` and its collections).
The store reads no configuration: ``screenpilot.build.store`` opens the configured one.
"""

from screenpilot.pbd.store.demos import Collection, DemoStore, retrieve
from screenpilot.pbd.store.ledger import LEDGER_FILE, LOCK_TIMEOUT_S
from screenpilot.pbd.store.local import INDEX_DIR, LOCK_FILE, default_path
from screenpilot.pbd.store.records import (
    DEFAULT_MODEL,
    DEMOS,
    CollectionInfo,
    DemoRecord,
    Entry,
    Scalar,
    TextEncoder,
    language_of,
)

__all__ = [
    "DEFAULT_MODEL",
    "DEMOS",
    "INDEX_DIR",
    "LEDGER_FILE",
    "LOCK_FILE",
    "LOCK_TIMEOUT_S",
    "Collection",
    "CollectionInfo",
    "DemoRecord",
    "DemoStore",
    "Entry",
    "Scalar",
    "TextEncoder",
    "default_path",
    "language_of",
    "retrieve",
]
