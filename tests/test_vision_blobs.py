"""Icons beside a text field from the pixels (vision/blobs.py) and icon glyphs in OCR."""

from __future__ import annotations

import numpy as np

from screenpilot.model import Box, Element, ElementKind
from screenpilot.simulator.phone import VirtualPhone
from screenpilot.vision.blobs import _side_by_side, find_icons
from screenpilot.vision.group import strip_glyph
from screenpilot.vision.ocr import TextLine
from screenpilot.vision.pipeline import Observations, assemble


def _thread() -> tuple[np.ndarray, VirtualPhone]:
    phone = VirtualPhone()
    app = phone.find_app("messages")
    phone.open_page("messages")
    phone._ctx(app.package).open("thread", id=5)  # Carol Diaz
    phone._changed()
    return np.asarray(phone.frame().image.convert("RGB")), phone


def test_the_send_arrow_beside_the_field_is_found() -> None:
    pixels, phone = _thread()
    truth = phone.screen()
    field = next(e for e in truth.elements if e.kind is ElementKind.EDIT_TEXT)
    known = [e.box for e in truth.elements if e.kind is ElementKind.TEXT]
    found = find_icons(pixels, [*known, field.box], [field.box])
    right = [f for f in found if f.box.x1 >= field.box.x2]
    assert len(right) == 1  # the send arrow
    send = right[0].box
    assert abs(send.center[1] - field.box.center[1]) < field.box.height / 2
    assert all(f.kind is ElementKind.ICON and f.confidence < 0.5 for f in found)


def test_no_field_no_icons() -> None:
    pixels, _ = _thread()
    assert find_icons(pixels, [], []) == []


def test_icon_glyph_read_as_cjk_is_dropped_from_a_latin_label() -> None:
    assert strip_glyph("曰 Start chat") == "Start chat"
    assert strip_glyph("日 Settings") == "Settings"
    assert strip_glyph("日历 Calendar") == "日历 Calendar"  # two characters: a word
    assert strip_glyph("发短信 给 Bob") == "发短信 给 Bob"
    assert strip_glyph("Start chat") == "Start chat"


def _field_screen(kind: ElementKind) -> tuple[np.ndarray, Element, Element]:
    """A search bar (``kind``) holding a back arrow at its left and a hint."""
    from PIL import Image, ImageDraw

    im = Image.new("RGB", (1080, 2400), (255, 255, 255))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle((40, 200, 1040, 340), 70, fill=(236, 236, 236))
    d.line((90, 270, 160, 270), fill=(30, 30, 30), width=8)  # the arrow: a shaft ...
    d.line((90, 270, 125, 235), fill=(30, 30, 30), width=8)  # ... and its head
    d.line((90, 270, 125, 305), fill=(30, 30, 30), width=8)
    d.rectangle((220, 250, 600, 290), fill=(120, 120, 120))  # ink where the hint is
    widget = Element(0, kind, Box(40, 200, 1040, 340), confidence=0.9)
    hint = Element(0, ElementKind.TEXT, Box(220, 250, 600, 290), text="Search")
    return np.asarray(im), widget, hint


def test_an_icon_inside_a_field_is_found_and_none_inside_a_button() -> None:
    for kind, expect in ((ElementKind.EDIT_TEXT, 1), (ElementKind.BUTTON, 0)):
        pixels, widget, hint = _field_screen(kind)
        line = TextLine(hint.text, hint.box, 0.99)
        screen = assemble(
            pixels, Observations((line,), (widget,)), ("detect",), icons=None, reports={}
        )
        icons = [e for e in screen.elements if e.kind is ElementKind.ICON]
        assert len(icons) == expect, kind
        for icon in icons:  # the arrow, at the field's left
            assert 80 <= icon.box.center[0] <= 170 and 235 <= icon.box.center[1] <= 305


def test_a_chevron_is_an_icon_and_a_short_word_is_not() -> None:
    from PIL import Image, ImageDraw

    im = Image.new("RGB", (1080, 2400), (255, 255, 255))
    d = ImageDraw.Draw(im)
    d.line((500, 600, 535, 625), fill=(60, 60, 60), width=6)  # ﹀, one stroke
    d.line((535, 625, 570, 600), fill=(60, 60, 60), width=6)
    for k in range(4):  # four letters of a word OCR did not read
        d.rectangle((500 + 18 * k, 1200, 512 + 18 * k, 1230), fill=(60, 60, 60))
    found = find_icons(np.asarray(im), [], [Box(0, 100, 1080, 2400)])
    assert [f.box.center[1] < 700 for f in found] == [True]


def test_what_a_rounded_corner_leaves_at_the_screen_s_side_is_no_icon() -> None:
    """Seal's download sheet over a dimmed page: the grey outside its rounded top
    corners; a round button that touches the screen's side is still an icon."""
    from PIL import Image, ImageDraw

    im = Image.new("RGB", (1080, 2400), (160, 160, 160))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle((0, 1500, 1079, 2399), radius=70, fill=(240, 238, 228))
    d.rectangle((0, 2000, 1079, 2399), fill=(240, 238, 228))
    d.ellipse((1020, 2150, 1100, 2230), fill=(30, 90, 200))  # a button cut by the side
    found = find_icons(np.asarray(im), [], [Box(0, 100, 1080, 2400)])
    assert [f.box.center[1] > 2100 for f in found] == [True]


def test_glyphs_side_by_side_joined_into_a_blob_too_wide_are_cut_apart() -> None:
    """NetGuard's struck-through Wi-Fi fan with its "screen on" glyph 10 px right of it:
    one blob wider than an icon, two icons once cut; a word's letters stay no icons."""
    from PIL import Image, ImageDraw

    im = Image.new("RGB", (1080, 2400), (58, 58, 58))
    d = ImageDraw.Draw(im)
    d.pieslice((560, 480, 700, 620), 225, 315, fill=(250, 90, 40))  # a fan, 99 wide
    d.ellipse((688, 500, 728, 540), fill=(120, 150, 160))  # a small glyph 8 px beside it
    for k in range(5):  # five letters of a large word, 8 px apart
        d.rectangle((300 + 48 * k, 1200, 339 + 48 * k, 1260), fill=(230, 230, 230))
    found = find_icons(np.asarray(im), [], [Box(0, 100, 1080, 2400)])
    assert sorted(f.box.center[0] // 100 for f in found) == [6, 7]
    assert all(f.box.center[1] < 700 for f in found)
    im = Image.new("RGB", (1080, 2400), (58, 58, 58))
    d = ImageDraw.Draw(im)
    for x, top in ((560, 470), (614, 500), (668, 500)):  # unread letters, of one colour
        d.rectangle((x, top, x + 45, 560), fill=(230, 230, 230))
    assert find_icons(np.asarray(im), [], [Box(0, 100, 1080, 2400)]) == []
    mask = np.zeros((100, 200), np.uint8)  # two inked pieces from the mask's first row
    mask[0:30, 0:40] = mask[0:20, 50:70] = 1
    img = np.full((100, 200, 3), 58, np.uint8)
    img[0:30, 0:40], img[0:20, 50:70] = (250, 90, 40), (120, 150, 160)
    pieces = _side_by_side(mask, img, 0, 0, 73, 33, 3)  # the blob as the dilation boxed it
    assert pieces == [(0, 0, 43, 33), (47, 0, 26, 23)]
    img[0:20, 50:70] = (250, 90, 40)  # one colour: a word's letters
    assert _side_by_side(mask, img, 0, 0, 73, 33, 3) == []


def _row_with_dots(dots_x: int) -> np.ndarray:
    """A list row: a column of three dots (⋮) at ``dots_x`` and ink where words are."""
    pixels = np.full((2400, 1080, 3), 250, np.uint8)
    yy, xx = np.mgrid[0:2400, 0:1080]
    for cy in (1290, 1312, 1334):
        pixels[(xx - dots_x) ** 2 + (yy - cy) ** 2 <= 6**2] = 40
    pixels[1295:1330, 140:560] = 90  # the words
    return pixels


def test_dots_that_ocr_boxed_with_a_lines_words_are_an_icon_and_leave_the_line() -> None:
    """ActivityLauncher's rows: OCR reads ⋮ as ":" and boxes it with the app's name."""
    for dots_x, read, box in (
        (94, ": Print Spooler", Box(68, 1272, 627, 1354)),
        (600, "Print Spooler ：", Box(120, 1272, 627, 1354)),
    ):
        line = TextLine(read, box, 0.99)
        screen = assemble(
            _row_with_dots(dots_x), Observations((line,), ()), ("detect",), icons=None, reports={}
        )
        icons = [e for e in screen.elements if e.kind is ElementKind.ICON]
        texts = [e for e in screen.elements if e.kind is ElementKind.TEXT]
        assert [e.icon_label for e in icons] == ["more_options"], read
        assert icons[0].box.contains(dots_x, 1312)
        assert [t.text for t in texts] == ["Print Spooler"]
        assert not texts[0].box.contains(dots_x, 1312)


def test_dots_inside_a_line_are_letters_and_stay_its_words() -> None:
    """Three blobs in a row inside a line's box ("Add") are not taken out of it."""
    pixels = np.full((2400, 1080, 3), 250, np.uint8)
    for k in range(3):
        pixels[1000:1030, 300 + 30 * k : 320 + 30 * k] = 40
    line = TextLine("Add", Box(280, 990, 400, 1040), 0.99)
    screen = assemble(pixels, Observations((line,), ()), ("detect",), icons=None, reports={})
    assert [(e.kind, e.text) for e in screen.elements] == [(ElementKind.TEXT, "Add")]


def _bars(pairs: list[tuple[int, int, int, int]]) -> np.ndarray:
    """A dark player page (NewPipe's) with white bars drawn: (x, y, width, height)."""
    pixels = np.full((1920, 1080, 3), 33, np.uint8)
    for x, y, bw, bh in pairs:
        pixels[y : y + bh, x : x + bw] = 255
    return pixels


def test_two_bars_side_by_side_are_a_pause_glyph() -> None:
    """NewPipe's player: two bars 23 x 84 px, 27 px apart, its largest button."""
    area = [Box(0, 100, 1080, 1920)]
    pause = find_icons(_bars([(505, 1624, 23, 84), (555, 1624, 23, 84)]), [], area)
    assert [(e.icon_label, e.kind) for e in pause] == [("pause", ElementKind.ICON)]
    assert pause[0].box.contains(516, 1666) and pause[0].box.contains(566, 1666)
    for other in (
        [(505, 1624, 23, 84)],  # one bar alone
        [(505, 1624, 23, 84), (555, 1624, 23, 50)],  # bars of two heights
        [(505, 1624, 23, 84), (700, 1624, 23, 84)],  # far apart
        [(505, 1624, 23, 84), (555, 1700, 23, 84)],  # on other rows
        [(505, 1500, 23, 300), (555, 1500, 23, 300)],  # a chart's bars, too tall
    ):
        assert [e for e in find_icons(_bars(other), [], area) if e.icon_label == "pause"] == []


def test_two_stacked_lines_are_a_drag_handle() -> None:
    """NewPipe's play queue: two lines 48 x 4 px, 10 px apart, at each row's end."""
    area = [Box(0, 100, 1080, 1920)]
    handle = find_icons(_bars([(1002, 302, 48, 4), (1002, 316, 48, 4)]), [], area)
    assert [(e.icon_label, e.kind) for e in handle] == [("drag_handle", ElementKind.ICON)]
    for other in (
        [(1002, 302, 48, 4), (1002, 316, 30, 4)],  # lines of two lengths
        [(1002, 302, 48, 4), (1002, 316, 48, 4), (1002, 330, 48, 4)],  # three: a menu's bars
        [(1002, 302, 48, 4), (1002, 360, 48, 4)],  # far apart: two dividers
        [(1002, 302, 48, 14), (1002, 326, 48, 14)],  # thick bars
    ):
        assert [e for e in find_icons(_bars(other), [], area) if e.icon_label] == []
