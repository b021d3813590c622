"""The virtual phone's state and what it shows: tasks, settings, rendering, navigation.

``PhoneCore`` holds the JSON-serialisable state (settings provider, each app's
state, a task per launched app with the launcher underneath, toast, keyboard mode),
answers what apps may ask of their host (settings, toasts, finishing), renders the
foreground page into a ``Frame`` (cached until the state changes), and carries out
BACK, HOME and RECENTS. The input and Android-facing layers build on it.
"""

from __future__ import annotations

import copy
import io
import threading
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from PIL import Image

from screenpilot.errors import ConfigError
from screenpilot.model import Screen
from screenpilot.simulator.apps import default_apps
from screenpilot.simulator.apps.base import App, Ctx, Entry, Event, new_entry
from screenpilot.simulator.apps.launcher import LauncherApp
from screenpilot.simulator.backend import TouchListener
from screenpilot.simulator.handset.defaults import LATIN_IME, default_settings
from screenpilot.simulator.render import (
    Frame,
    KeyboardMode,
    NavMode,
    RenderEnv,
    ScreenSpec,
    StatusInfo,
    UiState,
    default_density,
    frame_to_screen,
    render_page,
)
from screenpilot.simulator.theme import ACCENTS, make_theme

if TYPE_CHECKING:
    from screenpilot.simulator.handset.touch import Gesture

TOAST_S = 2.0


class PhoneCore:
    """The phone's state, its rendering and its navigation keys."""

    def __init__(
        self,
        *,
        size: tuple[int, int] = (1080, 2400),
        density: int | None = None,
        theme: Literal["light", "dark"] = "light",
        locale: str = "en",
        accent: str = "blue",
        nav_mode: NavMode = "3button",
        adb_keyboard: bool = True,
        apps: Sequence[App] | None = None,
        serial: str = "SPVIRT0001",
        clock: str = "12:30",
        battery: int = 85,
    ) -> None:
        if accent not in ACCENTS and not accent.startswith("#"):
            raise ConfigError(f"unknown accent {accent!r}", hint=f"one of {', '.join(ACCENTS)}")
        if theme not in ("light", "dark"):
            raise ConfigError(f"unknown theme {theme!r}", hint="light or dark")
        if nav_mode not in ("3button", "gesture"):
            raise ConfigError(f"unknown navigation mode {nav_mode!r}", hint="3button or gesture")
        self.spec = ScreenSpec(size[0], size[1], density or default_density(*size))
        self.adb_keyboard = adb_keyboard
        self.serial = serial
        self._lock = threading.RLock()
        installed = list(apps) if apps is not None else default_apps()
        self._apps: dict[str, App] = {a.package: a for a in installed}
        launchers = [a for a in installed if isinstance(a, LauncherApp)]
        self._launcher = (launchers or installed)[0].package
        self._listeners: list[TouchListener] = []
        self._boot = time.monotonic()
        self._skew = 0.0
        self._gesture: Gesture | None = None
        self._version = 0
        self._cache: tuple[int, Frame, str] | None = None
        self._initial = self._fresh_state(theme, locale, accent, nav_mode, clock, battery)
        self._state: dict[str, Any] = copy.deepcopy(self._initial)

    # --- state ------------------------------------------------------------------------------
    def _fresh_state(
        self, theme: str, locale: str, accent: str, nav_mode: NavMode, clock: str, battery: int
    ) -> dict[str, Any]:
        settings = default_settings()
        settings["secure"]["ui_night_mode"] = "2" if theme == "dark" else "1"
        settings["system"]["system_locales"] = "zh-CN" if locale.startswith("zh") else "en-US"
        settings["secure"]["navigation_mode"] = "2" if nav_mode == "gesture" else "0"
        if not self.adb_keyboard:
            settings["secure"]["default_input_method"] = LATIN_IME
            settings["secure"]["enabled_input_methods"] = LATIN_IME
        return {
            "settings": settings,
            "apps": {pkg: app.initial_state() for pkg, app in self._apps.items()},
            "tasks": {self._launcher: [new_entry(self._apps[self._launcher].root)]},
            "order": [self._launcher],
            "toast": None,
            "kbd": "abc",
            "screen_on": True,
            "clock": clock,
            "battery": battery,
            "accent": accent,
        }

    @property
    def state(self) -> dict[str, Any]:
        """The whole phone state as JSON-serialisable data (a copy)."""
        with self._lock:
            return copy.deepcopy(self._state)

    def snapshot(self) -> dict[str, Any]:
        """A copy of the state to ``restore`` later."""
        return self.state

    def restore(self, snapshot: dict[str, Any]) -> None:
        with self._lock:
            self._state = copy.deepcopy(snapshot)
            self._gesture = None
            self._changed()

    def reset(self) -> None:
        """Back to the state the phone was built with."""
        self.restore(self._initial)

    def app_state(self, package: str) -> dict[str, Any]:
        """A copy of one app's state (for success checks)."""
        with self._lock:
            return copy.deepcopy(self._state["apps"].get(package, {}))

    def _changed(self) -> None:
        self._version += 1

    # --- Host (what apps may ask of the phone) ---------------------------------------------
    @property
    def locale(self) -> str:
        locale = self.get_setting("system", "system_locales") or ""
        return "zh" if locale.startswith("zh") else "en"

    def get_setting(self, namespace: str, key: str) -> str | None:
        value = self._state["settings"].get(namespace, {}).get(key)
        return None if value is None else str(value)

    def put_setting(self, namespace: str, key: str, value: str) -> None:
        self._state["settings"].setdefault(namespace, {})[key] = str(value)
        self._changed()

    def finish(self, package: str) -> None:
        """Close an app's task (BACK from its root page)."""
        if package == self._launcher:
            self._state["tasks"][package] = [new_entry(self._apps[package].root)]
        else:
            self._state["tasks"].pop(package, None)
            self._state["order"] = [p for p in self._state["order"] if p != package]
        self._changed()

    def force_stop(self, package: str) -> None:
        if package != self._launcher and package in self._state["tasks"]:
            self._state["tasks"].pop(package)
            self._state["order"] = [p for p in self._state["order"] if p != package]
            self._changed()

    def show_toast(self, text: str) -> None:
        self._state["toast"] = {"text": text, "until": self.uptime() + TOAST_S}
        self._changed()

    def installed(self) -> list[App]:
        return list(self._apps.values())

    # --- identity and geometry -------------------------------------------------------------
    def size(self) -> tuple[int, int]:
        return (self.spec.width, self.spec.height)

    def density(self) -> int:
        return self.spec.dpi

    def rotation(self) -> int:
        return 0

    def getprop(self, name: str) -> str:
        with self._lock:
            tablet = self.spec.width / self.spec.scale >= 600
            props = {
                "ro.product.model": "screenpilot virtual phone",
                "ro.product.manufacturer": "screenpilot",
                "ro.product.brand": "screenpilot",
                "ro.product.name": "sp_phone",
                "ro.product.device": "sp_phone",
                "ro.build.version.release": "14",
                "ro.build.version.sdk": "34",
                "ro.build.id": "UP1A.231005.007",
                "ro.build.display.id": "UP1A.231005.007",
                "ro.build.type": "user",
                "ro.build.tags": "release-keys",
                "ro.build.fingerprint": "screenpilot/sp_phone/sp_phone:14/UP1A.231005.007/1:"
                "user/release-keys",
                "ro.build.characteristics": "tablet" if tablet else "default",
                "ro.product.cpu.abi": "x86_64",
                "ro.serialno": self.serial,
                "ro.sf.lcd_density": str(self.spec.dpi),
                "sys.boot_completed": "1",
                "ro.secure": "1",
                "ro.debuggable": "0",
                "persist.sys.locale": self.get_setting("system", "system_locales") or "",
                "sys.battery.level": str(self._state["battery"]),
            }
            return props.get(name, "")

    def uptime(self) -> float:
        return time.monotonic() - self._boot + self._skew

    # --- rendering --------------------------------------------------------------------------
    def _foreground(self) -> str:
        return str(self._state["order"][-1])

    def _stack(self, package: str | None = None) -> list[Entry]:
        stack: list[Entry] = self._state["tasks"][package or self._foreground()]
        return stack

    def _ctx(self, package: str | None = None) -> Ctx:
        pkg = package or self._foreground()
        return Ctx(self, self._apps[pkg], self._state["apps"].setdefault(pkg, {}), self._stack(pkg))

    def _env(self) -> RenderEnv:
        s = self._state
        dark = self.get_setting("secure", "ui_night_mode") == "2"
        status = StatusInfo(
            time=self._clock_text(),
            battery=int(s["battery"]),
            wifi=self.get_setting("global", "wifi_on") == "1",
            bluetooth=self.get_setting("global", "bluetooth_on") == "1",
            airplane=self.get_setting("global", "airplane_mode_on") == "1",
            show_percent=self.get_setting("system", "status_bar_show_battery_percent") == "1",
            dnd=self.get_setting("global", "zen_mode") not in ("", "0"),
        )
        nav: NavMode = (
            "gesture" if self.get_setting("secure", "navigation_mode") == "2" else "3button"
        )
        try:
            font_scale = min(2.0, max(0.5, float(self.get_setting("system", "font_scale") or 1)))
        except ValueError:
            font_scale = 1.0
        return RenderEnv(
            spec=self.spec,
            theme=make_theme(dark, str(s["accent"])),
            status=status,
            nav_mode=nav,
            font_scale=font_scale,
        )

    def _clock_text(self) -> str:
        hh, _, mm = str(self._state["clock"]).partition(":")
        if self.get_setting("system", "time_12_24") == "24":
            return f"{int(hh):02d}:{mm}"
        return f"{(int(hh) - 1) % 12 + 1}:{mm}"

    def _expire_toast(self) -> None:
        toast = self._state["toast"]
        if toast is not None and self.uptime() >= float(toast["until"]):
            self._state["toast"] = None
            self._changed()

    def _frame(self) -> Frame:
        self._expire_toast()
        if self._cache is not None and self._cache[0] == self._version:
            return self._cache[1]
        ctx = self._ctx()
        page = ctx.app.build_page(ctx)
        dlg = ctx.app.build_dialog(ctx)
        entry = ctx.entry
        kbd: KeyboardMode = self._state["kbd"]
        toast = self._state["toast"]
        ui = UiState(
            scroll=entry["scroll"],
            fields=entry["fields"],
            focus=entry["focus"],
            keyboard=entry["focus"] is not None,
            kbd_mode=kbd,
            menu_open=entry["menu"],
            toast=toast["text"] if toast else "",
        )
        frame = render_page(page, self._env(), ui, dialog=dlg, app=ctx.app.package)
        activity = page.activity or ctx.app.page_activity(ctx.page)
        self._cache = (self._version, frame, activity)
        return frame

    def frame(self) -> Frame:
        """The current frame: image and ground truth."""
        with self._lock:
            return self._frame()

    def screen(self, *, captured: bool = False) -> Screen:
        """The ground-truth ``Screen`` (``captured``: as screencap shows it)."""
        return frame_to_screen(self.frame(), captured=captured)

    # --- the screen -------------------------------------------------------------------------
    @property
    def screen_on(self) -> bool:
        """Whether the display is on (``input keyevent`` POWER, SLEEP and WAKEUP switch
        it); while it is off, screencap is black and touches do nothing."""
        with self._lock:
            return self._lit()

    def _lit(self) -> bool:
        """``screen_on`` for a caller that holds the lock (a snapshot from before the
        display could be switched has no key: it was on)."""
        return bool(self._state.get("screen_on", True))

    def _set_screen(self, on: bool) -> None:
        if self._lit() != on:
            self._state["screen_on"] = on
            self._changed()

    def _captured(self) -> Image.Image:
        frame = self.frame()
        if not self.screen_on:
            return Image.new("RGB", frame.image.size, (0, 0, 0))
        return frame.captured()

    def screencap_png(self) -> bytes:
        if self.screen_on:
            return self.frame().png()
        buf = io.BytesIO()
        self._captured().save(buf, format="PNG", compress_level=1)
        return buf.getvalue()

    def screencap_raw(self) -> tuple[int, int, bytes]:
        image = self._captured().convert("RGBA")
        return (image.width, image.height, image.tobytes())

    # --- events, navigation and launching -------------------------------------------------
    def _dispatch(self, ctx: Ctx, ev: Event) -> None:
        ctx.app.handle(ctx, ev)
        self._changed()

    def _back(self) -> None:
        entry = self._stack()[-1]
        if entry["focus"] is not None:
            entry["focus"] = None
        elif entry["menu"]:
            entry["menu"] = False
        else:
            self._ctx().back()
        self._changed()

    def _home(self) -> None:
        order: list[str] = self._state["order"]
        order.remove(self._launcher)
        order.append(self._launcher)
        self._state["tasks"][self._launcher] = [new_entry(self._apps[self._launcher].root)]
        self._changed()

    def _recents(self) -> None:
        order: list[str] = self._state["order"]
        others = [p for p in order[:-1] if p != self._launcher]
        if others:
            order.remove(others[-1])
            order.append(others[-1])
            self._changed()

    def launch(self, package: str, activity: str | None = None) -> bool:
        with self._lock:
            app = self._apps.get(package)
            if app is None:
                return False
            page_name = app.root
            if activity:
                full = package + activity if activity.startswith(".") else activity
                if full in app.activities:
                    page_name = app.activities[full]
                elif full != app.activity:
                    return False
            if package == self._launcher:
                self._home()
                return True
            tasks: dict[str, list[Entry]] = self._state["tasks"]
            if package not in tasks or page_name != app.root:
                tasks[package] = [new_entry(page_name)]
            order: list[str] = self._state["order"]
            if package in order:
                order.remove(package)
            order.append(package)
            self._changed()
            return True
