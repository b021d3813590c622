"""Where a shell command's output goes: the client, a buffer, or its redirections."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable


class ShellIO(ABC):
    """Where a command's output goes; ``closed`` turns true when the client has left."""

    @abstractmethod
    def out(self, data: bytes) -> None:
        """Write to stdout."""

    @abstractmethod
    def err(self, data: bytes) -> None:
        """Write to stderr."""

    @property
    @abstractmethod
    def closed(self) -> bool:
        """True once nobody is listening any more."""


class BufferIO(ShellIO):
    """Collects output in memory (pipes, command substitution, tests)."""

    def __init__(self, parent: ShellIO | None = None, *, keep_err: bool = True) -> None:
        self.parent = parent
        self.keep_err = keep_err
        self.stdout = bytearray()
        self.stderr = bytearray()

    def out(self, data: bytes) -> None:
        self.stdout += data

    def err(self, data: bytes) -> None:
        if self.keep_err or self.parent is None:
            self.stderr += data
        else:
            self.parent.err(data)

    @property
    def closed(self) -> bool:
        return self.parent.closed if self.parent is not None else False


class RedirectedIO(ShellIO):
    """stdout/stderr sent where a command's redirections say."""

    def __init__(self, parent: ShellIO, fds: dict[int, Callable[[bytes], None]]) -> None:
        self.parent = parent
        self.fds = fds

    def out(self, data: bytes) -> None:
        self.fds[1](data)

    def err(self, data: bytes) -> None:
        self.fds[2](data)

    @property
    def closed(self) -> bool:
        return self.parent.closed
