"""A popup menu found by its raised panel's shadow (vision/menus.py): it becomes a MENU
block and the page around it, not dimmed, goes behind it."""

from __future__ import annotations

import io
from collections.abc import Sequence

import numpy as np
from PIL import Image
from vision_pages import NAV, STATUS, H, W, plain_page

from screenpilot.model import Block, BlockKind, Box, Element, ElementKind, Screen
from screenpilot.simulator.apps import messages
from screenpilot.simulator.phone import VirtualPhone
from screenpilot.vision.behind import with_behind
from screenpilot.vision.menulines import bar_blocks, cut_at_menu, menu_between
from screenpilot.vision.menus import find_menu
from screenpilot.vision.ocr import TextLine
from screenpilot.vision.pipeline import analyse

MENU = Box(560, 170, 1040, 900)


def _with_menu(px: np.ndarray, box: Box = MENU, frame: bool = False) -> np.ndarray:
    """``px`` with a white panel in ``box`` casting a soft shadow below (24 px) and
    beside it (9 px), as Material's elevation draws it; or, with ``frame``, a flat grey
    frame round it then the page (a picture's border, no shadow)."""
    out = px.astype(np.float32)
    if frame:
        out[box.y1 - 12 : box.y2 + 12, box.x1 - 12 : box.x2 + 12] = 215.0
    else:
        for k in range(24):  # darkest at the edge, fading away from it
            out[box.y2 + k, box.x1 : box.x2] *= 1.0 - 0.2 * (1.0 - k / 24)
        for k in range(9):
            fade = 1.0 - 0.1 * (1.0 - k / 9)
            out[box.y1 : box.y2, box.x1 - 1 - k] *= fade
            if box.x2 + k < W:
                out[box.y1 : box.y2, box.x2 + k] *= fade
    out[box.y1 : box.y2, box.x1 : box.x2] = 255.0
    for i, y in enumerate(range(box.y1 + 60, box.y2 - 60, 144)):  # its items' words
        out[y : y + 40, box.x1 + 48 : box.x1 + 300 - 20 * i] = 40.0
    return out.astype(np.uint8)


def test_a_menu_over_the_page_is_found_by_its_shadow() -> None:
    found = find_menu(_with_menu(plain_page()), 60, 2270)
    assert found is not None
    for got, want in zip(found.as_tuple(), MENU.as_tuple(), strict=True):
        assert abs(got - want) <= 12


def test_a_framed_picture_is_no_menu() -> None:
    assert find_menu(_with_menu(plain_page(), frame=True), 60, 2270) is None


def test_a_panel_across_the_width_is_no_menu() -> None:
    assert find_menu(_with_menu(plain_page(), Box(0, 170, W, 900)), 60, 2270) is None


def test_the_page_around_a_menu_goes_behind_it_undimmed() -> None:
    elements = [
        Element(1, ElementKind.TEXT, Box(20, 10, 200, 50), text="9:46", block_id=1),
        Element(2, ElementKind.TEXT, Box(40, 90, 500, 150), text="Activity Launcher", block_id=3),
        Element(3, ElementKind.BUTTON, Box(960, 80, 1060, 160), block_id=3),
        Element(4, ElementKind.TEXT, Box(80, 500, 500, 540), text="AndroFi", block_id=4),
        Element(5, ElementKind.TEXT, Box(608, 230, 900, 270), text="Create shortcut", block_id=4),
        Element(6, ElementKind.TEXT, Box(608, 374, 880, 414), text="Launch activity", block_id=4),
        Element(7, ElementKind.TEXT, Box(80, 1500, 500, 1540), text="Downloads", block_id=4),
        Element(8, ElementKind.ICON, Box(500, 2300, 580, 2380), block_id=2),
    ]
    blocks = [
        STATUS,
        NAV,
        Block(3, Box(0, 60, W, 170), BlockKind.TOOLBAR),
        Block(4, Box(0, 170, W, 2200), BlockKind.LIST),
    ]
    out_blocks, out = with_behind(_with_menu(plain_page()), blocks, elements)
    menu = [b for b in out_blocks if b.kind is BlockKind.MENU]
    behind = [b for b in out_blocks if b.kind is BlockKind.BEHIND]
    assert len(menu) == 1 and len(behind) == 1 and behind[0].caption == "menu"
    home = {e.text or e.id: e.block_id for e in out}
    assert home["Create shortcut"] == home["Launch activity"] == menu[0].id
    assert home["AndroFi"] == home["Downloads"] == home["Activity Launcher"] == behind[0].id
    assert home[3] == behind[0].id  # the overflow button that opened it: a tap closes it
    assert home["9:46"] == 1 and home[8] == 2  # the system's bars stay in front
    screen = Screen(W, H, elements=tuple(out), blocks=tuple(out_blocks))
    text = screen.describe()
    assert "[menu]" in text and "[behind the menu] a tap on these closes the menu" in text
    assert "dimmed" not in text  # a menu casts a shadow, not a scrim
    assert (
        text.index("'Launch activity'") < text.index("[behind the menu]") < text.index("'AndroFi'")
    )
    front = screen.in_front()
    assert {e.text for e in front.elements} == {"9:46", "Create shortcut", "Launch activity", ""}


def test_a_page_without_a_menu_is_left_as_it_is() -> None:
    elements = [Element(1, ElementKind.TEXT, Box(80, 300, 600, 340), text="Location", block_id=3)]
    blocks = [STATUS, NAV, Block(3, Box(0, 280, W, 2200), BlockKind.LIST)]
    assert with_behind(plain_page(), blocks, elements) == (blocks, elements)


class _Reader:
    """The recogniser's answer for boxes left or right of x = 600 (a scripted stand-in
    for rapidocr's ``read_boxes``: the test is about where lines are cut)."""

    def __init__(self) -> None:
        self.asked: list[Box] = []

    def read_boxes(self, image: np.ndarray, boxes: Sequence[Box]) -> list[TextLine]:
        self.asked += boxes
        return [TextLine("Downloa" if b.x2 <= 600 else "Support", b, 0.95) for b in boxes]


def test_a_line_across_the_menus_side_is_cut_there_and_read_again() -> None:
    px = _with_menu(plain_page())
    across = TextLine("DownloaSupport", Box(300, 600, 900, 650), 0.9)  # over MENU.x1
    page = TextLine("Headlines", Box(80, 1500, 500, 1540), 0.9)  # below the menu
    inside = TextLine("Settings", Box(610, 400, 800, 440), 0.9)
    reader = _Reader()
    menu = menu_between(px, bar_blocks([(NAV.box, "navigation_bar")]))
    assert menu is not None
    out = cut_at_menu(px, [across, page, inside], reader, menu)
    assert [line.text for line in out] == ["Downloa", "Support", "Headlines", "Settings"]
    left, right = out[0].box, out[1].box
    assert left.x1 == 300 and left.x2 < MENU.x1 < right.x1 and right.x2 == 900
    assert len(reader.asked) == 2  # only the line across the edge was read again
    assert cut_at_menu(px, [across], None, menu) == [across]  # no reader: as it was
    assert menu_between(plain_page()) is None
    assert cut_at_menu(plain_page(), [across], reader, None) == [across]  # no menu: as it was


def test_the_virtual_phones_overflow_menu_is_a_menu_block() -> None:
    """End to end on the virtual phone: Messages' overflow menu, opened by its dots, is
    described as a menu over the conversation list."""
    phone = VirtualPhone()
    phone.launch(messages.PACKAGE)
    dots = next(e for e in phone.frame().elements if e.icon == "dots_vertical")
    phone.tap(*dots.box.center)
    pixels = np.asarray(Image.open(io.BytesIO(phone.screencap_png())).convert("RGB"))
    screen = analyse(pixels).screen
    menu = next(b for b in screen.blocks if b.kind is BlockKind.MENU)
    behind = next(b for b in screen.blocks if b.kind is BlockKind.BEHIND)
    home = {e.text: e.block_id for e in screen.elements if e.text}
    assert home["Mark all as read"] == home["Settings"] == menu.id
    assert home["Alice Chen"] == home["Messages"] == behind.id
    assert {e.text for e in screen.in_front().elements if e.text} >= {
        "Mark all as read",
        "Settings",
    }
    assert "Alice Chen" not in {e.text for e in screen.in_front().elements}
    bare = analyse(pixels, stages=("ocr", "detect")).screen  # no "blocks" stage: no blocks
    assert not any(b.kind in (BlockKind.MENU, BlockKind.BEHIND) for b in bare.blocks)
