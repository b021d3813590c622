"""A run started from the page: the ``Agent`` of ``screenpilot run`` in a thread.

The run is built from the console's parts exactly as ``run`` builds it (planner,
describer, safety check, options); each step is published as it lands (its
screenshot with the box acted on, the action in words, the reason, the timings:
the report's own rendering, so typed secrets show as a placeholder), and so is the
end (outcome, note, the report's link). A handover publishes a banner and blocks
the run's thread until the page answers "I did it" or "Abort"; Stop makes the run
end as ``aborted`` before its next turn (and answers a waiting handover "abort").
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from screenpilot.agent import Agent, StepEvent
from screenpilot.console.activity import Activity, Session
from screenpilot.console.hub import Event, Hub
from screenpilot.console.parts import Parts
from screenpilot.errors import ScreenpilotError
from screenpilot.model import Sensitivity, Step, Trajectory
from screenpilot.report import _thumbnail, action_words

log = logging.getLogger(__name__)


def step_event(step: Step, elapsed: float = 0.0) -> Event:
    """What the page shows of one step (secrets masked as in the report)."""
    sens = step.before.sensitivity
    return {
        "type": "step",
        "index": step.index,
        "action": action_words(step.action, step),
        "kind": step.action.kind.value,
        "reason": step.reason,
        "error": step.error,
        "timings": {k: round(v, 3) for k, v in step.timings},
        "elapsed": round(elapsed, 2),
        "image": _thumbnail(step),
        "sensitive": sens.category.value if sens.sensitive else "",
    }


def report_link(runs: Path, folder: Path) -> str:
    """The page's link to a run folder's report ('' when it is not under ``runs``)."""
    try:
        name = folder.resolve().relative_to(runs.resolve())
    except ValueError:
        return ""
    return f"/runs/{name.as_posix()}/report.html" if len(name.parts) == 1 else ""


class RunSession(Session):
    """At most one run at a time; its events so far are kept for pages that open late."""

    kind = "run"

    def __init__(
        self,
        parts: Parts,
        hub: Hub,
        activity: Activity,
        *,
        on_step: Callable[[Step], None] | None = None,
    ) -> None:
        super().__init__(parts, hub, activity)
        self.on_step = on_step
        self.events: list[Event] = []
        self.handover: Event | None = None
        self._answered = threading.Event()
        self._answer = False

    # --- the page's requests -------------------------------------------------------------
    def start(self, task: str) -> Event:
        task, folder = self._begin(task)
        with self._lock:
            self.state, self.task, self.events, self.handover = "starting", task, [], None
        self._spawn(self._run, task, folder)
        return {"status": "started", "task": task, "folder": folder.name}

    def stop(self) -> Event:
        """End the run before its next turn (a waiting handover is answered "abort")."""
        self._stop.set()
        self._reply(False)
        return {"status": "stopping" if self._set("stopping", if_running=True) else "idle"}

    def answer(self, go_on: bool) -> Event:
        """The person's answer to the handover now shown."""
        if self.handover is None:
            return {"status": "refused", "what": "no handover is waiting"}
        self._reply(go_on)
        return {"status": "answered", "go_on": go_on}

    def snapshot(self) -> Event:
        with self._lock:
            return {
                "state": self.state,
                "task": self.task,
                "events": list(self.events),
                "handover": self.handover,
            }

    # --- the run's thread ----------------------------------------------------------------
    def _publish(self, event: Event) -> None:
        with self._lock:
            self.events.append(event)
            self.hub.publish(event)

    def _set(self, state: str, *, if_running: bool = False) -> bool:
        """Change the state (``if_running``: only while a run goes on) and tell the pages;
        under the lock, so they see the states in order."""
        with self._lock:
            if if_running and self.state == "idle":
                return False
            self.state = state
            self.activity.waiting = state == "handover"
            self.hub.publish({"type": "run_state", "state": state, "task": self.task})
            return True

    def _reply(self, go_on: bool) -> None:
        self._answer = go_on
        self._answered.set()

    def _prompt(self, sens: Sensitivity, what: str) -> bool:
        """The Agent's ``HandoverPrompt``: show the banner, wait for the page's answer."""
        if self._stop.is_set():
            return False
        self._answered.clear()
        banner = {
            "type": "handover",
            "category": sens.category.value,
            "evidence": list(sens.evidence),
            "what": what,
        }
        with self._lock:
            self.handover = banner
        self._publish(banner)
        self._set("handover")
        while not self._answered.wait(0.25):
            if self._stop.is_set():
                self._answer = False
                break
        go_on = self._answer and not self._stop.is_set()
        with self._lock:
            self.handover = None
        self._publish({"type": "handover_done", "go_on": go_on})
        self._set("running" if go_on else "stopping")
        return go_on

    def _step(self, event: StepEvent) -> None:
        self._publish(step_event(event.step, event.elapsed))
        if self.on_step is not None:
            self.on_step(event.step)

    def _run(self, task: str, folder: Path) -> None:
        agent: Agent | None = None
        note = ""
        try:
            self._publish({"type": "run_start", "task": task, "folder": folder.name})
            self._set("running")
            planner = self.parts.planner(task)
            agent = Agent(
                self.parts.device,
                self.parts.describer,
                planner,
                options=self.parts.options(task, folder),
                safety=self.parts.safety,
                handover=self._prompt,
                on_step=self._step,
                planner_name=self.parts.planner_name,
                stop=self._stop.is_set,
            )
            agent.run(task)
        except ScreenpilotError as exc:
            note = exc.message
        except Exception as exc:  # a bug: the page says so, the console goes on
            log.exception("run failed")
            note = f"internal error: {type(exc).__name__}: {exc}"
        finally:
            self._publish(self._end(agent, folder, note))
            self._set("idle")
            self.activity.release("run")

    def _end(self, agent: Agent | None, folder: Path, note: str) -> Event:
        outcome, steps = "error", 0
        saved = agent.trajectory_path if agent is not None else None
        if saved is not None and saved.is_file():
            traj = Trajectory.from_json(saved.read_text(encoding="utf-8"))
            outcome, steps, note = traj.outcome.value, len(traj.steps), traj.note or note
            shown = {e["index"] for e in self.events if e.get("type") == "step"}
            for step in traj.steps:  # the last step of a stopped run is not streamed
                if step.index not in shown:
                    self._publish(step_event(step))
        end: dict[str, Any] = {
            "type": "run_end",
            "outcome": outcome,
            "note": note,
            "steps": steps,
            "report": "",
        }
        if saved is not None and (folder / "report.html").is_file():
            end["report"] = report_link(self.parts.runs, folder)
        return end
