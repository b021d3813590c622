"""A raw ADB client that misbehaves as adb never would, and the phone as its own process
(``screenpilot phone``) with its memory and thread counts: the tools of bench/fuzz.py's
``adbd`` family.

A part of bench/fuzz.py (run that), not a benchmark of its own.
"""

from __future__ import annotations

import contextlib
import os
import re
import socket
import struct
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

from fuzz_common import PY, part_of_fuzz

A_SYNC, A_CNXN, A_OPEN, A_OKAY, A_CLSE, A_WRTE = (
    0x434E5953,
    0x4E584E43,
    0x4E45504F,
    0x59414B4F,
    0x45534C43,
    0x45545257,
)


def packet(
    command: int, arg0: int, arg1: int, data: bytes = b"", magic: int | None = None
) -> bytes:
    return (
        struct.pack(
            "<6I",
            command,
            arg0,
            arg1,
            len(data),
            0,
            command ^ 0xFFFFFFFF if magic is None else magic,
        )
        + data
    )


def read_packet(sock: socket.socket) -> tuple[int, int, int, bytes] | None:
    def exact(n: int) -> bytes | None:
        buf = b""
        while len(buf) < n:
            chunk = sock.recv(n - len(buf))
            if not chunk:
                return None
            buf += chunk
        return buf

    head = exact(24)
    if head is None:
        return None
    command, a0, a1, length, _, _ = struct.unpack("<6I", head)
    data = exact(length) if length else b""
    return None if data is None else (command, a0, a1, data)


def hello(port: int, timeout: float = 10.0) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    sock.sendall(packet(A_CNXN, 0x01000001, 1024 * 1024, b"host::\0"))
    got = read_packet(sock)
    if got is None or got[0] != A_CNXN:
        raise ConnectionError("no CNXN")
    return sock


def answers(port: int) -> bool:
    """Whether the phone still runs `shell:echo ok` for a new client."""
    try:
        with hello(port) as sock:
            sock.sendall(packet(A_OPEN, 1, 0, b"shell:echo ok\0"))
            got = b""
            while True:
                msg = read_packet(sock)
                if msg is None:
                    return False
                if msg[0] == A_WRTE:
                    got += msg[3]
                    sock.sendall(packet(A_OKAY, 1, msg[1]))
                if msg[0] == A_CLSE or b"ok" in got:
                    return b"ok" in got
    except OSError:
        return False


@contextlib.contextmanager
def phone_process() -> Iterator[tuple[subprocess.Popen[str], int, list[str]]]:
    proc = subprocess.Popen(
        [PY, "-m", "screenpilot", "phone", "--no-connect"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "SCREENPILOT_CONFIG": "/nonexistent.toml"},
    )
    assert proc.stdout is not None and proc.stderr is not None
    errors: list[str] = []
    threading.Thread(target=lambda: errors.extend(proc.stderr), daemon=True).start()  # type: ignore[arg-type]
    port = 0
    for line in proc.stdout:
        m = re.search(r"serial (?:\S*?):(\d+)", line)
        if m:
            port = int(m.group(1))
            break
    threading.Thread(target=proc.stdout.read, daemon=True).start()
    try:
        yield proc, port, errors
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()


def memory_mb(pid: int, key: str = "VmRSS") -> float:
    text = Path(f"/proc/{pid}/status").read_text()
    m = re.search(rf"^{key}:\s+(\d+) kB", text, re.M)
    return round(int(m.group(1)) / 1024, 1) if m else -1.0


def thread_count(pid: int) -> int:
    """The threads of process ``pid`` (-1 when unknown)."""
    m = re.search(r"^Threads:\s+(\d+)", Path(f"/proc/{pid}/status").read_text(), re.M)
    return int(m.group(1)) if m else -1


if __name__ == "__main__":
    part_of_fuzz(__file__)
