"""Knowledge from exploration: slots, the graph's shortest covering path, summarising a
run, matching commands to intents, the JSON file, and replay on the virtual phone."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from explore_helpers import TruthDescriber, el, screen, words_encoder
from phone_fixtures import PhoneSession

from screenpilot.errors import StoreError
from screenpilot.model import (
    Action,
    ActionKind,
    ElementKind,
    Outcome,
    Screen,
    Step,
    Trajectory,
)
from screenpilot.pbd.knowledge import (
    Edge,
    Knowledge,
    PathOp,
    Replay,
    TaskKnowledge,
    bind,
    default_path,
    fill,
    mask,
    shortest_covering,
    template,
)

# --- slots ------------------------------------------------------------------------------------


def test_template_and_fill_round_trip_with_word_parts() -> None:
    values = ("Alice Walker", "2122000000")
    assert template("Alice", values) == "{0:first}"
    assert template("Walker", values) == "{0:rest}"
    assert template("2122000000", values) == "{1}"
    assert template("Call Alice Walker now", values) == "Call {0} now"
    assert template("smith\n", ("smith",)) == "{0}\n"
    assert template("9:00 AM", ("9", "00")) == "{0}:{1} AM"
    assert template("Size 10", ("1",)) == "Size 10"  # whole words only
    new = ("Bob Stone", "4155550123")
    assert fill("{0:first}", new) == "Bob" and fill("{0:rest}", new) == "Stone"
    assert fill("type {1}", new) == "type 4155550123"
    assert fill("{0:rest}", ("John",)) == ""


def test_mask_and_bind() -> None:
    assert (
        mask("Save Alice, 2122000000 to contacts", ("Alice", "2122000000"))
        == "Save X, X to contacts"
    )
    assert bind(["text", "number"], ("4155550123", "Bob")) == ("Bob", "4155550123")
    assert bind(["text", "number"], ("Bob",)) is None
    assert bind([], ("extra",)) == ()


# --- the graph --------------------------------------------------------------------------------
def edges() -> list[Edge]:
    raw = [
        (0, "tap 'Contacts'", 1, "tap", "Contacts", ""),
        (0, "tap 'Settings'", 4, "tap", "Settings", ""),
        (4, "back", 0, "back", "", ""),
        (1, "tap 'Create contact'", 2, "tap", "Create contact", ""),
        (1, "tap 'Alice Walker'", 3, "tap", "Alice Walker", ""),
        (2, "type 'Alice' into 'First name'", 2, "type", "First name", "Alice"),
        (2, "type '2122000000' into 'Phone'", 2, "type", "Phone", "2122000000"),
        (2, "tap 'Save'", 3, "tap", "Save", ""),
    ]
    return [
        Edge(s, w, d, k, lab, "", t, 1, s != d, i) for i, (s, w, d, k, lab, t) in enumerate(raw)
    ]


def test_shortest_path_covers_every_parameter() -> None:
    values = ["Alice Walker", "2122000000"]
    found = shortest_covering(edges(), 0, 3, [], values)
    assert found is not None
    assert [e.words for e in found] == [
        "tap 'Contacts'",
        "tap 'Create contact'",
        "type 'Alice' into 'First name'",
        "type '2122000000' into 'Phone'",
        "tap 'Save'",
    ]
    # without parameters the shortcut through the list is shorter
    short = shortest_covering(edges(), 0, 3, [], [])
    assert short is not None and [e.words for e in short] == [
        "tap 'Contacts'",
        "tap 'Alice Walker'",
    ]


def test_shortest_path_keeps_required_state_changes() -> None:
    extra = [*edges(), Edge(2, "tap 'Favourite'", 2, "tap", "Favourite", "", "", 1, False, 9)]
    found = shortest_covering(extra, 0, 3, [(2, "tap 'Favourite'")], ["Alice"])
    assert found is not None and "tap 'Favourite'" in [e.words for e in found]
    assert shortest_covering(extra, 3, 0, [], []) is None  # no way back from 3


# --- summarising a run ------------------------------------------------------------------------
HOME = screen("Contacts", "Settings", "Clock", kind=ElementKind.ICON)
SETTINGS = screen("Network & internet", "Display", "Apps", "Battery")
LIST = screen("Contacts", "Create contact", "Alice Chen", "Bob Lee")
CONTACT = screen("Alice Walker", "Call", "Text", "Contact info")


def form(first: str = "", last: str = "", phone: str = "") -> Screen:
    def field(i: int, y: int, hint: str, text: str) -> Any:
        return el(i, ElementKind.EDIT_TEXT, y, text or hint, hint=not text, editable=True)

    return Screen(
        1080,
        2400,
        elements=(
            el(0, ElementKind.TEXT, 150, "Create contact"),
            field(1, 400, "First name", first),
            field(2, 550, "Last name", last),
            field(3, 700, "Phone", phone),
            el(4, ElementKind.BUTTON, 900, "Save"),
            el(5, ElementKind.BUTTON, 1050, "Cancel"),
        ),
    )


def run_with_detour(
    task: str = "Create a contact for Alice Walker, number 2122000000",
) -> Trajectory:
    f0, f1, f2, f3 = (
        form(),
        form("Alice"),
        form("Alice", "Walker"),
        form("Alice", "Walker", "2122000000"),
    )
    steps = [
        Step(0, HOME, Action(ActionKind.TAP, element=1), SETTINGS, undone=True),
        Step(
            1,
            SETTINGS,
            Action(ActionKind.BACK),
            HOME,
            reason="undo: go back to take back 'tap 'Settings'' because nothing on "
            "'Network & internet' is relevant (penalty 6)",
        ),
        Step(2, HOME, Action(ActionKind.TAP, element=0), LIST),
        Step(3, LIST, Action(ActionKind.TAP, element=1), f0),
        Step(4, f0, Action(ActionKind.TYPE, element=1, text="Alice"), f1),
        Step(5, f1, Action(ActionKind.TYPE, element=2, text="Walker"), f2),
        Step(6, f2, Action(ActionKind.TYPE, element=3, text="2122000000"), f3),
        Step(7, f3, Action(ActionKind.TAP, element=4), CONTACT),
        Step(8, CONTACT, Action(ActionKind.STOP, done=True)),
    ]
    return Trajectory(task=task, steps=tuple(steps), outcome=Outcome.SUCCESS)


def test_summarise_learns_lessons_and_a_slotted_path_without_the_detour() -> None:
    k = Knowledge()
    learned = k.summarise(run_with_detour().task, run_with_detour())
    assert learned is not None
    assert [op.words() for op in learned.path] == [
        "tap 'Contacts'",
        "tap 'Create contact'",
        "type '' into 'First name'",
        "type '' into 'Last name'",
        "type '' into 'Phone'",
        "tap 'Save'",
    ]
    assert [op.text for op in learned.path if op.kind == "type"] == ["{0:first}", "{0:rest}", "{1}"]
    assert learned.params == {"first_name": "Alice Walker", "phone": "2122000000"}
    assert learned.kinds == ["text", "number"]
    kinds = sorted(x.kind for x in k.lessons)
    assert kinds == ["environment", "execution"]
    execution = next(x for x in k.lessons if x.kind == "execution")
    assert "tap 'Settings'" in execution.text and execution.penalty == 6
    # the lesson becomes a penalty for the same task next time
    book = k.penalties_for(run_with_detour().task)
    assert book.get(HOME, "tap 'Settings'") == 6
    assert book.get(HOME, "tap 'Contacts'") == 0
    # and the transitions annotate the home screen with what lies behind its icons
    targets = k.targets(HOME)
    assert "create contact" in targets["tap 'Contacts'"]


def test_state_changes_kept_in_a_path() -> None:
    from screenpilot.pbd.knowledge import state_change

    def alarms(six: bool, nine: bool) -> Screen:
        return Screen(
            1080,
            2400,
            elements=(
                el(0, ElementKind.TEXT, 100, "Alarm"),
                el(1, ElementKind.SWITCH, 300, caption="6:30 AM", checked=six),
                el(2, ElementKind.SWITCH, 500, caption="9:00 AM", checked=nine),
            ),
        )

    task = "Turn off the alarm at 6:30 AM"
    values = ("6", "30")
    on = alarms(True, True)
    assert (
        state_change(
            Step(0, on, Action(ActionKind.TAP, element=1), alarms(False, True)), task, values
        )
        is True
    )
    assert (
        state_change(
            Step(0, on, Action(ActionKind.TAP, element=2), alarms(True, False)), task, values
        )
        is False
    )  # a switch the task does not name
    assert (
        state_change(Step(0, on, Action(ActionKind.TAP, element=0), on), task, values) is False
    )  # nothing changed
    assert (
        state_change(Step(0, HOME, Action(ActionKind.TAP, element=0), LIST), task, values) is None
    )  # navigation
    assert (
        state_change(
            Step(0, form(), Action(ActionKind.TYPE, element=1, text="A"), form("A")), task, values
        )
        is True
    )


def test_knowledge_file_round_trip_and_corrupt_file(tmp_path: Path) -> None:
    k = Knowledge(tmp_path / "k" / "knowledge.json")
    k.summarise(run_with_detour().task, run_with_detour())
    path = k.save()
    assert not list(path.parent.glob("*.tmp"))
    again = Knowledge.load(path)
    assert again.to_dict() == k.to_dict()
    assert json.loads(path.read_text())["version"] == 1
    path.write_text("{not json")
    with pytest.raises(StoreError):
        Knowledge.load(path)
    assert default_path(str(tmp_path)) == tmp_path / "knowledge.json"


def test_match_binds_new_values_by_kind() -> None:
    k = Knowledge(threshold=0.6)
    k.summarise(run_with_detour().task, run_with_detour())
    m = k.match("Create a contact for Bob Stone, number 4155550123", words_encoder)
    assert m is not None and m.values == ("Bob Stone", "4155550123")
    assert k.match("Create a contact for Bob Stone", words_encoder) is None  # no number
    assert k.match("turn on wifi", words_encoder) is None


def test_merge_matches_pages() -> None:
    a, b = Knowledge(), Knowledge()
    a.observe(run_with_detour())
    b.summarise(run_with_detour().task, run_with_detour())
    a.merge(b)
    assert len(a.nodes) == len(b.nodes) and len(a.tasks) == 1
    assert sum(e.count for e in a.edges) == 2 * sum(e.count for e in b.edges)


# --- replay -----------------------------------------------------------------------------------
def contact_knowledge() -> TaskKnowledge:
    path = [
        PathOp("tap", "Contacts", "text"),
        PathOp("tap", "Create contact", "button"),
        PathOp("type", "First name", "edit_text", "{0:first}"),
        PathOp("type", "Last name", "edit_text", "{0:rest}"),
        PathOp("type", "Phone", "edit_text", "{1}"),
        PathOp("tap", "Save", "button"),
    ]
    return TaskKnowledge(
        "create_contact",
        "Create a contact for Alice Walker, 2122000000",
        "Create a contact for X, X",
        {"name": "Alice Walker", "phone": "2122000000"},
        ["text", "number"],
        path,
    )


def test_replay_skips_empty_values_and_switches_already_set() -> None:
    k = Knowledge(threshold=0.6)
    k.tasks.append(contact_knowledge())
    m = k.match("Create a contact for John, 12345678", words_encoder)
    assert m is not None
    replay = Replay(m, "Create a contact for John, 12345678")
    f = form()
    got = [replay.next(s) for s in (HOME, LIST, f, f, f)]
    assert [g[1] for g in got if g is not None] == [
        "tap 'Contacts'",
        "tap 'Create contact'",
        "type 'John' into 'First name'",
        "type '12345678' into 'Phone'",
        "tap 'Save'",
    ]
    assert replay.finished and not replay.failed
    wifi = Screen(
        1080,
        2400,
        elements=(el(0, ElementKind.SWITCH, 300, caption="Wi-Fi HomeNet", checked=True),),
    )
    toggle = TaskKnowledge(
        "turn_wifi", "Turn wifi on", "Turn wifi on", {}, [], [PathOp("tap", "Wi-Fi Off", "switch")]
    )
    from screenpilot.pbd.knowledge import Match

    on = Replay(Match(toggle, (), 1.0), "turn wifi on")
    assert on.next(wifi) is None and on.finished and not on.failed  # already on: skipped
    off = Replay(Match(toggle, (), 1.0), "turn wifi off")
    nxt = off.next(wifi)
    assert nxt is not None and nxt[0] == Action(ActionKind.TAP, element=0)
    missing = Replay(m, "Create a contact for John, 12345678")
    assert missing.next(SETTINGS) is None and "Contacts" in missing.failed


def test_replay_with_new_values_on_the_virtual_phone(
    phone: PhoneSession, vp: Any, tmp_path: Path
) -> None:
    from screenpilot.agent import RunOptions
    from screenpilot.autotask import AutoTaskAgent
    from screenpilot.executor.adb import AdbDevice
    from screenpilot.planner.autotask import AutoTaskPlanner, HeuristicChecker, HeuristicScorer
    from screenpilot.planner.offline import HeuristicPlanner
    from screenpilot.simulator.apps.contacts import PACKAGE, find_contact

    k = Knowledge(tmp_path / "knowledge.json", threshold=0.6)
    k.tasks.append(contact_knowledge())
    heuristic = HeuristicPlanner(words_encoder)
    planner = AutoTaskPlanner(HeuristicScorer(heuristic), words_encoder, proposer=heuristic)
    agent = AutoTaskAgent(
        AdbDevice(phone.serial),
        TruthDescriber(vp),
        planner,
        checker=HeuristicChecker(planner),
        knowledge=k,
        encode=words_encoder,
        options=RunOptions(
            out=tmp_path / "run", max_steps=12, settle_timeout=2.0, settle_interval=0.05
        ),
    )
    command = "Create a contact for Bob Stone, number 4155550123"
    result = agent.explore(command)
    traj = result.trajectory
    assert result.match is not None and not result.replay_failed, traj.note
    assert [s.reason.split(":")[0] for s in traj.steps[:6]] == [
        f"replay {i} of 6 of 'create_contact'".replace(" of 6", "/6") for i in range(1, 7)
    ]
    contact = find_contact(vp.app_state(PACKAGE), "Bob Stone")
    assert contact is not None and str(contact["phone"]).replace("-", "").endswith("4155550123")
    assert traj.outcome is Outcome.SUCCESS and result.answer == "yes"
    assert traj.steps[-1].action.done
    assert "create_contact" in [t.intent for t in Knowledge.load(k.path or Path()).tasks]
    learned = Knowledge.load(tmp_path / "knowledge.json")
    assert "Create a contact for X, number X" in learned.tasks[0].commands
    assert learned.tasks[0].uses == 1 and learned.edges  # transitions kept
