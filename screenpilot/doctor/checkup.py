"""The whole check-up, in the order a person fixes things: adb, the phone, its screen
and keyboard, then the models, the embedder, the demonstration store and the LLM.

The phone checks run only on a phone that is ready (picked and authorised); the
rest run either way, so one pass lists every problem.
"""

from __future__ import annotations

from collections.abc import Callable

from screenpilot.config import Config
from screenpilot.doctor import adb, keyboard, llm, models, phone, store
from screenpilot.doctor.report import Check, Progress, fail, quiet
from screenpilot.errors import ScreenpilotError


def diagnose(
    cfg: Config, *, serial: str | None = None, progress: Progress = quiet
) -> tuple[list[Check], str | None]:
    """(every check, the serial of the phone checked or None)."""
    progress("adb: the binary and its server")
    checks = [adb.check_adb()]
    picked = adb.pick_device(serial or cfg["device.serial"] or None)
    checks.append(picked.check)
    if picked.serial is not None:
        checks += phone_checks(cfg, picked.serial, progress)
    progress("models: loading the detector, the icon labeller and OCR")
    checks += [models.check_detector(), models.check_icons(), models.check_ocr()]
    checks += [store.check_embedder(cfg["embed.model"]), store.check_store(cfg)]
    if llm.configured(cfg):
        progress("LLM: asking the endpoint")
    checks.append(llm.check_llm(cfg))
    return checks, picked.serial


def phone_checks(cfg: Config, serial: str, progress: Progress = quiet) -> list[Check]:
    """The checks of one ready phone: system, screen, animations, screenshot, keyboard."""
    from screenpilot import build
    from screenpilot.executor.adb import AdbDevice

    device = AdbDevice(serial, capture=cfg["device.capture"])
    progress(f"phone {serial}: screen, animations, a screenshot")
    out = [
        phone.check_system(device),
        phone.check_screen(device),
        phone.check_animations(device),
        phone.check_screenshot(device),
    ]
    progress("ADB Keyboard: installed, enabled, selectable")
    describer = build.describer(cfg, device)
    out.append(
        _guarded(
            keyboard.KEYBOARD,
            lambda: keyboard.check_keyboard(device, describer.describe, progress=progress),
        )
    )
    return out


def _guarded(name: str, run: Callable[[], Check]) -> Check:
    """``run()``, with a phone that vanished midway (or vision that failed) reported as
    this check's failure."""
    try:
        return run()
    except ScreenpilotError as exc:
        return fail(name, exc.message, exc.hint or "reconnect the phone and run it again")
