"""The system-state commands: ``settings``, ``content query``, ``dumpsys`` and ``getprop``.

Each reads (or, for ``settings put``, changes) the phone's state through its
backend and prints it the way Android 14 does.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from screenpilot.simulator.shell.call import Builtin, Call

if TYPE_CHECKING:
    from screenpilot.simulator.shell.interpreter import Shell

DISPLAY_ID_TEXT = (
    'Display 4619827259835644672 (HWC display 0): port=0 pnpId=GGL displayName="EMU_display_0"'
)
KNOWN_PROPS = (
    "ro.build.version.release",
    "ro.build.version.sdk",
    "ro.build.fingerprint",
    "ro.product.brand",
    "ro.product.manufacturer",
    "ro.product.model",
    "ro.product.name",
    "ro.product.device",
    "ro.serialno",
    "ro.hardware",
    "ro.sf.lcd_density",
    "ro.product.cpu.abi",
    "ro.build.type",
    "sys.boot_completed",
    "persist.sys.locale",
)
SETTINGS_NAMESPACES = ("system", "secure", "global")


class SystemCommands:
    """Reading and changing the phone's settings, providers, services and properties."""

    def __init__(self, shell: Shell) -> None:
        self.backend = shell.backend

    def table(self) -> dict[str, Builtin]:
        return {
            "settings": self.settings,
            "content": self.content,
            "dumpsys": self.dumpsys,
            "getprop": self.getprop,
        }

    def settings(self, call: Call) -> int:
        args = list(call.args)
        while args and args[0] in ("--user", "--lineage"):
            args = args[2:] if args[0] == "--user" else args[1:]
        if len(args) < 2 or args[0] not in ("get", "put", "list", "delete"):
            call.error(
                "usage:  settings [--user <USER_ID> | current] get namespace key\n"
                "        settings [--user <USER_ID> | current] put namespace key value"
                "\n        settings [--user <USER_ID> | current] list namespace"
            )
            return 255
        verb, namespace = args[0], args[1]
        if namespace not in SETTINGS_NAMESPACES:
            call.error(f"Invalid namespace '{namespace}'")
            return 255
        if verb == "list":
            for key, value in sorted(self.backend.settings_list(namespace).items()):
                call.print(f"{key}={value}")
            return 0
        if len(args) < 3 or (verb == "put" and len(args) < 4):
            call.error(f"Invalid arguments for 'settings {verb}'")
            return 255
        if verb == "get":
            found = self.backend.settings_get(namespace, args[2])
            call.print("null" if found is None else found)
        elif verb == "put":
            self.backend.settings_put(namespace, args[2], args[3])
        else:
            call.print("Deleted 0 rows")
        return 0

    def content(self, call: Call) -> int:
        args = call.args
        if not args or args[0] != "query":
            call.error(
                "usage: adb shell content [subcommand] [options]\n\nusage: adb shell "
                "content query --uri <URI> [--user <USER_ID>] [--projection "
                "<PROJECTION>] [--where <WHERE>] [--sort <SORT_ORDER>]"
            )
            return 255 if args else 0
        opts = dict(zip(args[1::2], args[2::2], strict=False))
        uri = opts.get("--uri")
        if uri is None:
            call.error("[ERROR] Content provider URI not specified.")
            return 255
        authority = uri.removeprefix("content://").split("/", 1)[0]
        rows = self.backend.content_query(uri)
        if rows is None:
            return self._provider_error(call, authority)
        try:
            rows = query_rows(rows, opts.get("--where"), opts.get("--sort"))
        except ValueError as exc:
            call.error(
                f"Error while accessing provider:{authority}\n"
                f"android.database.sqlite.SQLiteException: {exc}"
            )
            return 1
        projection = opts["--projection"].split(":") if "--projection" in opts else None
        if not rows:
            call.print("No result found.")
        for index, row in enumerate(rows):
            cols = projection or list(row)
            call.print(f"Row: {index} " + ", ".join(f"{c}={row.get(c, 'NULL')}" for c in cols))
        return 0

    def _provider_error(self, call: Call, authority: str) -> int:
        call.error(
            f"Error while accessing provider:{authority}\n"
            f"java.lang.IllegalStateException: Could not find provider: {authority}\n"
            "\tat com.android.commands.content.Content$Command.execute"
            "(Content.java:529)\n"
            "\tat com.android.commands.content.Content.main(Content.java:742)\n"
            "\tat com.android.internal.os.RuntimeInit.nativeFinishInit(Native Method)\n"
            "\tat com.android.internal.os.RuntimeInit.main(RuntimeInit.java:360)"
        )
        return 1

    def dumpsys(self, call: Call) -> int:
        if not call.args or call.args[0] == "-l":
            call.print("Currently running services:")
            for name in (
                "activity",
                "alarm",
                "display",
                "input",
                "input_method",
                "package",
                "power",
                "settings",
                "SurfaceFlinger",
                "window",
            ):
                call.print(f"  {name}")
            return 0
        service, rest = call.args[0], call.args[1:]
        text = self.backend.dumpsys(service, rest)
        if text is None and service == "SurfaceFlinger" and "--display-id" in rest:
            text = DISPLAY_ID_TEXT
        if text is None:
            call.error(f"Can't find service: {service}")
            return 0
        call.print(text.rstrip("\n"))
        return 0

    def getprop(self, call: Call) -> int:
        if not call.args:
            for name in KNOWN_PROPS:
                value = self.backend.getprop(name)
                if value:
                    call.print(f"[{name}]: [{value}]")
            return 0
        value = self.backend.getprop(call.args[0])
        call.print(value or (call.args[1] if len(call.args) > 1 else ""))
        return 0


def query_rows(
    rows: list[dict[str, str]], where: str | None, sort: str | None
) -> list[dict[str, str]]:
    """Rows filtered by ``col=value [AND ...]`` and ordered by ``col [ASC|DESC]``."""
    if where:
        for clause in re.split(r"\s+AND\s+", where.strip(), flags=re.IGNORECASE):
            m = re.fullmatch(r"\s*(\w+)\s*=\s*(?:'([^']*)'|\"([^\"]*)\"|(\S+))\s*", clause)
            if m is None:
                raise ValueError(f'near "{clause}": syntax error (code 1 SQLITE_ERROR)')
            col, value = m.group(1), next(g for g in m.groups()[1:] if g is not None)
            rows = [r for r in rows if r.get(col) == value]
    if sort:
        col, _, direction = sort.strip().partition(" ")
        rows = sorted(
            rows, key=lambda r: r.get(col, ""), reverse=direction.strip().upper() == "DESC"
        )
    return rows
