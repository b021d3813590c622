"""One command being run by the shell: its arguments, stdin and output, and ``exit``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from screenpilot.simulator.shell.streams import ShellIO

SH = "/system/bin/sh"
POLL_S = 0.2  # how often a long-running command checks that its client is still there


class ShellExit(Exception):
    """``exit N``: ends the whole command line with status N."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


@dataclass
class Call:
    """One command being run: its arguments, stdin and output."""

    args: list[str]
    stdin: bytes
    io: ShellIO

    def print(self, text: str = "", end: str = "\n") -> None:
        self.io.out((text + end).encode())

    def error(self, text: str, end: str = "\n") -> None:
        self.io.err((text + end).encode())


Builtin = Callable[[Call], int]
