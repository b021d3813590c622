"""The apps installed on the virtual phone.

``APPS`` lists the app classes a fresh ``VirtualPhone`` installs, launcher first;
add a new app's class here (see ``base.py`` for how to write one).
"""

from __future__ import annotations

from screenpilot.simulator.apps.base import App, Ctx, Entry, Event, Host
from screenpilot.simulator.apps.clock import ClockApp
from screenpilot.simulator.apps.contacts import ContactsApp
from screenpilot.simulator.apps.launcher import LauncherApp
from screenpilot.simulator.apps.messages import MessagesApp
from screenpilot.simulator.apps.settings import SettingsApp
from screenpilot.simulator.apps.shop import ShopApp

APPS: list[type[App]] = [LauncherApp, SettingsApp, ContactsApp, ClockApp, MessagesApp, ShopApp]


def default_apps() -> list[App]:
    """One instance of every app in ``APPS``."""
    return [cls() for cls in APPS]


__all__ = [
    "APPS",
    "App",
    "ClockApp",
    "ContactsApp",
    "Ctx",
    "Entry",
    "Event",
    "Host",
    "LauncherApp",
    "MessagesApp",
    "SettingsApp",
    "ShopApp",
    "default_apps",
]
