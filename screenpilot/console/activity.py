"""The one thing the phone is doing for the console: nothing, a run, or a recording.

A run and a recording both drive (or watch) the whole phone, so only one of them
goes at a time; taps from the page are allowed while nothing runs, during a
recording (they are what is being recorded) and while a run waits for the person
at a handover (the person does that part, here or on the phone).
"""

from __future__ import annotations

import threading

from screenpilot.errors import ScreenpilotError


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
                raise Busy(f"a {'run' if self.current == 'run' else 'recording'} is going on",
                           hint="stop it first")
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
