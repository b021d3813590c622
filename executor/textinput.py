"""How to type text on Android through ``adb shell`` without the phone's shell mangling it.

``input text`` takes one argument, turns ``%s`` into a space, and only types
printable ASCII. The argument goes through the phone's ``sh`` first, so it is
single-quoted (spaces, quotes, ``&``, ``;``, ``$``, backslashes reach ``input``
verbatim). A literal ``%s`` is typed as ``%`` and ``s`` in separate commands.
Newlines and tabs become key presses. Anything else (Chinese, emoji, accents)
goes through the ADB Keyboard IME's ``ADB_INPUT_B64`` broadcast.
"""

from __future__ import annotations

import base64
import re
import shlex
from collections.abc import Iterator

ADB_KEYBOARD_IME = "com.android.adbkeyboard/.AdbIME"
ADB_KEYBOARD_HELP = (
    "install ADB Keyboard (https://github.com/senzhk/ADBKeyBoard: "
    "`adb install ADBKeyboard.apk`, then `adb shell ime enable "
    f"{ADB_KEYBOARD_IME}`) to type non-ASCII text"
)
CHUNK = 200
_KEYS = {"\n": "KEYCODE_ENTER", "\t": "KEYCODE_TAB"}


def is_plain_ascii(text: str) -> bool:
    """True when ``input text`` can type every character (printable ASCII, newline, tab)."""
    return all(" " <= c <= "~" or c in _KEYS for c in text)


def _runs(text: str) -> Iterator[str]:
    """Split into pieces that ``input text`` can take literally, and single keys."""
    for piece in re.split(r"(\n|\t)", text):
        if not piece:
            continue
        if piece in _KEYS:
            yield piece
            continue
        # "%s" would become a space: break it between "%" and "s".
        parts = piece.split("%s")
        for i, part in enumerate(parts):
            chunk = part if i == 0 else "s" + part
            if i < len(parts) - 1:
                chunk += "%"
            for start in range(0, len(chunk), CHUNK):
                yield chunk[start : start + CHUNK]


def input_text_commands(text: str) -> list[str]:
    """Shell commands that type ``text`` (printable ASCII) exactly."""
    cmds: list[str] = []
    for run in _runs(text):
        if run in _KEYS:
            cmds.append(f"input keyevent {_KEYS[run]}")
        else:
            cmds.append("input text " + shlex.quote(run.replace(" ", "%s")))
    return cmds


def adb_keyboard_command(text: str) -> str:
    """The ADB Keyboard broadcast that types ``text`` (any Unicode)."""
    payload = base64.b64encode(text.encode("utf-8")).decode("ascii")
    return f"am broadcast -a ADB_INPUT_B64 --es msg {payload}"
