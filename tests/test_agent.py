"""The run loop end to end: virtual phone over real adb, real vision, scripted LLM."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from phone_fixtures import PhoneSession

from screenpilot.agent import Agent, RunOptions
from screenpilot.errors import DeviceError, SafetyStop
from screenpilot.executor.adb import AdbDevice
from screenpilot.model import ActionKind, Outcome, Screen, SensitiveCategory, Sensitivity
from screenpilot.planner.chain import ChainPlanner
from screenpilot.planner.llm import ScriptedLLM
from screenpilot.planner.safety import KeywordSafety
from screenpilot.simulator.phone import VirtualPhone
from screenpilot.vision.incremental import IncrementalDescriber

Message = dict[str, Any]


def tap_label(label: str, *, done_when: str = "") -> Callable[[Sequence[Message]], str]:
    """An LLM answer that taps the element showing ``label`` in the prompt's screen."""

    def answer(messages: Sequence[Message]) -> str:
        text = str(messages[-1]["content"])
        screen = text[text.rfind("<screen>") : text.rfind("</screen>")]
        if done_when and done_when in screen:
            return json.dumps({"action": "stop", "done": True, "reason": "it is open"})
        m = re.search(rf"\[(\d+)\] [^\n]*'{re.escape(label)}'", screen)
        if m is None:
            return json.dumps({"action": "back", "reason": f"no {label} here"})
        return json.dumps(
            {"action": "tap", "element": int(m.group(1)), "reason": f"{label} leads to the task"}
        )

    return answer


def make_agent(phone: PhoneSession, answers: list[Any], out: Path, **kw: Any) -> Agent:
    planner = ChainPlanner(ScriptedLLM(answers))
    return Agent(
        AdbDevice(phone.serial),
        IncrementalDescriber(stages=("ocr", "blocks")),
        planner,
        options=RunOptions(out=out, max_steps=6, settle_timeout=2.0, settle_interval=0.05),
        **kw,
    )


def test_scripted_run_opens_display_settings(
    phone: PhoneSession, vp: VirtualPhone, tmp_path: Path
) -> None:
    answers = [
        tap_label("Settings"),
        tap_label("Display"),
        tap_label("Brightness level", done_when="Brightness level"),
    ]
    agent = make_agent(phone, answers, tmp_path)
    traj = agent.run("open the display settings")
    assert traj.outcome is Outcome.SUCCESS, traj.note
    assert len(traj.steps) == 3
    assert vp.state["tasks"]["com.android.settings"][-1]["page"] == "display"
    saved = json.loads((tmp_path / "trajectory.json").read_text())
    assert saved["outcome"] == "success" and len(saved["steps"]) == 3
    html = (tmp_path / "report.html").read_text()
    assert "Tap the &#x27;Settings&#x27; text" in html or "Tap the 'Settings' text" in html
    assert html.count("data:image/jpeg;base64,") == 3
    assert traj.steps[0].after is not None  # filled from the next turn's screen


def test_ctrl_c_saves_the_trajectory(phone: PhoneSession, vp: VirtualPhone, tmp_path: Path) -> None:
    def interrupt(messages: Sequence[Message]) -> str:
        raise KeyboardInterrupt

    agent = make_agent(phone, [tap_label("Settings"), interrupt], tmp_path)
    with pytest.raises(KeyboardInterrupt):
        agent.run("turn on wifi")
    saved = json.loads((tmp_path / "trajectory.json").read_text())
    assert saved["outcome"] == "aborted" and len(saved["steps"]) == 1
    assert (tmp_path / "report.html").is_file()


class Unplug:
    """Stops the phone's adbd when the planner is asked: the phone vanishes mid-task."""

    def __init__(self, phone: PhoneSession) -> None:
        self.phone = phone

    def __call__(self, messages: Sequence[Message]) -> str:
        self.phone.client.disconnect(self.phone.serial)
        return json.dumps({"action": "back", "reason": "go back"})


def test_phone_unplugged_mid_task(phone: PhoneSession, vp: VirtualPhone, tmp_path: Path) -> None:
    agent = make_agent(phone, [Unplug(phone)], tmp_path)
    try:
        with pytest.raises(DeviceError):
            agent.run("turn on wifi")
    finally:
        phone.reconnect()
    saved = json.loads((tmp_path / "trajectory.json").read_text())
    assert saved["outcome"] == "error" and "disconnected" in saved["note"]


def test_unattended_run_stops_on_a_secure_screen(
    phone: PhoneSession, vp: VirtualPhone, tmp_path: Path
) -> None:
    vp.open_page("settings", "pin")
    agent = make_agent(phone, [tap_label("OK")], tmp_path, safety=KeywordSafety())
    with pytest.raises(SafetyStop) as info:
        agent.run("set a screen lock PIN of 1234")
    # the screen is black (FLAG_SECURE): the task's words make it authentication
    assert info.value.category == "authentication"
    saved = json.loads((tmp_path / "trajectory.json").read_text())
    assert saved["outcome"] == "safety_stop" and "authentication" in saved["note"]
    [step] = saved["steps"]  # the stop is recorded, with its screen
    assert step["action"]["kind"] == "handover" and step["error"]
    assert step["before"]["sensitivity"]["category"] == "authentication"


def test_handover_lets_the_person_act(
    phone: PhoneSession, vp: VirtualPhone, tmp_path: Path
) -> None:
    vp.open_page("settings", "pin")
    asked: list[str] = []

    def person(sens: Sensitivity, what: str) -> bool:
        asked.append(sens.category.value)
        vp.keyevent(4)  # the person leaves the PIN page themselves
        return True

    answers = [json.dumps({"action": "stop", "done": True, "reason": "the person set it"})]
    agent = make_agent(phone, answers, tmp_path, safety=KeywordSafety(), handover=person)
    traj = agent.run("set a screen lock PIN")
    assert asked == ["authentication"]
    assert traj.outcome is Outcome.SUCCESS
    assert traj.steps[0].before.sensitivity.category is SensitiveCategory.AUTHENTICATION
    # the handover is a step of its own; the planner then sees the phone as the person
    # left it (the PIN page is gone), not the screen from before the handover
    assert traj.steps[0].action.kind is ActionKind.HANDOVER
    assert not traj.steps[1].before.secure


def test_blank_secure_screen_is_described_as_such() -> None:
    screen = Screen(1080, 2400, secure=True)
    assert KeywordSafety().screen(screen).sensitive
