"""``screenpilot doctor``: check the set-up before the first task, one line per check.

adb and its server, the phone (picked, authorised), its screen, animations and
screenshots, ADB Keyboard really typing Chinese, the shipped models, the embedder,
the demonstration store and the LLM endpoint. Each line passes, warns or fails and
says what to do; ``ready`` is True when everything ``run`` needs holds.
"""

from __future__ import annotations

from screenpilot.doctor.checkup import diagnose, phone_checks
from screenpilot.doctor.report import Check, Progress, Status, ready, summary, text_lines, to_json

__all__ = [
    "Check",
    "Progress",
    "Status",
    "diagnose",
    "phone_checks",
    "ready",
    "summary",
    "text_lines",
    "to_json",
]
