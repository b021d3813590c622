"""describe on wide screens (a foldable's inner display, a tablet, a phone on its side):
the virtual phone's real renders at those sizes, read end to end (OCR, the shipped
detector, the rules).

On such a screen a settings row spans more pixels than a phone's, and OCR reads the
page at a smaller scale (its short side is brought to the same width), so a seek bar's
knob and a toolbar's arrow are read as symbols."""

from __future__ import annotations

import numpy as np
import pytest

from screenpilot.model import ElementKind, Screen
from screenpilot.simulator.phone import VirtualPhone
from screenpilot.vision.pipeline import describe


def _describe(size: tuple[int, int], app: str, page: str) -> tuple[Screen, Screen]:
    phone = VirtualPhone(size=size)
    phone.open_page(app, page)
    pixels = np.asarray(phone.frame().image.convert("RGB"))
    return describe(pixels), phone.screen()


@pytest.mark.parametrize("size", [(1812, 2176), (1600, 2560)], ids=["foldable", "tablet"])
def test_a_wide_settings_page_keeps_its_seek_bars_and_labels(size: tuple[int, int]) -> None:
    screen, truth = _describe(size, "settings", "sound")
    named = {
        e.kind: sorted(x.caption for x in screen.elements if x.kind is e.kind)
        for e in truth.elements
        if e.kind in (ElementKind.SEEK_BAR, ElementKind.SWITCH, ElementKind.CHECK_BOX)
    }
    assert named[ElementKind.SEEK_BAR] == sorted(
        e.caption for e in truth.elements if e.kind is ElementKind.SEEK_BAR
    )
    assert named[ElementKind.SWITCH] == ["Do Not Disturb"]
    assert named[ElementKind.CHECK_BOX] == ["Vibrate for calls"]
    texts = [e.text for e in screen.elements if e.kind is ElementKind.TEXT]
    assert "●" not in texts and "←" not in texts  # the knobs, the back arrow
    assert any(e.icon_label == "back" for e in screen.elements)


@pytest.mark.parametrize("size", [(1812, 2176), (2400, 1080)], ids=["foldable", "sideways"])
def test_a_wide_lists_check_boxes_take_their_cities(size: tuple[int, int]) -> None:
    """Check boxes at the far edge of a two-line item; on a phone held sideways they are
    found by their size against the screen's short side, as in portrait."""
    screen, truth = _describe(size, "clock", "cities")
    boxes = [e for e in screen.elements if e.kind is ElementKind.CHECK_BOX]
    expected = sorted(e.caption for e in truth.elements if e.kind is ElementKind.CHECK_BOX)
    assert len(boxes) == len(expected) >= 4
    assert sorted(e.caption for e in boxes) == expected


def test_a_phone_on_its_side_keeps_its_tab_bar_and_toolbar() -> None:
    """The tab row sits lower against the short height of a screen held sideways (not a
    share of the height but the dp of a phone in portrait), and the toolbar, in the
    page's own colour, is found from its row under the status bar."""
    from screenpilot.model import BlockKind

    screen, truth = _describe((2400, 1080), "clock", "clock")
    tabs = [b for b in screen.blocks if b.kind is BlockKind.TAB_BAR]
    assert len(tabs) == 1 and tabs[0].active_element is not None
    active = next(e for e in screen.elements if e.id == tabs[0].active_element)
    selected = [e.text for e in truth.elements if e.selected]
    assert active.text in selected
    screen, _ = _describe((2400, 1080), "settings", "sound")
    assert [b.caption for b in screen.blocks if b.kind is BlockKind.TOOLBAR] == [
        "Sound & vibration"
    ]
