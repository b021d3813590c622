"""A display that went off during a run (the phone's screen timeout while a planner
thinks or a person is asked, a press of the power key) is woken before the agent
looks at it, instead of being read as a black FLAG_SECURE screen and handed over.

Only a black capture is questioned, and only the phone's own word (``dumpsys power``:
``mWakefulness=Asleep`` or ``Dozing``, or ``Display Power: state=OFF``) wakes it, with
``KEYCODE_WAKEUP``, which turns the display on and does nothing else: a locked phone
shows its lock screen, which the safety check hands over like any sign-in. A black
screen on a display that is on (a banking or payment app forbidding screenshots)
stays as it is.
"""

from __future__ import annotations

import re
from typing import Protocol, runtime_checkable

from PIL import Image

from screenpilot.executor.device import Device
from screenpilot.executor.settle import Settled, wait_until_settled
from screenpilot.model.screen import BLACK_LEVEL

#: ``KEYCODE_WAKEUP``: the display on, nothing else (POWER would toggle it).
WAKEUP = 224
_WAKEFULNESS = re.compile(r"mWakefulness=(\w+)")
_DISPLAY = re.compile(r"Display Power: state=(\w+)")


@runtime_checkable
class Wakeable(Protocol):
    """A phone that can say whether its display is on, and turn it on."""

    def screen_awake(self) -> bool | None:
        """True (on), False (off, dozing or dreaming), None (it does not say)."""

    def wake(self) -> None:
        """Turn the display on."""


class WakeableDevice(Device, Wakeable, Protocol):
    """A phone the agent drives that can also be woken."""


def parse_awake(dumpsys_power: str) -> bool | None:
    """Whether ``dumpsys power`` says the display is on (None: it does not say)."""
    m = _WAKEFULNESS.search(dumpsys_power)
    if m:
        return m.group(1) == "Awake"
    m = _DISPLAY.search(dumpsys_power)
    if m:
        return m.group(1) == "ON"
    return None


def is_dark(image: Image.Image) -> bool:
    """Every pixel black (at most ``model.screen.BLACK_LEVEL`` on every channel, as
    ``vision.layout.is_blacked_out`` judges a FLAG_SECURE screen)."""
    extrema = image.convert("RGB").getextrema()
    return all(high <= BLACK_LEVEL for _, high in extrema)  # type: ignore[misc]


def wake_if_off(
    device: Device, image: Image.Image, *, timeout: float, interval: float
) -> Settled | None:
    """When ``image`` is black and the phone says its display is off: wake it and wait
    for the screen to settle (the new frame); otherwise None."""
    if not isinstance(device, Wakeable) or not is_dark(image):
        return None
    if device.screen_awake() is not False:
        return None
    return wake_and_settle(device, image.size, timeout=timeout, interval=interval)


def wake_and_settle(
    device: WakeableDevice, size: tuple[int, int], *, timeout: float, interval: float
) -> Settled:
    """Turn the display on and wait for the screen to settle, past the black frame of a
    ``size`` screen (a display takes a moment to light)."""
    device.wake()
    dark = Image.new("RGB", size)
    return wait_until_settled(device, timeout=timeout, interval=interval, before=dark)
