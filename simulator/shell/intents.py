"""Android intents as ``am`` reads them (``-a -d -t -c -n -p -f`` and the extras options).

An ``Intent`` prints itself the way ``Intent.toString`` does; ``SETTINGS_ACTIVITIES``
names the Settings screen each settings action opens.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from screenpilot.simulator.shell.java import UsageError

SETTINGS_ACTIVITIES = {
    "android.settings.SETTINGS": None,
    "android.settings.WIFI_SETTINGS": "Settings$WifiSettingsActivity",
    "android.settings.WIRELESS_SETTINGS": "Settings$NetworkDashboardActivity",
    "android.settings.AIRPLANE_MODE_SETTINGS": "Settings$NetworkDashboardActivity",
    "android.settings.BLUETOOTH_SETTINGS": "Settings$BluetoothSettingsActivity",
    "android.settings.DISPLAY_SETTINGS": "Settings$DisplaySettingsActivity",
    "android.settings.SOUND_SETTINGS": "Settings$SoundSettingsActivity",
    "android.settings.SECURITY_SETTINGS": "Settings$SecurityDashboardActivity",
    "android.settings.APPLICATION_SETTINGS": "Settings$ManageApplicationsActivity",
    "android.settings.DEVICE_INFO_SETTINGS": "Settings$MyDeviceInfoActivity",
}


@dataclass
class Intent:
    """The parts of an ``am`` intent specification this phone understands."""

    action: str | None = None
    data: str | None = None
    mime: str | None = None
    categories: list[str] = field(default_factory=list)
    package: str | None = None
    component: tuple[str, str] | None = None
    extras: dict[str, str] = field(default_factory=dict)
    flags: int = 0

    def __str__(self) -> str:
        parts = []
        if self.action:
            parts.append(f"act={self.action}")
        if self.categories:
            parts.append(f"cat=[{','.join(self.categories)}]")
        if self.data:
            parts.append(f"dat={self.data}")
        if self.mime:
            parts.append(f"typ={self.mime}")
        if self.flags:
            parts.append(f"flg=0x{self.flags:x}")
        if self.package:
            parts.append(f"pkg={self.package}")
        if self.component:
            parts.append(f"cmp={short_component(*self.component)}")
        if self.extras:
            parts.append("(has extras)")
        return "Intent { " + " ".join(parts) + " }"


def short_component(package: str, cls: str) -> str:
    """``ComponentName.flattenToShortString``."""
    if cls.startswith(package + "."):
        return f"{package}/{cls[len(package) :]}"
    return f"{package}/{cls}"


def parse_component(text: str) -> tuple[str, str] | None:
    package, sep, cls = text.partition("/")
    if not sep or not package or not cls:
        return None
    return package, package + cls if cls.startswith(".") else cls


_INTENT_VALUE_OPTS = {
    "--es",
    "--ez",
    "--ei",
    "--el",
    "--ef",
    "--eu",
    "--ecn",
    "--eia",
    "--eial",
    "--ela",
    "--elal",
    "--efa",
    "--efal",
    "--esa",
    "--esal",
    "--ed",
    "--eda",
    "--edal",
    "-e",
}


def parse_intent(args: list[str]) -> tuple[Intent, list[str]]:
    """An intent from ``am`` arguments; the non-intent options are returned as well."""
    intent, others = Intent(), []
    items = iter(args)
    for arg in items:
        if arg == "-a":
            intent.action = next(items, "")
        elif arg == "-d":
            intent.data = next(items, "")
        elif arg == "-t":
            intent.mime = next(items, "")
        elif arg == "-c":
            intent.categories.append(next(items, ""))
        elif arg == "-n":
            comp = parse_component(next(items, ""))
            if comp is None:
                raise UsageError("Bad component name")
            intent.component = comp
        elif arg == "-p":
            intent.package = next(items, "")
        elif arg == "-f":
            intent.flags |= int(next(items, "0"), 0)
        elif arg in _INTENT_VALUE_OPTS:
            key = next(items, "")
            intent.extras[key] = next(items, "")
        elif arg in ("--esn",):
            intent.extras[next(items, "")] = ""
        elif arg in (
            "--user",
            "-R",
            "--start-profiler",
            "--sampling",
            "--display",
            "--windowingMode",
            "--activityType",
            "--task",
            "--receiver-permission",
        ):
            others += [arg, next(items, "")]
        elif arg.startswith("-"):
            others.append(arg)
        elif intent.data is None and ":" in arg:
            intent.data = arg
        elif intent.component is None and (comp := parse_component(arg)) is not None:
            intent.component = comp
        else:
            intent.package = intent.package or arg
    return intent, others
