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
in a row, then it ends the run); a ``SafetyStop`` ends it (``safety_stop``);
Ctrl-C ends it (``aborted``); every other error (``LLMError``, ``DeviceError``,
``VisionError``, a bug) ends it with outcome ``error`` and a note that names the
failure (:func:`failure_note`: ``llm unreachable: ...``, ``llm timed out: ...``,
``device failed: ...``), and is raised again for the CLI to print (one line, a
hint, the exit code of its class).

Handover. Before planning on a sensitive screen, before performing a sensitive
action (finalise a payment, delete an account, grant a permission, type a
secret) and when the planner itself answers ``handover``, the run asks the
person (``HandoverPrompt``) to do that part on the phone. The run then records
a ``handover`` step (the screen, the category and the evidence) and looks at the
phone again; it never performs the sensitive action itself afterwards (the
person did it, or chose not to). A category in ``RunOptions.allow`` is
pre-approved: the run goes on without asking (a planner's own handover always
asks). With nobody there (``handover=None``) the run stops with ``SafetyStop``
naming the category; that stop and a person's "abort" are recorded as a last
step too. Once the person lets the run go on at a sensitive screen, the next
screens of the same category do not ask again until an ordinary screen comes
(their sensitive actions still ask; a blacked-out screen always asks).
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

from screenpilot.errors import (
    DeviceError,
    LLMError,
    LLMResponseError,
    PlannerError,
    SafetyStop,
    ScreenpilotError,
    StoreError,
    UserAbort,
    VisionError,
)
from screenpilot.executor.actions import perform
from screenpilot.executor.device import Device
from screenpilot.executor.longshot import LongPage, capture_long
from screenpilot.executor.settle import frames_equal, wait_until_settled
from screenpilot.executor.wake import Wakeable, wake_and_settle, wake_if_off
from screenpilot.model import (
    SECRET_PLACEHOLDER,
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
from screenpilot.planner.safety import category_of_words, refine_secure
from screenpilot.report import save_run

log = logging.getLogger(__name__)
#: Looks again in a row, the display having gone off while planning and woken to
#: another screen each time, before the run ends with a device error.
MAX_RELOOKS = 2


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
    #: Seconds between a look and its action after which the display is checked first
    #: (a screen timeout is 15 s at the least): see ``Agent._still_lit``.
    wake_check_after: float = 10.0


@dataclass
class StepEvent:
    """What the CLI's live view is told after each step."""

    step: Step
    elapsed: float


def _as_secret(action: Action) -> Action:
    """A type action marked secret, its text gone from its reason too."""
    text = action.text or ""
    return dataclasses.replace(
        action, secret=True, reason=action.reason.replace(text, SECRET_PLACEHOLDER)
    )


def failure_note(exc: BaseException) -> str:
    """What a trajectory records as the note of a run that ``exc`` ended: the failure
    named first (``llm unreachable: cannot reach ...``)."""
    if isinstance(exc, ScreenpilotError):
        if isinstance(exc, LLMError):
            what = f"llm {exc.kind}"
        elif isinstance(exc, LLMResponseError):
            what = "llm answer unusable"
        else:
            names: tuple[tuple[type[ScreenpilotError], str], ...] = (
                (PlannerError, "planner failed"),
                (DeviceError, "device failed"),
                (VisionError, "vision failed"),
                (StoreError, "store failed"),
            )
            what = next((name for cls, name in names if isinstance(exc, cls)), "failed")
        return f"{what}: {exc.message}"
    return f"internal error: {type(exc).__name__}: {exc}"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Agent:
    """Runs one task on one device with one planner."""

    def __init__(
        self,
        device: Device,
        describer: Describer,
        planner: Planner,
        *,
        options: RunOptions | None = None,
        safety: SafetyCheck | None = None,
        handover: HandoverPrompt | None = None,
        on_step: Callable[[StepEvent], None] | None = None,
        planner_name: str = "",
        stop: Callable[[], bool] | None = None,
    ) -> None:
        self.device = device
        self.describer = describer
        self.planner = planner
        self.options = options or RunOptions()
        self.safety = safety
        self.handover = handover
        self.on_step = on_step
        #: Asked before each turn: True ends the run as ``aborted`` (a console's Stop).
        self.stop = stop
        self.planner_name = planner_name or type(planner).__name__
        self._page: LongPage | None = None
        self._last: Image.Image | None = None
        self._traj: Trajectory | None = None
        #: Categories the person let the run go on with, on the sensitive screens since
        #: the last ordinary one.
        self._approved: set[SensitiveCategory] = set()
        #: When the last look began (``time.monotonic``), and the looks again in a row
        #: because the display went off and woke to another screen.
        self._looked_at = time.monotonic()
        self._relooks = 0

    # --- files ----------------------------------------------------------------------------
    @property
    def trajectory_path(self) -> Path:
        return self.options.out / "trajectory.json"

    @property
    def report_path(self) -> Path:
        return self.options.out / "report.html"

    def _save(self, traj: Trajectory) -> None:
        save_run(traj, self.options.out)

    # --- one turn -------------------------------------------------------------------------
    def _look(self, index: int) -> tuple[Screen, dict[str, float]]:
        t0 = time.perf_counter()
        self._looked_at = time.monotonic()
        image, woke = self._capture()
        self._last = image
        t1 = time.perf_counter()
        screen = self.describer.describe(image)
        t2 = time.perf_counter()
        path = self.options.out / f"step_{index:02d}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        image.save(path)
        screen = dataclasses.replace(screen, image_path=str(path))
        if woke is None:
            return screen, {"capture": t1 - t0, "describe": t2 - t1}
        return screen, {"wake": woke, "capture": t1 - t0 - woke, "describe": t2 - t1}

    def _still_lit(self) -> bool:
        """Whether to act on the screen looked at: after a long plan (``wake_check_after``)
        the display may have gone off, and a tap on a dark screen is lost. Off: wake it;
        act when it shows what was looked at, else False (look again). A display that
        keeps going off to another screen ends the run."""
        waited = time.monotonic() - self._looked_at
        device = self.device
        if waited < self.options.wake_check_after or not isinstance(device, Wakeable):
            return True
        if device.screen_awake() is not False:
            return True
        log.info(
            "the screen of %s went off while planning (%.0f s): waking it", device.serial, waited
        )
        assert self._last is not None  # a look came before the plan
        settled = wake_and_settle(
            device,
            self._last.size,
            timeout=self.options.settle_timeout,
            interval=self.options.settle_interval,
        )
        if frames_equal(settled.image, self._last):
            self._relooks = 0
            return True
        self._relooks += 1
        if self._relooks > MAX_RELOOKS:
            raise DeviceError(
                f"the screen of {device.serial} went off while planning {self._relooks} "
                "times in a row and woke to another screen each time",
                hint="turn on Developer options > Stay awake, or a longer screen timeout",
            )
        return False

    def _capture(self) -> tuple[Image.Image, float | None]:
        """The screen (a long page with ``long_pages``), and the seconds it took to
        wake the display when the capture was black because it was off (else None):
        then the screen is the settled frame after waking (a long page is taken again)."""
        self._page = capture_long(self.device) if self.options.long_pages else None
        image = self._page.image if self._page is not None else self.device.capture()
        settled = wake_if_off(
            self.device,
            image,
            timeout=self.options.settle_timeout,
            interval=self.options.settle_interval,
        )
        if settled is None:
            return image, None
        log.info("the screen of %s was off: woken (%.2f s)", self.device.serial, settled.seconds)
        if self.options.long_pages:
            self._page = capture_long(self.device)
            return self._page.image, settled.seconds
        return settled.image, settled.seconds

    def _needs_person(self, sens: Sensitivity, *, planner_asked: bool = False) -> bool:
        """Whether this sensitivity needs the person (not pre-approved with --allow)."""
        if planner_asked:
            return True
        return sens.sensitive and sens.category not in self.options.allow

    def _hand_over(
        self,
        traj: Trajectory,
        screen: Screen,
        sens: Sensitivity,
        what: str,
        timings: dict[str, float],
    ) -> Trajectory:
        """Ask the person to act on the phone; the handover step, or stop the run.

        Raises ``SafetyStop`` (nobody there) or ``UserAbort`` (the person said abort)
        after recording the step in ``self._traj``."""
        detail = "; ".join(sens.evidence) or "no detail"
        action = Action(
            ActionKind.HANDOVER, reason=f"{what} is sensitive ({sens.category.value}): {detail}"
        )
        if self.handover is None:
            stop = SafetyStop(
                f"{what} is sensitive ({sens.category.value}: {detail}) and "
                "nobody is there to take over",
                category=sens.category.value,
                hint=f"run attended, or pre-approve with --allow {sens.category.value}",
            )
            self._traj = traj.add(
                Step(
                    len(traj.steps),
                    screen,
                    action,
                    reason=str(stop),
                    timings=tuple(timings.items()),
                    error="stopped: nobody to take over",
                )
            )
            raise stop
        if not self.handover(sens, what):
            self._traj = traj.add(
                Step(
                    len(traj.steps),
                    screen,
                    action,
                    reason="the person stopped the run",
                    timings=tuple(timings.items()),
                    error="stopped by the person",
                )
            )
            raise UserAbort(f"stopped by the person at a sensitive {what}")
        return traj.add(
            Step(
                len(traj.steps),
                screen,
                action,
                reason=f"the person took over ({sens.category.value}) and let the run go on",
                timings=tuple(timings.items()),
            )
        )

    def _plan(self, task: str, screen: Screen, history: Sequence[Step]) -> Decision:
        return self.planner.next(task, screen, history, hints=self.options.hints)

    def _act(self, screen: Screen, action: Action) -> dict[str, float]:
        t0 = time.perf_counter()
        before = self._last if self._page is None else None
        done = perform(self.device, action, screen, self._page)
        self._page = done.page
        t1 = time.perf_counter()
        settled = wait_until_settled(
            self.device,
            timeout=self.options.settle_timeout,
            interval=self.options.settle_interval,
            before=before,
        )
        return {"act": t1 - t0, "settle": settled.seconds}

    def _turn(self, task: str, traj: Trajectory) -> tuple[Trajectory, bool]:
        """One step; returns the trajectory and whether the run is over."""
        index = len(traj.steps)
        screen, timings = self._look(index)
        if traj.steps and traj.steps[-1].after is None:
            last = dataclasses.replace(traj.steps[-1], after=screen)
            traj = dataclasses.replace(traj, steps=(*traj.steps[:-1], last))
        self._traj = traj
        if self.safety is not None:
            sens = self._screen_sensitivity(task, screen, traj)
            screen = dataclasses.replace(screen, sensitivity=sens)
            if not sens.sensitive:
                self._approved.clear()
            elif self._needs_person(sens) and (
                screen.secure or sens.category not in self._approved
            ):
                self._approved.add(sens.category)
                return self._hand_over(traj, screen, sens, "screen", timings), False
        t0 = time.perf_counter()
        decision = self._plan(task, screen, traj.steps)
        timings["plan"] = time.perf_counter() - t0
        action = decision.action
        if decision.final:
            step = Step(
                index, screen, action, reason=decision.reason, timings=tuple(timings.items())
            )
            return traj.add(step), True
        if action.kind is ActionKind.HANDOVER:
            sens = self._planner_handover(action, screen)
            return self._hand_over(
                traj, screen, sens, "step the planner handed over", timings
            ), False
        if self.safety is not None:
            sens = self.safety.action(action, screen)
            if sens.sensitive and action.kind is ActionKind.TYPE and not action.secret:
                action = _as_secret(action)  # never shown, never saved
            if self._needs_person(sens):
                return self._hand_over(
                    traj, screen, sens, f"action '{action.describe(screen)}'", timings
                ), False
        if not self._still_lit():
            return traj, False  # woken to another screen: look again before acting
        timings.update(self._act(screen, action))
        reason = decision.reason
        if action.secret and action.text:
            reason = reason.replace(action.text, SECRET_PLACEHOLDER)
        step = Step(index, screen, action, reason=reason, timings=tuple(timings.items()))
        return traj.add(step), False

    def _screen_sensitivity(self, task: str, screen: Screen, traj: Trajectory) -> Sensitivity:
        """The safety check's verdict; a hidden (FLAG_SECURE) screen takes its category
        from the step that led to it, then from the task."""
        assert self.safety is not None
        sens = self.safety.screen(screen)
        if screen.secure and sens.sensitive:
            came_by = [s.action.describe(s.before) for s in traj.steps[-1:]]
            for words in (*came_by, task):
                refined = refine_secure(screen, sens, words)
                if refined is not sens:
                    return refined
        return sens

    @staticmethod
    def _planner_handover(action: Action, screen: Screen) -> Sensitivity:
        """The category of a handover the planner asked for: the screen's, else read
        from its reason, else personal data."""
        if screen.sensitivity.sensitive:
            return Sensitivity(
                screen.sensitivity.category, (action.reason, *screen.sensitivity.evidence), 1.0
            )
        return Sensitivity(
            category_of_words(action.reason) or SensitiveCategory.PERSONAL_DATA,
            (action.reason,),
            1.0,
        )

    # --- the run ----------------------------------------------------------------------------
    def run(self, task: str) -> Trajectory:
        """Run ``task`` to the end; the trajectory and report are always written."""
        self._traj = Trajectory(
            task=task, device=self.device.serial, planner=self.planner_name, started_at=_now()
        )
        self._approved = set()
        start = time.perf_counter()
        planner_errors = 0
        outcome, note = Outcome.GAVE_UP, f"no result after {self.options.max_steps} steps"
        try:
            while len(self._traj.steps) < self.options.max_steps:
                if self.stop is not None and self.stop():
                    raise UserAbort("stopped by the person")
                try:
                    self._traj, over = self._turn(task, self._traj)
                    planner_errors = 0
                except LLMResponseError as exc:
                    planner_errors += 1
                    log.warning("planner answer rejected: %s", exc)
                    if planner_errors >= self.options.max_planner_errors:
                        raise LLMResponseError(
                            f"{planner_errors} turns in a row without a usable action: "
                            f"{exc.message}",
                            hint=exc.hint,
                        ) from exc
                    continue
                self._save(self._traj)
                if self.on_step is not None:
                    self.on_step(StepEvent(self._traj.steps[-1], time.perf_counter() - start))
                if over:
                    last = self._traj.steps[-1].action
                    outcome = Outcome.SUCCESS if last.done else Outcome.GAVE_UP
                    note = self._traj.steps[-1].reason
                    break
        except SafetyStop as exc:
            outcome, note = Outcome.SAFETY_STOP, str(exc)
            raise
        except (UserAbort, KeyboardInterrupt) as exc:
            outcome, note = Outcome.ABORTED, str(exc) or "stopped with Ctrl-C"
            raise
        except Exception as exc:
            outcome, note = Outcome.ERROR, failure_note(exc)
            raise
        finally:
            traj = self._traj.finish(outcome, note=note, finished_at=_now())
            self._traj = traj
            self._save(traj)
        return traj
