"""The run loop: capture -> describe -> safety -> plan -> act -> settle -> record.

::

    agent = Agent(device, describer, planner, options=RunOptions(out=Path("runs/x")))
    trajectory = agent.run("turn on wifi")

Each turn captures the screen (the whole page when ``long_pages`` is on),
describes it, checks it for sensitive content, asks the planner for one action,
performs it and waits for the screen to settle, then records a ``Step``. The
trajectory (JSON) and the HTML report are written after every step, so Ctrl-C
or a phone that disconnects loses nothing: the run ends with outcome
``aborted`` or ``error`` and both files are there.

How the loop branches on errors: an ``LLMResponseError`` ends the step as failed
and the planner is asked again on the next turn (at most ``max_planner_errors``
in a row); a ``DeviceError`` ends the run (``error``); a ``SafetyStop`` ends it
(``safety_stop``); Ctrl-C ends it (``aborted``).
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

from PIL import Image

from screenpilot.errors import DeviceError, LLMResponseError, SafetyStop, UserAbort
from screenpilot.executor.actions import perform
from screenpilot.executor.device import Device
from screenpilot.executor.longshot import LongPage, capture_long
from screenpilot.executor.settle import wait_until_settled
from screenpilot.model import (
    Action,
    ActionKind,
    Outcome,
    Screen,
    SensitiveCategory,
    Sensitivity,
    Step,
    Trajectory,
)
from screenpilot.planner.base import Decision, PlanHints, Planner
from screenpilot.report import write_report

log = logging.getLogger(__name__)


class Describer(Protocol):
    """Turns a screenshot into a ``Screen`` (vision/'s pipeline)."""

    def describe(self, image: Image.Image) -> Screen: ...


class SafetyCheck(Protocol):
    """Classifies a screen, and an action on it, as sensitive or not."""

    def screen(self, screen: Screen) -> Sensitivity: ...
    def action(self, action: Action, screen: Screen) -> Sensitivity: ...


#: Asked when the run reaches a sensitive screen or action: True = the person
#: has acted on the phone and the run goes on; False = abort.
HandoverPrompt = Callable[[Sensitivity, str], bool]


@dataclass(frozen=True)
class RunOptions:
    """How a run behaves; the CLI fills these from configuration and flags."""

    out: Path = Path("runs")
    max_steps: int = 20
    long_pages: bool = False
    settle_timeout: float = 3.0
    settle_interval: float = 0.15
    allow: frozenset[SensitiveCategory] = frozenset()
    max_planner_errors: int = 3
    hints: PlanHints = field(default_factory=PlanHints)


@dataclass
class StepEvent:
    """What the CLI's live view is told after each step."""

    step: Step
    elapsed: float


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Agent:
    """Runs one task on one device with one planner."""

    def __init__(self, device: Device, describer: Describer, planner: Planner, *,
                 options: RunOptions | None = None, safety: SafetyCheck | None = None,
                 handover: HandoverPrompt | None = None,
                 on_step: Callable[[StepEvent], None] | None = None,
                 planner_name: str = "") -> None:
        self.device = device
        self.describer = describer
        self.planner = planner
        self.options = options or RunOptions()
        self.safety = safety
        self.handover = handover
        self.on_step = on_step
        self.planner_name = planner_name or type(planner).__name__
        self._page: LongPage | None = None
        self._last: Image.Image | None = None

    # --- files ----------------------------------------------------------------------------
    @property
    def trajectory_path(self) -> Path:
        return self.options.out / "trajectory.json"

    @property
    def report_path(self) -> Path:
        return self.options.out / "report.html"

    def _save(self, traj: Trajectory) -> None:
        self.options.out.mkdir(parents=True, exist_ok=True)
        tmp = self.trajectory_path.with_suffix(".json.tmp")
        tmp.write_text(traj.to_json(indent=1), encoding="utf-8")
        tmp.replace(self.trajectory_path)
        write_report(traj, self.report_path)

    # --- one turn -------------------------------------------------------------------------
    def _look(self, index: int) -> tuple[Screen, dict[str, float]]:
        t0 = time.perf_counter()
        if self.options.long_pages:
            self._page = capture_long(self.device)
            image = self._page.image
        else:
            self._page = None
            image = self.device.capture()
        self._last = image
        t1 = time.perf_counter()
        screen = self.describer.describe(image)
        t2 = time.perf_counter()
        path = self.options.out / f"step_{index:02d}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        image.save(path)
        screen = dataclasses.replace(screen, image_path=str(path))
        return screen, {"capture": t1 - t0, "describe": t2 - t1}

    def _check(self, sens: Sensitivity, what: str) -> Sensitivity:
        """Hand over to the person on a sensitive screen/action, or stop the run."""
        if not sens.sensitive or sens.category in self.options.allow:
            return sens
        if self.handover is None:
            raise SafetyStop(f"{what} is sensitive ({sens.category.value}: "
                             f"{'; '.join(sens.evidence) or 'no detail'}) and nobody is "
                             "there to take over", category=sens.category.value,
                             hint=f"run attended, or pre-approve with --allow "
                                  f"{sens.category.value}")
        if not self.handover(sens, what):
            raise UserAbort(f"stopped by the person at a sensitive {what}")
        return sens

    def _plan(self, task: str, screen: Screen, history: Sequence[Step]) -> Decision:
        return self.planner.next(task, screen, history, hints=self.options.hints)

    def _act(self, screen: Screen, action: Action) -> dict[str, float]:
        t0 = time.perf_counter()
        before = self._last if self._page is None else None
        done = perform(self.device, action, screen, self._page)
        self._page = done.page
        t1 = time.perf_counter()
        settled = wait_until_settled(self.device, timeout=self.options.settle_timeout,
                                     interval=self.options.settle_interval, before=before)
        return {"act": t1 - t0, "settle": settled.seconds}

    def _turn(self, task: str, traj: Trajectory) -> tuple[Trajectory, bool]:
        """One step; returns the trajectory and whether the run is over."""
        index = len(traj.steps)
        screen, timings = self._look(index)
        if traj.steps and traj.steps[-1].after is None:
            last = dataclasses.replace(traj.steps[-1], after=screen)
            traj = dataclasses.replace(traj, steps=(*traj.steps[:-1], last))
        if self.safety is not None:
            sens = self._check(self.safety.screen(screen), "screen")
            screen = dataclasses.replace(screen, sensitivity=sens)
        t0 = time.perf_counter()
        decision = self._plan(task, screen, traj.steps)
        timings["plan"] = time.perf_counter() - t0
        action = decision.action
        if decision.final:
            step = Step(index, screen, action, reason=decision.reason,
                        timings=tuple(timings.items()))
            return traj.add(step), True
        if action.kind is ActionKind.HANDOVER:
            self._check(Sensitivity(SensitiveCategory.PERSONAL_DATA, (action.reason,), 1.0),
                        "step the planner handed over")
        elif self.safety is not None:
            self._check(self.safety.action(action, screen), f"action '{action.describe(screen)}'")
        timings.update(self._act(screen, action))
        step = Step(index, screen, action, reason=decision.reason,
                    timings=tuple(timings.items()))
        return traj.add(step), False

    # --- the run ----------------------------------------------------------------------------
    def run(self, task: str) -> Trajectory:
        """Run ``task`` to the end; the trajectory and report are always written."""
        traj = Trajectory(task=task, device=self.device.serial, planner=self.planner_name,
                          started_at=_now())
        start = time.perf_counter()
        planner_errors = 0
        outcome, note = Outcome.GAVE_UP, f"no result after {self.options.max_steps} steps"
        try:
            while len(traj.steps) < self.options.max_steps:
                try:
                    traj, over = self._turn(task, traj)
                    planner_errors = 0
                except LLMResponseError as exc:
                    planner_errors += 1
                    log.warning("planner answer rejected: %s", exc)
                    if planner_errors >= self.options.max_planner_errors:
                        outcome, note = Outcome.ERROR, f"planner failed: {exc}"
                        break
                    continue
                self._save(traj)
                if self.on_step is not None:
                    self.on_step(StepEvent(traj.steps[-1], time.perf_counter() - start))
                if over:
                    last = traj.steps[-1].action
                    outcome = Outcome.SUCCESS if last.done else Outcome.GAVE_UP
                    note = traj.steps[-1].reason
                    break
        except SafetyStop as exc:
            outcome, note = Outcome.SAFETY_STOP, str(exc)
            raise
        except (UserAbort, KeyboardInterrupt) as exc:
            outcome, note = Outcome.ABORTED, str(exc) or "stopped with Ctrl-C"
            raise
        except DeviceError as exc:
            outcome, note = Outcome.ERROR, str(exc)
            raise
        finally:
            traj = traj.finish(outcome, note=note, finished_at=_now())
            self._save(traj)
        return traj
