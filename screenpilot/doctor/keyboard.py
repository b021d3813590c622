"""The doctor's ADB Keyboard check: installed, enabled, selectable, and really typing.

Chinese (and any non-ASCII) text goes through the ADB Keyboard input method; when
it is missing, not enabled, or cannot be selected, typing fails silently and an
agent loops. So the check does what a run does: it opens a text field with an
intent every phone answers (a new contact, else a new message), finds the field
with the describe pipeline, taps it, types ``PROBE`` with ``AdbDevice.type_text``
and reads the field back from the pixels (OCR). Afterwards it clears the field,
selects the person's own keyboard again and goes back (Home at worst), so the
phone is left as it was found.

``ime list`` is refused on some phones (no permission): the enabled input methods
are then read from ``settings get secure enabled_input_methods`` and installed
packages from ``pm list packages``.
"""

from __future__ import annotations

import dataclasses
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from screenpilot.doctor.phone import MIUI_FIX
from screenpilot.doctor.report import Check, Progress, fail, ok, quiet, warn
from screenpilot.errors import DeviceError
from screenpilot.executor.textinput import ADB_KEYBOARD_IME

if TYPE_CHECKING:
    from PIL import Image

    from screenpilot.executor.adb import AdbDevice
    from screenpilot.model import Element, Screen

KEYBOARD = "ADB Keyboard"
PACKAGE = ADB_KEYBOARD_IME.split("/")[0]
#: What is typed: Chinese (needs the IME) and ASCII, so a half-typed probe shows.
PROBE = "中文 ok"
#: Intents that open a text field on (almost) every phone, tried in order.
FIELD_INTENTS = (
    ("a new contact", "am start -a android.intent.action.INSERT -t vnd.android.cursor.dir/contact"),
    ("a new message", "am start -a android.intent.action.SENDTO -d sms:"),
)
INSTALL_FIX = (
    "download ADBKeyboard.apk from https://github.com/senzhk/ADBKeyBoard/releases\n"
    "adb -s {serial} install ADBKeyboard.apk\n"
    f"adb -s {{serial}} shell ime enable {ADB_KEYBOARD_IME}"
)
ENABLE_FIX = (
    f"adb -s {{serial}} shell ime enable {ADB_KEYBOARD_IME}\n"
    "or on the phone: Settings > System > Keyboard > On-screen keyboard > "
    "Manage keyboards: turn on ADB Keyboard"
)
REFUSED = ("SecurityException", "INJECT_EVENTS", "Permission Denial", "not allowed")
SETTLE_S = 3.0
FOCUS = re.compile(r"mCurrentFocus=Window\{\S+ \S+ ([^}\s]+)\}")
LEAVE_TRIES = 3

Describe = Callable[["Image.Image"], "Screen"]


@dataclass
class _Restore:
    """What the check changed, to undo: the keyboard it replaced, the window it left."""

    keyboard: str = ""
    window: str = ""
    opened: bool = False
    typed: bool = False
    note: str = ""


def check_keyboard(device: AdbDevice, describe: Describe, *, progress: Progress = quiet) -> Check:
    """Installed, enabled, selectable, and "中文 ok" typed and read back (see the module)."""
    serial = device.serial
    try:
        installed, enabled = _input_methods(device)
    except DeviceError as exc:
        return fail(KEYBOARD, f"cannot list the input methods: {exc.message}", exc.hint)
    if not installed:
        return fail(
            KEYBOARD,
            "not installed: Chinese and other non-ASCII text cannot be "
            "typed (a task that types it would loop)",
            INSTALL_FIX.format(serial=serial),
        )
    if not enabled:
        return fail(
            KEYBOARD,
            "installed but not enabled as an input method",
            ENABLE_FIX.format(serial=serial),
        )
    undo = _Restore()
    try:
        try:
            result = _select_and_type(device, describe, undo, progress)
        finally:
            _undo(device, undo)
    except DeviceError as exc:
        return fail(
            KEYBOARD,
            f"the typing test stopped: {exc.message}",
            exc.hint or "reconnect the phone and run `screenpilot doctor` again",
        )
    if undo.note:
        return dataclasses.replace(result, detail=f"{result.detail}; {undo.note}")
    return result


def _input_methods(device: AdbDevice) -> tuple[bool, bool]:
    """(installed, enabled), from ``ime list`` or, where it is refused, settings and pm."""
    every = device.shell("ime list -a -s", what="list the input methods")
    on = device.shell("ime list -s", what="list the input methods")
    if _answered(every) and _answered(on):
        return ADB_KEYBOARD_IME in every.split(), ADB_KEYBOARD_IME in on.split()
    packages = device.shell(f"pm list packages {PACKAGE}", what="list packages")
    enabled = device.shell(
        "settings get secure enabled_input_methods", what="read the enabled input methods"
    )
    return (
        f"package:{PACKAGE}" in packages.split(),
        ADB_KEYBOARD_IME in enabled.strip().split(":"),
    )


def _answered(text: str) -> bool:
    """``ime list`` printed input methods (not an error or a permission denial)."""
    return (
        bool(text.strip())
        and "/" in text
        and not any(r in text for r in REFUSED)
        and "Exception" not in text
    )


def _refused(text: str) -> bool:
    return any(r in text for r in REFUSED)


def _current_keyboard(device: AdbDevice) -> str:
    value = device.shell(
        "settings get secure default_input_method", what="read the current keyboard"
    ).strip()
    return "" if value in ("", "null") else value


def _select_and_type(
    device: AdbDevice, describe: Describe, undo: _Restore, progress: Progress
) -> Check:
    serial = device.serial
    undo.keyboard = _current_keyboard(device)
    out = device.shell(f"ime set {ADB_KEYBOARD_IME}", what="select ADB Keyboard")
    if _current_keyboard(device) != ADB_KEYBOARD_IME:
        fix = (
            MIUI_FIX
            if _refused(out)
            else f"adb -s {serial} shell ime set {ADB_KEYBOARD_IME}  (and read what it says)"
        )
        return fail(
            KEYBOARD,
            f"installed and enabled, but it cannot be selected "
            f"(`ime set` said: {out.strip()[:120]!r})",
            fix,
        )
    progress("ADB Keyboard: opening a text field to type into")
    undo.window = _window(device)
    found = _open_field(device, describe, undo)
    if found is None:
        return warn(
            KEYBOARD,
            "installed, enabled and selectable; the typing test found no "
            "text field to type into (no contacts or messages app answered)",
            "type some Chinese into any text field yourself with: "
            f"adb -s {serial} shell am broadcast -a ADB_INPUT_TEXT --es msg 中文",
        )
    where, field = found
    cx, cy = field.box.center
    out = device.shell(f"input tap {int(cx)} {int(cy)}", what="tap the text field")
    if _refused(out):
        return fail(KEYBOARD, f"the phone refuses taps from adb ({out.strip()[:100]!r})", MIUI_FIX)
    progress("ADB Keyboard: typing and reading the text back")
    time.sleep(0.3)
    undo.typed = True
    device.type_text(PROBE)
    screen = describe(_settled(device))
    seen = _read_back(screen, field)
    if "中文ok" not in seen.replace(" ", ""):
        return fail(
            KEYBOARD,
            f"installed, enabled and selectable, but typing {PROBE!r} into "
            f"{where}'s '{field.label or field.kind}' field left "
            f"{seen or 'nothing'!r} on the screen",
            "open a text field, select ADB Keyboard (`adb shell ime set "
            f"{ADB_KEYBOARD_IME}`) and run `adb shell am broadcast -a ADB_INPUT_TEXT "
            "--es msg 中文`: if nothing appears, reinstall ADB Keyboard; on MIUI / "
            "HyperOS turn on 'USB debugging (Security settings)'",
        )
    return ok(
        KEYBOARD,
        f"installed, enabled, selectable; typed {PROBE!r} into {where}'s "
        f"'{field.label or field.kind}' field and read it back",
    )


def _settled(device: AdbDevice) -> Image.Image:
    from screenpilot.executor.settle import wait_until_settled

    return wait_until_settled(device, timeout=SETTLE_S).image


def _open_field(
    device: AdbDevice, describe: Describe, undo: _Restore
) -> tuple[str, Element] | None:
    """(what was opened, its first text field) for the first intent that shows one."""
    for where, command in FIELD_INTENTS:
        out = device.shell(command, what=f"open {where}")
        if "Error" in out or "Exception" in out:
            continue
        undo.opened = True
        screen = describe(_settled(device))
        fields = sorted(
            (e for e in screen.elements if e.editable or e.kind == "edit_text"),
            key=lambda e: (e.box.y1, e.box.x1),
        )
        if fields:
            return where, fields[0]
        _leave(device, undo)
    return None


def _read_back(screen: Screen, field: Element) -> str:
    """The text read where the field is (the whole screen when nothing overlaps it:
    the keyboard may have moved the layout)."""
    rows = [
        e
        for e in screen.elements
        if e.text and min(e.box.y2, field.box.y2) - max(e.box.y1, field.box.y1) > 0
    ]
    texts = [e.text for e in rows] or [e.text for e in screen.elements if e.text]
    return " | ".join(texts)


def _undo(device: AdbDevice, undo: _Restore) -> None:
    """Undo what the check did, whatever happened: the text, the keyboard, the app."""
    if undo.typed:
        _quietly(device, "am broadcast -a ADB_CLEAR_TEXT")
    if undo.keyboard and undo.keyboard != ADB_KEYBOARD_IME:
        _quietly(device, f"ime set {undo.keyboard}")
        try:
            back = _current_keyboard(device)
        except DeviceError:
            back = ""
        if back != undo.keyboard:
            undo.note = (
                f"could not select your keyboard {undo.keyboard} again: run "
                f"`adb shell ime set {undo.keyboard}`"
            )
    if undo.opened:
        _leave(device, undo)


def _leave(device: AdbDevice, undo: _Restore) -> None:
    """Back out of what was opened until the app from before is in front (Home at worst)."""
    try:
        for _ in range(LEAVE_TRIES):
            device.key("BACK")
            time.sleep(0.3)
            if not undo.window or _window(device) == undo.window:
                undo.opened = False
                return
        device.key("HOME")
        undo.note = "; ".join(filter(None, (undo.note, "left the phone on the home screen")))
    except DeviceError:
        return
    undo.opened = False


def _window(device: AdbDevice) -> str:
    """The focused window (package/activity): leaving the editor back into the same app's
    other screen must not count as having left."""
    found = FOCUS.search(device.shell("dumpsys window", what="read the window in front"))
    return found.group(1) if found else ""


def _quietly(device: AdbDevice, command: str) -> None:
    try:
        device.shell(command, what="clean up after the keyboard test")
    except DeviceError:
        return
