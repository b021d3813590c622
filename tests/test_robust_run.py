"""Runs that fail end truly (issue 20): the trajectory's outcome is ``error`` and its note
names the failure, the error is raised for the CLI (one line, a hint, the exit code of
its class), whatever failed: the LLM, its answers, vision, the phone, or a bug."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from screenpilot.agent import Agent, RunOptions, failure_note
from screenpilot.errors import (
    DeviceError,
    LLMError,
    LLMResponseError,
    PlannerError,
    ScreenpilotError,
    VisionError,
)
from screenpilot.model import Box, Element, ElementKind, Screen
from screenpilot.planner.chain import ChainPlanner
from screenpilot.planner.llm import OpenAIChat, ScriptedLLM

SCREEN = Screen(1080, 2400, (Element(1, ElementKind.TEXT, Box(40, 200, 400, 260), "Settings"),))


class Phone:
    """A phone that only shows one picture (these runs fail before acting)."""

    serial = "fake-robust"

    def __init__(self, fail: BaseException | None = None) -> None:
        self.fail = fail

    def capture(self) -> Image.Image:
        if self.fail is not None:
            raise self.fail
        return Image.new("RGB", (1080, 2400), "white")


class Describer:
    def __init__(self, fail: BaseException | None = None) -> None:
        self.fail = fail

    def describe(self, image: Image.Image) -> Screen:
        if self.fail is not None:
            raise self.fail
        return SCREEN


def run(
    tmp_path: Path, llm: object, *, phone: Phone | None = None, describer: Describer | None = None
) -> tuple[BaseException, dict[str, object]]:
    agent = Agent(
        phone or Phone(),  # type: ignore[arg-type]
        describer or Describer(),
        ChainPlanner(llm),  # type: ignore[arg-type]
        options=RunOptions(out=tmp_path, max_steps=5, settle_timeout=0.1),
    )
    with pytest.raises(BaseException) as info:
        agent.run("turn on wifi")
    saved = json.loads((tmp_path / "trajectory.json").read_text())
    return info.value, saved


@pytest.mark.parametrize(
    "error, note",
    [
        (
            LLMError("cannot reach the LLM endpoint at http://x/v1", kind="unreachable"),
            "llm unreachable: cannot reach",
        ),
        (
            LLMError("the LLM endpoint did not answer within 60s", kind="timed out"),
            "llm timed out: ",
        ),
        (LLMError("the LLM endpoint failed (HTTP 503)", kind="server error"), "llm server error: "),
        (
            LLMError("the LLM endpoint answered with a text/html body", kind="not a chat answer"),
            "llm not a chat answer: ",
        ),
    ],
)
def test_an_llm_failure_is_the_runs_outcome(tmp_path: Path, error: LLMError, note: str) -> None:
    """The issue's case: 'outcome gave_up, no result after 20 steps' with 0 steps."""
    raised, saved = run(tmp_path, ScriptedLLM([error]))
    assert raised is error and isinstance(raised, PlannerError) and raised.exit_code == 5
    assert saved["outcome"] == "error" and str(saved["note"]).startswith(note)
    assert saved["steps"] == []


def test_answers_that_never_parse_end_the_run_with_exit_5(tmp_path: Path) -> None:
    """Planner failures exited 1 (a returned trajectory); now the error is raised."""
    raised, saved = run(tmp_path, ScriptedLLM(["not json at all"] * 20))
    assert isinstance(raised, LLMResponseError) and raised.exit_code == 5
    assert "3 turns in a row without a usable action" in raised.message
    assert str(saved["note"]).startswith("llm answer unusable: 3 turns in a row")


@pytest.mark.parametrize(
    "phone, describer, note",
    [
        (Phone(DeviceError("the phone was unplugged")), None, "device failed: the phone was"),
        (None, Describer(VisionError("rapidocr failed")), "vision failed: rapidocr failed"),
        (None, Describer(ValueError("a bug")), "internal error: ValueError: a bug"),
    ],
)
def test_other_failures_are_named_too(
    tmp_path: Path, phone: Phone | None, describer: Describer | None, note: str
) -> None:
    raised, saved = run(tmp_path, ScriptedLLM([]), phone=phone, describer=describer)
    assert saved["outcome"] == "error" and str(saved["note"]).startswith(note)
    assert type(raised).__name__ in ("DeviceError", "VisionError", "ValueError")


def test_a_real_client_on_a_closed_port(tmp_path: Path) -> None:
    llm = OpenAIChat(
        base_url="http://127.0.0.1:9/v1",
        model="m",
        api_key="k",
        timeout=2,
        deadline=3,
        max_retries=1,
        backoff=0.01,
    )
    raised, saved = run(tmp_path, llm)
    assert isinstance(raised, LLMError) and raised.kind == "unreachable"
    assert str(saved["note"]).startswith("llm unreachable: cannot reach the LLM endpoint")


def test_failure_note_of_every_class() -> None:
    assert failure_note(PlannerError("no move")) == "planner failed: no move"
    assert failure_note(ScreenpilotError("odd")) == "failed: odd"
    assert failure_note(KeyError("k")) == "internal error: KeyError: 'k'"


def test_cli_run_with_an_unreachable_llm_exits_5_with_its_trajectory(tmp_path: Path) -> None:
    """End to end: the virtual phone, real adb and vision; the LLM on a closed port. One
    error line, a hint, exit 5, and trajectory.json saying `llm unreachable`."""
    env = {
        **os.environ,
        "SCREENPILOT_CONFIG": str(tmp_path / "none.toml"),
        "SCREENPILOT_LLM_API_KEY": "",
    }
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "screenpilot",
            "--set",
            "llm.base_url=http://127.0.0.1:9/v1",
            "--set",
            "llm.deadline=3",
            "--set",
            "llm.timeout=2",
            "--set",
            "safety.exemplars=false",
            "--set",
            f"store.path={tmp_path / 'store'}",
            "run",
            "turn on wifi",
            "--virtual",
            "--planner",
            "llm",
            "--yes",
            "--no-demos",
            "--out",
            str(tmp_path / "runs"),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert proc.returncode == 5, proc.stderr
    errors = [line for line in proc.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and errors[0].startswith("error: cannot reach the LLM endpoint")
    assert "  hint: check llm.base_url" in proc.stderr and "Traceback" not in proc.stderr
    saved = json.loads(next((tmp_path / "runs").glob("*/trajectory.json")).read_text())
    assert saved["outcome"] == "error"
    assert saved["note"].startswith("llm unreachable: cannot reach the LLM endpoint")
