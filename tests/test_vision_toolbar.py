"""A toolbar in the page's own colour, found from its row (``vision.toolbar``), and a
pixel-found toolbar starting where the detected status bar ends (``layout.merge_bars``)."""

from __future__ import annotations

import numpy as np
import pytest

from screenpilot.model import BlockKind, Box, Element, ElementKind
from screenpilot.simulator.phone import VirtualPhone
from screenpilot.vision.blocks import Region
from screenpilot.vision.layout import merge_bars
from screenpilot.vision.pipeline import describe
from screenpilot.vision.toolbar import row_toolbar

W, H = 1080, 2400
STATUS = Region(Box(0, 0, W, 84), BlockKind.STATUS_BAR, "detect")


def _e(kind: ElementKind, box: tuple[int, int, int, int], text: str = "") -> Element:
    return Element(0, kind, Box(*box), text=text)


BACK = _e(ElementKind.ICON, (42, 136, 105, 200))
TITLE = _e(ElementKind.TEXT, (189, 144, 641, 189), "Sound & vibration")


@pytest.mark.parametrize(
    ("app", "page"), [("settings", "sound"), ("clock", "cities"), ("contacts", "detail")]
)
def test_a_toolbar_in_the_pages_colour_is_found_from_its_row(app: str, page: str) -> None:
    phone = VirtualPhone(size=(W, H))
    phone.open_page(app, page)
    truth = [b.box for b in phone.screen().blocks if b.kind is BlockKind.TOOLBAR]
    screen = describe(np.asarray(phone.frame().image.convert("RGB")))
    found = [b.box for b in screen.blocks if b.kind is BlockKind.TOOLBAR]
    assert len(truth) == len(found) == 1
    assert found[0].iou(truth[0]) >= 0.85


def test_the_row_makes_a_toolbar_as_tall_below_its_centre_as_above() -> None:
    bar = row_toolbar([BACK, TITLE], [STATUS], W, H)
    assert bar is not None and bar.kind is BlockKind.TOOLBAR and bar.source == "row"
    assert (bar.box.y1, bar.box.x2) == (84, W) and abs(bar.box.y2 - 252) <= 4


@pytest.mark.parametrize(
    "row",
    [
        # a list's first item: a title over its summary
        [TITLE, _e(ElementKind.TEXT, (189, 200, 500, 240), "Media, calls")],
        # a settings row with its switch
        [TITLE, _e(ElementKind.SWITCH, (900, 140, 1038, 196))],
        # a picture that reaches far below the band
        [_e(ElementKind.IMAGE, (0, 90, W, 900))],
        # words at the right only
        [_e(ElementKind.TEXT, (700, 144, 1000, 189), "Skip")],
    ],
    ids=["two lines", "switch", "picture", "words at the right"],
)
def test_a_row_that_is_the_pages_first_row_makes_no_toolbar(row: list[Element]) -> None:
    assert row_toolbar(row, [STATUS], W, H) is None


def test_no_toolbar_without_a_status_bar_or_where_one_is_found() -> None:
    assert row_toolbar([BACK, TITLE], [], W, H) is None
    found = Region(Box(0, 84, W, 240), BlockKind.TOOLBAR, "bar")
    assert row_toolbar([BACK, TITLE], [STATUS, found], W, H) is None
    straddling = _e(ElementKind.IMAGE, (0, 230, W, 600))  # a header picture under the title
    assert row_toolbar([BACK, TITLE, straddling], [STATUS], W, H) is None


def test_a_guessed_toolbar_starts_under_the_detected_status_bar() -> None:
    guessed = [
        Region(Box(0, 0, W, 63), BlockKind.STATUS_BAR, "bar"),
        Region(Box(0, 63, W, 252), BlockKind.TOOLBAR, "bar"),
    ]
    merged = merge_bars(guessed, [STATUS])
    assert [(r.kind, r.box.y1, r.box.y2) for r in merged] == [
        (BlockKind.STATUS_BAR, 0, 84),
        (BlockKind.TOOLBAR, 84, 252),
    ]
