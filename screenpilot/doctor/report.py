"""What ``screenpilot doctor`` finds: one ``Check`` per line, and how the lines are shown.

A check passes (✓), warns (!: ``run`` works, but worse or slower) or fails (✗:
``run`` cannot work until it is fixed). Each says what it found (``detail``) and,
when it did not pass, what to do (``fix``, one command or step per line).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum


class Status(StrEnum):
    """How one check came out (the JSON value; ``symbol`` is what the text shows)."""

    OK = "ok"
    WARN = "warn"
    FAIL = "fail"

    @property
    def symbol(self) -> str:
        return {"ok": "✓", "warn": "!", "fail": "✗"}[self.value]


@dataclass(frozen=True, slots=True)
class Check:
    """One line of the report."""

    name: str
    status: Status
    detail: str
    fix: str = ""

    def to_json(self) -> dict[str, str]:
        return {
            "name": self.name,
            "status": self.status.value,
            "detail": self.detail,
            "fix": self.fix,
        }


def ok(name: str, detail: str) -> Check:
    return Check(name, Status.OK, detail)


def warn(name: str, detail: str, fix: str = "") -> Check:
    return Check(name, Status.WARN, detail, fix)


def fail(name: str, detail: str, fix: str = "") -> Check:
    return Check(name, Status.FAIL, detail, fix)


#: Told what a slow check is doing (the command prints it on stderr).
Progress = Callable[[str], None]


def quiet(_: str) -> None:
    """A ``Progress`` that says nothing."""


def ready(checks: Sequence[Check]) -> bool:
    """True when nothing failed: everything ``run`` needs holds (warnings allowed)."""
    return all(c.status is not Status.FAIL for c in checks)


def summary(checks: Sequence[Check]) -> str:
    """The last line: ready or not, and how many lines need attention."""
    failed = sum(c.status is Status.FAIL for c in checks)
    warned = sum(c.status is Status.WARN for c in checks)
    notes = f", {warned} warning{'s' * (warned != 1)}" if warned else ""
    if failed:
        return f"not ready: {failed} problem{'s' * (failed != 1)} to fix{notes}"
    return f"ready: `screenpilot run` can start{notes}"


def text_lines(checks: Sequence[Check]) -> list[tuple[Status | None, str]]:
    """(status, line) for the text report: a check's line, then its fix lines indented
    (status None), then the summary."""
    out: list[tuple[Status | None, str]] = []
    for c in checks:
        out.append((c.status, f"{c.status.symbol} {c.name}: {c.detail}"))
        out += [(None, f"    {step}") for step in c.fix.splitlines() if step.strip()]
    out.append((None, summary(checks)))
    return out


def to_json(checks: Sequence[Check], *, serial: str = "") -> str:
    """The report as one JSON object: ``ok``, the phone's ``serial`` and the ``checks``."""
    return json.dumps(
        {"ok": ready(checks), "serial": serial or None, "checks": [c.to_json() for c in checks]},
        ensure_ascii=False,
    )
