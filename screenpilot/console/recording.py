"""A demonstration recorded from the page: ``pbd``'s ``Recorder`` in a thread.

Start names the task; the person then does it on the phone (or by clicking the live
screen); each step is published as soon as the recorder recognises it ("tap
'Network & internet'", "type <secret> into 'Password'": secrets are never read).
Stop (or the phone left idle) ends it: the trajectory and its report are saved
under the runs folder and, when asked, the demonstration goes into the store.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from screenpilot.console.activity import Activity, Session
from screenpilot.console.hub import Event, Hub
from screenpilot.console.parts import Parts
from screenpilot.console.runs import report_link
from screenpilot.errors import ScreenpilotError

if TYPE_CHECKING:
    from screenpilot.pbd.store import DemoStore

log = logging.getLogger(__name__)


class RecordSession(Session):
    """At most one recording at a time; its steps so far are kept for late pages."""

    kind = "record"

    def __init__(
        self,
        parts: Parts,
        hub: Hub,
        activity: Activity,
        *,
        store: Callable[[], DemoStore] | None = None,
    ) -> None:
        super().__init__(parts, hub, activity)
        self.store = store
        self.steps: list[str] = []

    def start(self, task: str, *, store: bool = True) -> Event:
        task, folder = self._begin(task, "record {task}")
        with self._lock:
            self.state, self.task, self.steps = "recording", task, []
        self._spawn(self._record, task, folder, store)
        return {"status": "started", "task": task, "folder": folder.name}

    def stop(self) -> Event:
        self._stop.set()
        return {"status": "stopping" if self.state != "idle" else "idle"}

    def snapshot(self) -> Event:
        with self._lock:
            return {"state": self.state, "task": self.task, "steps": list(self.steps)}

    def _step(self, n: int, words: str) -> None:
        with self._lock:
            self.steps.append(words)
        self.hub.publish({"type": "record_step", "n": n, "words": words})

    def _record(self, task: str, folder: Path, store: bool) -> None:
        from screenpilot.pbd.recorder import Recorder
        from screenpilot.report import save_run

        end: dict[str, Any] = {
            "type": "record_end",
            "steps": 0,
            "ended": "",
            "report": "",
            "demo": "",
            "note": "",
        }
        try:
            self.hub.publish({"type": "record_start", "task": task})
            recorder = Recorder(
                self.parts.device,
                self.parts.describer,
                idle_s=self.parts.record_idle_s,
                on_step=self._step,
                out=folder,
            )
            recording = recorder.record(task, stop=self._stop)
            path = save_run(recording.trajectory, folder)
            end.update(
                steps=len(recording.steps),
                ended=recording.ended,
                report=report_link(self.parts.runs, folder),
            )
            if not recording.steps:
                end["note"] = "nothing was recorded: no touch reached the phone"
            elif store and self.store is not None:
                demos = self.store()
                end["demo"] = demos.add(recording.demo(trajectory_path=str(path.resolve())))
        except ScreenpilotError as exc:
            end["note"] = exc.message
        except Exception as exc:  # a bug: the page says so, the console goes on
            log.exception("recording failed")
            end["note"] = f"internal error: {type(exc).__name__}: {exc}"
        finally:
            with self._lock:
                self.state = "idle"
            self.activity.release("record")
            self.hub.publish(end)
