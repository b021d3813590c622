"""``Action`` -> gestures on a ``Device``, using the element boxes of the ``Screen``.

A tap lands on the centre of the element's box (or the given point). Typing into
a field taps it first; a field that already shows text (not a hint) is cleared, so
the field ends up holding what was typed ("change the number to ..." replaces it). When the
screen is a long page (``LongPage``) and the element lies below the fold, the
page is scrolled first and the point recomputed from the pixels. Every target is
checked to be on the screen before anything is sent.
"""

from __future__ import annotations

from dataclasses import dataclass

from screenpilot.errors import DeviceError
from screenpilot.executor.device import Device
from screenpilot.executor.longshot import LongPage
from screenpilot.model import Action, ActionKind, Box, Direction, Screen

#: How far a scroll moves, as a share of the scrolled area's height (or width).
SCROLL_SHARE = 0.5


@dataclass(frozen=True, slots=True)
class Performed:
    """What was really sent: the point tapped (if any) and the long page after scrolling."""

    point: tuple[int, int] | None = None
    page: LongPage | None = None


def target_box(action: Action, screen: Screen) -> Box | None:
    """The box an action aims at, or None when it aims at a point or at nothing."""
    if action.element is None:
        return None
    try:
        return screen.element(action.element).box
    except KeyError as exc:
        raise DeviceError(f"cannot {action.kind} element {action.element}: {exc.args[0]}") from exc


def _point_on_screen(
    device: Device, action: Action, screen: Screen, page: LongPage | None
) -> tuple[tuple[int, int], LongPage | None]:
    if action.point is not None:
        x, y = action.point
        if page is not None:
            page, box = page.reveal(device, Box(x, y, x + 1, y + 1))
            return (box.x1, box.y1), page
        return (x, y), page
    target = target_box(action, screen)
    assert target is not None
    if page is not None:
        page, target = page.reveal(device, target)
    return target.center, page


def _scroll_gesture(
    action: Action, screen: Screen, size: tuple[int, int]
) -> tuple[int, int, int, int]:
    w, h = size
    area = target_box(action, screen) or Box(0, int(h * 0.2), w, int(h * 0.8))
    area = Box(max(0, area.x1), max(0, area.y1), min(w, area.x2), min(h, area.y2))
    cx, cy = area.center
    dy, dx = int(area.height * SCROLL_SHARE / 2), int(area.width * SCROLL_SHARE / 2)
    # "down" shows what is below: the finger moves up.
    moves = {
        Direction.DOWN: (cx, cy + dy, cx, cy - dy),
        Direction.UP: (cx, cy - dy, cx, cy + dy),
        Direction.RIGHT: (cx + dx, cy, cx - dx, cy),
        Direction.LEFT: (cx - dx, cy, cx + dx, cy),
    }
    assert action.direction is not None
    return moves[action.direction]


def perform(
    device: Device, action: Action, screen: Screen, page: LongPage | None = None
) -> Performed:
    """Do ``action`` on the phone. ``stop`` and ``handover`` do nothing here (the loop acts)."""
    k = action.kind
    if k in (ActionKind.TAP, ActionKind.LONG_PRESS):
        (x, y), page = _point_on_screen(device, action, screen, page)
        if k is ActionKind.TAP:
            device.tap(x, y)
        else:
            device.long_press(x, y, action.duration_ms or 800)
        return Performed((x, y), page)
    if k is ActionKind.TYPE:
        point = None
        if action.element is not None:
            point, page = _point_on_screen(device, action, screen, page)
            device.tap(*point)
            field = screen.element(action.element)
            if field.text and not field.hint:
                device.clear_text()
        assert action.text is not None
        device.type_text(action.text)
        return Performed(point, page)
    if k is ActionKind.SWIPE:
        assert action.start is not None and action.end is not None
        device.swipe(*action.start, *action.end, action.duration_ms or 300)
    elif k is ActionKind.SCROLL:
        device.swipe(*_scroll_gesture(action, screen, device.size()), 500)
    elif k is ActionKind.BACK:
        device.key("BACK")
    elif k is ActionKind.HOME:
        device.key("HOME")
    elif k is ActionKind.LAUNCH:
        assert action.app is not None
        device.launch(action.app)
    elif k is ActionKind.WAIT:
        import time

        time.sleep((action.duration_ms or 1000) / 1000)
    return Performed(None, page)
