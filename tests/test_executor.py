"""The executor against the virtual phone, through the real adb binary."""

from __future__ import annotations

import threading
from typing import Any

import adbutils
import numpy as np
import pytest
from phone_fixtures import PhoneSession, wait_until

from screenpilot.errors import DeviceError
from screenpilot.executor.actions import perform
from screenpilot.executor.adb import AdbDevice, choose_serial, list_devices
from screenpilot.executor.device import Device, DeviceInfo, Gesture
from screenpilot.executor.longshot import capture_long
from screenpilot.executor.settle import wait_until_settled
from screenpilot.model import Action, ActionKind, Direction
from screenpilot.simulator.apps import default_apps
from screenpilot.simulator.apps.longlist import LongListApp
from screenpilot.simulator.phone import VirtualPhone
from screenpilot.simulator.serve import serve_phone


def virtual(phone: PhoneSession) -> VirtualPhone:
    inner: Any = phone.backend.inner
    assert isinstance(inner, VirtualPhone)
    return inner


@pytest.fixture(scope="module")
def device(phone: PhoneSession) -> AdbDevice:
    return AdbDevice(phone.serial)


@pytest.fixture()
def fresh(phone: PhoneSession) -> VirtualPhone:
    vp = virtual(phone)
    vp.reset()
    return vp


def focused_field(vp: VirtualPhone) -> str:
    entry = vp.state["tasks"][vp.current_focus()[0]][-1]
    return str(entry["fields"].get(entry["focus"], ""))


def open_search(vp: VirtualPhone, device: AdbDevice) -> None:
    vp.open_page("settings", "search")
    frame = vp.frame()
    field = next(e for e in frame.elements if e.kind.value == "edit_text")
    device.tap(*field.box.center)
    assert vp.state["tasks"]["com.android.settings"][-1]["focus"] is not None


def test_adb_device_satisfies_the_protocol(device: AdbDevice) -> None:
    assert isinstance(device, Device)


def test_capture_is_the_phone_frame(device: AdbDevice, fresh: VirtualPhone) -> None:
    image = device.capture()
    assert image.size == (1080, 2400) == device.size()
    expected = np.asarray(fresh.frame().image.convert("RGB"))
    assert np.array_equal(np.asarray(image), expected)


def test_tap_back_home_launch(device: AdbDevice, fresh: VirtualPhone) -> None:
    icon = fresh.frame().find("Settings")
    assert icon is not None
    device.tap(*icon.box.center)
    assert device.current_app() == "com.android.settings"
    device.key("BACK")
    assert device.current_app() != "com.android.settings"
    device.launch("com.android.settings")
    assert device.current_app() == "com.android.settings"
    device.key("HOME")
    assert device.current_app() == fresh.current_focus()[0] != "com.android.settings"
    with pytest.raises(DeviceError, match="not installed"):
        device.launch("com.example.nothere")
    with pytest.raises(DeviceError, match="outside"):
        device.tap(5000, 10)


@pytest.mark.parametrize("text", ["hello world", "a&b;c|d $HOME `id`", 'it\'s "q" \\ 100%s'])
def test_type_hostile_text_exactly(device: AdbDevice, fresh: VirtualPhone, text: str) -> None:
    open_search(fresh, device)
    device.type_text(text)
    assert focused_field(fresh) == text


def test_type_unicode_and_clear(device: AdbDevice, fresh: VirtualPhone) -> None:
    open_search(fresh, device)
    device.type_text("蓝牙 café 😀")
    assert focused_field(fresh) == "蓝牙 café 😀"
    device.clear_text()
    assert focused_field(fresh) == ""


def test_unicode_without_adb_keyboard_says_how_to_install(fresh: VirtualPhone) -> None:
    phone = VirtualPhone(adb_keyboard=False)
    with serve_phone(phone) as serial:
        dev = AdbDevice(serial)
        with pytest.raises(DeviceError, match="ADB Keyboard") as info:
            dev.type_text("你好")
        assert "adb install" in info.value.hint


def test_every_action_kind(device: AdbDevice, fresh: VirtualPhone) -> None:
    from screenpilot.model import Box, Element, ElementKind, Screen

    fresh.open_page("settings")
    frame = fresh.frame()
    network = frame.find("Network & internet")
    assert network is not None
    b = network.box
    screen = Screen(
        1080,
        2400,
        elements=(
            Element(0, ElementKind.TEXT, Box(b.x1, b.y1, b.x2, b.y2), text="Network & internet"),
        ),
    )
    perform(device, Action(ActionKind.TAP, element=0), screen)
    assert fresh.state["tasks"]["com.android.settings"][-1]["page"] == "network"
    perform(device, Action(ActionKind.BACK), screen)
    assert fresh.state["tasks"]["com.android.settings"][-1]["page"] == "main"
    before = fresh.state["tasks"]["com.android.settings"][-1]["scroll"]
    perform(device, Action(ActionKind.SCROLL, direction=Direction.DOWN), screen)
    assert fresh.state["tasks"]["com.android.settings"][-1]["scroll"] > before
    perform(device, Action(ActionKind.SWIPE, start=(540, 800), end=(540, 1800)), screen)
    perform(device, Action(ActionKind.LONG_PRESS, point=(540, 1200)), screen)
    perform(device, Action(ActionKind.WAIT, duration_ms=10), screen)
    perform(device, Action(ActionKind.HOME), screen)
    perform(device, Action(ActionKind.LAUNCH, app="com.android.settings"), screen)
    assert device.current_app() == "com.android.settings"
    open_search(fresh, device)
    perform(device, Action(ActionKind.TYPE, text="wifi"), screen)
    assert focused_field(fresh) == "wifi"
    with pytest.raises(DeviceError, match="no element 9"):
        perform(device, Action(ActionKind.TAP, element=9), screen)


def test_settle_after_a_tap(device: AdbDevice, fresh: VirtualPhone) -> None:
    before = device.capture()
    icon = fresh.frame().find("Settings")
    assert icon is not None
    device.tap(*icon.box.center)
    settled = wait_until_settled(device, timeout=3.0, interval=0.05, before=before)
    assert settled.stable and settled.frames >= 2
    assert np.array_equal(np.asarray(settled.image), np.asarray(fresh.frame().image))


def test_recorded_touches_equal_injected(
    phone: PhoneSession, device: AdbDevice, fresh: VirtualPhone
) -> None:
    found: list[Gesture] = []

    def record() -> None:
        for g in device.touch_events():
            found.append(g)
            if len(found) == 3:
                return

    thread = threading.Thread(target=record, daemon=True)
    thread.start()
    assert wait_until(lambda: phone.backend.listening > 0, 10)  # getevent is listening
    device.tap(300, 700)
    device.long_press(500, 1500, 700)
    device.swipe(540, 1800, 540, 600, 300)
    thread.join(10)
    assert [g.kind for g in found] == ["tap", "long_press", "swipe"]
    assert (found[0].x, found[0].y) == (300, 700)
    assert (found[1].x, found[1].y) == (500, 1500) and found[1].duration_ms >= 500
    assert (found[2].x, found[2].y, found[2].end_x, found[2].end_y) == (540, 1800, 540, 600)


def test_long_screenshot_matches_ground_truth() -> None:
    vp = VirtualPhone(apps=[*default_apps(), LongListApp()])
    vp.open_page("long list")
    with serve_phone(vp) as serial:
        dev = AdbDevice(serial)
        page_ = capture_long(dev, max_screens=8)
        entry = vp.state["tasks"]["com.example.longlist"][-1]
        true_scroll = entry["scroll"]
    view = page_.bottom - page_.top
    assert len(page_.offsets) >= 4
    assert abs(page_.offsets[-1] - true_scroll) <= 2  # stitch error in pixels
    tall = np.asarray(page_.image.convert("RGB")).astype(np.int16)
    for offset in (0, 700, 1900, true_scroll):
        vp.restore(_with_scroll(vp, offset))
        frame = np.asarray(vp.frame().image.convert("RGB")).astype(np.int16)
        region = frame[page_.top : page_.bottom]
        stitched = tall[page_.top + offset : page_.top + offset + view]
        assert np.abs(region - stitched).mean() < 1.0, offset


def _with_scroll(vp: VirtualPhone, offset: int) -> dict[str, Any]:
    state = vp.snapshot()
    state["tasks"]["com.example.longlist"][-1]["scroll"] = offset
    return state


def test_long_page_reveals_an_element_below_the_fold() -> None:
    vp = VirtualPhone(apps=[*default_apps(), LongListApp()])
    vp.open_page("long list")
    with serve_phone(vp) as serial:
        dev = AdbDevice(serial)
        page_ = capture_long(dev, max_screens=8)
        # Row 5 is near the top of the page: far above the current (bottom) position.
        vp_rows = [e for e in vp.screen().elements if e.text.startswith("Row number")]
        assert vp_rows
        from screenpilot.model import Box

        target_y = page_.top + 900
        page2, box = page_.reveal(dev, Box(100, target_y, 600, target_y + 60))
        assert page_.top <= box.y1 and box.y2 <= page_.bottom
        scroll = vp.state["tasks"]["com.example.longlist"][-1]["scroll"]
        assert abs(page2.current_offset - scroll) <= 2


@pytest.mark.parametrize(
    ("app", "label", "opens"),
    [
        ("settings", "Network & internet", "Airplane mode"),  # back at the top of a list
        ("shop", "Smart Watch", "Add to cart"),  # a grid further down
    ],
)
def test_a_tap_on_the_long_page_opens_that_element(app: str, label: str, opens: str) -> None:
    """The tap lands on the element the long page shows, wherever capturing left the
    page: the element's own rows are found on the screen after scrolling."""
    from screenpilot.model import Box

    vp = VirtualPhone()
    vp.open_page(app)
    # at the page's top, screen and tall-image coordinates are the same
    box = next(e.box for e in vp.screen().elements if e.text == label)
    with serve_phone(vp) as serial:
        dev = AdbDevice(serial)
        page_ = capture_long(dev)
        assert page_.current_offset > 0  # capturing scrolled down
        _, on_screen = page_.reveal(dev, Box(box.x1, box.y1, box.x2, box.y2))
        dev.tap(*on_screen.center)
        texts = [e.text for e in vp.screen().elements]
        assert any(opens in t for t in texts), texts


def test_error_paths(phone: PhoneSession) -> None:
    with pytest.raises(DeviceError, match="no device with serial"):
        choose_serial("127.0.0.1:1")
    serials = [d.serial for d in list_devices() if d.state == "device"]
    assert phone.serial in serials
    second = VirtualPhone()
    with serve_phone(second):
        with pytest.raises(DeviceError, match="phones connected") as info:
            choose_serial(None)
        assert "--device" in info.value.hint
    from screenpilot.executor.adb import _check_state

    with pytest.raises(DeviceError, match="authorised"):
        _check_state(DeviceInfo("X", "unauthorized"))


def test_unplugged_mid_task_is_a_device_error() -> None:
    vp = VirtualPhone()
    with serve_phone(vp) as serial:
        dev = AdbDevice(serial)
        dev.capture()
        client = adbutils.AdbClient()
        client.disconnect(serial)
        with pytest.raises(DeviceError) as info:
            dev.tap(10, 10)
        assert "disconnected" in str(info.value) or "adb failed" in str(info.value)
        with pytest.raises(DeviceError, match="screencap failed"):
            dev.capture()
