"""One picture boxed twice (vision/twins.py): two detector boxes round the same ink are
one picture, the more confident stays; a glyph on a photo, two pictures side by side
and a picture with more ink than the glyph inside it are not twins."""

from __future__ import annotations

import cv2
import numpy as np

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.pipeline import Observations, assemble
from screenpilot.vision.twins import drop_twins, twins

W, H = 1080, 2340
PAGE = 250
RING_CENTRE = (88, 924)
TALL = Box(47, 838, 114, 1014)  # OneList's item badge: the view round the ring
SQUARE = Box(72, 885, 140, 955)  # the detector's second box, round the ring itself


def _page() -> np.ndarray:
    return np.full((H, W, 3), PAGE, np.uint8)


def _ring(pixels: np.ndarray, centre: tuple[int, int] = RING_CENTRE) -> None:
    cv2.circle(pixels, centre, 11, (130, 20, 20), 3)


def _picture(kind: ElementKind, box: Box, confidence: float) -> Element:
    return Element(0, kind, box, confidence=confidence)


def test_two_boxes_round_one_ring_are_twins() -> None:
    pixels = _page()
    _ring(pixels)
    assert TALL.iou(SQUARE) < 0.3  # what non-maximum suppression lets through
    assert twins(pixels, TALL, SQUARE)
    kept = drop_twins(
        pixels,
        [_picture(ElementKind.IMAGE, TALL, 0.84), _picture(ElementKind.IMAGE, SQUARE, 0.51)],
    )
    assert [e.box for e in kept] == [TALL]


def test_the_more_confident_stays_whichever_comes_first() -> None:
    pixels = _page()
    _ring(pixels)
    kept = drop_twins(
        pixels,
        [_picture(ElementKind.IMAGE, TALL, 0.4), _picture(ElementKind.ICON, SQUARE, 0.9)],
    )
    assert [e.box for e in kept] == [SQUARE]


def test_a_glyph_on_a_photo_is_no_twin_of_the_photo() -> None:
    pixels = _page()
    photo = Box(100, 600, 500, 900)
    rng = np.random.default_rng(0)
    pixels[photo.y1 : photo.y2, photo.x1 : photo.x2] = rng.integers(0, 255, (300, 400, 3))
    glyph = Box(270, 720, 330, 780)
    pixels[glyph.y1 : glyph.y2, glyph.x1 : glyph.x2] = 255
    widgets = [_picture(ElementKind.IMAGE, photo, 0.9), _picture(ElementKind.ICON, glyph, 0.5)]
    assert not twins(pixels, photo, glyph)
    assert drop_twins(pixels, widgets) == widgets


def test_a_wider_box_holding_more_ink_is_no_twin() -> None:
    pixels = _page()
    _ring(pixels)
    _ring(pixels, (180, 924))  # a second ring inside the wide box only
    wide = Box(72, 885, 220, 955)
    assert not twins(pixels, wide, SQUARE)


def test_boxes_apart_or_texts_are_left_alone() -> None:
    pixels = _page()
    _ring(pixels)
    _ring(pixels, (300, 924))
    a, b = Box(70, 895, 110, 955), Box(280, 895, 320, 955)
    assert not twins(pixels, a, b)
    named = Element(0, ElementKind.IMAGE, SQUARE, text="O", confidence=0.3)
    widgets = [_picture(ElementKind.IMAGE, TALL, 0.8), named]
    assert drop_twins(pixels, widgets) == widgets


def test_only_pairs_with_a_new_picture_are_weighed() -> None:
    pixels = _page()
    _ring(pixels)
    old = [_picture(ElementKind.IMAGE, TALL, 0.84), _picture(ElementKind.IMAGE, SQUARE, 0.51)]
    assert drop_twins(pixels, old, new=[]) == old
    button = Element(0, ElementKind.BUTTON, Box(40, 830, 170, 1010), confidence=0.2)
    icon = Element(0, ElementKind.ICON, SQUARE, clickable=True, confidence=0.3)
    kinds = frozenset({ElementKind.IMAGE, ElementKind.ICON, ElementKind.BUTTON})
    kept = drop_twins(pixels, [button, icon], kinds=kinds, new=[icon])
    assert kept == [icon]


def test_describe_lists_a_ring_boxed_twice_once() -> None:
    pixels = _page()
    _ring(pixels)
    widgets = (
        _picture(ElementKind.IMAGE, TALL, 0.84),
        _picture(ElementKind.IMAGE, SQUARE, 0.51),
    )
    screen = assemble(pixels, Observations((), widgets), ("detect",), icons=None, reports={})
    pictures = [e for e in screen.elements if e.kind is ElementKind.IMAGE]
    assert [e.box for e in pictures] == [TALL]
