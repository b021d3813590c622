"""``VirtualPhone``: the state machine behind the virtual phone's screen.

It implements ``backend.PhoneBackend`` (what adbd and the shell need) on top of
the apps in ``apps/`` and the renderer in ``render.py``:

- a task (back stack of page entries) per launched app, the launcher always
  underneath; BACK closes the keyboard, a menu, a dialog, then the page, and
  leaves the app from its root page; HOME shows the home screen;
- touches are hit-tested against the current frame's targets (topmost wins; a
  dialog or menu is modal and a tap outside closes it); a vertical drag in the
  page body scrolls it by the finger distance; a press held >= 500 ms without
  moving is a long press; seek bars follow the finger; taps on the drawn keyboard
  type; in gesture navigation, a swipe up from the bottom edge goes home and a
  swipe in from a side edge goes back;
- the settings provider (``global``/``system``/``secure``) is the single source
  of Wi-Fi, Bluetooth, airplane mode, brightness, dark theme (``ui_night_mode``),
  language (``system_locales``), navigation mode and font scale;
- ``state`` is a JSON-serialisable dict; ``snapshot``/``restore``/``reset``
  round-trip it; ``frame()`` renders it (cached until the state changes).

Every public method takes the phone's lock; touch listeners are called after it
is released, in event order.
"""

from __future__ import annotations

import base64
import binascii
import copy
import math
import threading
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from screenpilot.errors import ConfigError
from screenpilot.model import Screen
from screenpilot.simulator.apps import default_apps
from screenpilot.simulator.apps.base import App, Ctx, Entry, Event, EventKind, new_entry
from screenpilot.simulator.apps.launcher import LauncherApp
from screenpilot.simulator.backend import TouchEvent, TouchListener, TouchPhase
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
    keyboard_height,
    render_page,
)
from screenpilot.simulator.theme import ACCENTS, make_theme
from screenpilot.simulator.widgets import Target

ADB_IME = "com.android.adbkeyboard/.AdbIME"
LATIN_IME = "com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME"
SYSTEM_PACKAGES = ["android", "com.android.systemui", "com.android.providers.settings",
                   "com.android.shell", "com.android.phone", "com.google.android.inputmethod.latin"]
LONG_PRESS_S = 0.5
TOAST_S = 2.0
MAX_FIELD_CHARS = 10_000

KEYCODE_CHARS: dict[int, str] = {
    **{7 + i: str(i) for i in range(10)},
    **{29 + i: chr(ord("a") + i) for i in range(26)},
    17: "*", 18: "#", 55: ",", 56: ".", 62: " ", 69: "-", 70: "=", 74: ";", 75: "'",
    76: "/", 77: "@", 81: "+",
}


def default_settings() -> dict[str, dict[str, str]]:
    """The settings provider of a fresh phone (values as Android stores them: strings)."""
    return {
        "global": {
            "wifi_on": "1", "bluetooth_on": "1", "airplane_mode_on": "0", "mobile_data": "1",
            "zen_mode": "0", "low_power": "0", "adb_enabled": "1", "auto_time": "1",
            "device_name": "screenpilot virtual phone", "development_settings_enabled": "0",
            "animator_duration_scale": "1.0", "transition_animation_scale": "1.0",
            "window_animation_scale": "1.0", "stay_on_while_plugged_in": "0",
        },
        "system": {
            "screen_brightness": "102", "screen_brightness_mode": "0",
            "screen_off_timeout": "30000", "volume_music": "9", "volume_voice": "4",
            "volume_ring": "5", "volume_alarm": "6", "vibrate_when_ringing": "1",
            "haptic_feedback_enabled": "1", "accelerometer_rotation": "0", "font_scale": "1.0",
            "time_12_24": "12", "system_locales": "en-US",
            "status_bar_show_battery_percent": "0", "show_password": "1",
        },
        "secure": {
            "ui_night_mode": "1", "location_mode": "3", "lock_to_app_enabled": "0",
            "navigation_mode": "0", "notification_history_enabled": "0",
            "lock_screen_show_notifications": "1",
            "accessibility_display_inversion_enabled": "0", "android_id": "5ca1ab1e0ddba11",
            "default_input_method": ADB_IME, "enabled_input_methods": f"{LATIN_IME}:{ADB_IME}",
        },
    }


@dataclass
class _Gesture:
    """The finger currently on the screen."""

    x0: int
    y0: int
    t0: float
    target: Target | None
    scroll0: int
    max_scroll: int
    scrollable: bool
    slop: float
    moved: bool = False
    x: int = 0
    y: int = 0


class VirtualPhone:
    """A phone made of rendered apps; see the module docstring."""

    def __init__(self, *, size: tuple[int, int] = (1080, 2400), density: int | None = None,
                 theme: Literal["light", "dark"] = "light", locale: str = "en",
                 accent: str = "blue", nav_mode: NavMode = "3button", adb_keyboard: bool = True,
                 apps: Sequence[App] | None = None, serial: str = "SPVIRT0001",
                 clock: str = "12:30", battery: int = 85) -> None:
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
        self._gesture: _Gesture | None = None
        self._version = 0
        self._cache: tuple[int, Frame, str] | None = None
        self._initial = self._fresh_state(theme, locale, accent, nav_mode, clock, battery)
        self._state: dict[str, Any] = copy.deepcopy(self._initial)

    # --- state ------------------------------------------------------------------------------
    def _fresh_state(self, theme: str, locale: str, accent: str, nav_mode: NavMode,
                     clock: str, battery: int) -> dict[str, Any]:
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
            "toast": None, "kbd": "abc", "clock": clock, "battery": battery, "accent": accent,
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
                "ro.product.manufacturer": "screenpilot", "ro.product.brand": "screenpilot",
                "ro.product.name": "sp_phone", "ro.product.device": "sp_phone",
                "ro.build.version.release": "14", "ro.build.version.sdk": "34",
                "ro.build.id": "UP1A.231005.007", "ro.build.display.id": "UP1A.231005.007",
                "ro.build.type": "user", "ro.build.tags": "release-keys",
                "ro.build.fingerprint": "screenpilot/sp_phone/sp_phone:14/UP1A.231005.007/1:"
                                        "user/release-keys",
                "ro.build.characteristics": "tablet" if tablet else "default",
                "ro.product.cpu.abi": "x86_64", "ro.serialno": self.serial,
                "ro.sf.lcd_density": str(self.spec.dpi), "sys.boot_completed": "1",
                "ro.secure": "1", "ro.debuggable": "0",
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
        return Ctx(self, self._apps[pkg], self._state["apps"].setdefault(pkg, {}),
                   self._stack(pkg))

    def _env(self) -> RenderEnv:
        s = self._state
        dark = self.get_setting("secure", "ui_night_mode") == "2"
        status = StatusInfo(
            time=self._clock_text(), battery=int(s["battery"]),
            wifi=self.get_setting("global", "wifi_on") == "1",
            bluetooth=self.get_setting("global", "bluetooth_on") == "1",
            airplane=self.get_setting("global", "airplane_mode_on") == "1",
            show_percent=self.get_setting("system", "status_bar_show_battery_percent") == "1",
            dnd=self.get_setting("global", "zen_mode") not in ("", "0"))
        nav: NavMode = "gesture" if self.get_setting("secure", "navigation_mode") == "2" \
            else "3button"
        try:
            font_scale = min(2.0, max(0.5, float(self.get_setting("system", "font_scale") or 1)))
        except ValueError:
            font_scale = 1.0
        return RenderEnv(spec=self.spec, theme=make_theme(dark, str(s["accent"])),
                         status=status, nav_mode=nav, font_scale=font_scale)

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
        ui = UiState(scroll=entry["scroll"], fields=entry["fields"], focus=entry["focus"],
                     keyboard=entry["focus"] is not None, kbd_mode=kbd,
                     menu_open=entry["menu"], toast=toast["text"] if toast else "")
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
    def screencap_png(self) -> bytes:
        return self.frame().png()

    def screencap_raw(self) -> tuple[int, int, bytes]:
        image = self.frame().captured().convert("RGBA")
        return (image.width, image.height, image.tobytes())

    # --- touch ------------------------------------------------------------------------------
    def add_touch_listener(self, listener: TouchListener) -> Callable[[], None]:
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)
        return unsubscribe

    def _emit(self, events: list[TouchEvent]) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for ev in events:
            for listener in listeners:
                listener(ev)

    def _inside(self, x: int, y: int) -> bool:
        return 0 <= x < self.spec.width and 0 <= y < self.spec.height

    def _event(self, phase: TouchPhase, x: int, y: int, t: float) -> TouchEvent:
        ev = TouchEvent(phase, int(x), int(y), t)
        if phase == "down":
            self._down(ev)
        elif phase == "move":
            self._move(ev)
        else:
            self._up(ev)
        return ev

    def touch_down(self, x: int, y: int) -> None:
        with self._lock:
            ev = self._event("down", x, y, self.uptime())
        self._emit([ev])

    def touch_move(self, x: int, y: int) -> None:
        with self._lock:
            ev = self._event("move", x, y, self.uptime())
        self._emit([ev])

    def touch_up(self, x: int, y: int) -> None:
        with self._lock:
            ev = self._event("up", x, y, self.uptime())
        self._emit([ev])

    def tap(self, x: int, y: int) -> None:
        if not self._inside(x, y):
            return
        with self._lock:
            t = self.uptime()
            events = [self._event("down", x, y, t), self._event("up", x, y, t + 0.05)]
            self._skew += 0.05
        self._emit(events)

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int) -> None:
        if not self._inside(x1, y1):
            return
        x2 = min(max(0, x2), self.spec.width - 1)
        y2 = min(max(0, y2), self.spec.height - 1)
        duration = max(0, duration_ms) / 1000
        steps = max(1, min(50, duration_ms // 10))
        with self._lock:
            t0 = self.uptime()
            events = [self._event("down", x1, y1, t0)]
            for i in range(1, steps + 1):
                f = i / steps
                events.append(self._event("move", round(x1 + (x2 - x1) * f),
                                          round(y1 + (y2 - y1) * f), t0 + duration * f))
            events.append(self._event("up", x2, y2, t0 + duration))
            self._skew += duration
        self._emit(events)

    def _down(self, ev: TouchEvent) -> None:
        if not self._inside(ev.x, ev.y):
            self._gesture = None
            return
        frame = self._frame()
        target = frame.hit(ev.x, ev.y)
        modal = frame.dialog_box is not None or frame.menu_box is not None
        scrollable = (not modal and frame.max_scroll > 0 and frame.viewport.contains(ev.x, ev.y)
                      and (frame.keyboard_box is None or not frame.keyboard_box.contains(ev.x,
                                                                                         ev.y)))
        self._gesture = _Gesture(ev.x, ev.y, ev.time, target, frame.scroll, frame.max_scroll,
                                 scrollable, 8 * self.spec.scale, x=ev.x, y=ev.y)
        if target is not None and target.role == "seek":
            self._seek(target, ev.x)

    def _move(self, ev: TouchEvent) -> None:
        g = self._gesture
        if g is None:
            return
        g.x, g.y = ev.x, ev.y
        if max(abs(ev.x - g.x0), abs(ev.y - g.y0)) > g.slop:
            g.moved = True
        if g.target is not None and g.target.role == "seek":
            self._seek(g.target, ev.x)
        elif g.moved and g.scrollable:
            scroll = min(max(0, g.scroll0 - (ev.y - g.y0)), g.max_scroll)
            entry = self._stack()[-1]
            if entry["scroll"] != scroll:
                entry["scroll"] = scroll
                self._changed()

    def _up(self, ev: TouchEvent) -> None:
        g = self._gesture
        if g is None:
            return
        self._move(ev)
        self._gesture = None
        if g.moved:
            self._edge_gesture(g)
            return
        if g.target is not None and g.target.role == "seek":
            return
        long = ev.time - g.t0 >= LONG_PRESS_S
        self._press(g.x0, g.y0, g.target, long)

    def _edge_gesture(self, g: _Gesture) -> None:
        """Gesture navigation: swipe up from the bottom edge = HOME, in from a side = BACK."""
        if self.get_setting("secure", "navigation_mode") != "2":
            return
        edge = 24 * self.spec.scale
        far = 60 * self.spec.scale
        if g.y0 >= self.spec.height - edge and g.y0 - g.y > far:
            self._home()
        elif (g.x0 <= edge or g.x0 >= self.spec.width - edge) and abs(g.x - g.x0) > far:
            self._back()

    # --- what a press does ------------------------------------------------------------------
    def _press(self, x: int, y: int, target: Target | None, long: bool) -> None:
        frame = self._frame()
        ctx = self._ctx()
        entry = ctx.entry
        if frame.menu_box is not None and (target is None or target.layer < 2):
            entry["menu"] = False
            self._changed()
            return
        if frame.dialog_box is not None and target is None and \
                not frame.dialog_box.contains(x, y):
            ctx.close_dialog()
            self._changed()
            return
        if target is None:
            return
        if entry["menu"]:
            entry["menu"] = False
        self._changed()
        if target.role == "key":
            self._keyboard_key(target.key.partition(":")[2])
        elif target.role == "field":
            self._focus_field(target)
        elif target.key.startswith("sys:"):
            self._system_key(target.key[4:])
        elif target.role == "rating" and target.track is not None:
            x1, x2 = target.track
            stars = math.ceil((x - x1) / max(1, x2 - x1) * target.steps)
            self._dispatch(ctx, Event(target.key, "tap", float(min(max(1, stars),
                                                                    target.steps))))
        else:
            kind: EventKind = "long_press" if long else "tap"
            self._dispatch(ctx, Event(target.key, kind, target.value))

    def _dispatch(self, ctx: Ctx, ev: Event) -> None:
        ctx.app.handle(ctx, ev)
        self._changed()

    def _seek(self, target: Target, x: int) -> None:
        if target.track is None:
            return
        x1, x2 = target.track
        fraction = min(1.0, max(0.0, (x - x1) / max(1, x2 - x1)))
        self._dispatch(self._ctx(), Event(target.key, "seek", fraction))

    def _focus_field(self, target: Target) -> None:
        entry = self._stack()[-1]
        entry["focus"] = target.field
        self._state["kbd"] = "abc"
        visible_bottom = (self.spec.height - self._env_nav_height()
                          - keyboard_height(self.spec))
        if target.box.y2 > visible_bottom and target.layer == 0:
            entry["scroll"] += target.box.y2 - visible_bottom + round(16 * self.spec.scale)
        self._changed()

    def _env_nav_height(self) -> int:
        gesture = self.get_setting("secure", "navigation_mode") == "2"
        return round((24 if gesture else 48) * self.spec.scale)

    def _system_key(self, name: str) -> None:
        if name == "back":
            self._back()
        elif name == "home":
            self._home()
        elif name == "recents":
            self._recents()
        elif name == "up":
            entry = self._stack()[-1]
            entry["focus"] = None
            ctx = self._ctx()
            if entry["dialog"] is not None:
                ctx.close_dialog()
            ctx.back()
        elif name == "menu":
            self._stack()[-1]["menu"] = True
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

    # --- text input ---------------------------------------------------------------------------
    def _type(self, text: str) -> None:
        entry = self._stack()[-1]
        field = entry["focus"]
        if field is None:
            return
        clean = "".join(c for c in text if c >= " " or c == "\t")
        kept = "" if self._take_selection(entry) else entry["fields"].get(field, "")
        value = (kept + clean)[:MAX_FIELD_CHARS]
        entry["fields"][field] = value
        self._changed()

    def _delete(self) -> None:
        entry = self._stack()[-1]
        field = entry["focus"]
        if field is not None and entry["fields"].get(field):
            whole = self._take_selection(entry)
            entry["fields"][field] = "" if whole else entry["fields"][field][:-1]
            self._changed()

    def _take_selection(self, entry: Entry) -> bool:
        """True (once) when the focused field's text was selected with Ctrl+A."""
        selected = entry["selected"] == entry["focus"] and entry["focus"] is not None
        entry["selected"] = None
        return selected

    def key_combination(self, codes: list[int]) -> None:
        """``input keycombination``: Ctrl+A (113/114 + 29) selects the focused field's text."""
        with self._lock:
            entry = self._stack()[-1]
            if {113, 29} <= set(codes) or {114, 29} <= set(codes):
                entry["selected"] = entry["focus"]

    def _submit(self) -> None:
        entry = self._stack()[-1]
        field = entry["focus"]
        if field is None:
            return
        key = next((t.key for t in self._frame().targets
                    if t.role == "field" and t.field == field), "")
        entry["focus"] = None
        self._changed()
        if key:
            self._dispatch(self._ctx(), Event(key, "submit"))

    def _keyboard_key(self, name: str) -> None:
        mode: str = self._state["kbd"]
        if name == "shift":
            self._state["kbd"] = "abc" if mode == "ABC" else "ABC"
        elif name == "mode":
            self._state["kbd"] = "abc" if mode == "123" else "123"
        elif name == "del":
            self._delete()
        elif name == "enter":
            self._submit()
        else:
            self._type(" " if name == "space" else name)
            if mode == "ABC":
                self._state["kbd"] = "abc"
        self._changed()

    def input_text(self, text: str) -> None:
        with self._lock:
            self._type(text)

    def keyevent(self, keycode: int, *, longpress: bool = False) -> None:
        with self._lock:
            if keycode in (4, 111):
                self._back()
            elif keycode == 3:
                self._home()
            elif keycode == 187:
                self._recents()
            elif keycode in (66, 160):
                self._submit()
            elif keycode == 67:
                self._delete()
            elif keycode == 82:
                self._stack()[-1]["menu"] = True
                self._changed()
            elif keycode in (24, 25):
                self._volume(1 if keycode == 24 else -1)
            elif keycode in KEYCODE_CHARS:
                self._type(KEYCODE_CHARS[keycode])

    def _volume(self, step: int) -> None:
        try:
            current = int(self.get_setting("system", "volume_music") or 0)
        except ValueError:
            current = 0
        self.put_setting("system", "volume_music", str(min(15, max(0, current + step))))

    # --- apps -----------------------------------------------------------------------------------
    def packages(self) -> list[str]:
        with self._lock:
            extra = ["com.android.adbkeyboard"] if self.adb_keyboard else []
            return sorted(set(self._apps) | set(SYSTEM_PACKAGES) | set(extra))

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

    def find_app(self, name: str) -> App:
        """An installed app by package name, label or last package part ("settings")."""
        key = name.strip().lower()
        for app in self._apps.values():
            if key in (app.package.lower(), app.label.lower(), app.package.rsplit(".", 1)[-1]):
                return app
        names = ", ".join(sorted(a.label.lower() for a in self._apps.values()))
        raise ConfigError(f"no app {name!r} on the virtual phone", hint=f"one of {names}")

    def open_page(self, app_name: str, page: str | None = None) -> None:
        """Bring an app to the front on one of its pages (for renders, tests, datasets)."""
        app = self.find_app(app_name)
        with self._lock:
            self.launch(app.package)
            if page and page != app.root:
                if not app.has_page(page):
                    raise ConfigError(f"{app.label} has no page {page!r}",
                                      hint=f"one of {', '.join(app.pages)}")
                self._ctx(app.package).open(page)
            self._changed()

    def current_focus(self) -> tuple[str, str]:
        with self._lock:
            self._frame()
            assert self._cache is not None
            return (self._foreground(), self._cache[2])

    def broadcast(self, action: str, extras: dict[str, str]) -> str:
        with self._lock:
            if self.adb_keyboard:
                self._adb_keyboard(action, extras)
        flags = " (has extras)" if extras else ""
        return (f"Broadcasting: Intent {{ act={action} flg=0x400000{flags} }}\n"
                "Broadcast completed: result=0")

    def _adb_keyboard(self, action: str, extras: dict[str, str]) -> None:
        msg = extras.get("msg", "")
        if action == "ADB_INPUT_TEXT":
            self._type(msg)
        elif action == "ADB_INPUT_B64":
            try:
                self._type(base64.b64decode(msg, validate=False).decode("utf-8", "replace"))
            except (binascii.Error, ValueError):
                return
        elif action == "ADB_CLEAR_TEXT":
            entry = self._stack()[-1]
            if entry["focus"] is not None:
                entry["fields"][entry["focus"]] = ""
                self._changed()
        elif action == "ADB_INPUT_CODE" and extras.get("code", "").isdigit():
            self.keyevent(int(extras["code"]))

    def ime_list(self) -> list[str]:
        return [ADB_IME, LATIN_IME] if self.adb_keyboard else [LATIN_IME]

    # --- settings, content, dumpsys --------------------------------------------------------------
    def settings_get(self, namespace: str, key: str) -> str | None:
        with self._lock:
            value = self._state["settings"].get(namespace, {}).get(key)
            return None if value is None else str(value)

    def settings_put(self, namespace: str, key: str, value: str) -> None:
        if namespace not in ("global", "system", "secure"):
            raise ConfigError(f"invalid namespace {namespace!r}",
                              hint="one of global, system, secure")
        with self._lock:
            self.put_setting(namespace, key, value)

    def settings_list(self, namespace: str) -> dict[str, str]:
        with self._lock:
            return dict(sorted(self._state["settings"].get(namespace, {}).items()))

    def content_query(self, uri: str) -> list[dict[str, str]] | None:
        if not uri.startswith("content://"):
            return None
        authority, _, path = uri[len("content://"):].partition("/")
        with self._lock:
            for app in self._apps.values():
                if authority and authority in (app.authority, *app.extra_authorities):
                    return app.query(path, self._state["apps"].setdefault(app.package, {}))
        return None

    def dumpsys(self, service: str, args: list[str]) -> str | None:
        with self._lock:
            makers: dict[str, Callable[[], str]] = {
                "window": self._dump_window, "input": self._dump_input,
                "display": self._dump_display, "alarm": lambda: self._dump_apps("alarm"),
                "input_method": self._dump_ime, "activity": self._dump_activity,
                "battery": self._dump_battery,
            }
            maker = makers.get(service)
            return None if maker is None else maker()

    def _window_name(self) -> tuple[str, str, str]:
        package, activity = self.current_focus()
        short = activity[len(package):] if activity.startswith(package + ".") else activity
        token = f"{zlib.crc32(f'{package}/{activity}'.encode()):08x}"[:7]
        return f"{package}/{activity}", f"{package}/{short}", token

    def _task_id(self) -> int:
        return 10 + list(self._state["tasks"]).index(self._foreground())

    def _dump_window(self) -> str:
        full, short, token = self._window_name()
        w, h = self.size()
        return "\n".join([
            "WINDOW MANAGER WINDOWS (dumpsys window windows)",
            f"  Window #0 Window{{{token} u0 {full}}}:",
            f"    mDisplayId=0 rootTaskId={self._task_id()} mSession=Session{{5c6d7e8 1234:1000}}",
            "    mAttrs={(0,0)(fillxfill) sim={adjust=resize} ty=BASE_APPLICATION}",
            "",
            "WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)",
            "  Display: mDisplayId=0 rootTasks=1",
            f"    init={w}x{h} {self.spec.dpi}dpi cur={w}x{h} app={w}x{h} rng={w}x{w}-{h}x{h}",
            f"  mCurrentFocus=Window{{{token} u0 {full}}}",
            f"  mFocusedApp=ActivityRecord{{{token[::-1]} u0 {short} t{self._task_id()}}}",
            "",
        ])

    def _dump_input(self) -> str:
        w, h = self.size()
        return "\n".join([
            "INPUT MANAGER (dumpsys input)", "", "Input Reader State (Nums of device: 1):",
            "  Device 1: sp_touchscreen", "    Sources: TOUCHSCREEN",
            "    Touch Input Mapper (mode - DIRECT):", f"      SurfaceWidth: {w}px",
            f"      SurfaceHeight: {h}px", "      SurfaceOrientation: 0", ""])

    def _dump_display(self) -> str:
        w, h = self.size()
        return "\n".join([
            "DISPLAY MANAGER (dumpsys display)",
            f"  DisplayDeviceInfo{{\"Built-in Screen\": uniqueId=\"local:0\", {w} x {h}, "
            f"modeId 1, defaultModeId 1, density {self.spec.dpi}, {self.spec.dpi}.0 x "
            f"{self.spec.dpi}.0 dpi, rotation 0, type INTERNAL, FLAG_DEFAULT_DISPLAY}}",
            "  mCurrentOrientation=0", f"  mBaseDisplayInfo=DisplayInfo{{real {w} x {h}}}", ""])

    def _dump_ime(self) -> str:
        shown = self._stack()[-1]["focus"] is not None
        current = ADB_IME if self.adb_keyboard else LATIN_IME
        return "\n".join(["Current Input Method Manager state:", f"  mCurMethodId={current}",
                          f"  mInputShown={'true' if shown else 'false'}", ""])

    def _dump_activity(self) -> str:
        _, short, token = self._window_name()
        record = f"ActivityRecord{{{token[::-1]} u0 {short} t{self._task_id()}}}"
        return "\n".join(["ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)",
                          f"  Task id #{self._task_id()}", f"    mResumedActivity: {record}",
                          f"  ResumedActivity: {record}", ""])

    def _dump_battery(self) -> str:
        return "\n".join(["Current Battery Service state:", "  AC powered: false",
                          "  USB powered: true", "  status: 2", "  health: 2", "  present: true",
                          f"  level: {self._state['battery']}", "  scale: 100", ""])

    def _dump_apps(self, service: str) -> str:
        lines = ["Current Alarm Manager state:", "  Settings:", "    min_futurity=+5s0ms", "",
                 f"  nowRTC={int(time.time() * 1000)} nowELAPSED={int(self.uptime() * 1000)}",
                 "", "  Pending alarm batches: 0"] if service == "alarm" else []
        for pkg, app in self._apps.items():
            text = app.dump(service, self._state["apps"].setdefault(pkg, {}))
            if text:
                lines.append(text.rstrip("\n"))
        return "\n".join(lines) + "\n"

    # --- convenience for tests and tools ---------------------------------------------
    def tap_text(self, text: str) -> bool:
        """Tap the centre of the first visible element showing ``text``."""
        element = self.frame().find(text)
        if element is None:
            return False
        self.tap(*element.box.center)
        return True
