"""How a failing Android framework command reports itself: Java exceptions and numbers."""

from __future__ import annotations

import re

from screenpilot.simulator.shell.call import Call

_BINDER_FRAMES = (
    "com.android.modules.utils.BasicShellCommandHandler.exec(BasicShellCommandHandler.java:97)",
    "android.os.ShellCommand.exec(ShellCommand.java:38)",
    "android.os.Binder.shellCommand(Binder.java:1092)",
    "android.os.Binder.onTransact(Binder.java:912)",
    "android.os.Binder.execTransactInternal(Binder.java:1392)",
    "android.os.Binder.execTransact(Binder.java:1299)",
)


def java_failure(call: Call, command: str, exception: str, where: str) -> int:
    """What a failing ``ShellCommand`` prints to stderr; status 255."""
    frames = "".join(f"\tat {frame}\n" for frame in (where, *_BINDER_FRAMES))
    call.error(f"\nException occurred while executing '{command}':\n{exception}\n{frames}", end="")
    return 255


class UsageError(Exception):
    """Bad arguments to a framework command (rendered as its Java exception)."""


_JAVA_FLOAT = re.compile(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fFdD]?\s*")


def java_float(text: str) -> float:
    if not _JAVA_FLOAT.fullmatch(text):
        raise UsageError(f'For input string: "{text}"')
    return float(text.strip().rstrip("fFdD"))


def java_int(text: str) -> int:
    if not re.fullmatch(r"[+-]?\d+", text):
        raise UsageError(f'For input string: "{text}"')
    return int(text)
