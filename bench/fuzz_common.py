"""What the cases of bench/fuzz.py share: how a case ended (``Tally``), a watchdog,
and the CLI run as a user runs it, with how its end is judged.

A part of bench/fuzz.py (run that), not a benchmark of its own."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PY = sys.executable
OUR_EXIT_CODES = {0, 1, 2, 3, 4, 5, 6, 7, 8, 130}
KINDS = ("ok", "clean", "traceback", "hang", "untrue")


@dataclass
class Tally:
    """How the cases of one family ended, with a few examples of each bad end."""

    counts: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)

    def add(self, kind: str, what: str = "") -> None:
        self.counts[kind] += 1
        if kind in ("traceback", "hang", "untrue") and what:
            self.examples.setdefault(kind, [])
            if len(self.examples[kind]) < 5:
                self.examples[kind].append(what[:300])

    def as_dict(self) -> dict[str, Any]:
        return {
            "cases": sum(self.counts.values()),
            **{k: self.counts[k] for k in KINDS},
            "examples": self.examples,
        }


def in_thread(fn: Callable[[], Any], limit: float) -> tuple[str, Any]:
    """``fn()`` under a watchdog: ("ok", value) | ("raised", exc) | ("hang", None)."""
    box: list[tuple[str, Any]] = []

    def run() -> None:
        try:
            box.append(("ok", fn()))
        except BaseException as exc:
            box.append(("raised", exc))

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(limit)
    return box[0] if box else ("hang", None)


def classify(status: str, value: Any) -> str:
    from screenpilot.errors import ScreenpilotError

    if status == "hang":
        return "hang"
    if status == "ok":
        return "ok"
    return "clean" if isinstance(value, ScreenpilotError) else "traceback"


def cli(
    args: list[str], *, timeout: float, env: dict[str, str] | None = None, cwd: str | None = None
) -> tuple[int | None, str, str]:
    """Run ``screenpilot ARGS``: (exit code or None on a hang, stdout, stderr)."""
    full = {
        **os.environ,
        "SCREENPILOT_CONFIG": "/nonexistent/screenpilot.toml",
        "SCREENPILOT_LLM_API_KEY": "",
        **(env or {}),
    }
    try:
        proc = subprocess.run(
            [PY, "-m", "screenpilot", *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=full,
            cwd=cwd,
        )
    except subprocess.TimeoutExpired as exc:
        return None, str(exc.stdout or ""), str(exc.stderr or "")
    return proc.returncode, proc.stdout, proc.stderr


def cli_kind(rc: int | None, err: str, *, want_rc: int | None = None) -> tuple[str, str]:
    """A CLI run's end: hang, traceback (or a foreign exit code), untrue (not one error
    line and a hint, or the wrong code), clean, ok."""
    if rc is None:
        return "hang", "no exit"
    if "Traceback" in err or rc not in OUR_EXIT_CODES:
        return "traceback", err.strip().splitlines()[-1] if err.strip() else f"rc {rc}"
    if want_rc is not None and rc != want_rc:
        return "untrue", f"exit {rc}, wanted {want_rc}: {err.strip()[:200]}"
    if rc == 0:
        return "ok", ""
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    hints = [line for line in err.splitlines() if line.startswith("  hint:")]
    if len(errors) != 1 or not hints:
        return "untrue", f"{len(errors)} error lines, {len(hints)} hints: {err.strip()[:200]}"
    return "clean", ""


def part_of_fuzz(path: str) -> None:
    """What a helper module of bench/fuzz.py does when ``make bench`` runs it directly."""
    print(f"{Path(path).name} is a part of bench/fuzz.py (run that); nothing to do")


if __name__ == "__main__":
    part_of_fuzz(__file__)
