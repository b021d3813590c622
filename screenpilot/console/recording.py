"""A demonstration recorded from the page: ``pbd``'s ``Recorder`` in a thread.

Start names the task; the person then does it on the phone (or by clicking the live
screen); each step is published as soon as the recorder recognises it ("tap
'Network & internet'", "type <secret> into 'Password'": secrets are never read).
Stop (or the phone left idle) ends it: the trajectory and its report are saved
under the runs folder and, when asked, the demonstration goes into the store.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from screenpilot.console.activity import Activity
from screenpilot.console.hub import Event, Hub
from screenpilot.console.parts import Parts
from screenpilot.console.runs import report_link
from screenpilot.errors import ScreenpilotError

if TYPE_CHECKING:
    from screenpilot.pbd.store import DemoStore

log = logging.getLogger(__name__)


class RecordSession:
    """At most one recording at a time; its steps so far are kept for late pages."""

    def __init__(self, parts: Parts, hub: Hub, activity: Activity, *,
                 store: Callable[[], DemoStore] | None = None) -> None:
        self.parts = parts
        self.store = store
        self.hub = hub
        self.activity = activity
        self.state = "idle"
        self.task = ""
        self.steps: list[str] = []
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def start(self, task: str, *, store: bool = True) -> Event:
        task = task.strip()
        if not task:
            raise ScreenpilotError("no task given", hint='name what you will do, e.g. '
                                                         '"turn on wifi"')
        self.activity.claim("record")
        folder = self.parts.run_folder(self.parts.runs, f"record {task}")
        with self._lock:
            self.state, self.task, self.steps = "recording", task, []
        self._stop.clear()
        self._thread = threading.Thread(target=self._record, args=(task, folder, store),
                                        daemon=True, name="console-record")
        self._thread.start()
        return {"status": "started", "task": task, "folder": folder.name}

    def stop(self) -> Event:
        self._stop.set()
        return {"status": "stopping" if self.state != "idle" else "idle"}

    def snapshot(self) -> Event:
        with self._lock:
            return {"state": self.state, "task": self.task, "steps": list(self.steps)}

    def join(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    def _step(self, n: int, words: str) -> None:
        with self._lock:
            self.steps.append(words)
        self.hub.publish({"type": "record_step", "n": n, "words": words})

    def _record(self, task: str, folder: Path, store: bool) -> None:
        from screenpilot.pbd.recorder import Recorder
        from screenpilot.report import save_run

        end: dict[str, Any] = {"type": "record_end", "steps": 0, "ended": "", "report": "",
                               "demo": "", "note": ""}
        try:
            self.hub.publish({"type": "record_start", "task": task})
            recorder = Recorder(self.parts.device, self.parts.describer,
                                idle_s=self.parts.record_idle_s, on_step=self._step, out=folder)
            recording = recorder.record(task, stop=self._stop)
            path = save_run(recording.trajectory, folder)
            end.update(steps=len(recording.steps), ended=recording.ended,
                       report=report_link(self.parts.runs, folder))
            if not recording.steps:
                end["note"] = "nothing was recorded: no touch reached the phone"
            elif store and self.store is not None:
                demos = self.store()
                end["demo"] = demos.add(recording.demo(trajectory_path=str(path.resolve())))
        except ScreenpilotError as exc:
            end["note"] = exc.message
        except Exception as exc:   # a bug: the page says so, the console goes on
            log.exception("recording failed")
            end["note"] = f"internal error: {type(exc).__name__}: {exc}"
        finally:
            with self._lock:
                self.state = "idle"
            self.activity.release("record")
            self.hub.publish(end)
