"""The screen's commands: ``screencap`` (PNG or raw RGBA), ``wm size|density``, and
``uiautomator``, which this vision-only phone refuses."""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING

from screenpilot.simulator.shell.call import Builtin, Call

if TYPE_CHECKING:
    from screenpilot.simulator.shell.interpreter import Shell

SCREENCAP_USAGE = """usage: screencap [-hp] [-d display-id] [FILENAME]
   -h: this message
   -p: save the file as a png.
   -d: specify the physical display ID to capture (default: 4619827259835644672)
       see "dumpsys SurfaceFlinger --display-id" for valid display IDs.
If FILENAME ends with .png it will be saved as a png.
If FILENAME is not given, the results will be printed to stdout."""


class ScreenCommands:
    """What the shell can ask about the screen."""

    def __init__(self, shell: Shell) -> None:
        self.shell = shell
        self.backend = shell.backend

    def table(self) -> dict[str, Builtin]:
        return {"screencap": self.screencap, "wm": self.wm, "uiautomator": self.uiautomator}

    def screencap(self, call: Call) -> int:
        png, target, args = False, None, iter(call.args)
        for arg in args:
            if arg == "-p":
                png = True
            elif arg == "-d":
                next(args, None)
            elif arg.startswith("-"):
                call.error(SCREENCAP_USAGE)
                return 1 if arg != "-h" else 0
            else:
                target = arg
        if target is not None and target.endswith(".png"):
            png = True
        data = (
            self.backend.screencap_png()
            if png
            else screencap_raw_bytes(*self.backend.screencap_raw())
        )
        if target is None:
            call.io.out(data)
            return 0
        error = self.shell.fs.write(self.shell.fs.normalize(target, self.shell.cwd), data)
        if error:
            call.error(f"Error opening file: {target} ({error})")
            return 1
        return 0

    def wm(self, call: Call) -> int:
        verb = call.args[0] if call.args else ""
        if verb == "size" and len(call.args) == 1:
            w, h = self.backend.size()
            call.print(f"Physical size: {w}x{h}")
            return 0
        if verb == "density" and len(call.args) == 1:
            call.print(f"Physical density: {self.backend.density()}")
            return 0
        if verb in ("size", "density"):
            call.error(f"Error: the virtual phone's {verb} cannot be overridden")
            return 255
        call.print(f"Unknown command: {verb}" if verb else "Window manager (window) commands:")
        return 255

    def uiautomator(self, call: Call) -> int:
        call.error(
            "ERROR: uiautomator is not available on this phone: screenpilot's virtual "
            "phone is vision-only and exposes no accessibility tree (use screencap)"
        )
        return 1


def screencap_raw_bytes(width: int, height: int, rgba: bytes) -> bytes:
    """``screencap`` without -p: width, height, format 1 (RGBA_8888), colorspace 1 (sRGB)."""
    return struct.pack("<4I", width, height, 1, 1) + rgba
