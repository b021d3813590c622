"""One open stream as its service thread sees it: a byte pipe with ADB flow control.

The service thread calls ``write``/``read``/``read_exact``/``close``; the connection's
reader thread calls ``on_okay``/``on_data``/``on_remote_close``. A client's WRTE is
answered with OKAY at once, or, while the stream holds ``limits.window`` unread bytes,
only once the service has read enough (see ``limits``).
"""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING

from screenpilot.simulator.adbd.wire import A_CLSE, A_OKAY, A_WRTE, Message

if TYPE_CHECKING:
    from screenpilot.simulator.adbd.connection import Connection


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
