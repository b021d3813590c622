"""The ``shell:``, ``exec:`` and ``shell,v2,...:`` services: the phone's shell on a stream.

``shell:CMD`` and ``exec:CMD`` send stdout and stderr merged, with no exit code;
``shell,v2,...:CMD`` frames them as shell protocol packets (id byte + u32 length;
1 stdout, 2 stderr, 3 exit). With no command, each line the client sends is run
until EOF or ``exit``.
"""

from __future__ import annotations

import struct

from screenpilot.simulator.adbd.limits import IDLE_POLL_S
from screenpilot.simulator.adbd.stream import Stream
from screenpilot.simulator.backend import PhoneBackend
from screenpilot.simulator.shell import MemoryFileSystem, Shell, ShellIO

SHELL_EXIT = 3
SHELL_STDOUT = 1
SHELL_STDERR = 2


class StreamIO(ShellIO):
    """Shell output for ``shell:``/``exec:``: stdout and stderr merged, raw bytes."""

    def __init__(self, stream: Stream) -> None:
        self.stream = stream

    def out(self, data: bytes) -> None:
        if data:
            self.stream.write(data)

    def err(self, data: bytes) -> None:
        self.out(data)

    @property
    def closed(self) -> bool:
        return self.stream.closed


class ShellV2IO(StreamIO):
    """Shell output framed as shell protocol v2 packets (id byte + u32 length)."""

    def out(self, data: bytes) -> None:
        self._packet(SHELL_STDOUT, data)

    def err(self, data: bytes) -> None:
        self._packet(SHELL_STDERR, data)

    def exit(self, code: int) -> None:
        self._packet(SHELL_EXIT, bytes([code & 0xFF]))

    def _packet(self, kind: int, data: bytes) -> None:
        step = max(1, self.stream.conn.max_payload - 5)
        for start in range(0, len(data), step):
            chunk = data[start : start + step]
            self.stream.write(struct.pack("<BI", kind, len(chunk)) + chunk)


def serve_shell(
    stream: Stream, backend: PhoneBackend, fs: MemoryFileSystem, command: str, *, v2: bool
) -> None:
    """Run ``command`` (or an interactive shell) for one stream."""
    shell = Shell(backend, fs)
    if v2:
        io = ShellV2IO(stream)
        io.exit(run_or_interact(shell, command, io))
    else:
        run_or_interact(shell, command, StreamIO(stream))


def run_or_interact(shell: Shell, command: str, io: StreamIO) -> int:
    """Run ``command``; with no command, run each line the client sends until EOF."""
    if command.strip():
        return shell.run(command, io)
    status, pending = 0, b""
    while not io.closed:
        data = io.stream.read(timeout=IDLE_POLL_S)
        if data is None:
            continue
        if not data:
            break
        pending += _strip_v2_stdin(data) if isinstance(io, ShellV2IO) else data
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            if line.strip() == b"exit":
                return status
            status = shell.run(line.decode(errors="replace"), io)
    return status


def _strip_v2_stdin(data: bytes) -> bytes:
    """The stdin payload of shell v2 packets (id 0); other packet kinds are dropped."""
    out, pos = bytearray(), 0
    while pos + 5 <= len(data):
        kind, length = struct.unpack_from("<BI", data, pos)
        if kind == 0:
            out += data[pos + 5 : pos + 5 + length]
        pos += 5 + length
    return bytes(out)
