"""The rows of an on-screen keyboard's keys among a screen's elements: one rule for the
describe step (which marks the keyboard's panel as a block) and for the command
language (``screenpilot.language.keyboard``: a keyboard's keys are typing, never
targets or steps)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from screenpilot.model import Element, ElementKind

#: A keyboard's row has this many one-character keys side by side ...
ROW_KEYS = 5
#: ... and the keyboard at least this many keys in all.
MIN_KEYS = 10
#: ... and a row of keys spans at least this share of the screen's width.
SPAN = 0.6
#: Kinds a key is read as.
KEY_KINDS = frozenset({ElementKind.BUTTON, ElementKind.TEXT, ElementKind.ICON})


def key_rows(
    elements: Sequence[Element], width: int, height: int, bottom: int | None = None
) -> list[list[Element]]:
    """The keyboard's full rows, top to bottom: two or more rows of five or more narrow
    keys labelled with one character each, in the lower half, across most of the
    screen's width, above ``bottom`` (the screen's bottom when not given); ``[]`` when
    there are none. One row at least has five letters (a calculator's keypad is no
    keyboard); keys read with no label do not count (unlabelled cells of a chart or a
    calendar's grid are not keys)."""
    bottom = height if bottom is None else bottom
    low = height * 0.5
    keys = [
        e
        for e in elements
        if e.kind in KEY_KINDS
        and e.box.y1 >= low
        and e.box.y2 <= bottom + 4
        and len(e.label.strip()) == 1
        and e.box.width < width / 6
    ]
    if len(keys) < MIN_KEYS:
        return []
    pitch = key_pitch(keys)
    rows: list[list[Element]] = []
    for e in sorted(keys, key=lambda k: k.box.center[1]):
        if rows and e.box.center[1] - rows[-1][-1].box.center[1] <= pitch / 2:
            rows[-1].append(e)
        else:
            rows.append([e])
    full = [  # a keyboard row has many keys side by side, across most of the screen
        r
        for r in rows
        if len(r) >= ROW_KEYS
        and max(e.box.x2 for e in r) - min(e.box.x1 for e in r) >= SPAN * width
    ]
    letters = [r for r in full if sum(e.label.strip().isalpha() for e in r) >= ROW_KEYS]
    return full if len(full) >= 2 and letters else []  # a calculator's keys are no keyboard


def key_pitch(keys: Sequence[Element]) -> int:
    """The keys' usual height."""
    return int(np.median([e.box.height for e in keys]))


def keys_top(
    elements: Sequence[Element], width: int, height: int, bottom: int | None = None
) -> int | None:
    """Half a key's height above the keyboard's top row of keys (not below the middle
    of the screen), or ``None`` when there is no keyboard (:func:`key_rows`)."""
    rows = key_rows(elements, width, height, bottom)
    return rows_top(rows, height) if rows else None


def rows_top(rows: Sequence[Sequence[Element]], height: int) -> int:
    """Half a key's height above the top of the rows of keys ``rows`` (not below the
    middle of the screen)."""
    pitch = key_pitch([e for r in rows for e in r])
    return max(int(height * 0.5), keys_y1(rows) - pitch // 2)


def keys_y1(rows: Sequence[Sequence[Element]]) -> int:
    """The top of the highest key of ``rows``."""
    return min(e.box.y1 for r in rows for e in r)
