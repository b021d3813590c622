"""The daemon: listens, adopts connections within the per-client cap, runs their threads,
and counts what the limits did (``AdbDaemon.stats()``)."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable
from types import TracebackType

from screenpilot.simulator.adbd.connection import Connection
from screenpilot.simulator.adbd.limits import IDLE_POLL_S, SOCKET_TIMEOUT_S, Limits
from screenpilot.simulator.adbd.services import Services
from screenpilot.simulator.adbd.wire import AUTH_MODES, AuthMode
from screenpilot.simulator.backend import PhoneBackend
from screenpilot.simulator.shell import MemoryFileSystem


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
        with self._lock:  # started under the lock: stop() never sees an unstarted thread
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
