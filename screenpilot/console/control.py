"""Taps and keys from the page: the person drives the phone from the desk.

A click on the live screen becomes a tap at that point, performed by the executor
(``executor.actions.perform``) like a run's. Before it is sent, the screen is
captured and described, and the run's safety check judges the screen and the
element under the finger: on a sensitive screen (the first tap there, as a run
hands over once per screen) or onto a sensitive control (Pay now, Delete account,
a permission), the tap is held and the page asks the person to confirm, with the
category and the evidence, the way a handover does. Nothing is tapped through a
payment, password or account deletion without that answer.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PIL import Image

from screenpilot.agent import Describer, SafetyCheck
from screenpilot.errors import DeviceError
from screenpilot.executor.actions import perform
from screenpilot.executor.device import Device
from screenpilot.model import Action, ActionKind, Screen, SensitiveCategory, Sensitivity
from screenpilot.pbd.recorder import dp, element_at

#: Seconds a held tap waits for the person's answer.
CONFIRM_TTL_S = 120.0
KEYS = {"back": ActionKind.BACK, "home": ActionKind.HOME}


@dataclass(frozen=True)
class Held:
    """A tap waiting for the person: what it would do and why it asks."""

    id: str
    action: Action
    screen: Screen
    sensitivity: Sensitivity
    what: str
    #: The screen's category that a yes approves (its next taps do not ask), if it asked.
    approves: SensitiveCategory | None
    at: float


class Control:
    """Performs taps and keys from the page, asking first where the safety check says so."""

    def __init__(
        self,
        device: Device,
        describer: Describer,
        safety: SafetyCheck,
        *,
        capture: Callable[[], Image.Image] | None = None,
        on_screen: Callable[[Image.Image, Screen], None] | None = None,
    ) -> None:
        self.device = device
        self.describer = describer
        self.safety = safety
        self.capture = capture or device.capture
        self.on_screen = on_screen
        self._held: dict[str, Held] = {}
        self._approved: set[SensitiveCategory] = set()
        self._lock = threading.Lock()
        self._density: int | None = None

    def _reach(self) -> int:
        if self._density is None:
            try:
                self._density = self.device.density()
            except DeviceError:
                self._density = 420
        return dp(self._density, 16)

    def tap(self, x: int, y: int) -> dict[str, Any]:
        """Tap (x, y) in screen pixels, or hold it for confirmation."""
        image = self.capture()
        if not (0 <= x < image.width and 0 <= y < image.height):
            return {"status": "refused", "what": f"({x}, {y}) is off the screen"}
        screen = self.describer.describe(image)
        if self.on_screen is not None:
            self.on_screen(image, screen)
        target = element_at(screen, x, y, reach=self._reach())
        aimed = Action(ActionKind.TAP, element=target.id) if target is not None else None
        action = Action(ActionKind.TAP, point=(x, y))
        what = aimed.describe(screen) if aimed is not None else f"Tap at ({x}, {y})"
        on_screen = self.safety.screen(screen)
        with self._lock:
            if not on_screen.sensitive:
                self._approved.clear()
            screen_level = on_screen.sensitive and (
                screen.secure or on_screen.category not in self._approved
            )
        sens = self.safety.action(aimed, screen) if aimed is not None else Sensitivity()
        if screen_level:  # one question names both: the screen, and the control if it is
            sens = Sensitivity(
                sens.category if sens.sensitive else on_screen.category,
                (*sens.evidence, *on_screen.evidence),
                1.0,
            )
        if sens.sensitive:
            return self._hold(
                action, screen, sens, what, approves=on_screen.category if screen_level else None
            )
        perform(self.device, action, screen)
        return {"status": "done", "what": what}

    def _hold(
        self,
        action: Action,
        screen: Screen,
        sens: Sensitivity,
        what: str,
        *,
        approves: SensitiveCategory | None,
    ) -> dict[str, Any]:
        held = Held(secrets.token_hex(8), action, screen, sens, what, approves, time.monotonic())
        with self._lock:
            now = time.monotonic()
            self._held = {k: h for k, h in self._held.items() if now - h.at < CONFIRM_TTL_S}
            self._held[held.id] = held
        return {
            "status": "confirm",
            "id": held.id,
            "what": what,
            "where": "screen" if approves is not None else "control",
            "category": sens.category.value,
            "evidence": list(sens.evidence),
        }

    def answer(self, held_id: str, go: bool) -> dict[str, Any]:
        """The person's answer to a held tap: perform it, or drop it."""
        with self._lock:
            held = self._held.pop(held_id, None)
            if held is not None and go and held.approves is not None:
                self._approved.add(held.approves)
        if held is None or time.monotonic() - held.at >= CONFIRM_TTL_S:
            return {"status": "refused", "what": "that tap is no longer waiting"}
        if not go:
            return {"status": "cancelled", "what": held.what}
        perform(self.device, held.action, held.screen)
        return {"status": "done", "what": held.what}

    def key(self, name: str) -> dict[str, Any]:
        """Press back or home (never sensitive)."""
        kind = KEYS.get(name)
        if kind is None:
            return {"status": "refused", "what": f"no key {name!r}"}
        action = Action(kind)
        perform(self.device, action, Screen(width=1, height=1))
        return {"status": "done", "what": action.describe()}
