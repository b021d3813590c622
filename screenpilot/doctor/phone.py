"""Doctor checks of the phone itself: screen geometry, animations, what a screenshot
shows, and the vendor quirks that make taps or typing fail.

A black screenshot means the app in front sets FLAG_SECURE (banking, payment, PIN
screens) or the screen is off: screenpilot sees nothing there and hands over. With
animations on, every step waits for the screen to settle longer. On MIUI / HyperOS,
``input`` and ``ime set`` are refused until "USB debugging (Security settings)" is on.
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING

from screenpilot.build import ANIMATION_SCALES
from screenpilot.doctor.report import Check, fail, ok, warn
from screenpilot.errors import DeviceError
from screenpilot.executor.screencap import SAMPLES
from screenpilot.vision.density import dp_across, is_tablet

if TYPE_CHECKING:
    from screenpilot.executor.adb import AdbDevice

SCREEN = "screen"
ANIMATIONS = "animations"
SCREENSHOT = "screenshot"
SYSTEM = "system"
ANIMATION_KEYS = ANIMATION_SCALES
ROTATIONS = {
    0: "portrait",
    1: "landscape (turned left)",
    2: "upside down",
    3: "landscape (turned right)",
}
MIUI_FIX = (
    "Developer options: turn on 'USB debugging (Security settings)' and 'Install via "
    "USB' (MIUI / HyperOS asks for a Mi account and a SIM once), then reconnect"
)


def animations_fix(serial: str) -> str:
    """The three commands that turn the animations off (one per line)."""
    return "\n".join(f"adb -s {serial} shell settings put global {key} 0" for key in ANIMATION_KEYS)


def check_screen(device: AdbDevice) -> Check:
    """Size (as the agent sees it), density and rotation."""
    try:
        w, h = device.size()
        dpi = device.density()
        text = device.shell("dumpsys input", what="read the rotation")
    except DeviceError as exc:
        return fail(SCREEN, exc.message, exc.hint)
    m = re.search(r"SurfaceOrientation:\s*(\d)", text)
    rotation = int(m.group(1)) if m else 0
    tablet = dpi > 0 and is_tablet(w, h, dpi)
    kind = " (a tablet: described at a phone's scale)" if tablet else ""
    across = round(dp_across(w, h, dpi)) if dpi > 0 else 0
    return ok(
        SCREEN,
        f"{w}x{h}, {dpi} dpi, {across} dp across{kind}, "
        f"rotation {rotation} ({ROTATIONS.get(rotation, 'unknown')})",
    )


def check_animations(device: AdbDevice) -> Check:
    """Window, transition and animator scales: 0 is best for an agent."""
    values: dict[str, float] = {}
    try:
        for key in ANIMATION_KEYS:
            raw = device.shell(f"settings get global {key}", what="read the animation scales")
            try:
                values[key] = float(raw.strip())
            except ValueError:
                values[key] = 1.0  # "null": never set, the default 1.0
    except DeviceError as exc:
        return warn(ANIMATIONS, f"cannot read the animation scales: {exc.message}")
    shown = ", ".join(f"{k.split('_')[0]} {v:g}" for k, v in values.items())
    if any(values.values()):
        return warn(
            ANIMATIONS,
            f"on ({shown}): every step waits longer for the screen to "
            "settle, and a half-drawn transition can be read wrongly",
            animations_fix(device.serial),
        )
    return ok(ANIMATIONS, f"off ({shown})")


def check_screenshot(device: AdbDevice) -> Check:
    """A capture that is not all black (FLAG_SECURE or a dark, locked screen)."""
    from screenpilot.vision.image import load_image
    from screenpilot.vision.pipeline import is_blacked_out

    started = time.perf_counter()
    try:
        image = device.capture()
        seconds = time.perf_counter() - started
        for _ in range(2 * SAMPLES):  # auto: time raw and PNG until it chooses
            if device.formats.chosen is not None:
                break
            device.capture()
    except DeviceError as exc:
        return fail(SCREENSHOT, exc.message, exc.hint)
    if is_blacked_out(load_image(image)):
        try:
            awake = device.screen_awake()
            app = device.current_app() or "the app in front"
        except DeviceError:
            awake, app = None, "the app in front"
        if awake is False:
            return warn(
                SCREENSHOT,
                f"all black ({image.width}x{image.height}): the screen is off; a run "
                "wakes it, but a locked phone then shows its lock screen, which "
                "you have to unlock",
                "press the power button and unlock the phone, then run `screenpilot doctor` again",
            )
        return warn(
            SCREENSHOT,
            f"all black ({image.width}x{image.height}): {app} forbids "
            "screenshots (FLAG_SECURE: banking, payment, PIN screens) or "
            "the screen is off; screenpilot cannot see it and hands "
            "such screens over to you",
            "unlock the phone and open another app (press Home), then run "
            "`screenpilot doctor` again",
        )
    return ok(
        SCREENSHOT,
        f"{image.width}x{image.height} in {seconds:.2f} s, not black; {_formats(device)}",
    )


def _formats(device: AdbDevice) -> str:
    """How screenshots are taken, with the timings ``auto`` chose by."""
    formats = device.formats
    best = formats.best()
    if formats.mode != "auto" or len(best) < 2:
        return f"taken as {formats.chosen or formats.next()} (device.capture={formats.mode})"
    return (
        f"raw {best['raw']:.2f} s, PNG {best['png']:.2f} s: taken as {formats.chosen}"
        " (device.capture=auto)"
    )


def check_system(device: AdbDevice) -> Check:
    """Model and Android version; MIUI / HyperOS named for its input restrictions."""
    try:
        props = {
            key: device.shell(f"getprop {key}", what="read the system").strip()
            for key in (
                "ro.product.manufacturer",
                "ro.product.model",
                "ro.build.version.release",
                "ro.build.version.sdk",
                "ro.miui.ui.version.name",
                "ro.mi.os.version.name",
            )
        }
    except DeviceError as exc:
        return fail(SYSTEM, exc.message, exc.hint)
    maker, model = props["ro.product.manufacturer"], props["ro.product.model"]
    if maker.lower() in model.lower():
        maker = ""
    name = " ".join(p for p in (maker, model) if p) or "unknown model"
    android = f"Android {props['ro.build.version.release'] or '?'}"
    if props["ro.build.version.sdk"]:
        android += f" (API {props['ro.build.version.sdk']})"
    skin = (
        "HyperOS " + props["ro.mi.os.version.name"]
        if props["ro.mi.os.version.name"]
        else "MIUI " + props["ro.miui.ui.version.name"]
        if props["ro.miui.ui.version.name"]
        else ""
    )
    if skin:
        return ok(
            SYSTEM,
            f"{name}, {android}, {skin} (it refuses taps, typing and keyboard "
            "switching until 'USB debugging (Security settings)' is on: the "
            "keyboard check below shows whether it is)",
        )
    return ok(SYSTEM, f"{name}, {android}")
