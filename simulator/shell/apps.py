"""The app commands: ``am`` (start, broadcast, force-stop), ``monkey``, ``pm`` and ``ime``.

An ``am start`` intent is resolved the way Android resolves it (an explicit
component, the HOME category, a Settings action, a new contact's editor, or a package's
launcher activity).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from screenpilot.simulator.shell.call import Builtin, Call
from screenpilot.simulator.shell.intents import SETTINGS_ACTIVITIES, Intent, parse_intent
from screenpilot.simulator.shell.java import UsageError, java_failure
from screenpilot.simulator.shell.keys import KEYCODES

if TYPE_CHECKING:
    from screenpilot.simulator.shell.interpreter import Shell

#: Implicit intents (action, MIME type) that open an editor, as on a real phone.
EDITOR_INTENTS = {
    ("android.intent.action.INSERT", mime): (
        "com.android.contacts",
        "com.android.contacts.activities.ContactEditorActivity",
    )
    for mime in ("vnd.android.cursor.dir/contact", "vnd.android.cursor.dir/raw_contact")
}


class AppCommands:
    """Starting, listing and stopping apps, and choosing the keyboard."""

    def __init__(self, shell: Shell) -> None:
        self.backend = shell.backend

    def table(self) -> dict[str, Builtin]:
        return {"am": self.am, "monkey": self.monkey, "pm": self.pm, "ime": self.ime}

    def am(self, call: Call) -> int:
        verb, rest = (call.args[0], call.args[1:]) if call.args else ("", [])
        try:
            if verb in ("start", "start-activity"):
                return self._am_start(call, rest)
            if verb == "broadcast":
                return self._am_broadcast(call, rest)
            if verb in ("force-stop", "kill"):
                return self._am_force_stop(rest)
        except UsageError as exc:
            return java_failure(
                call,
                "activity",
                f"java.lang.IllegalArgumentException: {exc}",
                "android.content.Intent.parseCommandArgs(Intent.java:8170)",
            )
        call.print(
            f"Unknown command: {verb}"
            if verb
            else "Activity manager (activity) commands:\n  help\n      Print this help text."
        )
        return 255

    def _am_start(self, call: Call, args: list[str]) -> int:
        intent, options = parse_intent(args)
        if not (intent.action or intent.component or intent.package or intent.data):
            raise UsageError("No intent supplied")
        call.print(f"Starting: {intent}")
        started = self._resolve_and_launch(intent)
        if started is None:
            intent.flags |= 0x10000000
            call.error(f"Error: Activity not started, unable to resolve {intent}")
            return 1
        if not started:
            assert intent.component is not None
            call.error("Error type 3")
            call.error(
                f"Error: Activity class {{{intent.component[0]}/{intent.component[1]}}}"
                " does not exist."
            )
            return 1
        if "-W" in options:
            package, activity = self.backend.current_focus()
            call.print(
                f"Status: ok\nLaunchState: COLD\nActivity: {package}/{activity}\n"
                "TotalTime: 250\nWaitTime: 262\nComplete"
            )
        return 0

    def _resolve_and_launch(self, intent: Intent) -> bool | None:
        """True launched, False no such activity, None nothing resolves the intent."""
        if intent.component is not None:
            return self.backend.launch(*intent.component)
        if intent.categories and "android.intent.category.HOME" in intent.categories:
            self.backend.keyevent(KEYCODES["HOME"])
            return True
        if intent.action in SETTINGS_ACTIVITIES:
            act = SETTINGS_ACTIVITIES[intent.action]
            full = f"com.android.settings.{act}" if act else None
            return bool(
                self.backend.launch("com.android.settings", full)
                or self.backend.launch("com.android.settings", None)
            )
        editor = EDITOR_INTENTS.get((intent.action or "", intent.mime or ""))
        if editor is not None:
            return self.backend.launch(*editor)
        if intent.package and intent.package in self.backend.packages():
            return self.backend.launch(intent.package, None)
        return None

    def _am_broadcast(self, call: Call, args: list[str]) -> int:
        intent, _ = parse_intent(args)
        intent.flags |= 0x400000
        call.print(f"Broadcasting: {intent}")
        result = self.backend.broadcast(intent.action or "", dict(intent.extras))
        if "Broadcast completed" in result:
            call.print(result[result.index("Broadcast completed") :].rstrip("\n"))
        else:
            data = f', data="{result}"' if result else ""
            call.print(f"Broadcast completed: result=0{data}")
        return 0

    def _am_force_stop(self, args: list[str]) -> int:
        packages = [a for a in args if not a.startswith("-")]
        stop = getattr(self.backend, "force_stop", None)
        if callable(stop):
            for package in packages:
                stop(package)
        return 0

    def monkey(self, call: Call) -> int:
        for arg in call.args:
            call.print(f"  bash arg: {arg}")
        packages, items = [], iter(call.args)
        count = 0
        for arg in items:
            if arg == "-p":
                packages.append(next(items, ""))
            elif arg in ("-c", "--throttle", "-s", "--pct-touch", "--pct-motion"):
                next(items, None)
            elif arg.isdigit():
                count = int(arg)
        installed = set(self.backend.packages())
        launchable = [p for p in packages if p in installed]
        if not launchable:
            call.print("** No activities found to run, monkey aborted.")
            return 252
        self.backend.launch(launchable[0], None)
        call.print(f"Events injected: {max(count, 1)}")
        call.print("## Network stats: elapsed time=18ms (0ms mobile, 0ms wifi, 18ms not connected)")
        return 0

    def pm(self, call: Call) -> int:
        args = call.args
        if args[:2] in (["list", "packages"], ["list", "package"]):
            filters = [a for a in args[2:] if not a.startswith("-")]
            for name in self.backend.packages():
                if not filters or filters[0] in name:
                    call.print(f"package:{name}")
            return 0
        if args[:1] == ["path"] and len(args) > 1:
            if args[1] not in self.backend.packages():
                return 1
            call.print(f"package:/system/priv-app/{args[1]}/{args[1]}.apk")
            return 0
        call.error(f"Unknown command: {' '.join(args)}" if args else "usage: pm list packages")
        return 255

    def ime(self, call: Call) -> int:
        verb, rest = (call.args[0], call.args[1:]) if call.args else ("", [])
        imes = self.backend.ime_list()
        if verb == "list":
            for ime in imes:
                call.print(ime if "-s" in rest else f"{ime}:\n  mId={ime}")
            return 0
        if verb in ("set", "enable") and rest:
            ime = rest[-1]
            if ime not in imes:
                call.error(
                    f"Unknown input method {ime} cannot be "
                    f"{'selected' if verb == 'set' else 'enabled'} for user #0"
                )
                return 255
            if verb == "enable":
                call.print(f"Input method {ime}: already enabled for user #0")
                return 0
            chooser = getattr(self.backend, "ime_set", None)
            if callable(chooser):
                chooser(ime)
            else:
                self.backend.settings_put("secure", "default_input_method", ime)
            call.print(f"Input method {ime} selected for user #0")
            return 0
        call.print(f"Unknown command: {verb}" if verb else "ime <command>:")
        return 255
