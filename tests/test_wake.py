"""A display that went off: the virtual phone's power keys, ``dumpsys power`` read over
real adb, and a run that wakes the phone instead of handing a black screen over."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from phone_fixtures import PhoneSession
from PIL import Image
from test_agent import make_agent, tap_label

from screenpilot.executor.adb import AdbDevice
from screenpilot.executor.wake import Wakeable, is_dark, parse_awake
from screenpilot.model import ActionKind, Outcome
from screenpilot.simulator.phone import VirtualPhone

ANDROID_14_ASLEEP = """POWER MANAGER (dumpsys power)

Power Manager State:
  mDirty=0x0
  mWakefulness=Asleep
  mWakefulnessChanging=false
Display Power: state=OFF
"""


@pytest.fixture()
def vp(phone: PhoneSession) -> VirtualPhone:
    inner: Any = phone.backend.inner
    assert isinstance(inner, VirtualPhone)
    inner.reset()
    return inner


def test_what_dumpsys_power_says() -> None:
    assert parse_awake(ANDROID_14_ASLEEP) is False
    assert parse_awake("  mWakefulness=Awake\n") is True
    assert parse_awake("  mWakefulness=Dozing\n") is False  # always-on display: still dark
    assert parse_awake("Display Power: state=ON\n") is True  # older phones: no wakefulness
    assert parse_awake("Can't find service: power") is None


def test_dark_means_every_pixel_black() -> None:
    assert is_dark(Image.new("RGB", (40, 80), (3, 3, 3)))
    grey = Image.new("RGB", (40, 80), (0, 0, 0))
    grey.putpixel((10, 10), (0, 0, 60))
    assert not is_dark(grey)


def test_the_virtual_phones_display_over_adb(phone: PhoneSession, vp: VirtualPhone) -> None:
    device = AdbDevice(phone.serial)
    assert isinstance(device, Wakeable) and device.screen_awake() is True
    device.key("POWER")
    assert device.screen_awake() is False and not vp.screen_on
    assert is_dark(device.capture())
    icon = vp.frame().find("Settings")
    assert icon is not None
    device.tap(*icon.box.center)  # a dark screen takes no touch
    device.key("BACK")  # nor keys other than power and volume
    assert vp.current_focus()[0] == "com.android.launcher3"
    device.wake()
    assert device.screen_awake() is True
    expected = np.asarray(vp.frame().image.convert("RGB"))
    assert np.array_equal(np.asarray(device.capture()), expected)
    device.key("POWER")
    device.key("POWER")  # POWER toggles
    assert vp.screen_on


def test_a_run_wakes_a_phone_that_went_dark(
    phone: PhoneSession, vp: VirtualPhone, tmp_path: Path
) -> None:
    vp.keyevent(223)  # KEYCODE_SLEEP: the screen timed out before the run
    answers = [
        tap_label("Settings"),
        tap_label("Display"),
        tap_label("Brightness level", done_when="Brightness level"),
    ]
    traj = make_agent(phone, answers, tmp_path).run("open the display settings")
    assert traj.outcome is Outcome.SUCCESS, traj.note
    assert [s.action.kind for s in traj.steps[:2]] == [ActionKind.TAP, ActionKind.TAP]
    first = dict(traj.steps[0].timings)
    assert "wake" in first and first["wake"] >= 0.0
    assert all("wake" not in dict(s.timings) for s in traj.steps[1:])
    assert vp.screen_on and vp.state["tasks"]["com.android.settings"][-1]["page"] == "display"


def test_a_black_screen_on_a_lit_display_is_not_woken(
    phone: PhoneSession, vp: VirtualPhone, tmp_path: Path
) -> None:
    from screenpilot.executor.wake import wake_if_off

    device = AdbDevice(phone.serial)
    black = Image.new("RGB", (1080, 2400))  # what a FLAG_SECURE app's screen captures as
    assert wake_if_off(device, black, timeout=1.0, interval=0.05) is None
    lit = device.capture()
    vp.keyevent(223)
    assert wake_if_off(device, lit, timeout=1.0, interval=0.05) is None  # not black: not asked
    woke = wake_if_off(device, device.capture(), timeout=2.0, interval=0.05)
    assert woke is not None and not is_dark(woke.image) and vp.screen_on
