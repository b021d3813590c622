"""Wait for the screen to stop changing after an action, instead of sleeping blindly."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from PIL import Image

from screenpilot.executor.device import Device

#: Ignore this top share of the screen (the status bar's clock and icons change alone).
STATUS_BAR_SHARE = 0.04


@dataclass(frozen=True, slots=True)
class Settled:
    """The frame the screen settled on, how long it took, and whether it did settle."""

    image: Image.Image
    seconds: float
    frames: int
    stable: bool


def _signature(image: Image.Image) -> np.ndarray:
    w, h = image.size
    top = int(h * STATUS_BAR_SHARE)
    small = image.crop((0, top, w, h)).convert("L").resize((w // 8 or 1, (h - top) // 8 or 1))
    return np.asarray(small, dtype=np.int16)


def frames_equal(a: Image.Image, b: Image.Image, *, tolerance: float = 0.002) -> bool:
    """True when at most ``tolerance`` of the (downsampled) pixels differ noticeably."""
    if a.size != b.size:
        return False
    diff = np.abs(_signature(a) - _signature(b)) > 8
    return float(diff.mean()) <= tolerance


def wait_until_settled(
    device: Device,
    *,
    timeout: float = 3.0,
    interval: float = 0.15,
    before: Image.Image | None = None,
    grace: float = 0.5,
) -> Settled:
    """Capture until two consecutive frames match, or ``timeout`` seconds pass.

    ``before`` is the frame from before the action: while the screen still shows
    it, keep waiting up to ``grace`` seconds for the change to begin (a phone may
    take a moment to react), so that "nothing moved yet" is not taken as settled.
    """
    start = time.monotonic()
    previous = device.capture()
    frames = 1
    while True:
        time.sleep(interval)
        current = device.capture()
        frames += 1
        unchanged = before is not None and frames_equal(before, current)
        waiting = unchanged and time.monotonic() - start < grace
        if frames_equal(previous, current) and not waiting:
            return Settled(current, time.monotonic() - start, frames, True)
        if time.monotonic() - start >= timeout:
            return Settled(current, time.monotonic() - start, frames, False)
        previous = current
