"""The on-screen keyboard's panel as a block: its strip of tools above the keys is the
keyboard's (vision/keyboard.py), on drawn pixels and on the virtual phone's keyboard."""

from __future__ import annotations

import numpy as np

from screenpilot.core.keyboard import key_rows
from screenpilot.language.keyboard import keyboard_top
from screenpilot.model import Block, BlockKind, Box, Element, ElementKind, Screen
from screenpilot.vision.keyboard import keyboard_panel

W, H = 1080, 2400
PANEL = (232, 234, 237)
NAV_TOP = 2270
KEYS_Y1 = 1700  # the top row of keys
PITCH = 115


def _keys() -> list[Element]:
    out: list[Element] = []
    for row, y in enumerate((KEYS_Y1, KEYS_Y1 + 140, KEYS_Y1 + 280)):
        for i in range(10):
            x = 10 + i * 107
            out.append(
                Element(
                    len(out) + 1,
                    ElementKind.BUTTON,
                    Box(x, y, x + 95, y + PITCH),
                    text="qwertyuiop"[i] if row == 0 else "asdfghjklz"[i],
                )
            )
    return out


def _screen_pixels(panel_top: int, app: tuple[int, int, int] = (253, 251, 254)) -> np.ndarray:
    px = np.empty((H, W, 3), np.uint8)
    px[:] = app
    px[panel_top:NAV_TOP] = PANEL
    for i in range(5):  # the strip's five tool icons
        cx = int(W * (i + 0.5) / 5)
        px[1604:1652, cx - 24 : cx + 24] = (95, 99, 104)
    for k in _keys():
        px[k.box.y1 : k.box.y2, k.box.x1 : k.box.x2] = (255, 255, 255)
    px[NAV_TOP:] = (0, 0, 0)
    return px


def test_the_panel_starts_at_its_edge_above_the_tool_strip() -> None:
    px = _screen_pixels(1570)
    assert keyboard_panel(px, _keys(), NAV_TOP) == Box(0, 1570, W, NAV_TOP)
    # the language's rule alone starts half a key above the keys: under the strip's icons
    assert keyboard_top(Screen(W, H, tuple(_keys()))) == KEYS_Y1 - PITCH // 2


def test_a_panel_of_the_apps_colour_starts_half_a_key_above_the_keys() -> None:
    px = _screen_pixels(1570, app=PANEL)
    assert keyboard_panel(px, _keys(), NAV_TOP) == Box(0, KEYS_Y1 - PITCH // 2, W, NAV_TOP)


def test_a_text_field_on_the_keyboard_stays_outside_it() -> None:
    # a grey field right on a panel of its colour: the colour runs on to the field's top
    px = _screen_pixels(1590)
    px[1530:1590, 20:1060] = PANEL
    field = Element(99, ElementKind.EDIT_TEXT, Box(20, 1530, 1060, 1590), text="Message")
    assert keyboard_panel(px, [*_keys(), field], NAV_TOP) == Box(0, 1590, W, NAV_TOP)
    # a field that is not on the keyboard changes nothing
    px = _screen_pixels(1570)
    far = Element(99, ElementKind.EDIT_TEXT, Box(20, 900, 1060, 1000), text="Message")
    assert keyboard_panel(px, [*_keys(), far], NAV_TOP) == Box(0, 1570, W, NAV_TOP)


def test_no_keys_no_panel() -> None:
    px = _screen_pixels(1570)
    letters = [
        Element(
            i + 1, ElementKind.TEXT, Box(40, 1250 + i * 110, 80, 1300 + i * 110), "ABCDEFGHIJ"[i]
        )
        for i in range(10)
    ]
    assert keyboard_panel(px, letters, NAV_TOP) is None


def test_the_language_reads_the_keyboard_block() -> None:
    block = Block(1, Box(0, 1570, W, NAV_TOP), BlockKind.KEYBOARD)
    assert keyboard_top(Screen(W, H, tuple(_keys()), blocks=(block,))) == 1570


def test_the_virtual_phones_keyboard_is_one_block_with_its_tools() -> None:
    from screenpilot.simulator.render import Page, UiState, render_page
    from screenpilot.simulator.widgets import Column, EditText
    from screenpilot.vision.pipeline import analyse

    page = Page(
        body=Column(children=[EditText(field="q", hint="Search conversations")]), title="Search"
    )
    frame = render_page(page, ui=UiState(focus="q", keyboard=True))
    truth = frame.keyboard_box
    assert truth is not None
    screen = analyse(np.asarray(frame.image.convert("RGB"))).screen
    boards = [b for b in screen.blocks if b.kind is BlockKind.KEYBOARD]
    assert len(boards) == 1
    assert abs(boards[0].box.y1 - truth.y1) <= 6 and boards[0].box.y2 <= truth.y2 + 6
    strip = [
        e
        for e in screen.elements
        if e.kind is ElementKind.ICON and truth.y1 <= e.box.y1 < truth.y1 + 150
    ]
    assert len(strip) >= 4 and all(e.block_id == boards[0].id for e in strip)


def test_a_grid_of_cells_is_no_keyboard() -> None:
    """A chart's grid of unlabelled cells, and a narrow block of one-character cells
    (half the width: a calendar's or a habit tracker's), are not keys."""
    cells = [
        Element(
            1 + r * 10 + c,
            ElementKind.BUTTON,
            Box(20 + c * 100, 1300 + r * 90, 90 + c * 100, 1370 + r * 90),
        )
        for r in range(6)
        for c in range(10)
    ]
    assert key_rows(cells, W, H) == []
    narrow = [
        Element(
            1 + r * 7 + c,
            ElementKind.TEXT,
            Box(40 + c * 70, 1300 + r * 90, 90 + c * 70, 1370 + r * 90),
            "1234567"[c],
        )
        for r in range(3)
        for c in range(7)
    ]
    assert key_rows(narrow, W, H) == []
    assert len(key_rows(_keys(), W, H)) == 3


def test_a_calculators_keypad_is_no_keyboard() -> None:
    """Rows of five one-character keys across the screen, but digits and operators."""
    pad = [
        Element(
            1 + r * 5 + c,
            ElementKind.BUTTON,
            Box(20 + c * 210, 1500 + r * 200, 190 + c * 210, 1680 + r * 200),
            text=("789÷C", "456×(", "123-)", "0.=+%")[r][c],
        )
        for r in range(4)
        for c in range(5)
    ]
    assert key_rows(pad, W, H) == []
    assert keyboard_top(Screen(W, H, tuple(pad))) is None
