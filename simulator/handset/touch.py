"""Touches on the virtual phone: hit-testing, scrolling, long presses, seek bars, gestures.

Touches are hit-tested against the current frame's targets (topmost wins; a dialog
or menu is modal and a tap outside closes it); a vertical drag in the page body
scrolls it by the finger distance; a press held >= 500 ms without moving is a long
press; seek bars follow the finger; taps on the drawn keyboard type; in gesture
navigation a swipe up from the bottom edge goes home and one in from a side goes
back. Touch listeners (``getevent``) see every event after the phone's lock is released.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from screenpilot.simulator.apps.base import Event, EventKind
from screenpilot.simulator.backend import TouchEvent, TouchListener, TouchPhase
from screenpilot.simulator.handset.keys import TextInput
from screenpilot.simulator.render import keyboard_height
from screenpilot.simulator.widgets import Target

LONG_PRESS_S = 0.5


@dataclass
class Gesture:
    """The finger currently on the screen."""

    x0: int
    y0: int
    t0: float
    target: Target | None
    scroll0: int
    max_scroll: int
    scrollable: bool
    slop: float
    moved: bool = False
    x: int = 0
    y: int = 0


class TouchInput(TextInput):
    """Touch events turned into presses, scrolls, seeks and navigation gestures."""

    def add_touch_listener(self, listener: TouchListener) -> Callable[[], None]:
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def _emit(self, events: list[TouchEvent]) -> None:
        with self._lock:
            if not self._lit():
                return  # a dark touchscreen reports nothing
            listeners = list(self._listeners)
        for ev in events:
            for listener in listeners:
                listener(ev)

    def _inside(self, x: int, y: int) -> bool:
        return 0 <= x < self.spec.width and 0 <= y < self.spec.height

    def _event(self, phase: TouchPhase, x: int, y: int, t: float) -> TouchEvent:
        ev = TouchEvent(phase, int(x), int(y), t)
        if not self._lit():
            return ev  # the display is off: the page does not see it
        if phase == "down":
            self._down(ev)
        elif phase == "move":
            self._move(ev)
        else:
            self._up(ev)
        return ev

    def touch_down(self, x: int, y: int) -> None:
        with self._lock:
            ev = self._event("down", x, y, self.uptime())
        self._emit([ev])

    def touch_move(self, x: int, y: int) -> None:
        with self._lock:
            ev = self._event("move", x, y, self.uptime())
        self._emit([ev])

    def touch_up(self, x: int, y: int) -> None:
        with self._lock:
            ev = self._event("up", x, y, self.uptime())
        self._emit([ev])

    def tap(self, x: int, y: int) -> None:
        if not self._inside(x, y):
            return
        with self._lock:
            t = self.uptime()
            events = [self._event("down", x, y, t), self._event("up", x, y, t + 0.05)]
            self._skew += 0.05
        self._emit(events)

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int) -> None:
        if not self._inside(x1, y1):
            return
        x2 = min(max(0, x2), self.spec.width - 1)
        y2 = min(max(0, y2), self.spec.height - 1)
        duration = max(0, duration_ms) / 1000
        steps = max(1, min(50, duration_ms // 10))
        with self._lock:
            t0 = self.uptime()
            events = [self._event("down", x1, y1, t0)]
            for i in range(1, steps + 1):
                f = i / steps
                events.append(
                    self._event(
                        "move",
                        round(x1 + (x2 - x1) * f),
                        round(y1 + (y2 - y1) * f),
                        t0 + duration * f,
                    )
                )
            events.append(self._event("up", x2, y2, t0 + duration))
            self._skew += duration
        self._emit(events)

    def _down(self, ev: TouchEvent) -> None:
        if not self._inside(ev.x, ev.y):
            self._gesture = None
            return
        frame = self._frame()
        target = frame.hit(ev.x, ev.y)
        modal = frame.dialog_box is not None or frame.menu_box is not None
        scrollable = (
            not modal
            and frame.max_scroll > 0
            and frame.viewport.contains(ev.x, ev.y)
            and (frame.keyboard_box is None or not frame.keyboard_box.contains(ev.x, ev.y))
        )
        self._gesture = Gesture(
            ev.x,
            ev.y,
            ev.time,
            target,
            frame.scroll,
            frame.max_scroll,
            scrollable,
            8 * self.spec.scale,
            x=ev.x,
            y=ev.y,
        )
        if target is not None and target.role == "seek":
            self._seek(target, ev.x)

    def _move(self, ev: TouchEvent) -> None:
        g = self._gesture
        if g is None:
            return
        g.x, g.y = ev.x, ev.y
        if max(abs(ev.x - g.x0), abs(ev.y - g.y0)) > g.slop:
            g.moved = True
        if g.target is not None and g.target.role == "seek":
            self._seek(g.target, ev.x)
        elif g.moved and g.scrollable:
            scroll = min(max(0, g.scroll0 - (ev.y - g.y0)), g.max_scroll)
            entry = self._stack()[-1]
            if entry["scroll"] != scroll:
                entry["scroll"] = scroll
                self._changed()

    def _up(self, ev: TouchEvent) -> None:
        g = self._gesture
        if g is None:
            return
        self._move(ev)
        self._gesture = None
        if g.moved:
            self._edge_gesture(g)
            return
        if g.target is not None and g.target.role == "seek":
            return
        long = ev.time - g.t0 >= LONG_PRESS_S
        self._press(g.x0, g.y0, g.target, long)

    def _edge_gesture(self, g: Gesture) -> None:
        """Gesture navigation: swipe up from the bottom edge = HOME, in from a side = BACK."""
        if self.get_setting("secure", "navigation_mode") != "2":
            return
        edge = 24 * self.spec.scale
        far = 60 * self.spec.scale
        if g.y0 >= self.spec.height - edge and g.y0 - g.y > far:
            self._home()
        elif (g.x0 <= edge or g.x0 >= self.spec.width - edge) and abs(g.x - g.x0) > far:
            self._back()

    # --- what a press does ------------------------------------------------------------------
    def _press(self, x: int, y: int, target: Target | None, long: bool) -> None:
        frame = self._frame()
        ctx = self._ctx()
        entry = ctx.entry
        if frame.menu_box is not None and (target is None or target.layer < 2):
            entry["menu"] = False
            self._changed()
            return
        if frame.dialog_box is not None and target is None and not frame.dialog_box.contains(x, y):
            ctx.close_dialog()
            self._changed()
            return
        if target is None:
            return
        if entry["menu"]:
            entry["menu"] = False
        self._changed()
        if target.role == "key":
            self._keyboard_key(target.key.partition(":")[2])
        elif target.role == "field":
            self._focus_field(target)
        elif target.key.startswith("sys:"):
            self._system_key(target.key[4:])
        elif target.role == "rating" and target.track is not None:
            x1, x2 = target.track
            stars = math.ceil((x - x1) / max(1, x2 - x1) * target.steps)
            self._dispatch(ctx, Event(target.key, "tap", float(min(max(1, stars), target.steps))))
        else:
            kind: EventKind = "long_press" if long else "tap"
            self._dispatch(ctx, Event(target.key, kind, target.value))

    def _seek(self, target: Target, x: int) -> None:
        if target.track is None:
            return
        x1, x2 = target.track
        fraction = min(1.0, max(0.0, (x - x1) / max(1, x2 - x1)))
        self._dispatch(self._ctx(), Event(target.key, "seek", fraction))

    def _focus_field(self, target: Target) -> None:
        entry = self._stack()[-1]
        entry["focus"] = target.field
        self._state["kbd"] = "abc"
        visible_bottom = self.spec.height - self._env_nav_height() - keyboard_height(self.spec)
        if target.box.y2 > visible_bottom and target.layer == 0:
            entry["scroll"] += target.box.y2 - visible_bottom + round(16 * self.spec.scale)
        self._changed()

    def _env_nav_height(self) -> int:
        gesture = self.get_setting("secure", "navigation_mode") == "2"
        return round((24 if gesture else 48) * self.spec.scale)

    def _system_key(self, name: str) -> None:
        if name == "back":
            self._back()
        elif name == "home":
            self._home()
        elif name == "recents":
            self._recents()
        elif name == "up":
            entry = self._stack()[-1]
            entry["focus"] = None
            ctx = self._ctx()
            if entry["dialog"] is not None:
                ctx.close_dialog()
            ctx.back()
        elif name == "menu":
            self._stack()[-1]["menu"] = True
        self._changed()
