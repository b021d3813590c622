"""The record of a command read as data (``Command``): its act, target, kind, app,
level, time, days, position, parts, recipient, body, label, value, and the question to
ask when it cannot be acted on; ``ON`` and ``OFF`` are the acts of a switch."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from screenpilot.language import times

ON, OFF = "turn_on", "turn_off"

_CJK = re.compile(r"[\u3400-\u9fff]")


def language_of(text: str) -> str:
    """The language of ``text``: "zh" when it has Chinese characters in it, else "en"."""
    return "zh" if _CJK.search(text) else "en"


@dataclass(frozen=True, slots=True)
class Command:
    """What a command asks for. ``canonical`` is the command in the words apps show;
    ``question`` is set when it cannot be acted on without guessing."""

    text: str
    canonical: str
    act: str = ""
    target: str = ""
    kind: str = ""  # the target's kind: switch, level, choice, page or ""
    app: str = ""
    level: float | None = None
    time: tuple[int, int] | None = None
    days: tuple[int, ...] = ()
    ordinal: int | None = None
    recipient: str = ""
    body: str = ""
    label: str = ""
    value: str = ""
    parts: tuple[Command, ...] = field(default=())
    question: str = ""
    language: str = "en"

    @property
    def switch_to(self) -> bool | None:
        return True if self.act == ON else False if self.act == OFF else None

    def summary(self) -> str:
        """One line for a prompt: what was understood."""
        if self.parts:
            return " ; then ".join(p.summary() for p in self.parts)
        bits = [f"act={self.act or '?'}"]
        for name in ("target", "app", "recipient", "body", "label", "value"):
            v = getattr(self, name)
            if v:
                bits.append(f"{name}={v!r}")
        if self.level is not None:
            bits.append(f"level={round(self.level * 100)}%")
        if self.time is not None:
            bits.append(f"time={self.time[0]:02d}:{self.time[1]:02d}")
        if self.days:
            bits.append(f"days={times.write_days(self.days)}")
        if self.ordinal is not None:
            bits.append(f"position={self.ordinal}")
        return ", ".join(bits)
