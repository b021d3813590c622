"""The ``sync:`` file transfer service (STAT/STA2/LST2/LIST/LIS2/SEND/RECV/QUIT) on the
phone's small in-memory file system."""

from __future__ import annotations

import struct
import time
from collections.abc import Callable

from screenpilot.simulator.adbd.stream import Stream
from screenpilot.simulator.shell import FileEntry, MemoryFileSystem

SYNC_DATA_MAX = 64 * 1024
SYNC_MAX_PATH = 1024


class SyncSession:
    """The ``sync:`` file transfer protocol on the in-memory file system."""

    def __init__(self, stream: Stream, fs: MemoryFileSystem) -> None:
        self.stream = stream
        self.fs = fs

    def run(self) -> None:
        while True:
            request = self.stream.read_exact(8)
            if request is None:
                return
            ident, length = request[:4], struct.unpack("<I", request[4:])[0]
            if ident == b"QUIT":
                return
            if length > SYNC_MAX_PATH:
                self._fail("path too long")
                return
            raw = self.stream.read_exact(length)
            if raw is None:
                return
            if not self._dispatch(ident, raw.decode(errors="replace")):
                return

    def _dispatch(self, ident: bytes, path: str) -> bool:
        handlers: dict[bytes, Callable[[str], bool]] = {
            b"STAT": self._stat_v1,
            b"STA2": self._stat_v2,
            b"LST2": self._stat_v2,
            b"LIST": self._list_v1,
            b"LIS2": self._list_v2,
            b"SEND": self._send,
            b"RECV": self._recv,
        }
        handler = handlers.get(ident)
        if handler is None:
            self._fail(f"unknown command {ident!r}")
            return False
        if ident == b"LST2":
            return self._stat_v2(path, ident=b"LST2")
        return handler(path)

    def _fail(self, message: str) -> None:
        data = message.encode()
        self.stream.write(b"FAIL" + struct.pack("<I", len(data)) + data)

    def _stat_v1(self, path: str) -> bool:
        entry = self.fs.stat(path)
        if entry is None:
            return self.stream.write(b"STAT" + struct.pack("<III", 0, 0, 0))
        return self.stream.write(
            b"STAT"
            + struct.pack("<III", entry.mode, len(entry.data) & 0xFFFFFFFF, int(entry.mtime))
        )

    def _stat_v2(self, path: str, ident: bytes = b"STA2") -> bool:
        entry = self.fs.stat(path)
        return self.stream.write(ident + _stat2(entry, enoent=entry is None))

    def _list_v1(self, path: str) -> bool:
        for name, entry in self.fs.listdir(path) or []:
            raw = name.encode()
            if not self.stream.write(
                b"DENT"
                + struct.pack("<IIII", entry.mode, len(entry.data), int(entry.mtime), len(raw))
                + raw
            ):
                return False
        return self.stream.write(b"DONE" + bytes(16))

    def _list_v2(self, path: str) -> bool:
        for name, entry in self.fs.listdir(path) or []:
            raw = name.encode()
            if not self.stream.write(
                b"DNT2" + _stat2(entry, enoent=False) + struct.pack("<I", len(raw)) + raw
            ):
                return False
        return self.stream.write(b"DONE" + bytes(72))

    def _send(self, spec: str) -> bool:
        path, _, mode_text = spec.rpartition(",")
        if not path:
            path, mode_text = spec, "33188"
        chunks: list[bytes] = []
        mtime = 0
        while True:
            head = self.stream.read_exact(8)
            if head is None:
                return False
            ident, value = head[:4], struct.unpack("<I", head[4:])[0]
            if ident == b"DONE":
                mtime = value
                break
            if ident != b"DATA" or value > SYNC_DATA_MAX:
                self._fail("invalid data message")
                return False
            data = self.stream.read_exact(value)
            if data is None:
                return False
            chunks.append(data)
        mode = int(mode_text) if mode_text.isdigit() else 0o100644
        error = self.fs.write(path, b"".join(chunks), mode=mode, mtime=float(mtime or time.time()))
        if error:
            self._fail(f"couldn't create file: {error}")
            return True
        return self.stream.write(b"OKAY" + bytes(4))

    def _recv(self, path: str) -> bool:
        entry = self.fs.stat(path)
        if entry is None or entry.is_dir:
            self._fail("No such file or directory" if entry is None else "Is a directory")
            return True
        data = entry.data
        for start in range(0, len(data), SYNC_DATA_MAX):
            chunk = data[start : start + SYNC_DATA_MAX]
            if not self.stream.write(b"DATA" + struct.pack("<I", len(chunk)) + chunk):
                return False
        return self.stream.write(b"DONE" + bytes(4))


def _stat2(entry: FileEntry | None, *, enoent: bool) -> bytes:
    """The 68 bytes after the id of a STA2/LST2/DNT2 record."""
    if entry is None:
        return struct.pack("<IQQIIIIQqqq", 2 if enoent else 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    mtime = int(entry.mtime)
    return struct.pack(
        "<IQQIIIIQqqq",
        0,
        0xFD00,
        entry.inode,
        entry.mode,
        1,
        2000,
        2000,
        len(entry.data),
        mtime,
        mtime,
        mtime,
    )
