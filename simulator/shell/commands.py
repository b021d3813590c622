"""The command table of one shell: toybox, Android's own tools, and ``cmd SERVICE``.

Commands print what Android 14 prints (``input``, ``screencap``, ``wm``, ``am``,
``monkey``, ``pm``, ``ime``, ``settings``, ``content``, ``dumpsys``, ``getprop``,
``getevent``, ``cmd`` and a few toybox tools on the phone's in-memory file system).
``cmd SERVICE ...`` reaches the same handlers under their binder service names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from screenpilot.simulator.shell.apps import AppCommands
from screenpilot.simulator.shell.call import Builtin, Call
from screenpilot.simulator.shell.getevent import GeteventCommand
from screenpilot.simulator.shell.input_command import InputCommand
from screenpilot.simulator.shell.screen import ScreenCommands
from screenpilot.simulator.shell.system import SystemCommands
from screenpilot.simulator.shell.toybox import Toybox

if TYPE_CHECKING:
    from screenpilot.simulator.shell.interpreter import Shell

# ``cmd SERVICE``: the binder service name -> the shell command that serves it
CMD_SERVICES = {
    "input": "input",
    "activity": "am",
    "package": "pm",
    "settings": "settings",
    "window": "wm",
    "input_method": "ime",
}


def android_commands(shell: Shell) -> dict[str, Builtin]:
    """The command table of one shell."""
    table: dict[str, Builtin] = {}
    for family in (
        Toybox(shell),
        InputCommand(shell),
        ScreenCommands(shell),
        AppCommands(shell),
        SystemCommands(shell),
        GeteventCommand(shell),
    ):
        table.update(family.table())
    table["cmd"] = ServiceCommand(
        {service: table[name] for service, name in CMD_SERVICES.items()}
    ).cmd
    return table


class ServiceCommand:
    """``cmd SERVICE ARGS``: the service's shell command run with ARGS."""

    def __init__(self, aliases: dict[str, Builtin]) -> None:
        self.aliases = aliases

    def cmd(self, call: Call) -> int:
        if not call.args:
            call.error(
                "cmd: No service specified; use -l to list all running services. "
                "Use -w to start and wait for a service."
            )
            return 20
        handler = self.aliases.get(call.args[0])
        if handler is None:
            call.error(f"cmd: Can't find service: {call.args[0]}")
            return 20
        return handler(Call(call.args[1:], call.stdin, call.io))
