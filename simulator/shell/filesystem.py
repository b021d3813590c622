"""The virtual phone's storage: a small in-memory file system.

/sdcard and /data/local/tmp are writable, the rest is read-only; ``adb push``/``pull``
and the shell's redirections and toybox tools all work on the same ``MemoryFileSystem``.
"""

from __future__ import annotations

import itertools
import posixpath
import threading
import time
from dataclasses import dataclass, field

S_IFDIR = 0o040000
S_IFREG = 0o100000
WRITABLE_ROOTS = ("/sdcard", "/data/local/tmp")
INITIAL_DIRS = (
    "/",
    "/data",
    "/data/local",
    "/data/local/tmp",
    "/sdcard",
    "/sdcard/Download",
    "/sdcard/DCIM",
    "/sdcard/Pictures",
    "/sdcard/Documents",
    "/sdcard/Music",
    "/sdcard/Movies",
    "/storage",
    "/system",
    "/system/bin",
    "/dev",
)
_inode = itertools.count(1000)


@dataclass
class FileEntry:
    """A file or directory of the in-memory file system."""

    mode: int
    data: bytes = b""
    mtime: float = field(default_factory=time.time)
    inode: int = field(default_factory=lambda: next(_inode))

    @property
    def is_dir(self) -> bool:
        return bool(self.mode & S_IFDIR) and not self.mode & S_IFREG


class MemoryFileSystem:
    """The phone's storage: /sdcard and /data/local/tmp are writable, the rest read-only.

    ``/storage/emulated/0`` and ``/storage/self/primary`` are aliases of ``/sdcard``.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: dict[str, FileEntry] = {d: FileEntry(S_IFDIR | 0o775) for d in INITIAL_DIRS}

    @staticmethod
    def normalize(path: str, cwd: str = "/") -> str:
        """Absolute, normalised, with the /sdcard aliases resolved."""
        full = posixpath.normpath(posixpath.join(cwd, path or "."))
        full = "/" + full.lstrip("/")
        for alias in ("/storage/emulated/0", "/storage/self/primary", "/mnt/sdcard"):
            if full == alias or full.startswith(alias + "/"):
                full = "/sdcard" + full[len(alias) :]
        return full

    def stat(self, path: str) -> FileEntry | None:
        with self._lock:
            return self._entries.get(self.normalize(path))

    def read(self, path: str) -> bytes | None:
        entry = self.stat(path)
        return None if entry is None or entry.is_dir else entry.data

    def listdir(self, path: str) -> list[tuple[str, FileEntry]] | None:
        """(name, entry) of a directory's children, sorted; None if not a directory."""
        base = self.normalize(path)
        with self._lock:
            entry = self._entries.get(base)
            if entry is None or not entry.is_dir:
                return None
            prefix = base.rstrip("/") + "/"
            return sorted(
                (p[len(prefix) :], e)
                for p, e in self._entries.items()
                if p.startswith(prefix) and p != prefix and "/" not in p[len(prefix) :]
            )

    def write(
        self,
        path: str,
        data: bytes,
        *,
        mode: int = S_IFREG | 0o660,
        mtime: float | None = None,
        append: bool = False,
    ) -> str | None:
        """Create or replace a file (parents made as needed); the error text or None."""
        full = self.normalize(path)
        if not self._writable(full):
            return "Read-only file system"
        with self._lock:
            existing = self._entries.get(full)
            if existing is not None and existing.is_dir:
                return "Is a directory"
            self._make_parents(full)
            old = existing.data if existing is not None and append else b""
            perm = mode & 0o7777 or 0o660
            self._entries[full] = FileEntry(
                S_IFREG | perm, old + data, time.time() if mtime is None else mtime
            )
        return None

    def mkdir(self, path: str) -> str | None:
        full = self.normalize(path)
        if not self._writable(full):
            return "Read-only file system"
        with self._lock:
            if full in self._entries:
                return "File exists"
            self._make_parents(full)
            self._entries[full] = FileEntry(S_IFDIR | 0o775)
        return None

    def remove(self, path: str, *, recursive: bool = False) -> str | None:
        """Delete a file (or a tree with ``recursive``); the error text or None."""
        full = self.normalize(path)
        with self._lock:
            entry = self._entries.get(full)
            if entry is None:
                return "No such file or directory"
            if not self._writable(full) or full in INITIAL_DIRS:
                return "Permission denied"
            if entry.is_dir and not recursive:
                return "Is a directory"
            for key in [k for k in self._entries if k == full or k.startswith(full + "/")]:
                del self._entries[key]
        return None

    @staticmethod
    def _writable(full: str) -> bool:
        return any(full == r or full.startswith(r + "/") for r in WRITABLE_ROOTS)

    def _make_parents(self, full: str) -> None:
        parent = posixpath.dirname(full)
        while parent not in self._entries:
            self._entries[parent] = FileEntry(S_IFDIR | 0o775)
            parent = posixpath.dirname(parent)
