"""The one thing the phone is doing for the console: nothing, a run, or a recording.

A run and a recording both drive (or watch) the whole phone, so only one of them
goes at a time (each is a ``Session``: the phone claimed for one task, a thread, a
stop flag); taps from the page are allowed while nothing runs, during a
recording (they are what is being recorded) and while a run waits for the person
at a handover (the person does that part, here or on the phone).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from screenpilot.errors import ScreenpilotError

if TYPE_CHECKING:
    from screenpilot.console.hub import Hub
    from screenpilot.console.parts import Parts


class Busy(ScreenpilotError):
    """The phone is already busy with a run or a recording."""


class Activity:
    """Who has the phone: '' (nobody), 'run' or 'record'; and whether a run waits."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.current = ""
        #: A run is waiting for the person (a handover).
        self.waiting = False

    def claim(self, kind: str) -> None:
        """Take the phone for ``kind``; ``Busy`` when something else has it."""
        with self._lock:
            if self.current:
                raise Busy(
                    f"a {'run' if self.current == 'run' else 'recording'} is going on",
                    hint="stop it first",
                )
            self.current = kind
            self.waiting = False

    def release(self, kind: str) -> None:
        with self._lock:
            if self.current == kind:
                self.current = ""
                self.waiting = False

    def check_taps(self) -> None:
        """``Busy`` unless a tap from the page may go to the phone now."""
        if self.current == "run" and not self.waiting:
            raise Busy("a run is driving the phone", hint="stop it, or wait for a handover")


class Session:
    """What a run and a recording share: one task at a time on the claimed phone, in a
    thread, with a stop flag."""

    #: What ``Activity`` calls it: "run" or "record".
    kind = ""

    def __init__(self, parts: Parts, hub: Hub, activity: Activity) -> None:
        self.parts = parts
        self.hub = hub
        self.activity = activity
        self.state = "idle"
        self.task = ""
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def _begin(self, task: str, folder_words: str = "{task}") -> tuple[str, Path]:
        """Claim the phone for ``task`` (stripped, not empty); its run folder."""
        task = task.strip()
        if not task:
            raise ScreenpilotError("no task given", hint='e.g. "turn on wifi"')
        self.activity.claim(self.kind)
        self._stop.clear()
        return task, self.parts.run_folder(self.parts.runs, folder_words.format(task=task))

    def _spawn(self, target: Callable[..., Any], *args: Any) -> None:
        self._thread = threading.Thread(
            target=target, args=args, daemon=True, name=f"console-{self.kind}"
        )
        self._thread.start()

    def join(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)
