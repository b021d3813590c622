"""A rendered frame as the ground-truth ``screenpilot.model.Screen`` (icon names made readable)."""

from __future__ import annotations

from screenpilot.model import Block, Element, Screen
from screenpilot.simulator.render.page import Frame

_ICON_LABELS: dict[str, str] = {
    "arrow_left": "back",
    "dots_vertical": "more options",
    "magnify": "search",
    "plus": "add",
    "close": "close",
    "nav_back": "back",
    "nav_home": "home",
    "nav_recents": "recent apps",
    "backspace_outline": "delete",
    "keyboard_return": "enter",
    "arrow_up_bold_outline": "shift",
    "arrow_up_bold": "caps lock",
    "cog": "settings",
    "signal_cellular_3": "signal",
    "wifi_strength_4": "wifi",
}


def icon_label(name: str) -> str:
    """A readable label for an icon name (``arrow_left`` -> ``back``)."""
    if name.startswith("battery"):
        return "battery"
    return _ICON_LABELS.get(name, name.replace("_", " "))


def frame_to_screen(frame: Frame, *, captured: bool = False) -> Screen:
    """The ground-truth ``Screen`` of a frame. With ``captured``, what screencap shows:
    a secure frame is then blank (no elements)."""
    w, h = frame.size
    if captured and frame.secure:
        return Screen(width=w, height=h, app=frame.app, secure=True)
    blocks = [
        Block(
            id=i,
            box=b.box,
            kind=b.kind,
            caption=b.caption,
            scrollable=b.scrollable,
            active_element=b.active,
        )
        for i, b in enumerate(frame.blocks)
    ]
    elements = [
        Element(
            id=i,
            kind=e.kind,
            box=e.box,
            text=e.text,
            icon_label=icon_label(e.icon) if e.icon else "",
            caption=e.caption if e.caption != e.text else "",
            clickable=e.clickable,
            editable=e.editable,
            checked=e.checked,
            selected=e.selected,
            hint=e.hint and bool(e.text),
            password=e.password,
            block_id=e.block,
            scrollable=e.block is not None and frame.blocks[e.block].scrollable,
        )
        for i, e in enumerate(frame.elements)
    ]
    return Screen(
        width=w,
        height=h,
        elements=tuple(elements),
        blocks=tuple(blocks),
        app=frame.app,
        secure=frame.secure,
    )
