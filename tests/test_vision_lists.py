"""Lists found from their rows (``vision.lists``), grids from their cells
(``vision.grids``), and field outlines that are not cards
(``layout._without_field_outlines``)."""

from __future__ import annotations

import numpy as np
import pytest

from screenpilot.model import BlockKind, Box, Element, ElementKind
from screenpilot.simulator.phone import VirtualPhone
from screenpilot.vision.blocks import Region
from screenpilot.vision.grids import with_grids
from screenpilot.vision.layout import _without_field_outlines
from screenpilot.vision.lists import with_row_lists
from screenpilot.vision.pipeline import describe

W, H = 1080, 2400
BARS = [
    Region(Box(0, 0, W, 84), BlockKind.STATUS_BAR, "detect"),
    Region(Box(0, 84, W, 252), BlockKind.TOOLBAR, "bar"),
    Region(Box(0, 2274, W, H), BlockKind.NAVIGATION_BAR, "detect"),
]


def _e(
    kind: ElementKind,
    box: tuple[int, int, int, int],
    target: tuple[int, int, int, int] | None = None,
    text: str = "",
) -> Element:
    return Element(0, kind, Box(*box), text=text, target=Box(*target) if target else None)


def _rows(n: int, top: int = 262, pitch: int = 190, x1: int = 0, x2: int = W) -> list[Element]:
    """``n`` settings rows: a title and a summary sharing the row's tap extent."""
    out = []
    for k in range(n):
        y = top + k * pitch
        row = (x1, y, x2, y + pitch)
        out.append(_e(ElementKind.TEXT, (180, y + 30, 600, y + 80), row, f"Row {k}"))
        out.append(_e(ElementKind.TEXT, (180, y + 95, 700, y + 140), row, "Summary"))
    return out


def _lists(regions: list[Region]) -> list[Region]:
    return [r for r in regions if r.kind is BlockKind.LIST]


@pytest.mark.parametrize(
    ("app", "page"),
    [("settings", "main"), ("settings", "sound"), ("messages", "main"), ("shop", "help")],
)
def test_a_list_without_lines_is_found_from_its_rows(app: str, page: str) -> None:
    phone = VirtualPhone(size=(W, H))
    phone.open_page(app, page)
    truth = [b.box for b in phone.screen().blocks if b.kind is BlockKind.LIST]
    screen = describe(np.asarray(phone.frame().image.convert("RGB")))
    found = [b for b in screen.blocks if b.kind is BlockKind.LIST]
    assert len(truth) == len(found) == 1
    assert found[0].box.iou(truth[0]) >= 0.85
    assert found[0].scrollable and not found[0].caption  # its first row is not a heading
    rows = [e for e in screen.elements if e.block_id == found[0].id]
    assert len(rows) >= 6


def test_rows_make_a_list_that_reaches_the_bar_under_them() -> None:
    found = _lists(with_row_lists(_rows(4), BARS, W, H))
    assert [r.box for r in found] == [Box(0, 252, W, 2274)]
    assert found[0].source == "rows"


def test_two_rows_are_no_list_and_a_row_of_keys_is_no_row() -> None:
    assert not _lists(with_row_lists(_rows(2), BARS, W, H))
    keys = []
    for k in range(4):  # a keypad: three keys a row, each its own tap extent
        y = 800 + k * 200
        for x in (80, 400, 720):
            keys.append(_e(ElementKind.BUTTON, (x, y, x + 280, y + 180), (x, y, x + 280, y + 180)))
    assert not _lists(with_row_lists(keys, BARS, W, H))


def test_a_form_of_fields_is_no_list() -> None:
    fields = [
        _e(ElementKind.EDIT_TEXT, (42, y, 1038, y + 150), (42, y, 1038, y + 150))
        for y in (400, 600, 800, 1000)
    ]
    assert not _lists(with_row_lists(fields, BARS, W, H))


def test_a_list_ends_at_its_last_row_where_something_lies_below() -> None:
    below = _e(ElementKind.BUTTON, (300, 1400, 780, 1520), None, "Add account")
    found = _lists(with_row_lists([*_rows(4), below], BARS, W, H))
    assert [r.box for r in found] == [Box(0, 252, W, 262 + 4 * 190)]


def test_a_floating_button_does_not_end_the_list() -> None:
    fab = _e(ElementKind.BUTTON, (700, 2100, 1040, 2240), None, "Start chat")
    found = _lists(with_row_lists([*_rows(4), fab], BARS, W, H))
    assert [r.box for r in found] == [Box(0, 252, W, 2274)]


def test_rows_with_other_edges_or_far_apart_are_two_lists() -> None:
    inset = _rows(3, top=1300, x1=42, x2=1038)
    found = _lists(with_row_lists([*_rows(3, pitch=180), *inset], BARS, W, H))
    assert len(found) == 2


def test_a_list_found_by_its_lines_joins_the_one_found_by_its_rows() -> None:
    lines = Region(Box(0, 262, W, 900), BlockKind.LIST, "lines")
    found = _lists(with_row_lists(_rows(5), [*BARS, lines], W, H))
    assert [(r.box, r.source) for r in found] == [(Box(0, 252, W, 2274), "lines")]


def test_rows_in_a_dialog_make_no_list_of_the_page() -> None:
    dialog = Region(Box(60, 200, 1020, 2300), BlockKind.DIALOG, "lines")
    assert not _lists(with_row_lists(_rows(4), [*BARS, dialog], W, H))


def test_a_found_fields_outline_is_not_a_card() -> None:
    field = _e(ElementKind.EDIT_TEXT, (42, 400, 1038, 550))
    outline = Region(Box(40, 398, 1040, 552), BlockKind.CARD, "lines")
    card = Region(Box(42, 700, 1038, 1300), BlockKind.CARD, "lines")
    assert _without_field_outlines([outline, card], [field]) == [card]


def _grid(columns: int, rows: int, top: int = 300, cell: int = 340, gap: int = 10) -> list[Element]:
    """Photos of a picker: ``columns`` x ``rows`` pictures of one size, side by side."""
    out = []
    for r in range(rows):
        for c in range(columns):
            x, y = c * (cell + gap), top + r * (cell + gap)
            out.append(_e(ElementKind.IMAGE, (x, y, x + cell, y + cell)))
    return out


def _grids(regions: list[Region]) -> list[Region]:
    return [r for r in regions if r.kind is BlockKind.GRID]


def test_pictures_in_columns_make_a_grid() -> None:
    found = _grids(with_grids(_grid(3, 4), BARS, W, H))
    assert [r.box for r in found] == [Box(0, 252, 3 * 340 + 2 * 10, 2274)]
    assert found[0].source == "grid"


def test_a_short_last_row_in_the_columns_belongs_to_the_grid() -> None:
    cells = [*_grid(3, 2), *_grid(1, 1, top=300 + 2 * 350)]
    below = _e(ElementKind.BUTTON, (300, 1600, 780, 1700), None, "Done")
    found = _grids(with_grids([*cells, below], BARS, W, H))
    assert [r.box for r in found] == [Box(0, 252, 1040, 300 + 3 * 350 - 10)]


def test_one_row_or_a_field_between_a_steppers_buttons_is_no_grid() -> None:
    assert not _grids(with_grids(_grid(4, 1), BARS, W, H))
    stepper = []
    for y in (400, 600):  # minus, field, plus; twice
        stepper.append(_e(ElementKind.IMAGE, (300, y, 430, y + 130)))
        stepper.append(_e(ElementKind.EDIT_TEXT, (460, y, 880, y + 130)))
        stepper.append(_e(ElementKind.IMAGE, (910, y, 1040, y + 130)))
    assert not _grids(with_grids(stepper, BARS, W, H))


def test_a_grid_inside_a_list_is_not_found_twice() -> None:
    held = Region(Box(0, 252, W, 2274), BlockKind.LIST, "rows")
    assert not _grids(with_grids(_grid(3, 3), [*BARS, held], W, H))


def test_a_keypad_on_the_virtual_phone_is_a_grid_without_a_heading() -> None:
    phone = VirtualPhone(size=(720, 1600))
    phone.open_page("clock", "timer")
    screen = describe(np.asarray(phone.frame().image.convert("RGB")))
    grids = [b for b in screen.blocks if b.kind is BlockKind.GRID]
    assert len(grids) == 1 and not grids[0].caption
    keys = [e.text for e in screen.elements if e.block_id == grids[0].id]
    assert {"5", "8", "0"} <= set(keys)
