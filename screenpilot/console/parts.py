"""What a console is built from: the phone, the describer, the safety check, factories.

The command fills ``Parts`` from the configuration with the same factories as
``screenpilot run``; tests fill it with scripted planners. The describer is shared
by the live reading, taps from the page, runs and recordings, so it is wrapped in a
lock (``SharedDescriber``): one screen is described at a time.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image

from screenpilot.agent import Describer, RunOptions, SafetyCheck
from screenpilot.executor.device import Device
from screenpilot.model import Screen
from screenpilot.planner.base import Planner

if TYPE_CHECKING:
    from screenpilot.pbd.store import DemoStore


class SharedDescriber:
    """A describer that several threads may call: one description at a time."""

    def __init__(self, inner: Describer) -> None:
        self.inner = inner
        self._lock = threading.Lock()

    def describe(self, image: Image.Image) -> Screen:
        with self._lock:
            return self.inner.describe(image)


@dataclass
class Parts:
    """Everything the console needs; ``planner`` and ``options`` are called once per run."""

    device: Device
    describer: Describer
    safety: SafetyCheck
    #: A fresh planner for a run of this task.
    planner: Callable[[str], Planner]
    #: The run options for a run of this task into this folder (steps, settling, allow,
    #: the demonstrations that guide it).
    options: Callable[[str, Path], RunOptions]
    #: The folder of runs (``run.out``): new runs go there, past runs are read from it.
    runs: Path
    #: The run folder for a task (``runs/20250101-120000-turn-on-wifi``).
    run_folder: Callable[[Path, str], Path]
    #: Opens the demonstration store (None: the store part of the page is off).
    store: Callable[[], DemoStore] | None = None
    planner_name: str = ""
    #: Seconds without a touch or a change that end a recording (``pbd.idle``).
    record_idle_s: float = 20.0

    def __post_init__(self) -> None:
        if not isinstance(self.describer, SharedDescriber):
            self.describer = SharedDescriber(self.describer)
