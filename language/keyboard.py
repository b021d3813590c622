"""Where an on-screen keyboard starts: its keys are typing, never targets or steps.

One rule for the recorder (a touch below it is a key press) and the planner (nothing
below it is a field or a target).
"""

from __future__ import annotations

import numpy as np

from screenpilot.model import BlockKind, Element, ElementKind, Screen

#: A keyboard's row has this many one-character keys side by side ...
ROW_KEYS = 5
#: ... and the keyboard at least this many keys in all.
MIN_KEYS = 10


def keyboard_top(screen: Screen, nav_top: int | None = None) -> int | None:
    """Top of the on-screen keyboard: a keyboard block, else two or more rows of five or
    more narrow one-character keys in the lower half, above the navigation bar's top
    ``nav_top`` (the screen's bottom when not given); half a key's height above them."""
    if any(b.kind is BlockKind.KEYBOARD for b in screen.blocks):
        return min(b.box.y1 for b in screen.blocks if b.kind is BlockKind.KEYBOARD)
    bottom = screen.height if nav_top is None else nav_top
    low = screen.height * 0.5
    keys = [
        e
        for e in screen.elements
        if e.kind in (ElementKind.BUTTON, ElementKind.TEXT, ElementKind.ICON)
        and e.box.y1 >= low
        and e.box.y2 <= bottom + 4
        and len(e.label.strip()) <= 1
        and e.box.width < screen.width / 6
    ]
    if len(keys) < MIN_KEYS:
        return None
    pitch = int(np.median([e.box.height for e in keys]))
    rows: list[list[Element]] = []
    for e in sorted(keys, key=lambda k: k.box.center[1]):
        if rows and e.box.center[1] - rows[-1][-1].box.center[1] <= pitch / 2:
            rows[-1].append(e)
        else:
            rows.append([e])
    full = [r for r in rows if len(r) >= ROW_KEYS]  # a keyboard row has many keys side by side
    if len(full) < 2:
        return None
    top = min(e.box.y1 for r in full for e in r)
    return max(int(low), top - pitch // 2)
