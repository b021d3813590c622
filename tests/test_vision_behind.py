"""What lies under a dialog's or a drawer's scrim (vision/behind.py): one BEHIND block,
named as dimmed by Screen.describe and left out of what the planners act on."""

from __future__ import annotations

import numpy as np
from vision_pages import NAV, STATUS, H, W, plain_page

from screenpilot.model import Block, BlockKind, Box, Element, ElementKind, Screen
from screenpilot.vision.behind import scrim_top, with_behind
from screenpilot.vision.dialogs import sheet_edges
from screenpilot.vision.panels import drawer_edge


def _dimmed(px: np.ndarray, box: Box) -> np.ndarray:
    """``px`` under Material's 32 % black scrim between the bars, with a white dialog
    in ``box``."""
    out = px.copy()
    out[60:2270] = (out[60:2270].astype(np.float32) * 0.68).astype(np.uint8)
    out[box.y1 : box.y2, box.x1 : box.x2] = 255
    out[box.y1 + 60 : box.y1 + 100, box.x1 + 40 : box.x1 + 500] = 50  # its message
    return out


def _elements() -> list[Element]:
    return [
        Element(1, ElementKind.TEXT, Box(20, 10, 200, 50), text="11:43", block_id=1),
        Element(2, ElementKind.TEXT, Box(80, 300, 600, 340), text="Location", block_id=3),
        Element(3, ElementKind.TEXT, Box(150, 960, 650, 1000), text="Deny anyway?", block_id=4),
        Element(4, ElementKind.BUTTON, Box(700, 1200, 900, 1280), text="DENY", block_id=4),
        Element(5, ElementKind.TEXT, Box(700, 2100, 900, 2140), text="CONTINUE", block_id=3),
        Element(6, ElementKind.ICON, Box(500, 2300, 580, 2380), block_id=2),
    ]


DIALOG = Box(100, 900, 980, 1320)
BLOCKS = [
    STATUS,
    NAV,
    Block(3, Box(0, 280, W, 2200), BlockKind.LIST),
    Block(4, DIALOG, BlockKind.DIALOG),
]


def test_the_page_under_a_dialogs_scrim_is_behind_it() -> None:
    blocks, elements = with_behind(_dimmed(plain_page(), DIALOG), BLOCKS, _elements())
    behind = [b for b in blocks if b.kind is BlockKind.BEHIND]
    assert len(behind) == 1 and behind[0].caption == "dialog"
    home = {e.text or e.id: e.block_id for e in elements}
    assert home["Location"] == home["CONTINUE"] == behind[0].id
    assert home["Deny anyway?"] == home["DENY"] == 4  # the dialog's own stay in it
    assert home["11:43"] == 1 and home[6] == 2  # the system's bars are above any scrim
    assert 3 not in {b.id for b in blocks}  # the page's list held nothing else: dropped
    screen = Screen(W, H, elements=tuple(elements), blocks=tuple(blocks))
    text = screen.describe()
    assert (
        text.index("'DENY'") < text.index("[behind the dialog, dimmed]") < text.index("'CONTINUE'")
    )
    front = screen.in_front()
    assert {e.text for e in front.elements} == {"11:43", "Deny anyway?", "DENY", ""}
    assert not any(b.kind is BlockKind.BEHIND for b in front.blocks)
    assert Screen.from_json(screen.to_json()) == screen


def test_a_card_on_a_page_that_is_not_dimmed_moves_nothing() -> None:
    px = plain_page()  # the "dialog" sits on a bright page: no scrim, so it is a card
    px[DIALOG.y1 : DIALOG.y2, DIALOG.x1 : DIALOG.x2] = 255
    blocks, elements = with_behind(px, BLOCKS, _elements())
    assert blocks == BLOCKS and elements == _elements()
    screen = Screen(W, H, elements=tuple(elements), blocks=tuple(blocks))
    assert screen.in_front() is screen and not screen.behind()


def _drawer_under_app_bar(edge: int = 760, bar: int = 220) -> np.ndarray:
    """An orange app bar across the screen; under it a white drawer left of ``edge``
    and the page dimmed right of it."""
    px = plain_page()
    px[60:bar] = (240, 110, 20)
    px[bar:2270, edge:] = 90
    px[bar:2270, :edge] = 250
    for y in range(400, 2000, 160):
        px[y : y + 40, 150:500] = 70
    return px


def test_a_drawer_under_the_app_bar_leaves_the_bar_in_front() -> None:
    px = _drawer_under_app_bar()
    edge = drawer_edge(px)
    assert edge is not None and abs(edge - 760) <= 6
    assert abs(scrim_top(px, edge, 60, 2270) - 220) <= 4
    elements = [
        Element(1, ElementKind.BUTTON, Box(900, 90, 1000, 190), icon_label="search", block_id=3),
        Element(2, ElementKind.TEXT, Box(150, 400, 500, 440), text="Diary"),
        Element(3, ElementKind.BUTTON, Box(900, 1500, 1000, 1600), icon_label="edit"),
    ]
    blocks = [STATUS, NAV, Block(3, Box(0, 60, W, 220), BlockKind.TOOLBAR)]
    out_blocks, out = with_behind(px, blocks, elements, edge)
    behind = next(b for b in out_blocks if b.kind is BlockKind.BEHIND)
    assert behind.caption == "drawer"
    assert [e.block_id == behind.id for e in out] == [False, False, True]


def _rounded_dialog(page: int, scrimmed: int, surface: int, text: int) -> np.ndarray:
    """A dialog with rounded corners and no outline (Material's) over a dimmed page."""
    px = np.full((H, W, 3), page, np.uint8)
    px[60:2270] = scrimmed
    px[:60] = 30
    px[2270:] = 0
    x1, y1, x2, y2, r = 80, 900, 1000, 1400, 28
    px[y1 + r : y2 - r, x1:x2] = surface
    px[y1:y2, x1 + r : x2 - r] = surface
    px[y1 + 80 : y1 + 120, x1 + 60 : x1 + 600] = text  # its title
    px[y1 + 200 : y1 + 230, x1 + 60 : x2 - 60] = text  # its message
    return px


def test_a_dialog_without_an_outline_is_found_by_its_edges() -> None:
    from screenpilot.vision.dialogs import find_dialog

    for page, scrimmed, surface, text in (
        (250, 170, 255, 40),  # a white dialog
        (18, 12, 48, 230),  # a dark theme's grey one, lighter than its page
        (250, 170, 20, 250),  # an old dark (Holo) dialog over a light page, darker than it
    ):
        px = _rounded_dialog(page, scrimmed, surface, text)
        box = find_dialog(px, 60, 2270)
        assert box is not None
        assert abs(box.x1 - 80) <= 6 and abs(box.x2 - 1000) <= 6
        assert abs(box.y1 - 900) <= 12 and abs(box.y2 - 1400) <= 12
        elements = [
            Element(1, ElementKind.TEXT, Box(140, 980, 680, 1020), text="Delete?"),
            Element(2, ElementKind.TEXT, Box(100, 300, 500, 340), text="Inbox"),
        ]
        blocks, out = with_behind(px, [STATUS, NAV], elements)
        kinds: dict[int | None, BlockKind] = {b.id: b.kind for b in blocks}
        assert kinds[out[0].block_id] is BlockKind.DIALOG  # the dialog is a block now
        assert kinds[out[1].block_id] is BlockKind.BEHIND


def test_a_card_on_a_plain_page_is_no_dialog() -> None:
    from screenpilot.vision.dialogs import find_dialog

    px = np.full((H, W, 3), 250, np.uint8)
    assert find_dialog(px) is None
    card = _rounded_dialog(235, 235, 255, 40)  # a white card on a light grey page
    card[300:340, 100:500] = 255  # and a bright picture beside it: not dimmed
    blocks, _ = with_behind(card, [STATUS, NAV], [])
    assert blocks == [STATUS, NAV]


def test_an_element_cut_by_the_dialogs_edge_is_the_pages() -> None:
    """A switch half under the dialog's top edge (the virtual phone's "Screen timeout"
    over "Adaptive brightness") lies behind; the dialog's own next to its edge stay."""
    cut = Element(7, ElementKind.SWITCH, Box(860, 855, 980, 955), block_id=3)
    near = Element(8, ElementKind.BUTTON, Box(880, 1200, 975, 1280), block_id=4)
    _, elements = with_behind(_dimmed(plain_page(), DIALOG), BLOCKS, [*_elements(), cut, near])
    home = {e.id: e.block_id for e in elements}
    assert home[7] == home[2] != 4  # with "Location", behind the dialog
    assert home[8] == home[4] == 4


def test_the_virtual_phones_dialog_leaves_its_page_behind() -> None:
    """A rendered conversation-delete dialog over a list page, described from pixels."""
    from screenpilot.simulator.render import Page, render_page
    from screenpilot.simulator.widgets import Column, Dialog, list_item, list_view
    from screenpilot.vision.pipeline import analyse

    page = Page(body=Column(children=[list_view([list_item(f"Chat {i}", "hi") for i in range(8)])]))
    dialog = Dialog(
        title="Delete this conversation?", buttons=[("Cancel", "back"), ("Delete", "delete")]
    )
    frame = render_page(page, dialog=dialog)
    screen = analyse(np.asarray(frame.image.convert("RGB"))).screen
    front = {e.text for e in screen.in_front().elements}
    assert {"Delete this conversation?", "Cancel", "Delete"} <= front
    behind = {screen.element(i).text for i in screen.behind()}
    assert "Chat 0" in behind and not front & {f"Chat {i}" for i in range(8)}
    assert screen.describe().rstrip().splitlines()[-1].strip().startswith("[")  # page last


def _sheet_over(page: np.ndarray, edge: int, bottom: int = 2270) -> np.ndarray:
    """``page`` under a 32 % black scrim, with a white sheet from ``edge`` to ``bottom``
    (rounded top corners, a drag handle, two rows of text)."""
    px = page.copy()
    px[60:bottom] = (px[60:bottom].astype(np.float32) * 0.68).astype(np.uint8)
    px[edge + 24 : bottom] = 255
    px[edge:bottom, 24 : W - 24] = 255
    px[edge + 30 : edge + 40, 500:580] = 200  # the drag handle
    for y in (edge + 120, edge + 260):
        px[y : y + 40, 80:600] = 40
    return px


def test_a_modal_bottom_sheet_leaves_the_page_above_behind() -> None:
    px = _sheet_over(plain_page(), 1500)
    elements = [
        Element(1, ElementKind.TEXT, Box(80, 300, 600, 340), text="Headlines"),
        Element(2, ElementKind.TEXT, Box(80, 1620, 600, 1660), text="Copy link"),
        Element(3, ElementKind.TEXT, Box(80, 1760, 600, 1800), text="Share to Gmail"),
    ]
    blocks, out = with_behind(px, [STATUS, NAV], elements)
    behind = next(b for b in blocks if b.kind is BlockKind.BEHIND)
    assert behind.caption == "bottom sheet"
    assert [e.block_id == behind.id for e in out] == [True, False, False]
    screen = Screen(W, H, elements=tuple(out), blocks=tuple(blocks))
    assert "[behind the bottom sheet, dimmed]" in screen.describe()


def test_a_dark_app_bar_over_a_white_form_is_no_sheet() -> None:
    """A red header with white actions over a white page steps lighter across the width,
    as a sheet's edge does, but its white text says it is not dimmed."""
    px = np.full((H, W, 3), 250, np.uint8)
    px[:60] = 30
    px[2270:] = 0
    px[60:700] = (220, 60, 60)  # a coloured header taller than a fifth of the page
    px[100:120, 900:1000] = 255  # its "SAVE" action, white (a sliver of the page)
    px[300:420, 40:1040] = (240, 170, 170)  # a field on it
    for y in range(1000, 2200, 200):
        px[y : y + 40, 80:600] = 60
    assert with_behind(px, [STATUS, NAV], [])[0] == [STATUS, NAV]
    elements = [Element(1, ElementKind.TEXT, Box(800, 100, 1000, 140), text="SAVE")]
    blocks, out = with_behind(px, [STATUS, NAV], elements)
    assert blocks == [STATUS, NAV] and out == elements


def test_a_light_divider_across_a_dark_page_is_no_sheets_edge() -> None:
    """A dark theme's list: a grey divider line across the width steps lighter below it
    for a row or two, as a sheet's edge does, but the page under it is dark again."""
    px = np.full((H, W, 3), 20, np.uint8)
    px[2270:] = 0
    px[100:140, 80:700] = 150  # the title, grey (the dim part of a dark page)
    for y in (600, 1000, 1400):
        px[y : y + 4, 0:W] = 70  # dividers across the whole width
        px[y + 60 : y + 100, 80:600] = 140  # a row's text
    assert [e for e in sheet_edges(px, 60, 2270) if abs(e - 1000) < 40] == []
    sheet = px.copy()
    sheet[1400:2270] = 70  # a real panel: lighter from its edge down
    assert any(abs(e - 1400) <= 8 for e in sheet_edges(sheet, 60, 2270))


def test_a_sheet_edge_under_a_letterboxed_video_with_no_words_is_no_sheet() -> None:
    """NewPipe's player: a dark video frame, black bars above and below it, over the
    lighter details panel steps lighter across the width as a sheet's edge does, and
    the frame is as dark as a scrimmed page, but nothing above the edge reads as words:
    only the frame's specks. A map under a time picker's sheet (Uber) has no words
    either, and no black bars: it stays behind the sheet."""
    px = _sheet_over(plain_page(), 1500)
    specks = [
        Element(1, ElementKind.ICON, Box(380, 300, 420, 340)),
        Element(2, ElementKind.TEXT, Box(600, 500, 630, 540), text="5"),
        Element(3, ElementKind.TEXT, Box(80, 1620, 600, 1660), text="Copy link"),
    ]
    blocks, out = with_behind(px, [STATUS, NAV], specks)  # the map
    assert [e.block_id == blocks[-1].id for e in out] == [True, True, False]
    video = px.copy()
    video[100:260] = 0  # the letterbox's bars
    video[1200:1400] = 0
    assert with_behind(video, [STATUS, NAV], specks) == ([STATUS, NAV], specks)
    worded = [*specks, Element(4, ElementKind.TEXT, Box(80, 700, 600, 740), text="Headlines")]
    blocks, out = with_behind(video, [STATUS, NAV], worded)
    assert [e.block_id == blocks[-1].id for e in out] == [True, True, False, True]
