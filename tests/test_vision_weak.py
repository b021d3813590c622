"""Doubtful detections (vision/weak.py): kept only where nothing else was found."""

from __future__ import annotations

import numpy as np

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision import weak
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
