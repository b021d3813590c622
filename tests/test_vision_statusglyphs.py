"""A status bar's glyphs read as letters are icons (vision/statusglyphs.py)."""

from __future__ import annotations

import pytest

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.statusglyphs import is_glyph_reading, status_glyphs

BAR = Box(0, 0, 1080, 63)


def _text(text: str, box: tuple[int, int, int, int], i: int = 1) -> Element:
    return Element(i, ElementKind.TEXT, Box(*box), text=text, confidence=0.95)


@pytest.mark.parametrize("text", ["à", "中", "II", "M", "f", "P:", "* "])
def test_short_readings_without_digits_are_glyphs(text: str) -> None:
    assert is_glyph_reading(text)


@pytest.mark.parametrize(
    "text", ["1:53", "5G", "4G", "1º", "LTE", "H+", "E", "R", "100%", "", "abc"]
)
def test_the_clock_the_network_and_longer_words_are_words(text: str) -> None:
    assert not is_glyph_reading(text)


def test_a_glyph_in_the_status_bar_becomes_an_icon_and_nothing_else_changes() -> None:
    clock = _text("1:53", (17, 47, 100, 89), 1)
    gear = _text("中", (120, 40, 171, 91), 2)  # its foot below the bar as first found
    battery = _text("à", (1026, 46, 1067, 87), 3)
    page = _text("à", (500, 900, 540, 940), 4)  # the same reading on the page stays
    out = status_glyphs([clock, gear, battery, page], [BAR])
    assert [e.kind for e in out] == [
        ElementKind.TEXT,
        ElementKind.ICON,
        ElementKind.ICON,
        ElementKind.TEXT,
    ]
    assert [e.text for e in out] == ["1:53", "", "", "à"]
    assert [(e.id, e.box, e.confidence) for e in out] == [
        (e.id, e.box, e.confidence) for e in (clock, gear, battery, page)
    ]
    assert status_glyphs([gear], []) == [gear]  # no status bar, no change
