"""Helpers for the demonstration-store tests: a fast deterministic embedder, and a worker
that other processes run (``python tests/pbd_helpers.py add STORE TAG N``)."""

from __future__ import annotations

import hashlib
import sys
import time
from collections.abc import Sequence

import numpy as np

DIM = 256


class WordEmbedder:
    """Bag of hashed words, L2-normalised: texts sharing words are similar. No torch."""

    def __init__(self, name: str = "words-test") -> None:
        self.name = name

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in text.lower().replace(".", " ").split():
                out[i, int(hashlib.md5(word.encode()).hexdigest(), 16) % DIM] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1.0, norms)


def add_worker(path: str, tag: str, count: int, pause: float) -> None:
    """Add ``count`` demonstrations one by one, printing each id once ``add`` returned."""
    from screenpilot.pbd.store import DemoRecord, DemoStore

    store = DemoStore.open(path, embedder=WordEmbedder(), lock_timeout=60)
    for i in range(count):
        demo_id = store.add(
            DemoRecord(
                f"task {tag} number {i}", (f"tap '{tag}{i}'",), app=f"app.{tag}", source="test"
            )
        )
        print(demo_id, flush=True)
        time.sleep(pause)


def hold_lock(path: str, seconds: float) -> None:
    """Hold the store's lock as a writer would, then exit."""
    import filelock

    from screenpilot.pbd.store import LOCK_FILE

    with filelock.FileLock(f"{path}/{LOCK_FILE}", thread_local=False):
        print("locked", flush=True)
        time.sleep(seconds)


if __name__ == "__main__":
    if sys.argv[1] == "add":
        add_worker(
            sys.argv[2],
            sys.argv[3],
            int(sys.argv[4]),
            float(sys.argv[5]) if len(sys.argv) > 5 else 0.0,
        )
    elif sys.argv[1] == "lock":
        hold_lock(sys.argv[2], float(sys.argv[3]))
