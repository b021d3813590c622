"""The explore-learn run (AutoTask): the Agent's turn with checking, backtracking,
replay and knowledge around it.

    agent = AutoTaskAgent(device, describer, AutoTaskPlanner(...), HeuristicChecker(...),
                          knowledge=Knowledge.load(path), encode=embedder.encode,
                          confirm=ask, options=RunOptions(out=Path("runs/x")))
    result = agent.explore("turn on wifi")

Each turn looks at the phone as ``Agent`` does (capture, describe, safety); then,
instead of planning at once:

1. while a replay of task knowledge is running, its next operation is taken
   (an element it needs that is not on the screen ends the replay: exploration
   goes on from there);
2. the checker judges the last operation on the new screen: task complete ->
   stop; wrong -> its backtracking penalty grows and the next action undoes it
   (``planner.autotask.choose_undo``), recorded as a step whose reason starts
   with ``undo:``, the undone step marked ``undone``; after an undo the step
   before is checked again (this catches overshooting);
3. otherwise ``AutoTaskPlanner`` decides; a dead end (every operation penalised)
   backtracks too.

More than ``budget`` actions count as done. When the run ends, the summary
(the shortest path, each step with its screenshot and the box it operated) is
shown to ``confirm``: "yes" summarises knowledge (lessons, task and execution
knowledge), "no" goes on exploring, "stop" keeps only the transitions. The
trajectory and report are written after every step, the summary into the report
at the end. The summary, its images and its answers live in ``autotask_summary``;
their names are imported from here too.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from screenpilot.agent import Agent, StepEvent, _now
from screenpilot.autotask_summary import (
    NO,
    STOP,
    YES,
    Confirm,
    Nodes,
    Summary,
    SummaryStep,
    report_rows,
    save_summary_images,
    shortest_ops,
    summarise_run,
    unattended,
)
from screenpilot.errors import DeviceError, LLMResponseError, SafetyStop, UserAbort
from screenpilot.model import Action, ActionKind, Outcome, Screen, Step, Trajectory
from screenpilot.pbd.knowledge import (
    Knowledge,
    Match,
    PathOp,
    Replay,
    TaskKnowledge,
    content_words,
    slots,
)
from screenpilot.pbd.paths import UNDO_PREFIX, effective_path, op_words
from screenpilot.planner.autotask import (
    MAX_CHECK_PENALTY,
    AutoTaskPlanner,
    Checker,
    Undo,
    Verdict,
    choose_undo,
    llm_lessons,
)
from screenpilot.planner.base import Decision
from screenpilot.planner.encoding import Encoder
from screenpilot.planner.llm import ChatModel
from screenpilot.report import write_report

log = logging.getLogger(__name__)

__all__ = [
    "NO",
    "STOP",
    "YES",
    "AutoTaskAgent",
    "AutoTaskResult",
    "Confirm",
    "Summary",
    "SummaryStep",
    "save_summary_images",
    "unattended",
]


@dataclass
class AutoTaskResult:
    """What an AutoTask run did: its trajectory, the summary shown and the answer given,
    the knowledge learnt or replayed, and how often it backtracked."""

    trajectory: Trajectory
    summary: Summary | None = None
    answer: str = STOP
    knowledge: TaskKnowledge | None = None
    match: Match | None = None
    replay_failed: str = ""
    backtracks: int = 0
    rounds: int = 1


@dataclass
class _State:
    checked: set[int] = field(default_factory=set)
    replayed: set[int] = field(default_factory=set)
    pending: tuple[int, Undo] | None = None
    mark: set[int] = field(default_factory=set)
    rejected_at: int = -1
    exhausted: bool = False
    backtracks: int = 0
    verdicts: dict[int, Verdict] = field(default_factory=dict)


class AutoTaskAgent(Agent):
    """``Agent`` whose turns check, backtrack and replay (see the module docstring)."""

    def __init__(
        self,
        *args: object,
        checker: Checker,
        knowledge: Knowledge | None = None,
        encode: Encoder | None = None,
        confirm: Confirm = unattended,
        budget: int = 20,
        replay: bool = True,
        lesson_llm: ChatModel | None = None,
        max_rounds: int = 3,
        **kwargs: object,
    ) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        if not isinstance(self.planner, AutoTaskPlanner):
            raise TypeError("AutoTaskAgent needs an AutoTaskPlanner")
        self.autotask_planner: AutoTaskPlanner = self.planner
        self.checker = checker
        self.knowledge = knowledge if knowledge is not None else Knowledge()
        self.encode = encode
        self.confirm = confirm
        self.budget = budget
        self.use_replay = replay
        self.lesson_llm = lesson_llm
        self.max_rounds = max_rounds
        self._replay: Replay | None = None
        self._s = _State()

    # --- one turn ---------------------------------------------------------------------------
    def _plan(self, task: str, screen: Screen, history: Sequence[Step]) -> Decision:
        s = self._s
        executed = sum(
            1 for h in history if h.action.kind not in (ActionKind.STOP, ActionKind.HANDOVER)
        )
        if executed >= self.budget:
            s.exhausted = True
            return Decision(
                Action(ActionKind.STOP),
                f"{executed} actions taken: counted as done (the limit is {self.budget})",
            )
        replay_note = ""
        if self._replay is not None and self._replay.active:
            nxt = self._replay.next(screen)
            if nxt is not None:
                action, words = nxt
                r = self._replay
                return Decision(
                    action,
                    f"replay {r.position}/{len(r.ops)} of '{r.match.knowledge.intent}': {words}",
                )
            if self._replay.failed:
                replay_note = f"replay failed ({self._replay.failed}); exploring: "
        path = effective_path(history)
        if path and path[-1].index not in s.checked:
            last = path[-1]
            s.checked.add(last.index)
            verdict = self.checker.check(task, path, screen)
            s.verdicts[last.index] = verdict
            if not verdict.complete and self._replayed_to_the_end(task, last):
                assert self._replay is not None
                verdict = Verdict(
                    True,
                    True,
                    0,
                    f"replayed the known path of '{self._replay.match.knowledge.intent}'",
                )
            if verdict.complete and len(path) > s.rejected_at:
                s.exhausted = verdict.exhausted
                return Decision(
                    Action(ActionKind.STOP, done=not verdict.exhausted),
                    replay_note + verdict.reason,
                )
            if not verdict.correct and last.index not in s.replayed:
                return self._backtrack(task, screen, history, last, verdict.penalty, verdict.reason)
        return self._decide(task, screen, history, replay_note)

    def _replayed_to_the_end(self, task: str, last: Step) -> bool:
        """Whether ``last`` ended a replay that ran to its end, on an element the task
        speaks of (the checker alone cannot always tell that a known path is done)."""
        r = self._replay
        if r is None or r.failed or not r.finished or last.index not in self._s.replayed:
            return False
        if last.action.kind is ActionKind.TYPE or (
            r.last is not None and (slots(r.last.label) or slots(r.last.text))
        ):
            return True
        verbs = {"tap", "long", "press", "type", "into", "scroll"}
        target = op_words(last.action, last.before)
        return bool((content_words(target) - verbs) & content_words(task))

    def _decide(
        self, task: str, screen: Screen, history: Sequence[Step], note: str = ""
    ) -> Decision:
        s = self._s
        path = effective_path(history)
        choice = self.autotask_planner.decide(
            task, screen, history, hints=self.options.hints, allow_done=len(path) > s.rejected_at
        )
        if choice.dead_end and path:
            return self._backtrack(
                task, screen, history, path[-1], MAX_CHECK_PENALTY // 2 + 1, choice.decision.reason
            )
        d = choice.decision
        if choice.dead_end and choice.best is not None:
            # nothing to go back to: the best of a poor lot is still worth a try
            d = Decision(
                choice.best.op.action,
                f"nothing here scores well; trying the best, "
                f"{choice.best.op.words} "
                f"({choice.best.score:.2f})",
                alternatives=d.alternatives,
            )
        return dataclasses.replace(d, reason=note + d.reason) if note else d

    def _backtrack(
        self, task: str, screen: Screen, history: Sequence[Step], step: Step, penalty: int, why: str
    ) -> Decision:
        s = self._s
        self.autotask_planner.penalties.add_step(step, penalty)
        s.backtracks += 1
        path = effective_path(history)
        if len(path) >= 2:
            s.checked.discard(path[-2].index)
        undo = choose_undo(step, screen)
        words = op_words(step.action, step.before)
        if undo is None:
            # nothing to revert on the phone: the step just stops counting
            s.mark.add(step.index)
            rest = [
                dataclasses.replace(h, undone=True) if h.index == step.index else h for h in history
            ]
            return self._decide(task, screen, rest, f"'{words}' set aside ({why}); ")
        s.pending = (step.index, undo)
        return Decision(
            undo.action,
            f"{UNDO_PREFIX}{undo.words} to take back '{words}' because {why} (penalty {penalty})",
        )

    def _act(self, screen: Screen, action: Action) -> dict[str, float]:
        timings = super()._act(screen, action)
        pending = self._s.pending
        if pending is not None and pending[1].clear and pending[1].action == action:
            t0 = time.perf_counter()
            self.device.clear_text()
            timings["act"] = timings.get("act", 0.0) + time.perf_counter() - t0
        return timings

    def _after_turn(self, traj: Trajectory) -> Trajectory:
        """Mark what the turn undid; remember replayed steps."""
        s = self._s
        last = traj.steps[-1] if traj.steps else None
        if last is not None and s.pending is not None and last.reason.startswith(UNDO_PREFIX):
            s.mark.add(s.pending[0])
        s.pending = None
        if last is not None and last.reason.startswith("replay "):
            s.replayed.add(last.index)
        if s.mark:
            steps = tuple(
                dataclasses.replace(x, undone=True) if x.index in s.mark else x for x in traj.steps
            )
            s.mark = set()
            traj = dataclasses.replace(traj, steps=steps)
        return traj

    # --- the run ------------------------------------------------------------------------------
    def _turns(self, task: str, traj: Trajectory, start: float) -> tuple[Trajectory, Outcome, str]:
        planner_errors = 0
        while len(traj.steps) < self.options.max_steps:
            self._traj = traj
            try:
                traj, over = self._turn(task, traj)
                planner_errors = 0
            except LLMResponseError as exc:
                planner_errors += 1
                log.warning("planner answer rejected: %s", exc)
                if planner_errors >= self.options.max_planner_errors:
                    return traj, Outcome.ERROR, f"planner failed: {exc}"
                continue
            traj = self._after_turn(traj)
            self._traj = traj
            self._save(traj)
            if self.on_step is not None:
                self.on_step(StepEvent(traj.steps[-1], time.perf_counter() - start))
            if over:
                last = traj.steps[-1]
                return traj, Outcome.SUCCESS if last.action.done else Outcome.GAVE_UP, last.reason
        return traj, Outcome.GAVE_UP, f"no result after {self.options.max_steps} steps"

    def start_replay(self, task: str) -> Match | None:
        """Match ``task`` to task knowledge and get ready to replay it."""
        if not self.use_replay or self.encode is None:
            return None
        match = self.knowledge.match(task, self.encode)
        self._replay = Replay(match, task) if match is not None else None
        return match

    def explore(self, task: str, *, match: Match | str | None = "auto") -> AutoTaskResult:
        """Run ``task`` with exploration (and replay when knowledge matches: ``match``
        as ``start_replay`` returned it, or "auto" to look it up); the trajectory,
        report and knowledge are written whatever happens."""
        self._s = _State()
        self._approved = set()
        self.autotask_planner.penalties.entries.extend(
            self.knowledge.penalties_for(task, self.encode).entries
        )
        if isinstance(match, str):
            match = self.start_replay(task)
        else:
            self._replay = Replay(match, task) if match is not None else None
        traj = Trajectory(
            task=task, device=self.device.serial, planner=self.planner_name, started_at=_now()
        )
        self._traj = traj
        result = AutoTaskResult(traj, match=match)
        start = time.perf_counter()
        nodes: Nodes = {}
        outcome, note = Outcome.GAVE_UP, ""
        try:
            while True:
                traj, outcome, note = self._turns(task, traj, start)
                self._observe(traj, nodes)
                if (
                    outcome not in (Outcome.SUCCESS, Outcome.GAVE_UP)
                    or not traj.steps
                    or traj.steps[-1].action.kind is not ActionKind.STOP
                ):
                    break
                summary = self.summarise(task, traj, nodes, outcome is Outcome.SUCCESS)
                result.summary = summary
                answer = self.confirm(summary)
                result.answer = answer
                if (
                    answer == NO
                    and result.rounds < self.max_rounds
                    and len(traj.steps) < self.options.max_steps
                ):
                    result.rounds += 1
                    self._s.rejected_at = len(effective_path(traj.steps))
                    self._s.exhausted = False
                    last = traj.steps[-1]
                    traj = dataclasses.replace(
                        traj,
                        steps=(
                            *traj.steps[:-1],
                            dataclasses.replace(
                                last, reason=last.reason + " - the person says it is not done"
                            ),
                        ),
                    )
                    continue
                if answer == YES:
                    outcome, note = Outcome.SUCCESS, (note + " (confirmed)").strip()
                    result.knowledge = self._learn(task, traj, nodes)
                elif outcome is Outcome.SUCCESS:
                    outcome, note = Outcome.GAVE_UP, note + " (not confirmed)"
                break
        except SafetyStop as exc:
            outcome, note, traj = Outcome.SAFETY_STOP, str(exc), self._traj or traj
            raise
        except (UserAbort, KeyboardInterrupt) as exc:
            outcome, note, traj = (
                Outcome.ABORTED,
                str(exc) or "stopped with Ctrl-C",
                self._traj or traj,
            )
            raise
        except DeviceError as exc:
            outcome, note, traj = Outcome.ERROR, str(exc), self._traj or traj
            raise
        finally:
            self._observe(traj, nodes)
            traj = traj.finish(outcome, note=note, finished_at=_now())
            self._traj = traj
            result.trajectory = traj
            result.backtracks = self._s.backtracks
            if self._replay is not None:
                result.replay_failed = self._replay.failed
            self._save(traj)
            write_report(traj, self.report_path, summary=report_rows(result.summary))
            if self.knowledge.path is not None:
                self.knowledge.save()
        return result

    # --- knowledge ----------------------------------------------------------------------------
    def _observe(self, traj: Trajectory, nodes: Nodes) -> None:
        """Add the transitions of the steps not observed yet (those with a screen after)."""
        new = [s for s in traj.steps if s.index not in nodes and s.after is not None]
        for s, pair in zip(new, self.knowledge.observe(new), strict=True):
            nodes[s.index] = pair

    def shortest(self, task: str, traj: Trajectory, nodes: Nodes) -> list[PathOp]:
        return shortest_ops(self.knowledge, task, traj, nodes)

    def summarise(self, task: str, traj: Trajectory, nodes: Nodes, done: bool) -> Summary:
        """The shortest path, each operation with the run's step that did it."""
        replayed = bool(self._s.replayed) and not (self._replay and self._replay.failed)
        return summarise_run(
            self.shortest(task, traj, nodes),
            task,
            traj,
            nodes,
            done=done,
            exhausted=self._s.exhausted,
            replayed=replayed,
        )

    def _learn(self, task: str, traj: Trajectory, nodes: Nodes) -> TaskKnowledge | None:
        explored = any(not s.reason.startswith("replay ") for s in effective_path(traj.steps))
        if self._replay is not None and not explored and not self._replay.failed:
            self.knowledge.remember_phrasing(self._replay.match.knowledge, task)
            return self._replay.match.knowledge
        lessons = None
        if self.lesson_llm is not None:
            undone = [(s, s.reason) for s in traj.steps if s.undone]
            if undone:
                try:
                    lessons = llm_lessons(self.lesson_llm, task, undone)
                except LLMResponseError as exc:
                    log.warning("lessons from the LLM failed: %s", exc)
        ordered = [nodes.get(s.index) for s in traj.steps]
        return self.knowledge.summarise(task, traj, lessons=lessons, nodes=ordered)
