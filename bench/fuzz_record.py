"""bench/fuzz.py's ``record`` case: the phone driven by ``input tap`` / ``input text``
while ``record``-ing; the typed text must become two ``type`` steps.

A part of bench/fuzz.py (run that), not a benchmark of its own.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from fuzz_common import part_of_fuzz


def record_case() -> dict[str, Any]:
    """The issue's case: the phone driven by `input tap`/`input text` while recording."""
    import adbutils

    from screenpilot.executor.adb import AdbDevice
    from screenpilot.pbd.recorder import Recorder
    from screenpilot.simulator.phone import VirtualPhone
    from screenpilot.simulator.serve import serve_phone
    from screenpilot.vision.incremental import IncrementalDescriber

    vp = VirtualPhone()
    with serve_phone(vp) as serial:
        dev = adbutils.AdbClient().device(serial)
        recorder = Recorder(AdbDevice(serial), IncrementalDescriber(), idle_s=60)
        stop = threading.Event()
        done: list[Any] = []
        thread = threading.Thread(
            target=lambda: done.append(
                recorder.record("add Alice Walker to my contacts", stop=stop)
            ),
            daemon=True,
        )
        thread.start()
        recorder.ready.wait(30)

        def at(text: str) -> str:
            found = vp.frame().find(text)
            if found is None:
                return "1 1"
            x, y = found.box.center
            return f"{x} {y}"

        def field(caption: str) -> str:
            x, y = next(
                e.box.center for e in vp.frame().elements if e.editable and e.caption == caption
            )
            return f"{x} {y}"

        commands: list[Callable[[], str]] = [
            lambda: f"input tap {at('Contacts')}",
            lambda: "input swipe 540 1800 540 900 300",
            lambda: f"input tap {at('Create contact')}",
            lambda: f"input tap {field('First name')}",
            lambda: "input text Alice",
            lambda: f"input tap {field('Last name')}",
            lambda: "input text Walker",
        ]
        for command in commands:
            dev.shell(command())
            time.sleep(0.8)  # a person's pace, faster than captures
        time.sleep(1.5)
        stop.set()
        thread.join(180)
    steps = list(done[0].steps) if done else []
    typed = [s for s in steps if s.startswith("type ")]
    return {
        "steps": steps,
        "type_steps": len(typed),
        "end": "ok"
        if typed
        == ["type 'Alice' into the 'First name' field", "type 'Walker' into the 'Last name' field"]
        else "untrue",
    }


if __name__ == "__main__":
    part_of_fuzz(__file__)
