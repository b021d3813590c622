"""A pure-Python adbd: the virtual phone's end of the ADB transport protocol over TCP.

The real ``adb`` binary registers it with ``adb connect 127.0.0.1:PORT``; from then
on ``adb shell``, ``adb push``/``pull`` and every adbutils call reach the phone
exactly as they would reach a USB phone. The daemon answers ``CNXN`` directly
(no ``AUTH``), so no key is ever needed; ``AdbDaemon(..., auth="refuse")`` plays a
phone whose owner has not accepted the computer's key: it answers ``CNXN`` with an
``AUTH`` token, turns down every signature, takes the public key (the phone would
now show "Allow USB debugging?") and never lets the client in, so ``adb devices``
lists it as ``unauthorized``.

Services: ``shell:CMD`` and ``exec:CMD`` (stdout and stderr merged, no exit code),
``shell,v2,...:CMD`` (shell protocol packets), ``sync:`` (the file transfer protocol
on the phone's small in-memory file system), ``reboot:``/``root:``/``unroot:``
(the refusal a production phone prints); anything else is refused with
``CLSE(0, id)`` as adbd does. Each stream runs in its own thread; a connection
whose client vanishes or sends a malformed packet is closed alone.

The parts, one module each:

- ``wire``: the commands, a message, its 24-byte header, the CNXN banner;
- ``limits``: what one client may make the daemon hold (``Limits``);
- ``stream``: one open stream, a byte pipe with ADB flow control;
- ``shell_service``, ``sync``, ``services``: what a stream can open, by name;
- ``connection``: one client: the handshake (and auth), its packets, its streams;
- ``daemon``: ``AdbDaemon``, the listener, the per-client cap and ``stats()``.
"""

from screenpilot.simulator.adbd.connection import Connection
from screenpilot.simulator.adbd.daemon import AdbDaemon
from screenpilot.simulator.adbd.limits import IDLE_POLL_S, SOCKET_TIMEOUT_S, Limits
from screenpilot.simulator.adbd.services import REFUSALS, Service, Services
from screenpilot.simulator.adbd.shell_service import (
    SHELL_EXIT,
    SHELL_STDERR,
    SHELL_STDOUT,
    ShellV2IO,
    StreamIO,
    run_or_interact,
)
from screenpilot.simulator.adbd.stream import Stream
from screenpilot.simulator.adbd.sync import SYNC_DATA_MAX, SYNC_MAX_PATH, SyncSession
from screenpilot.simulator.adbd.wire import (
    A_AUTH,
    A_CLSE,
    A_CNXN,
    A_OKAY,
    A_OPEN,
    A_STLS,
    A_SYNC,
    A_VERSION,
    A_VERSION_SKIP_CHECKSUM,
    A_WRTE,
    AUTH_MODES,
    AUTH_RSAPUBLICKEY,
    AUTH_SIGNATURE,
    AUTH_TOKEN,
    AUTH_TOKEN_SIZE,
    FEATURES,
    HEADER,
    KNOWN_COMMANDS,
    MAX_PAYLOAD,
    AuthMode,
    Message,
    ProtocolError,
    banner,
    pack_message,
    unpack_header,
)

__all__ = [
    "AUTH_MODES",
    "AUTH_RSAPUBLICKEY",
    "AUTH_SIGNATURE",
    "AUTH_TOKEN",
    "AUTH_TOKEN_SIZE",
    "A_AUTH",
    "A_CLSE",
    "A_CNXN",
    "A_OKAY",
    "A_OPEN",
    "A_STLS",
    "A_SYNC",
    "A_VERSION",
    "A_VERSION_SKIP_CHECKSUM",
    "A_WRTE",
    "FEATURES",
    "HEADER",
    "IDLE_POLL_S",
    "KNOWN_COMMANDS",
    "MAX_PAYLOAD",
    "REFUSALS",
    "SHELL_EXIT",
    "SHELL_STDERR",
    "SHELL_STDOUT",
    "SOCKET_TIMEOUT_S",
    "SYNC_DATA_MAX",
    "SYNC_MAX_PATH",
    "AdbDaemon",
    "AuthMode",
    "Connection",
    "Limits",
    "Message",
    "ProtocolError",
    "Service",
    "Services",
    "ShellV2IO",
    "Stream",
    "StreamIO",
    "SyncSession",
    "banner",
    "pack_message",
    "run_or_interact",
    "unpack_header",
]
