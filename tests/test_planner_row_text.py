"""planner/offline/lists.py: row_text, an unlabelled row icon stands for its row's text."""

from __future__ import annotations

from screenpilot.model import Box, Element, ElementKind
from screenpilot.planner.offline.lists import row_text


def _text(i: int, text: str, box: Box) -> Element:
    return Element(i, ElementKind.TEXT, box, text=text)


def test_an_icon_centred_on_a_two_line_item_stands_for_its_title() -> None:
    """Settings' "Connected devices" row: the icon sits between the title and its
    summary and overlaps neither by half (boxes set by their ink)."""
    els = [
        _text(1, "Network & internet", Box(183, 459, 542, 506)),
        _text(2, "Mobile, Wi-Fi, hotspot", Box(182, 521, 549, 574)),
        _text(3, "Connected devices", Box(182, 648, 549, 695)),
        Element(4, ElementKind.IMAGE, Box(63, 673, 122, 732), icon_label="bluetooth"),
        _text(5, "Bluetooth, pairing", Box(182, 710, 482, 763)),
    ]
    assert row_text(els, 3) == 2


def test_an_icon_with_no_text_beside_it_stays() -> None:
    els = [
        Element(1, ElementKind.IMAGE, Box(63, 673, 122, 732), icon_label="bluetooth"),
        _text(2, "Far below", Box(182, 900, 482, 950)),
    ]
    assert row_text(els, 0) == 0


def test_a_two_line_items_summary_stands_for_its_title_but_not_the_row_above() -> None:
    els = [
        _text(1, "Network & internet", Box(183, 459, 542, 506)),
        _text(2, "Mobile, Wi-Fi, hotspot", Box(182, 521, 549, 574)),
        _text(3, "Connected devices", Box(182, 648, 549, 695)),
        _text(4, "Bluetooth, pairing", Box(182, 710, 482, 763)),
    ]
    assert row_text(els, 3) == 2  # the summary: its title
    assert row_text(els, 1) == 0
    assert row_text(els, 2) == 2  # a title: itself (the line above is the last row's)
    assert row_text(els, 0) == 0
