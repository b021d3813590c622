"""The chosen radio option from its pixels (vision/radios.py), on the virtual phone's
single-choice dialog and on drawn rings."""

from __future__ import annotations

import cv2
import numpy as np

from screenpilot.model import Box, Element, ElementKind
from screenpilot.simulator.phone import VirtualPhone
from screenpilot.vision.radios import radio_chosen
from screenpilot.vision.states import with_state


def _timeout_dialog() -> tuple[np.ndarray, VirtualPhone]:
    phone = VirtualPhone()
    phone.open_page("settings", "display")
    assert phone.tap_text("Screen timeout")
    return np.asarray(phone.frame().image.convert("RGB")), phone


def test_the_chosen_option_of_the_virtual_phones_dialog() -> None:
    pixels, phone = _timeout_dialog()
    options = [e for e in phone.screen().elements if e.kind is ElementKind.TEXT and e.box.y1 > 700]
    rows = [o for o in options if o.text.endswith(("seconds", "minute", "minutes"))]
    assert len(rows) >= 5
    for o in rows:  # the option's row: its ring left of its label
        box = Box.of(o.box.x1 - 130, o.box.y1 - 35, o.box.x2, o.box.y2 + 35)
        assert radio_chosen(pixels, box) is o.selected, o.text
    assert sum(o.selected for o in rows) == 1


def _ring(pixels: np.ndarray, cx: int, cy: int, dot: bool) -> None:
    cv2.circle(pixels, (cx, cy), 26, (103, 80, 164), 5, lineType=cv2.LINE_AA)
    if dot:
        cv2.circle(pixels, (cx, cy), 13, (103, 80, 164), -1, lineType=cv2.LINE_AA)


def test_a_ring_with_a_dot_is_chosen_and_an_empty_one_is_not() -> None:
    pixels = np.full((2400, 1080, 3), 250, np.uint8)
    _ring(pixels, 100, 500, dot=True)
    _ring(pixels, 100, 700, dot=False)
    assert radio_chosen(pixels, Box.of(40, 440, 600, 560)) is True
    assert radio_chosen(pixels, Box.of(40, 640, 600, 760)) is False
    chosen = with_state(pixels, Element(0, ElementKind.RADIO_GROUP, Box.of(40, 440, 600, 560)))
    assert chosen.selected and chosen.clickable


def test_no_ring_no_answer() -> None:
    pixels = np.full((2400, 1080, 3), 250, np.uint8)
    cv2.circle(pixels, (100, 500), 26, (103, 80, 164), -1)  # a filled disc: an avatar
    assert radio_chosen(pixels, Box.of(40, 440, 600, 560)) is None
    assert radio_chosen(pixels, Box.of(40, 300, 600, 900)) is None  # a whole group's box
    plain = with_state(pixels, Element(0, ElementKind.RADIO_GROUP, Box.of(40, 640, 600, 760)))
    assert not plain.selected and plain.clickable
