"""A pure-Python adbd: the virtual phone's end of the ADB transport protocol over TCP.

The real ``adb`` binary registers it with ``adb connect 127.0.0.1:PORT``; from then
on ``adb shell``, ``adb push``/``pull`` and every adbutils call reach the phone
exactly as they would reach a USB phone. The daemon answers ``CNXN`` directly
(no ``AUTH``), so no key is ever needed; ``AdbDaemon(..., auth="refuse")`` plays a
phone whose owner has not accepted the computer's key: it answers ``CNXN`` with an
``AUTH`` token, turns down every signature, takes the public key (the phone would
now show "Allow USB debugging?") and never lets the client in, so ``adb devices``
lists it as ``unauthorized``.

Every message is a 24-byte little-endian header followed by ``data_length`` bytes::

    +---------+---------+---------+-------------+------------+---------------+
    | command |  arg0   |  arg1   | data_length | data_check |     magic     |
    |  u32    |  u32    |  u32    |    u32      |    u32     | command^~0    |
    +---------+---------+---------+-------------+------------+---------------+
    | data: data_length bytes (<= the max payload both sides announced)      |
    +------------------------------------------------------------------------+

    CNXN(version, max_payload, "device::ro.product.name=..;features=..")
    AUTH(TOKEN=1, 0, 20 random bytes) -> AUTH(SIGNATURE=2, 0, sig) | AUTH(RSAPUBLICKEY=3, 0, key)
    OPEN(local_id, 0, "service\\0")  ->  OKAY(our_id, local_id) | CLSE(0, local_id)
    WRTE(sender_id, receiver_id, bytes) -> receiver answers OKAY before the next WRTE
    CLSE(sender_id, receiver_id)        closes one stream

``data_check`` is the byte sum of the data for protocol versions below
``0x01000001``; newer peers (every adb since 2017) send and expect 0.

Services: ``shell:CMD`` and ``exec:CMD`` (stdout and stderr merged, no exit code),
``shell,v2,...:CMD`` (shell protocol packets: id byte + u32 length; 1 stdout,
2 stderr, 3 exit), ``sync:`` (STAT/STA2/LST2/LIST/LIS2/SEND/RECV/QUIT on the
phone's small in-memory file system), ``reboot:``/``root:``/``unroot:``
(the refusal a production phone prints); anything else is refused with
``CLSE(0, id)`` as adbd does. Each stream runs in its own thread; a connection
whose client vanishes or sends a malformed packet is closed alone.

Limits (``Limits``), so that no client can make the phone grow without bound:

- flow control per stream: the OKAY for a client's WRTE is held back while the
  stream holds ``window`` bytes its service has not read yet (a well-behaved client
  waits for it); a client that writes on regardless past ``window + max_payload``
  bytes has that stream closed, and all streams together buffer at most
  ``max_buffered`` bytes;
- at most ``max_streams`` open streams per connection (an OPEN beyond them is
  refused with CLSE) and ``max_connections`` connections per client address (one
  beyond them is closed at once, unless one of that client's connections has been
  quiet for over ``handshake_timeout``: that one is closed instead);
- a connection that sends no CNXN within ``handshake_timeout``, stops halfway
  through a packet for ``packet_timeout``, or sends nothing for ``idle_timeout``
  while it has no open stream, is closed.

``AdbDaemon.stats()`` counts what the limits did (and the peaks they allowed).
"""

from __future__ import annotations

import contextlib
import os
import select
import socket
import struct
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import Literal

from screenpilot.simulator.backend import PhoneBackend
from screenpilot.simulator.shell import FileEntry, MemoryFileSystem, Shell, ShellIO

A_SYNC = 0x434E5953
A_CNXN = 0x4E584E43
A_OPEN = 0x4E45504F
A_OKAY = 0x59414B4F
A_CLSE = 0x45534C43
A_WRTE = 0x45545257
A_AUTH = 0x48545541
A_STLS = 0x534C5453
KNOWN_COMMANDS = frozenset({A_SYNC, A_CNXN, A_OPEN, A_OKAY, A_CLSE, A_WRTE, A_AUTH, A_STLS})

AUTH_TOKEN = 1
AUTH_SIGNATURE = 2
AUTH_RSAPUBLICKEY = 3
AUTH_TOKEN_SIZE = 20
#: "none": CNXN is answered at once; "refuse": every key is turned down (unauthorized).
AuthMode = Literal["none", "refuse"]
AUTH_MODES: tuple[AuthMode, ...] = ("none", "refuse")

A_VERSION = 0x01000001
A_VERSION_SKIP_CHECKSUM = 0x01000001
MAX_PAYLOAD = 1024 * 1024
HEADER = struct.Struct("<6I")
FEATURES = (
    "shell_v2",
    "cmd",
    "stat_v2",
    "ls_v2",
    "fixed_push_mkdir",
    "fixed_push_symlink_timestamp",
)
SYNC_DATA_MAX = 64 * 1024
SYNC_MAX_PATH = 1024
IDLE_POLL_S = 0.5
#: How long one send may block on a client that does not read (then it is dropped).
SOCKET_TIMEOUT_S = 30.0
SHELL_EXIT = 3
SHELL_STDOUT = 1
SHELL_STDERR = 2


class ProtocolError(Exception):
    """A packet that breaks the ADB transport protocol: the connection is dropped."""


@dataclass(frozen=True, slots=True)
class Limits:
    """What one client may make the daemon hold (see the module docstring)."""

    #: Bytes a stream buffers unread before the client's OKAY is held back.
    window: int = 256 * 1024
    #: The largest packet payload the daemon announces (adb's MAX_PAYLOAD_V2).
    max_payload: int = 256 * 1024
    #: Bytes all streams together may buffer unread.
    max_buffered: int = 64 * 1024 * 1024
    max_streams: int = 64
    max_connections: int = 8
    handshake_timeout: float = 10.0
    packet_timeout: float = 10.0
    idle_timeout: float = 300.0


@dataclass(frozen=True, slots=True)
class Message:
    """One ADB transport message."""

    command: int
    arg0: int
    arg1: int
    data: bytes = b""


def pack_message(msg: Message, *, checksum: bool) -> bytes:
    """Header + data, with the byte-sum check only for old protocol versions."""
    check = sum(msg.data) & 0xFFFFFFFF if checksum else 0
    header = HEADER.pack(
        msg.command, msg.arg0, msg.arg1, len(msg.data), check, msg.command ^ 0xFFFFFFFF
    )
    return header + msg.data


def unpack_header(raw: bytes, max_payload: int) -> tuple[int, int, int, int]:
    """(command, arg0, arg1, data_length) of a header; ``ProtocolError`` if it is bad."""
    command, arg0, arg1, length, _check, magic = HEADER.unpack(raw)
    if command not in KNOWN_COMMANDS:
        raise ProtocolError(f"unknown command 0x{command:08x}")
    if magic != command ^ 0xFFFFFFFF:
        raise ProtocolError("bad magic")
    if length > max_payload:
        raise ProtocolError(f"payload of {length} bytes exceeds {max_payload}")
    return command, arg0, arg1, length


def banner(backend: PhoneBackend) -> bytes:
    """The CNXN banner: device state, product properties and features."""
    props = ";".join(
        f"{key}={backend.getprop(key)}"
        for key in ("ro.product.name", "ro.product.model", "ro.product.device")
    )
    return f"device::{props};features={','.join(FEATURES)}".encode()


# --------------------------------------------------------------------------------------
# streams
# --------------------------------------------------------------------------------------
class Stream:
    """One open service as its thread sees it: a byte pipe with ADB flow control."""

    def __init__(self, conn: Connection, local_id: int, remote_id: int) -> None:
        self.conn = conn
        self.local_id = local_id
        self.remote_id = remote_id
        self._cond = threading.Condition()
        self._inbox = bytearray()
        self._can_send = True
        self._remote_closed = False
        self._closed = False
        #: The client's last WRTE has not been answered: the window is full.
        self._okay_owed = False

    # --- called by the service thread ---------------------------------------------------
    @property
    def closed(self) -> bool:
        """True once the client closed the stream or the connection went away."""
        return self._remote_closed or self._closed

    def write(self, data: bytes) -> bool:
        """Send ``data`` as WRTE packets, each after the previous one's OKAY."""
        size = self.conn.max_payload
        for start in range(0, len(data), size):
            if not self._wait_send_window():
                return False
            chunk = data[start : start + size]
            if not self.conn.send(Message(A_WRTE, self.local_id, self.remote_id, chunk)):
                return False
        return not self.closed

    def read(self, timeout: float | None = None) -> bytes | None:
        """Whatever the client has sent; b'' at end of stream; None on timeout."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while not self._inbox and not self.closed:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return None
                self._cond.wait(left)
            data = bytes(self._inbox)
            self._inbox.clear()
            release = self._release()
        self._taken(len(data), release)
        return data

    def read_exact(self, n: int) -> bytes | None:
        """Exactly ``n`` bytes, or None when the stream ends first."""
        with self._cond:
            while len(self._inbox) < n and not self.closed:
                self._cond.wait()
            if len(self._inbox) < n:
                return None
            data = bytes(self._inbox[:n])
            del self._inbox[:n]
            release = self._release()
        self._taken(n, release)
        return data

    def _release(self) -> bool:
        """(Under the lock) whether the OKAY held back can go now that data was read."""
        if self._okay_owed and len(self._inbox) < self.conn.limits.window and not self.closed:
            self._okay_owed = False
            return True
        return False

    def _taken(self, n: int, release: bool) -> None:
        self.conn.daemon.account(-n)
        if release:
            self.conn.send(Message(A_OKAY, self.local_id, self.remote_id))

    @property
    def buffered(self) -> int:
        """Bytes the client sent that the service has not read yet."""
        with self._cond:
            return len(self._inbox)

    def close(self) -> None:
        """Close our end: CLSE to the client unless it closed first."""
        with self._cond:
            if self._closed:
                return
            self._closed = True
            notify = not self._remote_closed
            dropped = len(self._inbox)
            self._inbox.clear()
            self._cond.notify_all()
        self.conn.daemon.account(-dropped)
        if notify:
            self.conn.send(Message(A_CLSE, self.local_id, self.remote_id))
        self.conn.forget(self.local_id)

    def _wait_send_window(self) -> bool:
        with self._cond:
            while not self._can_send and not self.closed:
                self._cond.wait()
            if self.closed:
                return False
            self._can_send = False
            return True

    # --- called by the connection's reader thread -----------------------------------------
    def on_okay(self) -> None:
        with self._cond:
            self._can_send = True
            self._cond.notify_all()

    def on_data(self, data: bytes) -> bool:
        """Buffer a WRTE and answer it (now, or once the service has read enough);
        False when the client wrote past its window (or the daemon's buffers are full)."""
        limits = self.conn.limits
        with self._cond:
            if self.closed:
                return True
            if len(self._inbox) + len(
                data
            ) > limits.window + self.conn.max_payload or not self.conn.daemon.account(len(data)):
                return False
            self._inbox.extend(data)
            self._okay_owed = len(self._inbox) >= limits.window
            owed = self._okay_owed
            self._cond.notify_all()
        if not owed:
            self.conn.send(Message(A_OKAY, self.local_id, self.remote_id))
        return True

    def on_remote_close(self) -> None:
        with self._cond:
            self._remote_closed = True
            self._cond.notify_all()


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


# --------------------------------------------------------------------------------------
# services
# --------------------------------------------------------------------------------------
Service = Callable[[Stream], None]
REFUSALS = {
    "reboot": "reboot: the virtual phone cannot reboot (Operation not permitted)\n",
    "root": "adbd cannot run as root in production builds\n",
    "unroot": "adbd not running as root\n",
    "remount": "remount is not supported on this device\n",
}


class Services:
    """Turns a service name from OPEN into the function that serves the stream."""

    def __init__(self, backend: PhoneBackend, fs: MemoryFileSystem) -> None:
        self.backend = backend
        self.fs = fs

    def lookup(self, name: str) -> Service | None:
        """The service for ``name``, or None when adbd would refuse it."""
        kind, sep, arg = name.partition(":")
        if not sep:
            return None
        head, *options = kind.split(",")
        if head == "shell":
            return self._shell(arg, v2="v2" in options)
        if head == "exec" and not options:
            return self._shell(arg, v2=False)
        if kind == "sync":
            return lambda stream: SyncSession(stream, self.fs).run()
        if kind in REFUSALS:
            text = REFUSALS[kind].encode()
            return lambda stream: _refuse(stream, text)
        return None

    def _shell(self, command: str, *, v2: bool) -> Service:
        def serve(stream: Stream) -> None:
            shell = Shell(self.backend, self.fs)
            if v2:
                io = ShellV2IO(stream)
                io.exit(run_or_interact(shell, command, io))
            else:
                run_or_interact(shell, command, StreamIO(stream))

        return serve


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


def _refuse(stream: Stream, text: bytes) -> None:
    """Print why the service cannot run; the stream is closed after it."""
    stream.write(text)


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


# --------------------------------------------------------------------------------------
# connections
# --------------------------------------------------------------------------------------
class Connection:
    """One TCP client (normally the adb server): reads packets, owns its streams."""

    def __init__(self, sock: socket.socket, daemon: AdbDaemon, peer: str = "") -> None:
        self.sock = sock
        self.daemon = daemon
        self.peer = peer
        self.limits = daemon.limits
        self.max_payload = min(MAX_PAYLOAD, self.limits.max_payload)
        self.version = A_VERSION
        self.connected = False
        #: The client's key was accepted (always, unless the daemon refuses keys).
        self.authorized = False
        self._send_lock = threading.Lock()
        self._lock = threading.Lock()
        self._streams: dict[int, Stream] = {}
        self._next_id = 1
        self._dead = False
        self._opened_at = time.monotonic()
        self.last_packet = self._opened_at
        self._poll = select.poll()
        self._poll.register(sock, select.POLLIN | select.POLLPRI)

    # --- sending --------------------------------------------------------------------------
    def send(self, msg: Message) -> bool:
        """Write one message; False (and the connection is closed) when that fails."""
        packet = pack_message(msg, checksum=self.version < A_VERSION_SKIP_CHECKSUM)
        try:
            with self._send_lock:
                self.sock.sendall(packet)
        except OSError:
            self.close()
            return False
        return True

    # --- reading --------------------------------------------------------------------------
    def run(self) -> None:
        """Serve until the client goes away, sends garbage, or the daemon stops."""
        try:
            while not self._dead:
                started: list[float] = []
                header = self._recv_exact(HEADER.size, started)
                if header is None:
                    return
                command, arg0, arg1, length = unpack_header(header, MAX_PAYLOAD)
                data = self._recv_exact(length, started) if length else b""
                if data is None:
                    return
                self.last_packet = time.monotonic()
                self._handle(Message(command, arg0, arg1, data))
        except (ProtocolError, OSError, struct.error, ValueError):
            return
        finally:
            self.close()

    def _deadline(self, started: list[float]) -> tuple[float | None, str]:
        """When waiting for the next bytes must end, and why."""
        limits = self.limits
        if started:
            return started[0] + limits.packet_timeout, "half-sent packet"
        if not self.connected:
            return self._opened_at + limits.handshake_timeout, "no CNXN"
        with self._lock:
            busy = bool(self._streams)
        return (None, "") if busy else (self.last_packet + limits.idle_timeout, "idle")

    def _recv_exact(self, n: int, started: list[float]) -> bytes | None:
        """``n`` bytes, or None when the client goes away or stops short of a deadline
        (``started``: when the packet's first byte came, filled in here)."""
        buf = bytearray()
        while len(buf) < n:
            if self._dead:
                return None
            deadline, why = self._deadline(started)
            wait = IDLE_POLL_S
            if deadline is not None:
                wait = min(wait, deadline - time.monotonic())
                if wait <= 0:
                    self.daemon.count(f"closed: {why}")
                    return None
            if not self._poll.poll(max(1, int(wait * 1000))):
                continue
            try:
                chunk = self.sock.recv(n - len(buf))
            except (TimeoutError, BlockingIOError, InterruptedError):
                continue
            if not chunk:
                return None
            if not started:
                started.append(time.monotonic())
            buf.extend(chunk)
        return bytes(buf)

    def _handle(self, msg: Message) -> None:
        if msg.command == A_CNXN:
            self._on_connect(msg)
            return
        if not self.connected:
            raise ProtocolError("packet before CNXN")
        if msg.command == A_AUTH:
            self._on_auth(msg)
            return
        if not self.authorized:
            self.daemon.count("packets ignored: not authorised")
            return
        if msg.command == A_OPEN:
            self._on_open(msg)
            return
        stream = self._stream(msg.arg1)
        if msg.command == A_OKAY and stream is not None:
            stream.on_okay()
        elif msg.command == A_WRTE:
            if stream is None:
                self.send(Message(A_CLSE, 0, msg.arg0))
                return
            if not stream.on_data(msg.data):
                self.daemon.count("streams closed: wrote past the window")
                stream.close()
        elif msg.command == A_CLSE and stream is not None:
            stream.on_remote_close()
            self.forget(stream.local_id)

    def _on_connect(self, msg: Message) -> None:
        self.version = min(msg.arg0, A_VERSION)
        self.max_payload = max(256, min(msg.arg1, MAX_PAYLOAD, self.limits.max_payload))
        self.connected = True
        if self.daemon.auth == "none":
            self.authorized = True
            self.send(Message(A_CNXN, self.version, self.max_payload, banner(self.daemon.backend)))
            return
        self._ask_for_key()

    def _ask_for_key(self) -> None:
        """AUTH(TOKEN): the client is to sign these random bytes with its key."""
        self.send(Message(A_AUTH, AUTH_TOKEN, 0, os.urandom(AUTH_TOKEN_SIZE)))

    def _on_auth(self, msg: Message) -> None:
        """A signature is turned down with a new token (the client tries its next key);
        a public key is where a real phone shows "Allow USB debugging?": nobody taps
        Allow here, so the client waits, unauthorised, until it gives up."""
        if self.authorized:
            return
        if msg.arg0 == AUTH_SIGNATURE:
            self.daemon.count("auth: signatures refused")
            self._ask_for_key()
        elif msg.arg0 == AUTH_RSAPUBLICKEY:
            self.daemon.count("auth: keys offered, never accepted")
        else:
            raise ProtocolError(f"AUTH of unknown type {msg.arg0}")

    def _on_open(self, msg: Message) -> None:
        name = msg.data.rstrip(b"\x00").decode(errors="replace")
        service = self.daemon.services.lookup(name)
        if service is None or msg.arg0 == 0:
            self.send(Message(A_CLSE, 0, msg.arg0))
            return
        with self._lock:
            full = len(self._streams) >= self.limits.max_streams
            if not full:
                local_id = self._next_id
                self._next_id += 1
                stream = Stream(self, local_id, msg.arg0)
                self._streams[local_id] = stream
                self.daemon.peak("streams on one connection", len(self._streams))
        if full:
            self.daemon.count("streams refused: too many open")
            self.send(Message(A_CLSE, 0, msg.arg0))
            return
        self.send(Message(A_OKAY, local_id, msg.arg0))
        self.daemon.spawn(f"adbd-stream-{local_id}", lambda: _serve(stream, service))

    def _stream(self, local_id: int) -> Stream | None:
        with self._lock:
            return self._streams.get(local_id)

    def forget(self, local_id: int) -> None:
        """Drop a finished stream from the table."""
        with self._lock:
            self._streams.pop(local_id, None)

    @property
    def open_streams(self) -> int:
        with self._lock:
            return len(self._streams)

    def close(self) -> None:
        """Close the socket and every stream on it (idempotent)."""
        with self._lock:
            if self._dead:
                return
            self._dead = True
            streams = list(self._streams.values())
            self._streams.clear()
        for stream in streams:
            stream.on_remote_close()
        with contextlib.suppress(OSError, ValueError, KeyError):
            self._poll.unregister(self.sock)
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(OSError):
            self.sock.close()


def _serve(stream: Stream, service: Service) -> None:
    try:
        service(stream)
    finally:
        stream.close()


# --------------------------------------------------------------------------------------
# the daemon
# --------------------------------------------------------------------------------------
class AdbDaemon:
    """The phone's adbd: ``start()`` it, ``adb connect`` its ``serial``, ``stop()`` it.

    >>> with AdbDaemon(phone) as adbd:          # doctest: +SKIP
    ...     subprocess.run(["adb", "connect", adbd.serial])
    """

    def __init__(
        self,
        backend: PhoneBackend,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        fs: MemoryFileSystem | None = None,
        limits: Limits | None = None,
        auth: AuthMode = "none",
    ) -> None:
        if auth not in AUTH_MODES:
            raise ValueError(f"unknown auth mode {auth!r}: one of {', '.join(AUTH_MODES)}")
        self.backend = backend
        self.auth = auth
        self.limits = limits or Limits()
        self._buffered = 0
        self._counts: Counter[str] = Counter()
        self._peaks: Counter[str] = Counter()
        self._stats_lock = threading.Lock()
        self.fs = fs if fs is not None else MemoryFileSystem()
        self.services = Services(backend, self.fs)
        self.host = host
        self._requested_port = port
        self._listener: socket.socket | None = None
        self._accept_thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._threads: set[threading.Thread] = set()
        self._connections: set[Connection] = set()

    # --- lifecycle ------------------------------------------------------------------------
    @property
    def port(self) -> int:
        """The TCP port it listens on (known once started)."""
        if self._listener is None:
            raise RuntimeError("adbd is not started")
        return int(self._listener.getsockname()[1])

    @property
    def serial(self) -> str:
        """What to pass to ``adb connect`` and ``adb -s``: ``127.0.0.1:PORT``."""
        return f"{self.host}:{self.port}"

    def start(self) -> AdbDaemon:
        """Listen and serve in a background thread; returns self."""
        if self._listener is not None:
            return self
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((self.host, self._requested_port))
        listener.listen(16)
        listener.settimeout(IDLE_POLL_S)
        self._listener = listener
        self._stopping.clear()
        self._accept_thread = threading.Thread(
            target=self._accept_loop, name="adbd-accept", daemon=True
        )
        self._accept_thread.start()
        return self

    def serve_forever(self) -> None:
        """Start (if needed) and block until ``stop()`` or Ctrl-C."""
        self.start()
        try:
            while not self._stopping.wait(IDLE_POLL_S):
                pass
        finally:
            self.stop()

    def stop(self, timeout: float = 5.0) -> None:
        """Close every connection and stream and wait for their threads."""
        self._stopping.set()
        listener, self._listener = self._listener, None
        if listener is not None:
            with contextlib.suppress(OSError):
                listener.close()
        with self._lock:
            connections = list(self._connections)
        for conn in connections:
            conn.close()
        deadline = time.monotonic() + timeout
        for thread in self._all_threads():
            thread.join(max(0.0, deadline - time.monotonic()))

    def __enter__(self) -> AdbDaemon:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    # --- threads --------------------------------------------------------------------------
    def spawn(self, name: str, target: Callable[[], None]) -> None:
        """Run ``target`` in a tracked daemon thread."""

        def run() -> None:
            try:
                target()
            finally:
                with self._lock:
                    self._threads.discard(threading.current_thread())

        thread = threading.Thread(target=run, name=name, daemon=True)
        with self._lock:
            self._threads.add(thread)
        thread.start()

    def active_threads(self) -> int:
        """Connection and stream threads still running (for leak checks)."""
        with self._lock:
            return len(self._threads)

    # --- what the limits did -------------------------------------------------------------
    def account(self, n: int) -> bool:
        """Add ``n`` (may be negative) to the bytes buffered for all streams; False (and
        nothing added) when that would pass ``limits.max_buffered``."""
        with self._stats_lock:
            if n > 0 and self._buffered + n > self.limits.max_buffered:
                return False
            self._buffered = max(0, self._buffered + n)
            self._peaks["buffered bytes"] = max(self._peaks["buffered bytes"], self._buffered)
            return True

    def count(self, what: str) -> None:
        with self._stats_lock:
            self._counts[what] += 1

    def peak(self, what: str, value: int) -> None:
        with self._stats_lock:
            self._peaks[what] = max(self._peaks[what], value)

    def stats(self) -> dict[str, int]:
        """Now: connections, streams, threads, buffered bytes; since start: the peaks
        (``peak ...``) and what the limits refused or closed."""
        with self._lock:
            connections = list(self._connections)
            threads = len(self._threads)
        streams = sum(c.open_streams for c in connections)
        with self._stats_lock:
            out = {
                "connections": len(connections),
                "streams": streams,
                "threads": threads,
                "buffered bytes": self._buffered,
            }
            out.update({f"peak {k}": v for k, v in self._peaks.items()})
            out.update(self._counts)
        return out

    def _all_threads(self) -> list[threading.Thread]:
        with self._lock:
            threads = list(self._threads)
        if self._accept_thread is not None:
            threads.append(self._accept_thread)
        return threads

    def _accept_loop(self) -> None:
        while not self._stopping.is_set():
            listener = self._listener
            if listener is None:
                return
            try:
                sock, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self._adopt(sock)

    def _evictable(self, mine: list[Connection]) -> Connection | None:
        """At the cap, the client's connection quiet the longest, when it has been quiet
        for over ``handshake_timeout`` (a client that holds connections it does not use
        cannot lock the adb server out for longer than that)."""
        quiet = min(mine, key=lambda c: c.last_packet)
        if time.monotonic() - quiet.last_packet > self.limits.handshake_timeout:
            return quiet
        return None

    def _adopt(self, sock: socket.socket) -> None:
        try:
            peer = str(sock.getpeername()[0])
            sock.settimeout(SOCKET_TIMEOUT_S)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:
            sock.close()
            return
        victim = None
        with self._lock:
            mine = [c for c in self._connections if c.peer == peer]
            full = len(mine) >= self.limits.max_connections
            if full:
                victim = self._evictable(mine)
                full = victim is None
            if not full:
                conn = Connection(sock, self, peer)
                self._connections.add(conn)
                self.peak("connections from one client", len(mine) + (victim is None))
        if victim is not None:
            self.count("connections evicted: quiet longest, at the cap")
            victim.close()
        if full:
            self.count("connections refused: too many from one client")
            with contextlib.suppress(OSError):
                sock.close()
            return

        def serve() -> None:
            try:
                conn.run()
            finally:
                with self._lock:
                    self._connections.discard(conn)

        self.spawn("adbd-connection", serve)
