"""The virtual phone's ``/system/bin/sh``: a small POSIX-like shell and Android's commands.

adbd hands every ``shell:`` command line to ``Shell.run``. One module per part:

* ``syntax``: the line parsed the way mksh parses ``sh -c LINE`` on a real phone;
* ``interpreter``: ``Shell``, which expands words, wires pipes and redirections, and
  runs each command from the table ``commands`` builds (``call``: what a command gets,
  ``streams``: where its output goes);
* ``filesystem``: the in-memory storage rooted at /sdcard and /data/local/tmp;
* ``toybox``; ``input_command``, ``screen``, ``apps``, ``system``, ``getevent``:
  Android's tools, with ``intents``, ``keys`` and ``java`` (how framework commands fail).

Anything else: ``/system/bin/sh: NAME: inaccessible or not found``, status 127.
"""

from screenpilot.simulator.shell.call import SH, Builtin, Call, ShellExit
from screenpilot.simulator.shell.filesystem import FileEntry, MemoryFileSystem
from screenpilot.simulator.shell.getevent import GeteventWriter
from screenpilot.simulator.shell.input_command import android_text
from screenpilot.simulator.shell.interpreter import ARG_MAX, Shell
from screenpilot.simulator.shell.keys import KEYCODES, keycode_from_string
from screenpilot.simulator.shell.streams import BufferIO, ShellIO
from screenpilot.simulator.shell.syntax import ShellSyntaxError, parse

__all__ = [
    "ARG_MAX",
    "KEYCODES",
    "SH",
    "BufferIO",
    "Builtin",
    "Call",
    "FileEntry",
    "GeteventWriter",
    "MemoryFileSystem",
    "Shell",
    "ShellExit",
    "ShellIO",
    "ShellSyntaxError",
    "android_text",
    "keycode_from_string",
    "parse",
]
