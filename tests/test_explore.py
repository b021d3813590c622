"""AutoTask's deciding, checking and backtracking: the scoring formula, penalties, the
undo chosen for each kind of step, the LLM's scorer and checker (scripted), and the
exploring agent on the virtual phone (backtracking, summary and confirmation)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from explore_helpers import TruthDescriber, el, screen
from phone_fixtures import PhoneSession

from screenpilot.autotask import NO, STOP, YES, Summary, SummaryStep, unattended
from screenpilot.errors import LLMResponseError
from screenpilot.model import Action, ActionKind, Direction, ElementKind, Screen, Step
from screenpilot.pbd.knowledge import PenaltyBook
from screenpilot.pbd.paths import UNDO_PREFIX, effective_path, op_words
from screenpilot.planner.autotask import (
    ECHO_PENALTY,
    REPETITION_PENALTY,
    AutoTaskPlanner,
    Checker,
    HeuristicChecker,
    LLMChecker,
    LLMScorer,
    Operation,
    Scored,
    Targets,
    Verdict,
    choose_undo,
    load_autotask_prompts,
    operations,
    to_likert,
)
from screenpilot.planner.base import Decision, PlanHints
from screenpilot.planner.llm import ScriptedLLM


class TableScorer:
    """Likert by label from a table (1 for anything else); scrolls 2.6."""

    def __init__(self, table: dict[str, float]) -> None:
        self.table = table

    def likert(
        self,
        task: str,
        screen: Screen,
        ops: Sequence[Operation],
        history: Sequence[Step],
        targets: Targets,
    ) -> list[float]:
        out = []
        for op in ops:
            if op.action.kind is ActionKind.SCROLL:
                out.append(2.6)
            else:
                behind = targets.get(op.words, ())
                out.append(
                    max(
                        [
                            self.table.get(op.label, 1.0),
                            *(self.table.get(t, 1.0) - 0.5 for t in behind),
                        ]
                    )
                )
        return out


def zero(texts: Sequence[str]) -> Any:
    import numpy as np

    return np.zeros((len(texts), 4), dtype=np.float32)


HOME = screen("Contacts", "Settings", "Clock", kind=ElementKind.ICON)
SETTINGS = screen("Network & internet", "Display", "Battery")


# --- deciding ---------------------------------------------------------------------------------
def test_score_is_basic_over_one_plus_penalty() -> None:
    assert Scored(Operation(Action(ActionKind.BACK), "back"), 6.0, 0.5, 0.0).score == 6.5
    assert Scored(Operation(Action(ActionKind.BACK), "back"), 6.0, 0.5, 12.0).score == 0.5
    assert to_likert(-1.0) == 1.0 and to_likert(5.0) == 7.0
    assert 1.0 < to_likert(0.6) < 7.0


def test_operations_tap_type_scroll() -> None:
    form = Screen(
        1080,
        2400,
        elements=(
            el(0, ElementKind.TEXT, 100, "New contact"),
            el(1, ElementKind.EDIT_TEXT, 300, "Phone", hint=True, editable=True),
            el(2, ElementKind.EDIT_TEXT, 500, "Search", hint=True, editable=True),
            el(3, ElementKind.BUTTON, 700, "Save"),
        ),
    )
    ops = operations("save Alice, 2122000000 to contacts", form)
    words = [op.words for op in ops]
    assert words == [
        "tap 'New contact'",
        "tap 'Save'",
        "type '2122000000' into 'Phone'",
        "scroll down",
    ]  # no typing into a search field for a non-search task
    scrolled = [Step(0, form, Action(ActionKind.SCROLL, direction=Direction.DOWN))]
    assert "scroll up" in [op.words for op in operations("x", form, scrolled)]


def test_planner_picks_the_best_and_lists_alternatives() -> None:
    planner = AutoTaskPlanner(TableScorer({"Settings": 6.0, "Clock": 3.0}), zero)
    choice = planner.decide("turn on wifi", HOME, [])
    assert choice.decision.action == Action(ActionKind.TAP, element=1)
    assert "relevance 6.0/7" in choice.decision.reason
    assert choice.decision.alternatives[0][0] == Action(ActionKind.TAP, element=2)
    assert choice.relevance == 6.0 and not choice.dead_end


def test_repetition_and_backtracking_penalties() -> None:
    book = PenaltyBook()
    planner = AutoTaskPlanner(TableScorer({"Settings": 6.0, "Clock": 3.0}), zero, penalties=book)
    done = [Step(0, HOME, Action(ActionKind.TAP, element=1), SETTINGS)]
    scored = {s.op.words: s for s in planner.decide("wifi", HOME, done).scored}
    assert scored["tap 'Settings'"].penalty == REPETITION_PENALTY
    assert scored["tap 'Clock'"].penalty == 0
    assert planner.decide("wifi", HOME, done).decision.action == Action(ActionKind.TAP, element=2)
    # the same label tapped on another page: a milder penalty
    other = screen("Settings", "About")
    echo = {s.op.words: s for s in planner.decide("wifi", other, done).scored}
    assert echo["tap 'Settings'"].penalty == ECHO_PENALTY
    # a backtracking penalty set on this page's operation
    book.add(HOME, "tap 'Settings'", 4)
    assert book.get(HOME, "tap 'Settings'") == 4 and book.get(SETTINGS, "tap 'Settings'") == 0
    first = {s.op.words: s for s in planner.decide("wifi", HOME, []).scored}
    assert first["tap 'Settings'"].penalty == 4
    assert planner.decide("wifi", HOME, []).decision.action == Action(ActionKind.TAP, element=2)
    undone = [Step(0, HOME, Action(ActionKind.TAP, element=1), SETTINGS, undone=True)]
    assert effective_path(undone) == []


def test_dead_end_when_every_operation_is_penalised() -> None:
    planner = AutoTaskPlanner(TableScorer({}), zero, min_score=1.5)
    for words in ("tap 'Contacts'", "tap 'Settings'", "tap 'Clock'", "scroll down"):
        planner.penalties.add(HOME, words, 9)
    choice = planner.decide("wifi", HOME, [])
    assert choice.dead_end and choice.decision.action.kind is ActionKind.STOP
    assert choice.best is not None and choice.best.score < 1.5  # what a first step falls back on


class Proposer:
    def __init__(self, decision: Decision) -> None:
        self.decision = decision

    def next(
        self, task: str, screen: Screen, history: Sequence[Step], *, hints: PlanHints | None = None
    ) -> Decision:
        return self.decision


def test_a_rule_proposal_counts_as_seven_unless_penalised() -> None:
    wifi = Screen(
        1080,
        2400,
        elements=(
            el(0, ElementKind.TEXT, 100, "Network"),
            el(1, ElementKind.SWITCH, 300, caption="Wi-Fi", checked=False),
        ),
    )
    rule = Decision(Action(ActionKind.TAP, element=1), "turn 'Wi-Fi' on")
    planner = AutoTaskPlanner(TableScorer({"Network": 5.0}), zero, proposer=Proposer(rule))
    choice = planner.decide("turn wifi on", wifi, [])
    assert choice.decision.action == rule.action and "turn 'Wi-Fi' on" in choice.decision.reason
    planner.penalties.add(wifi, "tap 'Wi-Fi'", 9)
    assert planner.decide("turn wifi on", wifi, []).decision.action == Action(
        ActionKind.TAP, element=0
    )
    # navigation (with alternatives) is not a rule: no bonus
    nav = Decision(
        Action(ActionKind.TAP, element=1),
        "'Wi-Fi' is the closest match (0.5)",
        alternatives=((Action(ActionKind.TAP, element=0), 0.4),),
    )
    plain = AutoTaskPlanner(TableScorer({"Network": 5.0}), zero, proposer=Proposer(nav))
    assert plain.decide("turn wifi on", wifi, []).decision.action == Action(
        ActionKind.TAP, element=0
    )
    done = Decision(Action(ActionKind.STOP, done=True), "'Wi-Fi' is on")
    finished = AutoTaskPlanner(TableScorer({}), zero, proposer=Proposer(done))
    assert finished.decide("turn wifi on", wifi, []).decision.done
    assert not finished.decide("turn wifi on", wifi, [], allow_done=False).decision.done


def test_targets_raise_an_element_that_leads_to_the_goal() -> None:
    def targets(s: Screen) -> Targets:
        return {"tap 'Settings'": ["Wi-Fi"]}

    planner = AutoTaskPlanner(TableScorer({"Clock": 3.0, "Wi-Fi": 7.0}), zero, targets=targets)
    assert planner.decide("wifi", HOME, []).decision.action == Action(ActionKind.TAP, element=1)


# --- checking ---------------------------------------------------------------------------------
def test_heuristic_checker_verdicts() -> None:
    planner = AutoTaskPlanner(
        TableScorer({"Settings": 6.0, "Clock": 5.5, "Network & internet": 5.0}), zero
    )
    checker = HeuristicChecker(planner, max_steps=5)
    to_settings = [Step(0, HOME, Action(ActionKind.TAP, element=1), SETTINGS)]
    assert checker.check("wifi", to_settings, SETTINGS).correct
    nothing = screen("Weather", "News")
    to_nothing = [Step(0, HOME, Action(ActionKind.TAP, element=1), nothing)]
    verdict = checker.check("wifi", to_nothing, nothing)
    assert not verdict.correct and 1 <= verdict.penalty <= 9 and "less relevant" in verdict.reason
    # the app the task names rates high on the home screen, its first page lower: that
    # is no wrong turn when the home screen offered nothing else
    alone = AutoTaskPlanner(TableScorer({"Settings": 7.0, "Network & internet": 3.0}), zero)
    assert HeuristicChecker(alone).check("wifi", to_settings, SETTINGS).correct
    # a low page gets one scroll; the scroll that shows nothing is wrong
    low = AutoTaskPlanner(TableScorer({"Settings": 2.0}), zero)
    lc = HeuristicChecker(low, max_steps=5)
    assert lc.check("wifi", to_nothing, nothing).correct
    scrolled = [
        *to_nothing,
        Step(1, nothing, Action(ActionKind.SCROLL, direction=Direction.DOWN), nothing),
    ]
    assert not lc.check("wifi", scrolled, nothing).correct
    low.penalties.add_step(scrolled[1], 5)
    assert not lc.check("wifi", to_nothing, nothing).correct  # checked again after the undo
    many = [Step(i, HOME, Action(ActionKind.TAP, element=0), HOME) for i in range(5)]
    out = checker.check("wifi", many, HOME)
    assert out.complete and out.exhausted


# --- undoing ----------------------------------------------------------------------------------
def test_undo_choice_for_each_kind_of_step() -> None:
    tap = Step(0, HOME, Action(ActionKind.TAP, element=1), SETTINGS)
    assert choose_undo(tap, SETTINGS).action == Action(ActionKind.BACK)  # type: ignore[union-attr]
    off = Screen(
        1080,
        2400,
        elements=(
            el(0, ElementKind.TEXT, 100, "Network"),
            el(1, ElementKind.SWITCH, 300, caption="Wi-Fi", checked=False),
        ),
    )
    on = Screen(
        1080,
        2400,
        elements=(
            el(0, ElementKind.TEXT, 100, "Network"),
            el(1, ElementKind.SWITCH, 300, caption="Wi-Fi", checked=True),
        ),
    )
    flip = choose_undo(Step(0, off, Action(ActionKind.TAP, element=1), on), on)
    assert flip is not None and flip.action == Action(ActionKind.TAP, element=1)
    assert not flip.clear
    form = Screen(1080, 2400, elements=(el(0, ElementKind.EDIT_TEXT, 300, "Name", hint=True),))
    typed = Screen(1080, 2400, elements=(el(0, ElementKind.EDIT_TEXT, 300, "Alice"),))
    clear = choose_undo(
        Step(0, form, Action(ActionKind.TYPE, element=0, text="Alice"), typed), typed
    )
    assert clear is not None and clear.clear and clear.action == Action(ActionKind.TAP, element=0)
    scroll = choose_undo(
        Step(0, HOME, Action(ActionKind.SCROLL, direction=Direction.DOWN), HOME), HOME
    )
    assert scroll is not None and scroll.action.direction is Direction.UP
    same = Step(0, HOME, Action(ActionKind.TAP, element=0), HOME)
    assert choose_undo(same, HOME) is None
    assert choose_undo(Step(0, HOME, Action(ActionKind.BACK), SETTINGS), SETTINGS) is None


# --- the LLM's scorer and checker (scripted) --------------------------------------------------
def test_llm_scorer_and_checker() -> None:
    assert {"score", "check", "lessons"} <= set(load_autotask_prompts())
    llm = ScriptedLLM(['{"scores": [2, 7, 1, 3]}', "no json", '{"scores": [1]}'])
    planner = AutoTaskPlanner(LLMScorer(llm), zero)
    choice = planner.decide("turn on wifi", HOME, [])
    assert choice.decision.action == Action(ActionKind.TAP, element=1)
    prompt = llm.prompts[0][0]["content"]
    assert "turn on wifi" in prompt and "1. tap 'Contacts'" in prompt and "(4)" in prompt
    for _ in range(2):
        with pytest.raises(LLMResponseError):
            planner.decide("turn on wifi", HOME, [])
    answers = [
        '{"complete": false, "correct": false, "penalty": 7, "reason": "wrong app"}',
        '{"complete": true, "correct": true, "reason": "wifi is on"}',
    ]
    checker: Checker = LLMChecker(ScriptedLLM(answers))
    path = [Step(0, HOME, Action(ActionKind.TAP, element=0), SETTINGS)]
    wrong = checker.check("turn on wifi", path, SETTINGS)
    assert wrong == Verdict(False, False, 7, "wrong app")
    assert checker.check("turn on wifi", path, SETTINGS).complete


def test_op_words_are_independent_of_ids() -> None:
    seek = Screen(1080, 2400, elements=(el(0, ElementKind.SEEK_BAR, 500, caption="Brightness"),))
    assert op_words(Action(ActionKind.TAP, point=(1039, 540)), seek) == "tap 'Brightness' at 100%"
    assert (
        op_words(Action(ActionKind.TYPE, element=0, text="x\n"), seek)
        == "type 'x' into 'Brightness'"
    )


# --- summary and confirmation -----------------------------------------------------------------
def test_unattended_confirms_only_what_the_agent_judged_done() -> None:
    rows = (SummaryStep("tap 'Settings'"),)
    assert unattended(Summary("t", rows, done=True, exhausted=False)) == YES
    assert unattended(Summary("t", rows, done=False, exhausted=True)) == STOP
    assert Summary("t", rows, True, False).lines() == ["1. tap 'Settings'"]


# --- the exploring agent on the virtual phone -------------------------------------------------
class FirstWrong:
    """The heuristic checker, except that the first step checked is wrong (penalty 9)."""

    def __init__(self, inner: HeuristicChecker) -> None:
        self.inner = inner
        self.calls = 0

    def check(self, task: str, path: Sequence[Step], screen: Screen) -> Verdict:
        self.calls += 1
        if self.calls == 1:
            return Verdict(False, False, 9, "scripted: wrong")
        return self.inner.check(task, path, screen)


def make_agent(
    phone: PhoneSession, vp: Any, minilm: Any, out: Path, confirm: Any, *, first_wrong: bool = False
) -> Any:
    from screenpilot.agent import RunOptions
    from screenpilot.autotask import AutoTaskAgent
    from screenpilot.executor.adb import AdbDevice
    from screenpilot.pbd.knowledge import Knowledge
    from screenpilot.planner.autotask import HeuristicScorer
    from screenpilot.planner.offline import HeuristicPlanner

    encode = minilm.encode
    heuristic = HeuristicPlanner(encode)
    planner = AutoTaskPlanner(HeuristicScorer(heuristic), encode, proposer=heuristic)
    checker: Any = HeuristicChecker(planner)
    if first_wrong:
        checker = FirstWrong(checker)
    return AutoTaskAgent(
        AdbDevice(phone.serial),
        TruthDescriber(vp),
        planner,
        checker=checker,
        knowledge=Knowledge(out / "knowledge.json"),
        encode=encode,
        confirm=confirm,
        options=RunOptions(out=out / "run", max_steps=14, settle_timeout=2.0, settle_interval=0.05),
    )


def test_backtracking_on_the_phone_and_confirmed_summary(
    phone: PhoneSession, vp: Any, minilm: Any, tmp_path: Path
) -> None:
    from screenpilot.model import Outcome
    from screenpilot.pbd.knowledge import Knowledge

    seen: list[Summary] = []

    def confirm(summary: Summary) -> str:
        seen.append(summary)
        return unattended(summary)  # what --yes does

    from screenpilot.simulator.tasks import get_task

    get_task("settings_wifi_on").setup(vp)  # Wi-Fi off
    assert vp.get_setting("global", "wifi_on") == "0"
    agent = make_agent(phone, vp, minilm, tmp_path, confirm, first_wrong=True)
    result = agent.explore("Turn wifi on.")
    traj = result.trajectory
    assert vp.get_setting("global", "wifi_on") == "1"
    assert traj.outcome is Outcome.SUCCESS and result.answer == YES, traj.note
    assert traj.steps[0].undone and traj.steps[1].reason.startswith(UNDO_PREFIX)
    assert traj.steps[1].action.kind is ActionKind.BACK and result.backtracks >= 1
    summary = seen[0]
    assert summary.done and summary.steps[-1].words.startswith("tap 'Wi-Fi")
    assert all(s.step is not None and not s.step.undone for s in summary.steps)
    html = (tmp_path / "run" / "report.html").read_text()
    assert "Summary: the shortest path" in html and 'class="step undone"' in html
    saved = json.loads((tmp_path / "run" / "trajectory.json").read_text())
    assert saved["steps"][0]["undone"] is True
    learned = Knowledge.load(tmp_path / "knowledge.json")
    assert learned.tasks and learned.tasks[0].command == "Turn wifi on."
    assert any(x.kind == "execution" for x in learned.lessons)


def test_not_done_goes_on_exploring_and_stop_learns_nothing(
    phone: PhoneSession, vp: Any, minilm: Any, tmp_path: Path
) -> None:
    from screenpilot.model import Outcome
    from screenpilot.pbd.knowledge import Knowledge

    answers = [NO, STOP]
    asked: list[int] = []

    def confirm(summary: Summary) -> str:
        asked.append(len(summary.steps))
        return answers.pop(0)

    from screenpilot.simulator.tasks import get_task

    get_task("settings_wifi_on").setup(vp)
    agent = make_agent(phone, vp, minilm, tmp_path, confirm)
    result = agent.explore("Turn wifi on.")
    assert len(asked) == 2 and result.rounds == 2 and result.answer == STOP
    traj = result.trajectory
    stops = [s for s in traj.steps if s.action.kind is ActionKind.STOP]
    assert "not done" in stops[0].reason
    assert traj.outcome is not Outcome.SUCCESS
    learned = Knowledge.load(tmp_path / "knowledge.json")
    assert not learned.tasks and not learned.lessons and learned.edges
