"""What the widgets vision saw say about secrets: the screen's texts in reading order,
whether the keyboard is up, which fields take a password (flagged, masked, or called
one)."""

from __future__ import annotations

import contextlib
import re

from screenpilot.model import BlockKind, Element, ElementKind, Screen
from screenpilot.planner.safety.text import normalise

_MASKED = re.compile(r"^\s*[•●*·∙⋅◦]{3,}\s*$")
_PASSWORD_HINTS = ("password", "passcode", "pin", "密码", "支付密码")


def screen_texts(screen: Screen) -> list[str]:
    """The screen's texts in reading order (each element's text, caption, icon label)."""
    return [t for e in screen.reading_order() for t in (e.text, e.caption, e.icon_label) if t]


def screen_text(screen: Screen, *, limit: int = 1500) -> str:
    """The screen's words as one text (what the exemplar check embeds)."""
    seen: list[str] = []
    for t in screen_texts(screen):
        if t not in seen:
            seen.append(t)
    return " | ".join(seen)[:limit]


def keyboard_up(screen: Screen) -> bool:
    """Whether the on-screen keyboard shows: a keyboard block, or a dozen one-letter
    keys in the bottom half of the screen."""
    if any(b.kind is BlockKind.KEYBOARD for b in screen.blocks):
        return True
    keys = [
        e
        for e in screen.elements
        if e.box.y1 > screen.height // 2 and len(e.label.strip()) == 1 and e.label.strip().isalnum()
    ]
    return len(keys) >= 12


def password_fields(screen: Screen) -> list[Element]:
    """Fields that take a secret: flagged by vision, masked (``••••``), an edit text
    whose hint or caption is a password word, or a text that is a password word
    while the keyboard is up (the focused field of a sign-in dialog)."""
    typing = keyboard_up(screen)
    out = []
    for e in screen.elements:
        label = normalise(e.caption or e.text).strip(" :?*")
        fieldish = (
            e.kind is ElementKind.EDIT_TEXT
            or e.hint
            or e.editable
            or (typing and e.kind is ElementKind.TEXT)
        )
        if e.password or _MASKED.match(e.text) or (fieldish and label in _PASSWORD_HINTS):
            out.append(e)
    return out


def secret_label(target: Element, screen: Screen) -> bool:
    """Whether the field typed into is called a password (its label or its block's)."""
    labels = [target.label, target.caption]
    if target.block_id is not None:
        with contextlib.suppress(KeyError):
            labels.append(screen.block(target.block_id).caption)
    return any(normalise(t).strip(" :?*") in _PASSWORD_HINTS for t in labels if t)
