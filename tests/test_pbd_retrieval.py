"""Retrieval of demonstrations into ``PlanHints``: the real embedder, the heuristic
planner following a demonstration's steps, the LLM prompt's reference part, and the
``demos`` commands."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pbd_helpers import WordEmbedder
from typer.testing import CliRunner

from screenpilot.cli import app as cli_app
from screenpilot.config import load_config
from screenpilot.model import (
    Action,
    ActionKind,
    Box,
    Demonstration,
    Element,
    ElementKind,
    Screen,
    Step,
)
from screenpilot.pbd.store import DemoRecord, DemoStore, retrieve
from screenpilot.planner.base import PlanHints
from screenpilot.planner.chain import ChainPlanner
from screenpilot.planner.demos import demo_progress, parse_step
from screenpilot.planner.offline import HeuristicPlanner

MODEL = "all-MiniLM-L6-v2"
WIFI = DemoRecord(
    "Turn wifi on.",
    ("tap 'Settings'", "tap 'Network & internet'", "tap the 'Wi-Fi' switch"),
    app="com.android.settings",
)
VERSION = DemoRecord(
    "Check Android Version",
    ("tap 'Settings'", "scroll down", "tap 'About phone'"),
    app="com.android.settings",
)
ALARM = DemoRecord(
    "create alarm at 10:30 am",
    ("tap 'Clock'", "tap 'add'", "type '10' into the 'Hour' field"),
    app="com.android.deskclock",
)


@pytest.fixture(scope="module")
def store(minilm: Any, tmp_path_factory: pytest.TempPathFactory) -> DemoStore:
    s = DemoStore.open(tmp_path_factory.mktemp("demos"), embedder=minilm)
    s.add_many([WIFI, VERSION, ALARM])
    return s


def test_paraphrase_finds_its_demonstration(store: DemoStore) -> None:
    found = retrieve(store, "switch on the wifi please", k=2, threshold=0.6)
    assert found and found[0].instruction == "Turn wifi on." and found[0].steps == WIFI.steps
    assert found[0].score is not None and found[0].score >= 0.6
    assert (
        retrieve(store, "which android version does this phone run?", k=1, threshold=0.6)[
            0
        ].instruction
        == "Check Android Version"
    )
    assert retrieve(store, "send a text message to Bob", threshold=0.6) == ()


# --- the heuristic planner follows a demonstration ---------------------------------------
def screen(*labels: str, switch: str = "") -> Screen:
    els = [
        Element(i + 1, ElementKind.TEXT, Box(100, 200 + 150 * i, 700, 280 + 150 * i), t)
        for i, t in enumerate(labels)
    ]
    if switch:
        els.append(
            Element(
                len(els) + 1,
                ElementKind.SWITCH,
                Box(880, 200, 1000, 280),
                caption=switch,
                checked=False,
            )
        )
    return Screen(1080, 2400, tuple(els))


def step(before: Screen, action: Action) -> Step:
    return Step(0, before, action)


def test_planner_follows_the_demonstration() -> None:
    planner = HeuristicPlanner(WordEmbedder().encode, max_steps=10)
    demo = Demonstration(VERSION.instruction, VERSION.steps, VERSION.app, 0.74)
    hints = PlanHints(demonstrations=(demo,))
    task = "Which Android version is this phone running?"
    home = screen("Messages", "Contacts", "Settings", "Clock")
    first = planner.next(task, home, [], hints=hints)
    assert first.action == Action(ActionKind.TAP, element=3) and "step 1/3" in first.reason
    history = [step(home, first.action)]
    top = screen("Network & internet", "Apps", "Display", "Battery")
    second = planner.next(task, top, history, hints=hints)
    assert second.action.kind is ActionKind.SCROLL  # the demonstration scrolled here
    history.append(step(top, second.action))
    lower = screen("Accessibility", "Security & privacy", "About phone")
    third = planner.next(task, lower, history, hints=hints)
    assert third.action == Action(ActionKind.TAP, element=3)
    history.append(step(lower, third.action))
    assert demo_progress(demo.steps, history) == 3
    last = planner.next(task, screen("About phone", "Android version", "14"), history, hints=hints)
    assert last.action.kind is ActionKind.STOP and last.action.done


def test_planner_skips_a_scroll_it_does_not_need() -> None:
    planner = HeuristicPlanner(WordEmbedder().encode)
    demo = Demonstration(VERSION.instruction, VERSION.steps, "", 0.8)
    home = screen("Settings")
    history = [step(home, Action(ActionKind.TAP, element=1))]
    tall = screen("Network & internet", "Display", "About phone")  # a taller screen
    d = planner.next("android version?", tall, history, hints=PlanHints(demonstrations=(demo,)))
    assert d.action == Action(ActionKind.TAP, element=3)


def test_switch_steps_are_left_to_the_toggle_rule() -> None:
    planner = HeuristicPlanner(WordEmbedder().encode)
    demo = Demonstration(WIFI.instruction, WIFI.steps, "", 0.9)
    page = screen("Internet", "Wi-Fi", switch="Wi-Fi")
    page_on = Screen(
        1080,
        2400,
        tuple(
            e
            if e.kind is not ElementKind.SWITCH
            else Element(e.id, e.kind, e.box, caption="Wi-Fi", checked=True)
            for e in page.elements
        ),
    )
    history = [
        step(screen("Settings"), Action(ActionKind.TAP, element=1)),
        step(screen("Network & internet"), Action(ActionKind.TAP, element=1)),
    ]
    hints = PlanHints(demonstrations=(demo,))
    assert planner.next("turn wifi on", page, history, hints=hints).action == Action(
        ActionKind.TAP, element=3
    )
    assert planner.next("turn wifi on", page_on, history, hints=hints).action.done


def test_a_demonstration_of_another_setting_is_not_followed() -> None:
    planner = HeuristicPlanner(WordEmbedder().encode)
    wifi = Demonstration("Turn wifi off.", WIFI.steps, "", 0.74)  # as alike as MiniLM finds
    home = screen("Settings", "Contacts")
    d = planner.next("turn bluetooth off", home, [], hints=PlanHints(demonstrations=(wifi,)))
    assert "demonstration" not in d.reason
    d = planner.next("disable Wi-Fi", home, [], hints=PlanHints(demonstrations=(wifi,)))
    assert "demonstration step 1/3" in d.reason


def test_demonstrated_values_are_typed_only_when_the_task_says_them() -> None:
    planner = HeuristicPlanner(WordEmbedder().encode)
    demo = Demonstration(ALARM.instruction, ALARM.steps, "", 0.8)
    form = Screen(
        1080,
        2400,
        (
            Element(
                1, ElementKind.EDIT_TEXT, Box(100, 300, 900, 400), "Hour", hint=True, editable=True
            ),
        ),
    )
    history = [
        step(screen("Clock"), Action(ActionKind.TAP, element=1)),
        step(
            Screen(
                1080,
                2400,
                (Element(1, ElementKind.ICON, Box(900, 2000, 1000, 2100), icon_label="add"),),
            ),
            Action(ActionKind.TAP, element=1),
        ),
    ]
    hints = PlanHints(demonstrations=(demo,))
    said = planner.next("alarm for 10 in the morning", form, history, hints=hints)
    assert said.action.kind is ActionKind.TYPE and said.action.text == "10"
    assert parse_step("type <secret> into the 'Password' field").secret
    assert parse_step("tap at 81% 7% of the screen").at == (0.81, 0.07)


def test_demonstrations_reach_the_llm_prompt() -> None:
    planner = ChainPlanner(llm=None)  # type: ignore[arg-type]
    hints = PlanHints(demonstrations=(Demonstration(WIFI.instruction, WIFI.steps, WIFI.app, 0.9),))
    system = planner.messages("wifi on please", screen("Settings"), [], hints)[0]["content"]
    assert "Turn wifi on." in system and "tap 'Network & internet'" in system


# --- the commands ----------------------------------------------------------------------------
def test_demos_commands(minilm: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCREENPILOT_CONFIG", str(tmp_path / "none.toml"))
    path = tmp_path / "store"
    s = DemoStore.open(path, embedder=minilm)
    ids = s.add_many([WIFI, ALARM])
    s.close()
    runner = CliRunner()
    base = ["--set", f"store.path={path}", "--set", f"embed.model={MODEL}"]

    def cli(*args: str) -> Any:
        result = runner.invoke(cli_app, [*base, *args], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result

    listed = cli("demos", "list", "--json").output
    assert [json.loads(line)["id"] for line in listed.splitlines()] == ids
    shown = cli("demos", "show", ids[0][:5]).output
    assert "Turn wifi on." in shown and "3. tap the 'Wi-Fi' switch" in shown
    export = tmp_path / "demos.jsonl"
    assert "exported 2" in cli("demos", "export", str(export)).output
    cli("demos", "rm", ids[0])
    assert "1 demonstrations" in cli("demos", "list").output
    assert "imported 1" in cli("demos", "import", str(export)).output
    assert "re-embedded 2" in cli("demos", "reembed").output
    cfg = load_config({"store.path": str(path), "embed.model": MODEL, "pbd.threshold": "0.6"})
    from screenpilot.build import demonstrations as demonstrations_for

    found = demonstrations_for(cfg, "turn on the wifi", None)
    assert [d.instruction for d in found] == ["Turn wifi on."]
    assert demonstrations_for(cfg, "turn on the wifi", False) == ()
    empty = load_config({"store.path": str(tmp_path / "none"), "embed.model": MODEL})
    assert demonstrations_for(empty, "turn on the wifi", None) == ()


def test_models_pull(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The one command that may download: where it puts a model, and its errors."""
    import huggingface_hub

    from screenpilot.pbd import embed

    monkeypatch.setattr(embed, "user_models_dir", lambda: tmp_path / "models")
    calls: list[tuple[str, str]] = []

    def fake_download(repo: str, local_dir: str) -> str:
        calls.append((repo, local_dir))
        Path(local_dir).mkdir(parents=True)
        return local_dir

    monkeypatch.setattr(huggingface_hub, "snapshot_download", fake_download)
    runner = CliRunner()
    ok = runner.invoke(cli_app, ["models", "pull", "bge-small-en-v1.5"])
    assert ok.exit_code == 0, ok.output
    assert calls == [("BAAI/bge-small-en-v1.5", str(tmp_path / "models" / "bge-small-en-v1.5"))]
    assert embed.resolve("bge-small-en-v1.5")[1] == "bge-small-en-v1.5"  # found locally now

    def offline(repo: str, local_dir: str) -> str:
        raise OSError("network is unreachable")

    monkeypatch.setattr(huggingface_hub, "snapshot_download", offline)
    failed = runner.invoke(cli_app, ["models", "pull", "bge-m3"])
    assert failed.exit_code != 0 and "cannot download BAAI/bge-m3" in str(failed.exception)
    unknown = runner.invoke(cli_app, ["models", "pull", "nonsense"])
    assert "unknown model" in str(unknown.exception)
