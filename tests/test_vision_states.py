"""States read from pixels (vision/states.py): a field shows its hint or a typed value.

The simulator draws both: a hint in its hint colour, a typed value in the text
colour. A short typed value ("Bo") covers little of its outlined field, which must
not make it read as faint (the recorder then missed "type 'Alice' into ...")."""

from __future__ import annotations

from typing import Literal

import numpy as np
import pytest

from screenpilot.model import Box, Element, ElementKind
from screenpilot.simulator.phone import VirtualPhone
from screenpilot.vision.states import with_state

BACK = 4


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_typed_values_are_not_hints(theme: Literal["light", "dark"]) -> None:
    phone = VirtualPhone(size=(1080, 2400), theme=theme)
    phone.open_page("contacts", "add")
    fields = [e for e in phone.screen().elements if e.kind is ElementKind.EDIT_TEXT]
    assert len(fields) >= 3
    for e, value in zip(fields[:2], ["Bo", "Alice"], strict=True):
        phone.tap(*e.box.center)
        phone.input_text(value)
    phone.keyevent(BACK)
    pixels = np.asarray(phone.frame().image.convert("RGB"))
    truth = [e for e in phone.screen().elements if e.kind is ElementKind.EDIT_TEXT and e.text]
    assert [e.hint for e in truth[:3]] == [False, False, True]
    for t in truth:  # the field's whole box (no OCR line given): the outline is no ink
        seen = with_state(pixels, Element(0, ElementKind.EDIT_TEXT, t.box, text=t.text))
        assert seen.editable and seen.hint is t.hint, t.text


def test_an_empty_field_has_no_hint() -> None:
    pixels = np.full((200, 600, 3), 250, np.uint8)
    seen = with_state(pixels, Element(0, ElementKind.EDIT_TEXT, Box(20, 20, 580, 180)))
    assert seen.editable and not seen.hint
