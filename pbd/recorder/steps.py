"""The steps of a recording as they are kept: texts typed read again once their field
lost focus, each step's screen after, what vision read inside secret fields blanked,
and the app the demonstration happened in."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field

from screenpilot.model import (
    SECRET_PLACEHOLDER,
    Element,
    Screen,
    Step,
)
from screenpilot.pbd.recorder.reading import PendingField, Reading, typed_text

LAUNCHERS = ("launcher", "nexuslauncher", "trebuchet", "home")


@dataclass
class RecordingState:
    steps: list[Step] = field(default_factory=list)
    words: list[str] = field(default_factory=list)
    pending: tuple[Reading, Screen] | None = None
    #: When the finger left the pending field.
    pending_up: float = 0.0
    apps: list[str] = field(default_factory=list)
    last_up: float = 0.0
    #: (step index, field, text read) of type steps, for ``_revise``.
    typed: list[tuple[int, PendingField, str]] = field(default_factory=list)
    #: Fields a secret was typed into: their text is blanked in every screen kept.
    secrets: list[tuple[int, Element]] = field(default_factory=list)


#: What OCR makes of a text cursor at the end of a focused field.
_CURSOR_CHARS = "|lI!1i"


def revise(state: RecordingState, screen: Screen) -> None:
    """Read typed texts again once their field has lost focus: a focused field shows a
    cursor, which OCR may read as one more letter ('Alice|' -> 'Alicel')."""
    for n, (index, pending, text) in enumerate(state.typed):
        again = typed_text(pending, screen)
        if (
            again is None
            or again == text
            or len(text) != len(again) + 1
            or not text.startswith(again)
            or text[-1] not in _CURSOR_CHARS
        ):
            continue
        step = state.steps[index]
        words = step.reason.replace(f"'{text}'", f"'{again}'", 1)
        action = dataclasses.replace(step.action, text=again, reason=words)
        state.steps[index] = dataclasses.replace(step, action=action, reason=words)
        state.words[index] = words
        state.typed[n] = (index, pending, again)


def attach_after(steps: Sequence[Step], final: Screen | None) -> list[Step]:
    out = []
    for i, s in enumerate(steps):
        after = steps[i + 1].before if i + 1 < len(steps) else final
        out.append(dataclasses.replace(s, after=after))
    return out


def redact(steps: Sequence[Step], secrets: Sequence[tuple[int, Element]]) -> list[Step]:
    """Blank what vision read inside the fields a secret was typed into, on the screens
    from that step on (a field that shows its text in the clear must not leave it in
    the trajectory)."""

    def clean(screen: Screen | None, fields: list[Element]) -> Screen | None:
        if screen is None or not fields:
            return screen
        hidden = {
            e.text
            for e in screen.elements
            if e.text
            and not e.hint
            and e.text != SECRET_PLACEHOLDER
            and any(f.box.contains(*e.box.center) for f in fields)
        }
        if not hidden:
            return screen
        elements = tuple(
            dataclasses.replace(
                e,
                text=SECRET_PLACEHOLDER if e.text in hidden else e.text,
                caption="" if e.caption in hidden else e.caption,
            )
            for e in screen.elements
        )
        blocks = tuple(
            dataclasses.replace(b, caption="") if b.caption in hidden else b for b in screen.blocks
        )
        return dataclasses.replace(screen, elements=elements, blocks=blocks)

    out = []
    for i, s in enumerate(steps):
        fields = [f for at, f in secrets if at <= i]
        before = clean(s.before, fields)
        assert before is not None
        out.append(dataclasses.replace(s, before=before, after=clean(s.after, fields)))
    return out


def main_app(apps: Sequence[str]) -> str:
    """The app the demonstration happened in: the most frequent one that is not a launcher."""
    real = [a for a in apps if a and not any(w in a.lower() for w in LAUNCHERS)]
    if not real:
        return ""
    return max(dict.fromkeys(real), key=real.count)
