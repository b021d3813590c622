"""Kinds a box's shape rules out (vision/shapes.py): a square "switch" is a picture."""

from __future__ import annotations

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.shapes import by_shape


def test_a_square_switch_is_a_picture_and_a_track_shaped_one_stays() -> None:
    fab = Element(0, ElementKind.SWITCH, Box(893, 1882, 1027, 2006), checked=True, confidence=0.44)
    track = Element(1, ElementKind.SWITCH, Box(900, 300, 1030, 380), checked=True, confidence=0.9)
    button = Element(2, ElementKind.BUTTON, Box(0, 0, 100, 100), confidence=0.9)
    picture = by_shape(fab)
    assert picture.kind is ElementKind.IMAGE and picture.checked is None
    assert picture.box == fab.box and picture.confidence == fab.confidence
    assert by_shape(track) == track
    assert by_shape(button) == button
