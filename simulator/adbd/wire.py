"""The ADB transport's wire format: the commands, one message, its header, the CNXN banner.

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
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Literal

from screenpilot.simulator.backend import PhoneBackend

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


class ProtocolError(Exception):
    """A packet that breaks the ADB transport protocol: the connection is dropped."""


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
