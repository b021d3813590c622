"""What the virtual phone answers Android's tools: packages, the focused activity,
broadcasts (ADB Keyboard), input methods, the settings provider, content providers
and ``dumpsys`` (window, input, display, input_method, activity, battery, alarm)."""

from __future__ import annotations

import base64
import binascii
import time
import zlib
from collections.abc import Callable

from screenpilot.errors import ConfigError
from screenpilot.simulator.apps.base import App
from screenpilot.simulator.handset.defaults import ADB_IME, LATIN_IME, SYSTEM_PACKAGES
from screenpilot.simulator.handset.touch import TouchInput


class AndroidServices(TouchInput):
    """The Android-facing half of ``backend.PhoneBackend``."""

    def packages(self) -> list[str]:
        with self._lock:
            extra = ["com.android.adbkeyboard"] if self.adb_keyboard else []
            return sorted(set(self._apps) | set(SYSTEM_PACKAGES) | set(extra))

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
                    raise ConfigError(
                        f"{app.label} has no page {page!r}", hint=f"one of {', '.join(app.pages)}"
                    )
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
        return (
            f"Broadcasting: Intent {{ act={action} flg=0x400000{flags} }}\n"
            "Broadcast completed: result=0"
        )

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
            raise ConfigError(
                f"invalid namespace {namespace!r}", hint="one of global, system, secure"
            )
        with self._lock:
            self.put_setting(namespace, key, value)

    def settings_list(self, namespace: str) -> dict[str, str]:
        with self._lock:
            return dict(sorted(self._state["settings"].get(namespace, {}).items()))

    def content_query(self, uri: str) -> list[dict[str, str]] | None:
        if not uri.startswith("content://"):
            return None
        authority, _, path = uri[len("content://") :].partition("/")
        with self._lock:
            for app in self._apps.values():
                if authority and authority in (app.authority, *app.extra_authorities):
                    return app.query(path, self._state["apps"].setdefault(app.package, {}))
        return None

    def dumpsys(self, service: str, args: list[str]) -> str | None:
        with self._lock:
            makers: dict[str, Callable[[], str]] = {
                "window": self._dump_window,
                "input": self._dump_input,
                "display": self._dump_display,
                "alarm": lambda: self._dump_apps("alarm"),
                "input_method": self._dump_ime,
                "activity": self._dump_activity,
                "battery": self._dump_battery,
                "power": self._dump_power,
            }
            maker = makers.get(service)
            return None if maker is None else maker()

    def _window_name(self) -> tuple[str, str, str]:
        package, activity = self.current_focus()
        short = activity[len(package) :] if activity.startswith(package + ".") else activity
        token = f"{zlib.crc32(f'{package}/{activity}'.encode()):08x}"[:7]
        return f"{package}/{activity}", f"{package}/{short}", token

    def _task_id(self) -> int:
        return 10 + list(self._state["tasks"]).index(self._foreground())

    def _dump_window(self) -> str:
        full, short, token = self._window_name()
        w, h = self.size()
        return "\n".join(
            [
                "WINDOW MANAGER WINDOWS (dumpsys window windows)",
                f"  Window #0 Window{{{token} u0 {full}}}:",
                f"    mDisplayId=0 rootTaskId={self._task_id()} "
                "mSession=Session{5c6d7e8 1234:1000}",
                "    mAttrs={(0,0)(fillxfill) sim={adjust=resize} ty=BASE_APPLICATION}",
                "",
                "WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)",
                "  Display: mDisplayId=0 rootTasks=1",
                f"    init={w}x{h} {self.spec.dpi}dpi cur={w}x{h} app={w}x{h} rng={w}x{w}-{h}x{h}",
                f"  mCurrentFocus=Window{{{token} u0 {full}}}",
                f"  mFocusedApp=ActivityRecord{{{token[::-1]} u0 {short} t{self._task_id()}}}",
                "",
            ]
        )

    def _dump_input(self) -> str:
        w, h = self.size()
        return "\n".join(
            [
                "INPUT MANAGER (dumpsys input)",
                "",
                "Input Reader State (Nums of device: 1):",
                "  Device 1: sp_touchscreen",
                "    Sources: TOUCHSCREEN",
                "    Touch Input Mapper (mode - DIRECT):",
                f"      SurfaceWidth: {w}px",
                f"      SurfaceHeight: {h}px",
                "      SurfaceOrientation: 0",
                "",
            ]
        )

    def _dump_display(self) -> str:
        w, h = self.size()
        return "\n".join(
            [
                "DISPLAY MANAGER (dumpsys display)",
                f'  DisplayDeviceInfo{{"Built-in Screen": uniqueId="local:0", {w} x {h}, '
                f"modeId 1, defaultModeId 1, density {self.spec.dpi}, {self.spec.dpi}.0 x "
                f"{self.spec.dpi}.0 dpi, rotation 0, type INTERNAL, FLAG_DEFAULT_DISPLAY}}",
                "  mCurrentOrientation=0",
                f"  mBaseDisplayInfo=DisplayInfo{{real {w} x {h}}}",
                "",
            ]
        )

    def _dump_ime(self) -> str:
        shown = self._stack()[-1]["focus"] is not None
        current = ADB_IME if self.adb_keyboard else LATIN_IME
        return "\n".join(
            [
                "Current Input Method Manager state:",
                f"  mCurMethodId={current}",
                f"  mInputShown={'true' if shown else 'false'}",
                "",
            ]
        )

    def _dump_activity(self) -> str:
        _, short, token = self._window_name()
        record = f"ActivityRecord{{{token[::-1]} u0 {short} t{self._task_id()}}}"
        return "\n".join(
            [
                "ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)",
                f"  Task id #{self._task_id()}",
                f"    mResumedActivity: {record}",
                f"  ResumedActivity: {record}",
                "",
            ]
        )

    def _dump_power(self) -> str:
        on = self._lit()
        stay = self._state["settings"]["global"].get("stay_on_while_plugged_in", "0")
        return "\n".join(
            [
                "POWER MANAGER (dumpsys power)",
                "",
                "Power Manager State:",
                "  mDirty=0x0",
                f"  mWakefulness={'Awake' if on else 'Asleep'}",
                "  mWakefulnessChanging=false",
                "  mIsPowered=true",
                "  mPlugType=2",
                f"  mBatteryLevel={self._state['battery']}",
                f"  mStayOn={'true' if stay not in ('0', '') else 'false'}",
                "  mBootCompleted=true",
                f"  mHoldingDisplaySuspendBlocker={'true' if on else 'false'}",
                "",
                f"Display Power: state={'ON' if on else 'OFF'}",
                "",
            ]
        )

    def _dump_battery(self) -> str:
        return "\n".join(
            [
                "Current Battery Service state:",
                "  AC powered: false",
                "  USB powered: true",
                "  status: 2",
                "  health: 2",
                "  present: true",
                f"  level: {self._state['battery']}",
                "  scale: 100",
                "",
            ]
        )

    def _dump_apps(self, service: str) -> str:
        lines = (
            [
                "Current Alarm Manager state:",
                "  Settings:",
                "    min_futurity=+5s0ms",
                "",
                f"  nowRTC={int(time.time() * 1000)} nowELAPSED={int(self.uptime() * 1000)}",
                "",
                "  Pending alarm batches: 0",
            ]
            if service == "alarm"
            else []
        )
        for pkg, app in self._apps.items():
            text = app.dump(service, self._state["apps"].setdefault(pkg, {}))
            if text:
                lines.append(text.rstrip("\n"))
        return "\n".join(lines) + "\n"
