"""Buttons drawn as a label on a shape (vision/pills.py): a short line centred in a
filled shape or an outline, with room around it, is a button; a faint line in an
outline (a field's hint), an initial in a square and a text on a tight highlight are
not."""

from __future__ import annotations

import numpy as np

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.ocr import TextLine
from screenpilot.vision.pipeline import Observations, assemble

W, H = 1080, 2400
BG = 250
SHAPE = Box(300, 1000, 780, 1130)
LABEL = Box(420, 1040, 660, 1090)


def _screen() -> np.ndarray:
    return np.full((H, W, 3), BG, np.uint8)


def _text(pixels: np.ndarray, box: Box, ink: int = 40) -> None:
    pixels[box.y1 + 8 : box.y2 - 8 : 6, box.x1 : box.x2] = ink


def _outline(pixels: np.ndarray, box: Box) -> None:
    x1, y1, x2, y2 = box.as_tuple()
    for sl in (
        np.s_[y1 : y1 + 3, x1:x2],
        np.s_[y2 - 3 : y2, x1:x2],
        np.s_[y1:y2, x1 : x1 + 3],
        np.s_[y1:y2, x2 - 3 : x2],
    ):
        pixels[sl] = 120


def _elements(pixels: np.ndarray, text: str, label: Box = LABEL) -> list[Element]:
    lines = (TextLine(text, label, 0.99),)
    screen = assemble(pixels, Observations(lines, ()), ("detect",), icons=None, reports={})
    return [e for e in screen.elements if e.text == text]


def test_a_label_centred_on_a_filled_shape_is_a_button() -> None:
    pixels = _screen()
    pixels[SHAPE.y1 : SHAPE.y2, SHAPE.x1 : SHAPE.x2] = (30, 90, 200)
    _text(pixels, LABEL, ink=255)
    (button,) = _elements(pixels, "Sign in")
    assert button.kind is ElementKind.BUTTON and button.clickable
    assert button.box.iou(SHAPE) >= 0.9


def test_a_dark_label_centred_in_an_outline_is_a_button_a_faint_one_a_hint() -> None:
    pixels = _screen()
    _outline(pixels, SHAPE)
    _text(pixels, LABEL)
    (button,) = _elements(pixels, "Continue")
    assert button.kind is ElementKind.BUTTON and button.box.iou(SHAPE) >= 0.9
    pixels = _screen()
    _outline(pixels, SHAPE)
    _text(pixels, LABEL, ink=160)  # a hint's grey: the planner must see a field's hint
    (hint,) = _elements(pixels, "Enter username")
    assert hint.kind is ElementKind.TEXT and hint.box.iou(LABEL) >= 0.8  # not the outline


def test_an_initial_and_a_tight_highlight_stay_texts() -> None:
    pixels = _screen()
    disc = Box(100, 500, 230, 630)
    pixels[disc.y1 : disc.y2, disc.x1 : disc.x2] = (200, 60, 60)
    initial = Box(140, 540, 190, 590)
    _text(pixels, initial, ink=255)
    assert [e.kind for e in _elements(pixels, "B", initial)] == [ElementKind.TEXT]
    pixels = _screen()
    tight = Box(LABEL.x1 - 10, LABEL.y1 - 4, LABEL.x2 + 10, LABEL.y2 + 4)
    pixels[tight.y1 : tight.y2, tight.x1 : tight.x2] = (250, 230, 90)
    _text(pixels, LABEL)
    assert [e.kind for e in _elements(pixels, "on sale")] == [ElementKind.TEXT]


def test_a_chips_rounded_ends_found_as_blobs_are_no_icons() -> None:
    """Seal's command chips: the outline's "(" and ")" are darker than its top and
    bottom, and were found as two unnamed icons across the chip's sides."""
    from screenpilot.vision.pills import outline_ends

    chip = Element(1, ElementKind.BUTTON, Box(378, 796, 567, 837), text="--write-thumbnail")
    right = Element(2, ElementKind.ICON, Box(558, 794, 573, 838), confidence=0.3)
    left = Element(3, ElementKind.ICON, Box(368, 795, 384, 838), confidence=0.3)
    leading = Element(4, ElementKind.ICON, Box(384, 804, 408, 828), confidence=0.3)  # inside
    named = Element(5, ElementKind.ICON, Box(560, 794, 575, 838), icon_label="more_options")
    alone = Element(6, ElementKind.ICON, Box(30, 794, 45, 838), confidence=0.3)  # no button
    kept = outline_ends([chip, right, left, leading, named, alone])
    assert [e.id for e in kept] == [1, 4, 5, 6]
