"""One touch on one described screen, read as what the person did: a step in words
("tap 'Network & internet' in 'Settings'", "scroll down the 'Contacts' list"), a tap
on a field whose typed text is read later, or a key of the on-screen keyboard. Pure
functions: no device, no clock."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from screenpilot.executor.device import Gesture
from screenpilot.language.keyboard import keyboard_top
from screenpilot.model import (
    SECRET_PLACEHOLDER,
    Action,
    ActionKind,
    BlockKind,
    Direction,
    Element,
    ElementKind,
    Screen,
)

#: Words that make a field a secret (its value is never read or stored).
SECRET_WORDS = (
    "password",
    "passcode",
    "pin",
    "cvv",
    "cvc",
    "card number",
    "security code",
    "密码",
    "验证码",
)
_MASKED = re.compile(r"^\s*[•●*·∙⋅◦]{2,}\s*$")
_BARS = {ElementKind.STATUS_BAR, ElementKind.NAVIGATION_BAR}
_LABELLED_KINDS = {
    ElementKind.TEXT,
    ElementKind.BUTTON,
    ElementKind.ICON,
    ElementKind.IMAGE,
    ElementKind.SWITCH,
    ElementKind.CHECK_BOX,
    ElementKind.EDIT_TEXT,
    ElementKind.RADIO_GROUP,
    ElementKind.SPINNER,
    ElementKind.SEEK_BAR,
    ElementKind.RATING_BAR,
}


@dataclass(frozen=True, slots=True)
class PendingField:
    """A field the person tapped: what was typed is read from a later frame."""

    element: Element
    label: str
    text_before: str
    secret: bool


@dataclass(frozen=True, slots=True)
class Reading:
    """What one touch was: a step (action + words), a field tap, or a keyboard key."""

    kind: str  # "step" | "field" | "keyboard"
    action: Action | None = None
    words: str = ""
    field: PendingField | None = None


def dp(density: int, value: float) -> int:
    return round(value * density / 160)


def _label(e: Element) -> str:
    return e.text or e.caption or e.icon_label


def element_at(screen: Screen, x: int, y: int, *, reach: int) -> Element | None:
    """The element a finger at (x, y) meant: the smallest labelled one under it, else
    the labelled one whose tap extent (``Element.target``) holds the point, else the
    labelled one nearest in its row, else the nearest within ``reach`` px."""
    els = [e for e in screen.elements if e.kind not in _BARS]
    bars = [
        b
        for b in screen.blocks
        if b.box.contains(x, y) and b.kind in (BlockKind.TOOLBAR, BlockKind.TAB_BAR)
    ]
    if bars:  # a tap in a toolbar means something in that toolbar, not the list below
        els = [e for e in els if e.block_id == bars[0].id or bars[0].box.contains(*e.box.center)]
    under = [e for e in els if e.box.contains(x, y)]
    labelled = [
        e for e in under if _label(e) or e.kind in (ElementKind.SWITCH, ElementKind.CHECK_BOX)
    ]
    if labelled:
        return min(
            labelled,
            key=lambda e: (
                e.kind not in (ElementKind.SWITCH, ElementKind.CHECK_BOX, ElementKind.EDIT_TEXT),
                e.box.area,
            ),
        )
    extents = [e for e in els if _label(e) and e.target is not None and e.target.contains(x, y)]
    if extents:  # inside a labelled element's tap extent (its row band, its touch square)
        return min(extents, key=lambda e: (e.target.area if e.target else 0, _distance(e, x, y)))
    row = [
        e
        for e in els
        if _label(e)
        and e.box.y1 - reach / 3 <= y <= e.box.y2 + reach / 3
        and _distance(e, x, y) <= (reach if _in_bar(screen, e) else 0.4 * screen.width)
    ]
    if row:
        return min(row, key=lambda e: _distance(e, x, y))
    if under:
        return min(under, key=lambda e: e.box.area)
    near = [e for e in els if _distance(e, x, y) <= reach]
    if near:
        best = min(near, key=lambda e: (not _label(e), _distance(e, x, y)))
        return best
    return None


def _in_bar(screen: Screen, e: Element) -> bool:
    """In a toolbar or tab bar (near the top or bottom), where each icon is its own
    button: a tap away from a text there is not a tap on it."""
    if e.block_id is not None and screen.block(e.block_id).kind in (
        BlockKind.TOOLBAR,
        BlockKind.TAB_BAR,
    ):
        return True
    return e.box.y2 <= screen.height * 0.12


def _distance(e: Element, x: int, y: int) -> float:
    dx = max(e.box.x1 - x, 0, x - e.box.x2 + 1)
    dy = max(e.box.y1 - y, 0, y - e.box.y2 + 1)
    return float(np.hypot(dx, dy))


def _caption_below(screen: Screen, e: Element, reach: int) -> str:
    """An unlabelled icon's name: the text just below it (launcher icons) or beside it."""
    cx = e.box.center[0]
    below = [
        t
        for t in screen.elements
        if t.kind is ElementKind.TEXT
        and t.text
        and 0 <= t.box.y1 - e.box.y2 <= reach
        and t.box.x1 - reach / 2 <= cx <= t.box.x2 + reach / 2
    ]
    if below:
        return min(below, key=lambda t: t.box.y1 - e.box.y2).text
    return ""


def row_label(screen: Screen, e: Element) -> str:
    """A switch's or check box's name: its caption, else the text at the left of its row."""
    if e.caption:
        return e.caption
    cy = e.box.center[1]
    row = [
        t
        for t in screen.elements
        if t.kind is ElementKind.TEXT
        and t.text
        and t.box.y1 - e.box.height <= cy <= t.box.y2 + e.box.height
        and t.box.x2 <= e.box.x1
    ]
    return min(row, key=lambda t: (abs(t.box.center[1] - cy), t.box.x1)).text if row else ""


def is_field(e: Element) -> bool:
    return e.kind is ElementKind.EDIT_TEXT or e.editable or e.hint


def is_secret(e: Element, label: str) -> bool:
    words = label.lower()
    return (
        e.password
        or bool(_MASKED.match(e.text))
        or any(
            re.search(rf"(?<![a-z]){re.escape(w)}(?![a-z])", words) if w.isascii() else w in words
            for w in SECRET_WORDS
        )
    )


def block_caption(screen: Screen, e: Element) -> str:
    if e.block_id is None:
        return ""
    return screen.block(e.block_id).caption


def target_words(screen: Screen, e: Element, *, reach: int) -> str:
    """How a step names its element: "'Network & internet' in 'Settings'", "the 'Wi-Fi'
    switch", "the 'magnify' icon", "the 'First name' field"."""
    if e.kind in (ElementKind.SWITCH, ElementKind.CHECK_BOX):
        kind = "switch" if e.kind is ElementKind.SWITCH else "check box"
        name = row_label(screen, e)
        return f"the '{name}' {kind}" if name else f"the {kind}"
    if is_field(e):
        return f"the '{field_label(e)}' field"
    label = e.text or e.caption
    if not label and e.icon_label:
        return f"the '{e.icon_label}' icon"
    if not label:
        label = _caption_below(screen, e, reach)
    if not label:
        return ""
    caption = block_caption(screen, e)
    suffix = f" in '{caption}'" if caption and caption.lower() != label.lower() else ""
    return f"'{label}'{suffix}"


def field_label(e: Element) -> str:
    """A field's name: its caption, else its hint text (the search icon's 'Q' dropped)."""
    label = e.caption or (e.text if e.hint else "") or e.icon_label or e.text
    return re.sub(r"^[Qq]\s+(?=[A-Z])", "", label).strip() or "text"


def interpret(gesture: Gesture, screen: Screen, *, density: int = 420) -> Reading:
    """What one gesture on ``screen`` was (see the module docstring)."""
    x, y = gesture.x, gesture.y
    w, h = screen.width, screen.height
    nav_top = h - dp(density, 48)
    reach = dp(density, 48)
    if gesture.kind == "swipe":
        return _swipe(gesture, screen, density)
    if y >= nav_top and not _content_at(screen, x, y, nav_top):
        slot = min(w / 3, dp(density, 140))
        if x < w / 2 - slot / 2:
            return Reading("step", Action(ActionKind.BACK), "press back")
        if x <= w / 2 + slot / 2:
            return Reading("step", Action(ActionKind.HOME), "press home")
        return Reading("step", Action(ActionKind.TAP, point=(x, y)), "open recent apps")
    kbd = keyboard_top(screen, nav_top)
    if kbd is not None and y >= kbd:
        if x >= w * 0.8 and y >= nav_top - (nav_top - kbd) / 4:
            return Reading("step", Action(ActionKind.TAP, point=(x, y)), "press enter")
        return Reading("keyboard")
    e = element_at(screen, x, y, reach=reach)
    long = gesture.kind == "long_press"
    if e is None:
        return _at_point(gesture, screen)
    if e.kind is ElementKind.SEEK_BAR and not long:
        return Reading("step", Action(ActionKind.TAP, point=(x, y)), _slider_words(screen, e, x))
    if is_field(e) and not long:
        label = field_label(e)
        before = "" if e.hint else e.text
        return Reading(
            "field",
            Action(ActionKind.TAP, element=e.id),
            f"tap the '{label}' field",
            PendingField(e, label, before, is_secret(e, label)),
        )
    target = target_words(screen, e, reach=reach)
    if not target:
        return _at_point(gesture, screen)
    if long:
        return Reading("step", Action(ActionKind.LONG_PRESS, element=e.id), f"long press {target}")
    return Reading("step", Action(ActionKind.TAP, element=e.id), f"tap {target}")


def _at_point(gesture: Gesture, screen: Screen) -> Reading:
    """Nothing readable under the finger: the step names the point as a share of the
    screen ("tap at 81% 7% of the screen"), which carries over to other screen sizes."""
    x, y = gesture.x, gesture.y
    long = gesture.kind == "long_press"
    kind = ActionKind.LONG_PRESS if long else ActionKind.TAP
    where = f"{round(100 * x / screen.width)}% {round(100 * y / screen.height)}%"
    return Reading(
        "step",
        Action(kind, point=(x, y)),
        f"{'long press' if long else 'tap'} at {where} of the screen",
    )


def _content_at(screen: Screen, x: int, y: int, nav_top: int) -> bool:
    """True when the app draws a labelled element there (not the navigation bar)."""
    return any(
        e.box.contains(x, y) and e.kind not in _BARS and _label(e) and e.box.y1 < nav_top - 2
        for e in screen.elements
    )


def _slider_words(screen: Screen, e: Element, x: int) -> str:
    level = (x - e.box.x1) / max(1, e.box.width - 1)
    pct = round(min(1.0, max(0.0, level)) * 100)
    pct = 0 if pct <= 5 else 100 if pct >= 95 else pct
    name = e.caption or row_label(screen, e) or "slider"
    return f"drag the '{name}' slider to {pct}%"


def _swipe(g: Gesture, screen: Screen, density: int) -> Reading:
    dx, dy = g.end_x - g.x, g.end_y - g.y
    w, h = screen.width, screen.height
    edge = dp(density, 24)
    start, end = (g.x, g.y), (max(0, g.end_x), max(0, g.end_y))
    if abs(dx) > abs(dy) and (g.x <= edge or g.x >= w - edge):
        return Reading("step", Action(ActionKind.BACK), "press back")
    if dy < 0 and abs(dy) > abs(dx) and g.y >= h - edge:
        return Reading("step", Action(ActionKind.HOME), "press home")
    on = element_at(screen, g.x, g.y, reach=dp(density, 16))
    if on is not None and on.kind is ElementKind.SEEK_BAR:
        return Reading(
            "step",
            Action(ActionKind.SWIPE, start=start, end=end),
            _slider_words(screen, on, g.end_x),
        )
    if abs(dy) >= abs(dx):
        direction = Direction.DOWN if dy < 0 else Direction.UP
    else:
        direction = Direction.RIGHT if dx < 0 else Direction.LEFT
    caption = ""
    lists = [
        b
        for b in screen.blocks
        if b.kind in (BlockKind.LIST, BlockKind.GRID) and b.caption and b.box.contains(g.x, g.y)
    ]
    if lists:
        caption = f" the '{min(lists, key=lambda b: b.box.area).caption}' list"
    return Reading(
        "step", Action(ActionKind.SCROLL, direction=direction), f"scroll {direction.value}{caption}"
    )


def typed_text(pending: PendingField, later: Screen) -> str | None:
    """What the field shows on a later screen, when it differs from before (None: the
    field is gone, or nothing was typed)."""
    box = pending.element.box
    cands = [
        e
        for e in later.elements
        if e.kind not in _BARS and e.text and not e.hint and box.contains(*e.box.center)
    ]
    if not cands:
        return None
    e = max(cands, key=lambda c: (c.kind is ElementKind.EDIT_TEXT, c.box.intersection(box)))
    text = e.text.rstrip("|").strip()
    if is_secret(e, pending.label):
        text = text or SECRET_PLACEHOLDER
    if (
        not text
        or text == pending.text_before
        or text == pending.label
        or (text == pending.element.text and pending.element.hint)
    ):
        return None
    return text
