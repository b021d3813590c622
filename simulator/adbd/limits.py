"""What one client may make the daemon hold, and the daemon's polling and send timeouts.

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
"""

from __future__ import annotations

from dataclasses import dataclass

IDLE_POLL_S = 0.5
#: How long one send may block on a client that does not read (then it is dropped).
SOCKET_TIMEOUT_S = 30.0


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
