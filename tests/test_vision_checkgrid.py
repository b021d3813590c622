"""Check-box grids completed from the pixels (vision/checkgrid.py) and loose detector boxes
over check boxes (vision/checkboxes.py), on the virtual phone's Clock "Add alarm" form."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw

from screenpilot.model import Box, Element, ElementKind
from screenpilot.simulator.phone import VirtualPhone
from screenpilot.vision.checkboxes import find_check_boxes, with_check_boxes
from screenpilot.vision.checkgrid import complete_grid, grid_cells, looks_like_box

K = ElementKind


def _form(kw: dict[str, object] | None = None, tick: int = 0) -> tuple[np.ndarray, list[Element]]:
    """The form's pixels and its check boxes as the finder draws them (tight squares,
    in reading order), each with the truth's state; the first ``tick`` ticked."""
    phone = VirtualPhone(**(kw or {}))  # type: ignore[arg-type]
    phone.open_page("clock", "add")
    boxes = [e for e in phone.screen().elements if e.kind is K.CHECK_BOX]
    for e in sorted(boxes, key=lambda e: (e.box.y1 // 8, e.box.x1))[:tick]:
        phone.tap(*e.box.center)
    truth = [e for e in phone.screen().elements if e.kind is K.CHECK_BOX]
    pixels = np.asarray(phone.frame().image.convert("RGB"))
    found = sorted(find_check_boxes(pixels), key=lambda e: (e.box.y1 // 8, e.box.x1))
    assert len(found) == len(truth)
    for f in found:
        assert f.checked == next(t for t in truth if t.box.iou(f.box) > 0.3).checked
    return pixels, found


def _loose(box: Box, grow: int = 14) -> Element:
    """A detector's image box around a square, larger on every side."""
    return Element(0, K.IMAGE, Box(box.x1 - grow, box.y1 - grow, box.x2 + grow, box.y2 + 6))


def test_a_loose_detector_image_around_a_check_box_becomes_it() -> None:
    pixels, truth = _form()
    loose = _loose(truth[0].box)
    assert loose.box.iou(truth[0].box) < 0.5  # the old same-square test missed it
    out = with_check_boxes(pixels, [loose])
    assert [e.kind for e in out].count(K.IMAGE) == 0
    assert len([e for e in out if e.kind is K.CHECK_BOX]) == len(truth)


def test_a_big_picture_holding_a_check_box_stays() -> None:
    pixels, truth = _form()
    b = truth[0].box
    card = Element(0, K.IMAGE, Box(b.x1 - 40, b.y1 - 40, b.x2 + 300, b.y2 + 40))
    out = with_check_boxes(pixels, [card])
    assert card in out


@pytest.mark.parametrize("kw", [{}, {"theme": "dark", "size": (720, 1600)}], ids=["light", "dark"])
@pytest.mark.parametrize("missing", [0, 1, -1])
def test_a_missed_cell_of_the_grid_is_found_with_its_state(
    kw: dict[str, object], missing: int
) -> None:
    pixels, truth = _form(kw)
    assert len(truth) >= 5
    gone = truth[missing]
    widgets = [e for e in truth if e is not gone] + [_loose(gone.box)]
    out = complete_grid(pixels, widgets)
    assert [e.kind for e in out].count(K.IMAGE) == 0
    found = next(e for e in out if e.kind is K.CHECK_BOX and e.box.iou(gone.box) > 0.7)
    assert found.checked == gone.checked and found.clickable


def test_a_ticked_cell_is_found_checked() -> None:
    pixels, truth = _form(tick=3)
    ticked = [e for e in truth if e.checked][1]
    widgets = [e for e in truth if e is not ticked]
    out = complete_grid(pixels, widgets)
    assert any(e.box.iou(ticked.box) > 0.7 and e.checked for e in out)


def test_empty_cells_and_lists_add_nothing() -> None:
    image = np.full((600, 600, 3), 250, np.uint8)
    boxes = [Box(50, 50, 98, 98), Box(300, 50, 348, 98), Box(50, 300, 98, 348)]
    side, cells = grid_cells(boxes)
    assert side == 48 and cells == [(324.0, 324.0)]
    widgets = [Element(0, K.CHECK_BOX, b, checked=False) for b in boxes]
    assert complete_grid(image, widgets) == widgets  # the cell is blank
    column = [Element(0, K.CHECK_BOX, Box(900, y, 948, y + 48)) for y in (300, 500, 700)]
    assert grid_cells([e.box for e in column]) == (0, [])
    mixed = [Box(50, 50, 98, 98), Box(300, 50, 400, 150), Box(50, 300, 98, 348)]
    assert grid_cells(mixed) == (0, [])


def test_looks_like_box_reads_outlines_and_filled_squares() -> None:
    image = Image.new("L", (300, 100), 250)
    draw = ImageDraw.Draw(image)
    draw.rectangle((20, 20, 67, 67), outline=90, width=5)  # empty outline
    draw.rectangle((120, 20, 167, 67), fill=60)  # filled, with a bar (not a tick)
    draw.rectangle((132, 40, 155, 47), fill=250)
    draw.ellipse((220, 20, 267, 67), outline=90, width=5)  # a ring is no square
    grey = np.asarray(image)
    assert looks_like_box(grey, (20, 20, 68, 68)) is False
    assert looks_like_box(grey, (120, 20, 168, 68)) is True
    assert looks_like_box(grey, (220, 20, 268, 68)) is None
