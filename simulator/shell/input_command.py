"""``input``: taps, swipes, drags, key events and text typed into the virtual phone.

Arguments are read the way ``InputShellCommand`` reads them on Android 14 (Java
number parsing, ``%s`` as a space in text, key names or numbers), and bad ones fail
with the same Java exceptions, so a client sees what a real phone would answer.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from screenpilot.simulator.shell.call import Builtin, Call
from screenpilot.simulator.shell.java import UsageError, java_failure, java_float, java_int
from screenpilot.simulator.shell.keys import keycode_from_string

if TYPE_CHECKING:
    from screenpilot.simulator.shell.interpreter import Shell

INPUT_USAGE = """Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]

The sources are:
      dpad
      keyboard
      mouse
      touchpad
      gamepad
      touchnavigation
      joystick
      touchscreen
      stylus
      trackball

-d: specify the display ID.
      (Default: -1 for key event, 0 for motion event if not specified.)
The commands and default sources are:
      text <string> (Default: keyboard)
      keyevent [--longpress|--duration <duration to hold key down in ms>] [--doubletap] \
[--async] [--delay <duration between keycodes in ms>] <key code number or name> ... \
(Default: keyboard)
      tap <x> <y> (Default: touchscreen)
      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
      draganddrop <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
      press (Default: trackball)
      roll <dx> <dy> (Default: trackball)
      motionevent <DOWN|UP|MOVE|CANCEL> <x> <y> (Default: touchscreen)
      keycombination [-t duration(ms)] <key code 1> <key code 2> ... (Default: keyboard, \
the key order is important here.)"""
INPUT_SOURCES = frozenset(
    {
        "dpad",
        "keyboard",
        "mouse",
        "touchpad",
        "gamepad",
        "touchnavigation",
        "joystick",
        "touchscreen",
        "stylus",
        "trackball",
    }
)


class InputCommand:
    """``input``: each gesture or key goes to the phone through its backend."""

    def __init__(self, shell: Shell) -> None:
        self.backend = shell.backend

    def table(self) -> dict[str, Builtin]:
        return {"input": self.input}

    def input(self, call: Call) -> int:
        args = list(call.args)
        if args and args[0] in INPUT_SOURCES:
            args.pop(0)
        if len(args) >= 2 and args[0] == "-d":
            args = args[2:]
        if not args or args[0] in ("help", "-h"):
            call.print(INPUT_USAGE)
            return 0 if args else 255
        verb, rest = args[0], args[1:]
        handlers: dict[str, Callable[[list[str]], None]] = {
            "text": self._text,
            "keyevent": self._keyevent,
            "tap": self._tap,
            "swipe": self._swipe,
            "draganddrop": self._draganddrop,
            "press": lambda a: None,
            "roll": self._roll,
            "motionevent": self._motionevent,
            "keycombination": self._keycombination,
        }
        handler = handlers.get(verb)
        if handler is None:
            call.print(f"Unknown command: {verb}")
            return 255
        try:
            handler(rest)
        except UsageError as exc:
            return java_failure(
                call,
                "input",
                f"java.lang.IllegalArgumentException: {exc}",
                "com.android.server.input.InputShellCommand.onCommand(InputShellCommand.java:283)",
            )
        except _NoKeyCombination:
            call.print("Unknown command: keycombination")
            return 255
        except _UnmappableText:
            return java_failure(
                call,
                "input",
                "java.lang.NullPointerException: Attempt to get length of null array",
                "com.android.server.input.InputShellCommand.sendText(InputShellCommand.java:226)",
            )
        return 0

    def _required(self, args: list[str], count: int, verb: str) -> list[str]:
        if len(args) < count:
            raise UsageError(f'Argument expected after "{args[-1] if args else verb}"')
        return args

    def _point(self, xs: str, ys: str, verb: str) -> tuple[int, int]:
        try:
            return int(java_float(xs)), int(java_float(ys))
        except UsageError:
            raise UsageError(f"Error: Invalid arguments for command: {verb}") from None

    def _on_screen(self, x: int, y: int) -> bool:
        w, h = self.backend.size()
        if self.backend.rotation() % 2:
            w, h = h, w
        return 0 <= x < w and 0 <= y < h

    def _clamp(self, x: int, y: int) -> tuple[int, int]:
        w, h = self.backend.size()
        if self.backend.rotation() % 2:
            w, h = h, w
        return min(max(x, 0), w - 1), min(max(y, 0), h - 1)

    def _text(self, args: list[str]) -> None:
        text = android_text(self._required(args, 1, "text")[0])
        if any(not (" " <= ch <= "~" or ch in "\n\t") for ch in text):
            raise _UnmappableText
        self.backend.input_text(text)

    def _tap(self, args: list[str]) -> None:
        a = self._required(args, 2, "tap")
        x, y = self._point(a[0], a[1], "tap")
        if self._on_screen(x, y):
            self.backend.tap(x, y)

    def _swipe(self, args: list[str]) -> None:
        a = self._required(args, 4, "swipe")
        x1, y1 = self._point(a[0], a[1], "swipe")
        x2, y2 = self._clamp(*self._point(a[2], a[3], "swipe"))
        duration = java_int(a[4]) if len(a) > 4 else -1
        if self._on_screen(x1, y1):
            self.backend.swipe(x1, y1, x2, y2, 300 if duration < 0 else duration)

    def _draganddrop(self, args: list[str]) -> None:
        a = self._required(args, 4, "draganddrop")
        x1, y1 = self._point(a[0], a[1], "draganddrop")
        x2, y2 = self._clamp(*self._point(a[2], a[3], "draganddrop"))
        duration = java_int(a[4]) if len(a) > 4 else 300
        if not self._on_screen(x1, y1):
            return
        self.backend.touch_down(x1, y1)
        time.sleep(0.6)  # ViewConfiguration long-press timeout x 1.5: the drag starts
        steps = max(1, duration // 16)
        for i in range(1, steps + 1):
            self.backend.touch_move(x1 + (x2 - x1) * i // steps, y1 + (y2 - y1) * i // steps)
            time.sleep(duration / 1000 / steps)
        self.backend.touch_up(x2, y2)

    def _roll(self, args: list[str]) -> None:
        a = self._required(args, 2, "roll")
        self._point(a[0], a[1], "roll")  # a trackball roll: this phone has no trackball

    def _motionevent(self, args: list[str]) -> None:
        a = self._required(args, 3, "motionevent")
        x, y = self._point(a[1], a[2], "motionevent")
        actions = {
            "DOWN": self.backend.touch_down,
            "MOVE": self.backend.touch_move,
            "UP": self.backend.touch_up,
            "CANCEL": self.backend.touch_up,
        }
        action = actions.get(a[0].upper())
        if action is None:
            raise UsageError(f"Unknown motionevent action: {a[0]}")
        action(x, y)

    def _keyevent(self, args: list[str]) -> None:
        longpress, double, keys = False, False, []
        items = iter(args)
        for arg in items:
            if arg == "--longpress":
                longpress = True
            elif arg == "--doubletap":
                double = True
            elif arg in ("--duration", "--delay"):
                java_int(next(items, "x"))
            elif arg != "--async":
                keys.append(arg)
        if not keys:
            raise UsageError('Argument expected after "keyevent"')
        for key in keys:
            code = keycode_from_string(key)
            for _ in range(2 if double else 1):
                if code:
                    self.backend.keyevent(code, longpress=longpress)

    def _keycombination(self, args: list[str]) -> None:
        keys = list(args)
        if len(keys) >= 2 and keys[0] == "-t":
            java_int(keys[1])
            keys = keys[2:]
        if len(keys) < 2:
            raise UsageError("keycombination requires at least 2 keycodes")
        codes = [keycode_from_string(k) for k in keys]
        combo = getattr(self.backend, "key_combination", None)
        if not callable(combo):
            # Pressing the keys one by one would type them (ctrl+a -> "a"): answer the way
            # Android 12, which had no keycombination, does, so that callers fall back.
            raise _NoKeyCombination
        combo(codes)


class _NoKeyCombination(Exception):
    """The backend offers no ``key_combination(codes)``."""


class _UnmappableText(Exception):
    """``input text`` with a character the virtual keyboard's key map cannot type."""


def android_text(arg: str) -> str:
    """``InputShellCommand.sendText``: every ``%s`` becomes a space."""
    out: list[str] = []
    escape = False
    for ch in arg:
        if escape and ch == "s":
            out[-1] = " "
            escape = False
            continue
        escape = ch == "%"
        out.append(ch)
    return "".join(out)
