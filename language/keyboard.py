"""Where an on-screen keyboard starts: its keys are typing, never targets or steps.

One rule for the recorder (a touch below it is a key press) and the planner (nothing
below it is a field or a target).
"""

from __future__ import annotations

from screenpilot.core.keyboard import keys_top
from screenpilot.model import BlockKind, Screen


def keyboard_top(screen: Screen, nav_top: int | None = None) -> int | None:
    """Top of the on-screen keyboard: a keyboard block (describe marks the keyboard's
    panel, its strip of tools or suggestions included), else half a key's height above
    two or more rows of five or more narrow one-character keys in the lower half, above
    the navigation bar's top ``nav_top`` (the screen's bottom when not given)."""
    if any(b.kind is BlockKind.KEYBOARD for b in screen.blocks):
        return min(b.box.y1 for b in screen.blocks if b.kind is BlockKind.KEYBOARD)
    return keys_top(screen.elements, screen.width, screen.height, nav_top)
