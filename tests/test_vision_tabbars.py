"""Bars from their rows (vision/layout.py): a bottom navigation drawn as a coloured bar
just its row's height is the tab bar, a picture far larger than the tabs (a floating
button's notch) is never the active one, and a status bar found too short grows over
the clock its edge cuts."""

from __future__ import annotations

import numpy as np
from vision_pages import plain_page

from screenpilot.model import BlockKind, Box, Element, ElementKind
from screenpilot.vision.blocks import Region
from screenpilot.vision.layout import build_screen

BAR = Box(0, 2100, 1080, 2260)  # Habitica's bottom navigation, above the system's bar


def _bottom_navigation() -> tuple[np.ndarray, list[Element]]:
    px = plain_page()
    px[BAR.y1 : BAR.y2] = (60, 40, 90)  # a dark purple bar
    names = ["Habits", "Dailies", "", "To Do's", "Rewards"]
    centres = [120, 356, 540, 724, 960]
    elements = []
    for i, (name, cx) in enumerate(zip(names, centres, strict=True), start=1):
        if name:  # a dim icon with its name under it
            px[2125:2205, cx - 40 : cx + 40] = (150, 140, 170)
            box = Box(cx - 40, 2125, cx + 40, 2205)
        else:  # the notch under a floating button: a bright purple diamond
            px[2110:2250, cx - 70 : cx + 70] = (160, 80, 220)
            box = Box(cx - 140, 2100, cx + 140, 2260)
        elements.append(Element(i, ElementKind.IMAGE, box, text=name))
    return px, elements


def test_a_bar_its_rows_height_is_the_tab_bar() -> None:
    px, elements = _bottom_navigation()
    screen = build_screen(px, elements, [Region(BAR, BlockKind.TOOLBAR, "bottom_bar")])
    kinds = {b.kind for b in screen.blocks}
    assert BlockKind.TAB_BAR in kinds and BlockKind.TOOLBAR not in kinds
    bar = next(b for b in screen.blocks if b.kind is BlockKind.TAB_BAR)
    assert all(e.block_id == bar.id for e in screen.elements)


def test_the_floating_buttons_notch_is_not_the_active_tab() -> None:
    px, elements = _bottom_navigation()
    screen = build_screen(px, elements, [Region(BAR, BlockKind.TOOLBAR, "bottom_bar")])
    assert not any(e.selected for e in screen.elements if not e.text)
    px[2125:2205, 80:160] = (250, 250, 250)  # the active tab's icon, bright
    screen = build_screen(px, elements, [Region(BAR, BlockKind.TOOLBAR, "bottom_bar")])
    assert [e.text for e in screen.elements if e.selected] == ["Habits"]


def test_a_tall_status_bar_takes_the_clock_its_box_cut() -> None:
    """A status bar over a camera's cutout is taller than the detector's box (Uber's
    phone: the bar 0-63 px, its clock 47-90): the bar grows over what its edge cuts."""
    px = plain_page()
    bar = Region(Box(0, 0, 1080, 63), BlockKind.STATUS_BAR, "detect")
    clock = Element(1, ElementKind.TEXT, Box(30, 47, 120, 90), text="2:42")
    icon = Element(2, ElementKind.ICON, Box(900, 50, 936, 86))
    title = Element(3, ElementKind.TEXT, Box(40, 200, 500, 260), text="Earnings")
    screen = build_screen(px, [clock, icon, title], [bar])
    status = next(b for b in screen.blocks if b.kind is BlockKind.STATUS_BAR)
    assert status.box.y2 == 90
    assert [e.block_id == status.id for e in screen.elements] == [True, True, False]


def test_a_status_bar_does_not_grow_over_a_cameras_controls() -> None:
    """A camera hides the status bar; the detector's guess cuts its controls, and growing
    over the small ones would cut a taller one: the bar stays as found."""
    px = plain_page()
    bar = Region(Box(0, 0, 1440, 84), BlockKind.STATUS_BAR, "detect")
    hdr = Element(1, ElementKind.TEXT, Box(470, 37, 580, 132), text="HDR")
    switch = Element(2, ElementKind.BUTTON, Box(90, 5, 190, 170))
    screen = build_screen(px, [hdr, switch], [bar])
    status = next(b for b in screen.blocks if b.kind is BlockKind.STATUS_BAR)
    assert status.box.y2 == 84
    assert all(e.block_id != status.id for e in screen.elements)


def test_a_tab_chosen_by_its_icon_alone_is_not_active_when_the_labels_are_alike() -> None:
    """NewPipe's "Background | Play All | Popup" buttons: one grey for every label, and
    "Popup" chosen for its filled icon; a coloured label stands out; cells with no text
    are not judged by labels."""
    from screenpilot.vision.group import _label_stands_out

    pixels = np.full((400, 1080, 3), 44, np.uint8)
    background = np.array([44.0, 44.0, 44.0])
    labels = [Box(120, 140, 300, 180), Box(480, 140, 660, 180), Box(840, 140, 1000, 180)]
    for b in labels:
        pixels[b.y1 + 10 : b.y2 - 10, b.x1 + 10 : b.x2 - 10] = 200  # grey strokes
    each = [[b] for b in labels]
    assert not _label_stands_out(pixels, each, 2, background)
    pixels[150:170, 850:990] = (255, 138, 101)  # the chosen label drawn in the accent
    assert _label_stands_out(pixels, each, 2, background)
    assert _label_stands_out(pixels, [*each[:2], []], 2, background)  # no text in the third
