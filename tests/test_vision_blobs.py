"""Icons beside a text field from the pixels (vision/blobs.py) and icon glyphs in OCR."""

from __future__ import annotations

import numpy as np

from screenpilot.model import ElementKind
from screenpilot.simulator.phone import VirtualPhone
from screenpilot.vision.blobs import find_icons
from screenpilot.vision.group import strip_glyph


def _thread() -> tuple[np.ndarray, VirtualPhone]:
    phone = VirtualPhone()
    app = phone.find_app("messages")
    phone.open_page("messages")
    phone._ctx(app.package).open("thread", id=5)  # Carol Diaz
    phone._changed()
    return np.asarray(phone.frame().image.convert("RGB")), phone


def test_the_send_arrow_beside_the_field_is_found() -> None:
    pixels, phone = _thread()
    truth = phone.screen()
    field = next(e for e in truth.elements if e.kind is ElementKind.EDIT_TEXT)
    known = [e.box for e in truth.elements if e.kind is ElementKind.TEXT]
    found = find_icons(pixels, [*known, field.box], [field.box])
    right = [f for f in found if f.box.x1 >= field.box.x2]
    assert len(right) == 1  # the send arrow
    send = right[0].box
    assert abs(send.center[1] - field.box.center[1]) < field.box.height / 2
    assert all(f.kind is ElementKind.ICON and f.confidence < 0.5 for f in found)


def test_no_field_no_icons() -> None:
    pixels, _ = _thread()
    assert find_icons(pixels, [], []) == []


def test_icon_glyph_read_as_cjk_is_dropped_from_a_latin_label() -> None:
    assert strip_glyph("曰 Start chat") == "Start chat"
    assert strip_glyph("日 Settings") == "Settings"
    assert strip_glyph("日历 Calendar") == "日历 Calendar"  # two characters: a word
    assert strip_glyph("发短信 给 Bob") == "发短信 给 Bob"
    assert strip_glyph("Start chat") == "Start chat"
