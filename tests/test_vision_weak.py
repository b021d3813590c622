"""Doubtful detections (vision/weak.py): kept only where nothing else was found."""

from __future__ import annotations

import numpy as np

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision import weak
from screenpilot.vision.image import off_median
from screenpilot.vision.pipeline import Observations, assemble

W, H = 1080, 2400


def _icon(box: tuple[int, int, int, int], conf: float) -> Element:
    return Element(0, ElementKind.ICON, Box(*box), confidence=conf)


def test_a_doubtful_icon_nobody_reported_is_kept_and_one_under_a_text_is_not() -> None:
    alone = _icon((900, 500, 960, 560), 0.1)
    under_text = _icon((100, 800, 160, 860), 0.2)
    too_big = _icon((0, 1000, 600, 1600), 0.2)
    kept = weak.keep_weak([alone, under_text, too_big], [Box(90, 790, 500, 870)], W)
    assert kept == [alone]


def test_two_doubtful_boxes_on_one_icon_give_one_element_the_surer() -> None:
    a = _icon((900, 500, 960, 560), 0.1)
    b = _icon((905, 505, 962, 562), 0.2)
    assert weak.keep_weak([a, b], [], W) == [b]


def test_describe_keeps_confident_widgets_and_only_uncovered_doubtful_ones() -> None:
    pixels = np.full((H, W, 3), 250, np.uint8)
    pixels[515:545, 915:945] = 40  # the icon's glyph
    pixels[1200:1340, 100:980] = (30, 100, 200)  # the button's fill (a blank patch of the
    # page is no button: vision.gridcells)
    sure = Element(0, ElementKind.BUTTON, Box(100, 1200, 980, 1340), confidence=0.9)
    inside = _icon((120, 1220, 200, 1300), 0.1)  # a second opinion on the button
    alone = _icon((900, 500, 960, 560), 0.1)  # an icon nobody else saw
    screen = assemble(
        pixels, Observations((), (sure, inside, alone)), ("detect",), icons=None, reports={}
    )
    boxes = {e.box for e in screen.elements}
    assert sure.box in boxes and alone.box in boxes and inside.box not in boxes


def test_a_doubtful_switch_is_kept_but_not_a_doubtful_check_box_or_rating_bar() -> None:
    def of(kind: ElementKind, box: tuple[int, int, int, int]) -> Element:
        return Element(0, kind, Box(*box), confidence=0.21)

    switch = of(ElementKind.SWITCH, (880, 500, 1017, 584))
    check = of(ElementKind.CHECK_BOX, (60, 700, 120, 760))
    rating = of(ElementKind.RATING_BAR, (100, 900, 400, 960))
    assert weak.keep_weak([switch, check, rating], [], W) == [switch]


def test_a_doubtful_box_with_nothing_drawn_in_it_is_left_out() -> None:
    """TrackerControl's empty card corner was a doubtful "button" (0.07): a box whose
    pixels are all one colour (within ``BLANK_SPREAD``) holds nothing to tap; faint
    ink, three small dots, is enough to keep one."""
    pixels = np.full((H, W, 3), 250, np.uint8)
    pixels[700:900, 0:1080] = 244  # a card a shade darker than the page
    blank = _icon((958, 746, 1060, 868), 0.07)  # across the card's edge, nothing drawn
    dots = _icon((900, 1500, 960, 1560), 0.07)
    for y in (1510, 1527, 1544):
        pixels[y : y + 6, 927:933] = 90  # an overflow menu's three dots
    assert weak.is_blank(pixels, blank.box) and not weak.is_blank(pixels, dots.box)
    screen = assemble(pixels, Observations((), (blank, dots)), ("detect",), icons=None, reports={})
    boxes = {e.box for e in screen.elements}
    assert dots.box in boxes and blank.box not in boxes


def test_a_doubtful_box_on_a_smooth_wallpaper_is_blank_and_an_icon_on_it_is_not() -> None:
    """An emulator's home screen: doubtful "buttons" on empty parts of a pink-to-purple
    wallpaper (60 levels across one of them) hold nothing; a glyph on it does."""
    rows = np.arange(H, dtype=np.float64)[:, None, None]
    cols = np.arange(W, dtype=np.float64)[None, :, None]
    shade = np.array([0.4, 0.12, 0.1])  # levels per row, per channel
    pixels = np.clip(np.array([-500, -150, -50]) + rows * shade + 0.02 * cols, 0, 255).astype(
        np.uint8
    )
    empty = Box(26, 1703, 178, 1854)
    ink = off_median(pixels, empty, weak.BLANK_SPREAD)
    assert ink is not None and ink.any()  # not one colour ...
    assert weak.is_blank(pixels, empty)  # ... but one gradient
    pixels[1760:1800, 80:120] = (250, 250, 250)  # a small white glyph
    assert not weak.is_blank(pixels, empty)
    assert weak.on_a_plane(np.zeros((1, 5, 3), np.uint8))


def test_a_thin_stroke_on_a_gradient_is_not_blank() -> None:
    """The plane is fitted on a sample of the box's pixels but checked on all of them: a
    one-pixel line the sample steps over still counts as something drawn."""
    rows = np.arange(300, dtype=np.float64)[:, None, None]
    patch = np.broadcast_to(60 + rows * 0.4, (300, 300, 3)).astype(np.uint8).copy()
    assert weak.on_a_plane(patch)
    patch[:, 151] = 255  # a one-pixel stroke between the sampled columns
    assert not weak.on_a_plane(patch)
