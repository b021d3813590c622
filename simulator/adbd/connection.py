"""One TCP client of the daemon (normally the adb server): reads its packets, answers the
handshake (and, with ``auth="refuse"``, turns every key down), owns its streams, and
closes itself on a malformed packet or a timeout (see ``limits``)."""

from __future__ import annotations

import contextlib
import os
import select
import socket
import struct
import threading
import time
from typing import TYPE_CHECKING

from screenpilot.simulator.adbd.limits import IDLE_POLL_S
from screenpilot.simulator.adbd.services import Service
from screenpilot.simulator.adbd.stream import Stream
from screenpilot.simulator.adbd.wire import (
    A_AUTH,
    A_CLSE,
    A_CNXN,
    A_OKAY,
    A_OPEN,
    A_VERSION,
    A_VERSION_SKIP_CHECKSUM,
    A_WRTE,
    AUTH_RSAPUBLICKEY,
    AUTH_SIGNATURE,
    AUTH_TOKEN,
    AUTH_TOKEN_SIZE,
    HEADER,
    MAX_PAYLOAD,
    Message,
    ProtocolError,
    banner,
    pack_message,
    unpack_header,
)

if TYPE_CHECKING:
    from screenpilot.simulator.adbd.daemon import AdbDaemon


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
