"""The chosen radio option from its pixels (vision/radios.py), on the virtual phone's
single-choice dialog and on drawn rings."""

from __future__ import annotations

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from screenpilot.core.fonts import text_font
from screenpilot.model import Box, Element, ElementKind
from screenpilot.simulator.phone import VirtualPhone
from screenpilot.vision.pipeline import describe
from screenpilot.vision.radios import find_radio_buttons, radio_chosen, with_radio_buttons
from screenpilot.vision.states import with_state


def _timeout_dialog() -> tuple[np.ndarray, VirtualPhone]:
    phone = VirtualPhone()
    phone.open_page("settings", "display")
    assert phone.tap_text("Screen timeout")
    return np.asarray(phone.frame().image.convert("RGB")), phone


def test_the_chosen_option_of_the_virtual_phones_dialog() -> None:
    pixels, phone = _timeout_dialog()
    options = [e for e in phone.screen().elements if e.kind is ElementKind.TEXT and e.box.y1 > 700]
    rows = [o for o in options if o.text.endswith(("seconds", "minute", "minutes"))]
    assert len(rows) >= 5
    for o in rows:  # the option's row: its ring left of its label
        box = Box.of(o.box.x1 - 130, o.box.y1 - 35, o.box.x2, o.box.y2 + 35)
        assert radio_chosen(pixels, box) is o.selected, o.text
    assert sum(o.selected for o in rows) == 1


def _ring(pixels: np.ndarray, cx: int, cy: int, dot: bool) -> None:
    cv2.circle(pixels, (cx, cy), 26, (103, 80, 164), 5, lineType=cv2.LINE_AA)
    if dot:
        cv2.circle(pixels, (cx, cy), 13, (103, 80, 164), -1, lineType=cv2.LINE_AA)


def test_a_ring_with_a_dot_is_chosen_and_an_empty_one_is_not() -> None:
    pixels = np.full((2400, 1080, 3), 250, np.uint8)
    _ring(pixels, 100, 500, dot=True)
    _ring(pixels, 100, 700, dot=False)
    assert radio_chosen(pixels, Box.of(40, 440, 600, 560)) is True
    assert radio_chosen(pixels, Box.of(40, 640, 600, 760)) is False
    chosen = with_state(pixels, Element(0, ElementKind.RADIO_GROUP, Box.of(40, 440, 600, 560)))
    assert chosen.selected and chosen.clickable


def test_no_ring_no_answer() -> None:
    pixels = np.full((2400, 1080, 3), 250, np.uint8)
    cv2.circle(pixels, (100, 500), 26, (103, 80, 164), -1)  # a filled disc: an avatar
    assert radio_chosen(pixels, Box.of(40, 440, 600, 560)) is None
    assert radio_chosen(pixels, Box.of(40, 300, 600, 900)) is None  # a whole group's box
    plain = with_state(pixels, Element(0, ElementKind.RADIO_GROUP, Box.of(40, 640, 600, 760)))
    assert not plain.selected and plain.clickable


# ---------------------------------------------------------------- rings found from pixels


def _dialog(labels: list[str], chosen: int, *, ring_x: int = 150) -> np.ndarray:
    """A light single-choice dialog: a column of rings 20 dp across (2.6 px a dp), each
    left of its label, the ``chosen`` one holding a dot."""
    image = Image.new("RGB", (1080, 2400), (250, 250, 250))
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(str(text_font()), 44)
    for k, label in enumerate(labels):
        cy = 600 + 150 * k
        draw.text((ring_x + 120, cy - 26), label, font=font, fill=(30, 30, 30))
    pixels = np.asarray(image).copy()
    for k in range(len(labels)):
        _ring(pixels, ring_x, 600 + 150 * k, dot=k == chosen)
    return pixels


def test_a_column_of_rings_is_found_with_the_chosen_one() -> None:
    pixels = _dialog(["Allow all the time", "Allow only while using", "Deny"], chosen=2)
    found = sorted(find_radio_buttons(pixels), key=lambda e: e.box.y1)
    assert [e.kind for e in found] == [ElementKind.RADIO_GROUP] * 3
    assert [e.selected for e in found] == [False, False, True]
    assert all(e.clickable and abs(e.box.center[0] - 150) <= 3 for e in found)


def test_a_lone_ring_a_thin_fonts_letters_and_an_icon_in_a_ring_are_no_radio_buttons() -> None:
    pixels = np.full((2400, 1080, 3), 250, np.uint8)
    _ring(pixels, 540, 2300, dot=False)  # a navigation bar's home key: one ring alone
    for cy in (600, 800):  # rings holding a plus (an "add" icon): no dot, no page
        _ring(pixels, 150, cy, dot=False)
        cv2.line(pixels, (138, cy), (162, cy), (103, 80, 164), 4)
        cv2.line(pixels, (150, cy - 12), (150, cy + 12), (103, 80, 164), 4)
    assert find_radio_buttons(pixels) == []
    image = Image.new("RGB", (1080, 2400), (37, 41, 46))
    font = ImageFont.truetype(str(text_font()), 130)
    font.set_variation_by_name("Thin")  # adfree's "what do you want to do": round o's
    draw = ImageDraw.Draw(image)
    draw.text((100, 600), "what do you want", font=font, fill=(200, 195, 185))
    draw.text((100, 780), "to do on noon", font=font, fill=(200, 195, 185))
    assert find_radio_buttons(np.asarray(image)) == []


def test_the_virtual_phones_dialog_rings_are_found() -> None:
    pixels, phone = _timeout_dialog()
    found = find_radio_buttons(pixels)
    options = [e for e in phone.screen().elements if e.kind is ElementKind.TEXT]
    rows = [o for o in options if o.text.endswith(("seconds", "minute", "minutes"))]
    assert len(found) == len(rows)
    for o in rows:  # each ring on its label's row, left of it, chosen as the option is
        ring = next(f for f in found if abs(f.box.center[1] - o.box.center[1]) < 20)
        assert ring.box.x2 < o.box.x1 and ring.selected is o.selected, o.text


def test_with_radio_buttons_replaces_pictures_of_the_rings_and_keeps_an_option() -> None:
    pixels = _dialog(["Allow all the time", "Deny"], chosen=0)
    cv2.rectangle(pixels, (320, 720), (380, 780), (0, 120, 200), -1)  # an app's icon
    ring = Box.of(121, 571, 180, 630)
    widgets = [
        Element(0, ElementKind.IMAGE, Box.of(115, 565, 186, 636), confidence=0.5),  # the ring
        Element(0, ElementKind.CHECK_BOX, Box.of(60, 565, 125, 636), confidence=0.8),  # beside
        Element(0, ElementKind.IMAGE, Box.of(310, 710, 390, 790), confidence=0.5),  # an icon
    ]
    out = with_radio_buttons(pixels, widgets)
    radio, image = ElementKind.RADIO_GROUP, ElementKind.IMAGE
    assert [e.kind for e in out] == [image, radio, radio]  # the icon beside a ring stays
    assert out[0].box == widgets[2].box
    assert any(e.selected and e.box.iou(ring) > 0.7 for e in out)
    option = Element(0, ElementKind.RADIO_GROUP, Box.of(100, 540, 900, 660), confidence=0.7)
    kept = with_radio_buttons(pixels, [option])
    assert kept[0] is option and len(kept) == 2  # the first ring is the option's


def test_a_loose_empty_button_round_a_ring_gives_way_but_not_one_holding_more() -> None:
    """NetGuard's sort menu: a 156 x 136 px "button" round the chosen 60 px ring (5.9x
    its area), nothing but the menu's white round it."""
    pixels = _dialog(["Sort by name", "Sort by data usage"], chosen=0, ring_x=900)
    loose = Element(0, ElementKind.BUTTON, Box.of(822, 532, 978, 668), confidence=0.7)
    out = with_radio_buttons(pixels, [loose])
    assert [e.kind for e in out] == [ElementKind.RADIO_GROUP] * 2
    cv2.rectangle(pixels, (830, 640), (850, 660), (0, 120, 200), -1)  # something else in it
    assert loose in with_radio_buttons(pixels, [loose])
    huge = Element(0, ElementKind.BUTTON, Box.of(780, 480, 1020, 720), confidence=0.7)  # 16x
    assert huge in with_radio_buttons(_dialog(["A", "B"], chosen=0, ring_x=900), [huge])


def test_describe_names_each_option_by_its_label() -> None:
    pixels = _dialog(["Allow all the time", "Deny"], chosen=1)
    screen = describe(pixels, stages=("ocr", "detect", "blocks"))
    radios = [e for e in screen.elements if e.kind is ElementKind.RADIO_GROUP]
    assert {(e.label, e.selected) for e in radios} == {
        ("Allow all the time", False),
        ("Deny", True),
    }
    texts = [e.text for e in screen.elements if e.kind is ElementKind.TEXT]
    assert not {"O", "o", "0"} & set(texts)  # the rings are not read as letters
