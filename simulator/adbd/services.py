"""The services a stream can open, by the name in its OPEN: shell, exec, sync, refusals.

``reboot:``/``root:``/``unroot:``/``remount:`` print the refusal a production phone
prints; anything else is refused with ``CLSE(0, id)`` as adbd does.
"""

from __future__ import annotations

from collections.abc import Callable

from screenpilot.simulator.adbd.shell_service import serve_shell
from screenpilot.simulator.adbd.stream import Stream
from screenpilot.simulator.adbd.sync import SyncSession
from screenpilot.simulator.backend import PhoneBackend
from screenpilot.simulator.shell import MemoryFileSystem

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
            serve_shell(stream, self.backend, self.fs, command, v2=v2)

        return serve


def _refuse(stream: Stream, text: bytes) -> None:
    """Print why the service cannot run; the stream is closed after it."""
    stream.write(text)
