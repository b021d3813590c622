"""The apps installed on the virtual phone.

``APPS`` lists the app classes a fresh ``VirtualPhone`` installs, launcher first;
add a new app's class here (see ``base.py`` for how to write one).
"""

from __future__ import annotations

from screenpilot.simulator.apps.base import App, Ctx, Entry, Event, Host
from screenpilot.simulator.apps.launcher import LauncherApp
from screenpilot.simulator.apps.settings import SettingsApp

APPS: list[type[App]] = [LauncherApp, SettingsApp]


def default_apps() -> list[App]:
    """One instance of every app in ``APPS``."""
    return [cls() for cls in APPS]


__all__ = ["APPS", "App", "Ctx", "Entry", "Event", "Host", "LauncherApp", "SettingsApp",
           "default_apps"]
