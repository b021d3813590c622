"""A display that went off: the virtual phone's power keys, ``dumpsys power`` read over
real adb, and a run that wakes the phone instead of handing a black screen over."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from phone_fixtures import PhoneSession
from PIL import Image
from test_agent import Message, make_agent, tap_label

from screenpilot.agent import Agent, RunOptions
from screenpilot.errors import DeviceError
from screenpilot.executor.adb import AdbDevice
from screenpilot.executor.wake import Wakeable, is_dark, parse_awake
from screenpilot.model import ActionKind, Outcome
from screenpilot.planner.chain import ChainPlanner
from screenpilot.planner.llm import ScriptedLLM
from screenpilot.simulator.phone import VirtualPhone
from screenpilot.vision.incremental import IncrementalDescriber

ANDROID_14_ASLEEP = """POWER MANAGER (dumpsys power)

Power Manager State:
  mDirty=0x0
  mWakefulness=Asleep
  mWakefulnessChanging=false
Display Power: state=OFF
"""


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
    vp.keyevent(223)
    vp.keyevent(223)  # SLEEP on a dark display leaves it dark
    assert not vp.screen_on
    vp.keyevent(224)
    vp.keyevent(224)  # WAKEUP on a lit one leaves it lit
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


def agent_on(phone: PhoneSession, answers: list[Any], out: Path) -> Agent:
    """An agent that checks the display before every action (``wake_check_after`` 0)."""
    return Agent(
        AdbDevice(phone.serial),
        IncrementalDescriber(stages=("ocr", "blocks")),
        ChainPlanner(ScriptedLLM(answers)),
        options=RunOptions(
            out=out, max_steps=6, settle_timeout=2.0, settle_interval=0.05, wake_check_after=0.0
        ),
    )


def dark_while_planning(
    vp: VirtualPhone, answer: Callable[[Sequence[Message]], str], *, then: str = ""
) -> Callable[[Sequence[Message]], str]:
    """``answer``, after the display went off (and, with ``then``, the phone moved to
    that Settings page while it was dark)."""

    def planned(messages: Sequence[Message]) -> str:
        text = answer(messages)
        vp.keyevent(223)
        if then:
            vp.open_page("settings", then)
        return text

    return planned


def test_a_tap_planned_as_the_screen_went_dark_is_not_lost(
    phone: PhoneSession, vp: VirtualPhone, tmp_path: Path
) -> None:
    answers = [
        dark_while_planning(vp, tap_label("Settings")),
        tap_label("Display"),
        tap_label("Brightness level", done_when="Brightness level"),
    ]
    traj = agent_on(phone, answers, tmp_path).run("open the display settings")
    assert traj.outcome is Outcome.SUCCESS, traj.note
    assert len(traj.steps) == 3  # the first tap reached the woken screen
    assert vp.state["tasks"]["com.android.settings"][-1]["page"] == "display"


def test_woken_to_another_screen_it_looks_again_and_then_gives_up(
    phone: PhoneSession, vp: VirtualPhone, tmp_path: Path
) -> None:
    answers = [
        dark_while_planning(vp, tap_label("Settings"), then="display"),
        tap_label("Brightness level", done_when="Brightness level"),
    ]
    traj = agent_on(phone, answers, tmp_path / "a").run("open the display settings")
    assert traj.outcome is Outcome.SUCCESS, traj.note
    assert len(traj.steps) == 1  # the tap on the home screen was never made
    assert traj.steps[0].action.kind is not ActionKind.TAP

    vp.reset()
    pages = ["display", "network", "display", "network"]
    answers = [dark_while_planning(vp, tap_label("Settings"), then=p) for p in pages]
    with pytest.raises(DeviceError, match="went off while planning 3 times"):
        agent_on(phone, answers, tmp_path / "b").run("open the display settings")
    saved = json.loads((tmp_path / "b" / "trajectory.json").read_text())
    assert saved["outcome"] == "error" and "went off while planning" in saved["note"]
