"""VirtualPhone: navigation, touches, typing, settings, snapshots (no adb involved)."""

from __future__ import annotations

import base64
import io
import os
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from screenpilot.model import ElementKind
from screenpilot.simulator.backend import PhoneBackend, TouchEvent
from screenpilot.simulator.phone import VirtualPhone

RENDERS = Path(os.environ.get("SP_RENDERS", "/tmp/sp_renders"))


def _pixels(phone: VirtualPhone) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(phone.screencap_png())).convert("RGB"))


def _settings(phone: VirtualPhone, *pages: str) -> None:
    assert phone.launch("com.android.settings")
    for title in pages:
        assert phone.tap_text(title), title


@pytest.fixture
def phone() -> VirtualPhone:
    return VirtualPhone()


def test_implements_backend(phone: VirtualPhone) -> None:
    assert isinstance(phone, PhoneBackend)
    assert phone.size() == (1080, 2400) and phone.density() == 420
    assert phone.getprop("ro.product.model") == "screenpilot virtual phone"
    assert phone.getprop("ro.build.version.sdk") == "34"
    assert "com.android.settings" in phone.packages()
    assert "com.android.adbkeyboard/.AdbIME" in phone.ime_list()
    assert phone.content_query("content://com.android.contacts/contacts")
    assert phone.content_query("content://com.example.nothing/rows") is None
    assert phone.dumpsys("nosuchservice", []) is None
    assert "SurfaceOrientation: 0" in (phone.dumpsys("input", []) or "")
    assert "mCurrentOrientation=0" in (phone.dumpsys("display", []) or "")
    assert "Alarm Manager" in (phone.dumpsys("alarm", []) or "")


def test_launch_focus_and_back_home(phone: VirtualPhone) -> None:
    assert phone.current_focus()[0] == "com.android.launcher3"
    assert phone.tap_text("Settings")
    assert phone.current_focus() == ("com.android.settings", "com.android.settings.Settings")
    assert "mCurrentFocus=Window{" in (
        phone.dumpsys("window", []) or ""
    ) and "com.android.settings/com.android.settings.Settings}" in (
        phone.dumpsys("window", []) or ""
    )
    assert phone.tap_text("Display")
    assert phone.current_focus()[1] == "com.android.settings.SubSettings"
    phone.keyevent(4)
    assert phone.current_focus()[1] == "com.android.settings.Settings"
    phone.keyevent(4)
    assert phone.current_focus()[0] == "com.android.launcher3"
    assert not phone.launch("com.example.missing")


def test_wifi_switch_flips_setting_and_pixels(phone: VirtualPhone) -> None:
    _settings(phone, "Network & internet", "Internet")
    before = _pixels(phone)
    assert phone.settings_get("global", "wifi_on") == "1"
    switch = next(e for e in phone.frame().elements if e.kind is ElementKind.SWITCH)
    phone.tap(*switch.box.center)
    assert phone.settings_get("global", "wifi_on") == "0"
    assert not np.array_equal(before, _pixels(phone))
    assert phone.frame().find("HomeNet") is None


def test_settings_put_changes_ui(phone: VirtualPhone) -> None:
    _settings(phone)
    light = _pixels(phone)
    phone.settings_put("secure", "ui_night_mode", "2")
    dark = _pixels(phone)
    assert dark.mean() < light.mean() - 50
    phone.settings_put("system", "system_locales", "zh-CN")
    assert phone.frame().find("网络和互联网") is not None
    RENDERS.mkdir(parents=True, exist_ok=True)
    phone.frame().image.save(RENDERS / "settings_dark_zh.png")


def test_swipe_scrolls_main_list(phone: VirtualPhone) -> None:
    _settings(phone)
    first = phone.frame().find("Apps")
    assert first is not None and phone.frame().find("About phone") is None
    phone.swipe(540, 1800, 540, 1400, 300)
    moved = phone.frame().find("Apps")
    assert moved is not None and moved.box.y1 == first.box.y1 - 400
    phone.swipe(540, 1800, 540, 200, 300)
    assert phone.frame().find("About phone") is not None


def test_typing_into_focused_field(phone: VirtualPhone) -> None:
    _settings(phone)
    phone.tap_text("Search settings")
    assert phone.frame().keyboard_box is not None
    phone.input_text("blue")
    phone.keyevent(67)
    assert phone.frame().find("blu") is not None
    for key in ("t", "o", "o", "t", "h"):
        element = next(e for e in phone.frame().elements if e.key == f"kbd:{key}")
        phone.tap(*element.box.center)
    assert phone.state["tasks"]["com.android.settings"][-1]["fields"]["query"] == "blutooth"
    phone.broadcast("ADB_CLEAR_TEXT", {})
    phone.broadcast("ADB_INPUT_B64", {"msg": base64.b64encode("蓝牙".encode()).decode()})
    assert phone.frame().find("蓝牙") is not None
    phone.keyevent(4)
    assert phone.frame().keyboard_box is None


def test_secure_pin_page_is_black(phone: VirtualPhone) -> None:
    _settings(phone)
    phone.swipe(540, 1800, 540, 300, 300)
    assert phone.tap_text("Security & privacy")
    assert phone.tap_text("Screen lock")
    assert phone.tap_text("PIN")
    assert phone.frame().secure
    assert not _pixels(phone).any()
    phone.input_text("1234")
    phone.keyevent(66)
    phone.input_text("1234")
    phone.keyevent(66)
    assert phone.app_state("com.android.settings")["lock"] == "pin"
    assert not phone.frame().secure


def test_touch_events_reach_listeners(phone: VirtualPhone) -> None:
    events: list[TouchEvent] = []
    unsubscribe = phone.add_touch_listener(events.append)
    phone.tap(100, 100)
    assert [e.phase for e in events] == ["down", "up"]
    events.clear()
    phone.swipe(500, 1500, 500, 900, 200)
    assert events[0].phase == "down" and events[-1].phase == "up"
    assert {e.phase for e in events[1:-1]} == {"move"}
    assert events[-1].time - events[0].time == pytest.approx(0.2)
    unsubscribe()
    phone.tap(10, 10)
    phone.tap(5000, 5000)
    assert len(events) > 2 and events[-1].y == 900


def test_brightness_seek_bar_drags(phone: VirtualPhone) -> None:
    _settings(phone, "Display")
    bar = next(e for e in phone.frame().elements if e.kind is ElementKind.SEEK_BAR)
    y = bar.box.center[1]
    phone.swipe(bar.box.x1 + 30, y, bar.box.x2 - 5, y, 200)
    assert int(phone.settings_get("system", "screen_brightness") or 0) >= 250


def test_snapshot_restore_round_trip(phone: VirtualPhone) -> None:
    snap = phone.snapshot()
    pixels = _pixels(phone)
    _settings(phone, "Network & internet")
    phone.settings_put("global", "bluetooth_on", "0")
    phone.restore(snap)
    assert phone.state == snap
    assert np.array_equal(pixels, _pixels(phone))
    phone.launch("com.android.settings")
    phone.reset()
    assert phone.current_focus()[0] == "com.android.launcher3"


@pytest.mark.parametrize("size", [(1080, 1920), (720, 1600), (1200, 2000)])
def test_other_sizes_and_modes(size: tuple[int, int]) -> None:
    phone = VirtualPhone(size=size, theme="dark", locale="zh", accent="purple", nav_mode="gesture")
    _settings(phone)
    w, h, raw = phone.screencap_raw()
    assert (w, h) == size and len(raw) == w * h * 4
    screen = phone.screen()
    assert any(e.text == "设置" for e in screen.elements)
    phone.swipe(size[0] // 2, size[1] - 5, size[0] // 2, size[1] // 2, 200)
    assert phone.current_focus()[0] == "com.android.launcher3"
