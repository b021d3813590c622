"""The icon model's answer checked against the drawing (vision/answers.py)."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from screenpilot.model import Box
from screenpilot.vision.answers import checked_answer, mirror_match

PAGE = (230, 230, 230)
INK = (240, 100, 60)
BOX = Box(90, 90, 170, 170)


def _page(draw: str) -> np.ndarray:
    img = Image.new("RGB", (300, 300), PAGE)
    d = ImageDraw.Draw(img)
    if draw == "cross":
        d.line((100, 100, 160, 160), fill=INK, width=7)
        d.line((100, 160, 160, 100), fill=INK, width=7)
    elif draw == "ring cross":
        d.ellipse((96, 96, 164, 164), outline=INK, width=5)
        d.line((115, 115, 145, 145), fill=INK, width=5)
        d.line((115, 145, 145, 115), fill=INK, width=5)
    elif draw == "slashed triangle":  # mobile data blocked: a signal triangle, slashed
        d.polygon([(160, 100), (160, 160), (100, 160)], fill=INK)
        d.line((100, 100, 160, 160), fill=PAGE, width=9)
        d.line((104, 100, 164, 160), fill=INK, width=5)
    return np.asarray(img)


def test_a_cross_matches_its_mirror_and_stays_close() -> None:
    for draw in ("cross", "ring cross"):
        px = _page(draw)
        assert (mirror_match(px, BOX) or 0) >= 0.8
        assert checked_answer(px, BOX, "close") == "close"


def test_a_slashed_triangle_is_no_close() -> None:
    px = _page("slashed triangle")
    assert (mirror_match(px, BOX) or 1) < 0.57
    assert checked_answer(px, BOX, "close") == ""
    assert checked_answer(px, BOX, "signal") == "signal"  # other answers are not judged


def test_no_ink_keeps_the_answer() -> None:
    px = np.full((300, 300, 3), 230, np.uint8)
    assert mirror_match(px, BOX) is None
    assert checked_answer(px, BOX, "close") == "close"


def _square(colour: tuple[int, int, int], side: int, tab: bool = False) -> np.ndarray:
    """A 1080-wide page with one solid square at (300, 300), a folder's tab on it."""
    img = Image.new("RGB", (1080, 1600), (250, 250, 250))
    d = ImageDraw.Draw(img)
    d.rectangle((300, 300, 300 + side - 1, 300 + side - 1), fill=colour)
    if tab:  # a folder: wider than tall, a tab on its top left
        img = Image.new("RGB", (1080, 1600), (250, 250, 250))
        d = ImageDraw.Draw(img)
        d.rectangle((300, 310, 300 + round(side * 1.25) - 1, 300 + side - 1), fill=colour)
        d.rectangle((300, 300, 300 + side // 2, 312), fill=colour)
    return np.asarray(img)


def test_a_neutral_square_stays_stop_and_a_swatch_or_folder_does_not() -> None:
    box = Box(290, 290, 360, 360)
    assert checked_answer(_square((60, 60, 60), 40), box, "stop") == "stop"  # a glyph
    assert checked_answer(_square((220, 40, 40), 30), box, "stop") == "stop"  # small red
    assert checked_answer(_square((30, 90, 200), 64), box, "stop") == ""  # a 24 dp swatch
    wide = Box(290, 290, 390, 360)
    assert checked_answer(_square((110, 110, 110), 40, tab=True), wide, "stop") == ""


def _ring_page(draw: str) -> np.ndarray:
    img = Image.new("RGB", (300, 300), (250, 250, 250))
    d = ImageDraw.Draw(img)
    if draw == "score ring":  # LoopHabits: a blue arc over a pale grey track
        d.ellipse((105, 105, 155, 155), outline=(231, 231, 231), width=9)
        d.arc((105, 105, 155, 155), start=-90, end=150, fill=(25, 118, 210), width=9)
    elif draw == "power":  # a ring open at the top, a bar down to its middle
        d.arc((105, 105, 155, 155), start=-60, end=240, fill=(40, 40, 40), width=6)
        d.line((130, 98, 130, 130), fill=(40, 40, 40), width=6)
    elif draw == "sun":  # a disc in the middle, rays round it
        d.ellipse((118, 118, 142, 142), fill=(40, 40, 40))
        for k in range(8):
            a = k * np.pi / 4
            d.line(
                (
                    130 + 17 * np.cos(a),
                    130 + 17 * np.sin(a),
                    130 + 25 * np.cos(a),
                    130 + 25 * np.sin(a),
                ),
                fill=(40, 40, 40),
                width=4,
            )
    return np.asarray(img)


def test_a_bare_ring_is_neither_power_nor_brightness() -> None:
    from screenpilot.vision.answers import is_bare_ring

    box = Box(95, 95, 165, 165)
    ring = _ring_page("score ring")
    assert is_bare_ring(ring, box)
    assert checked_answer(ring, box, "power") == ""
    assert checked_answer(ring, box, "brightness") == ""
    assert checked_answer(ring, box, "sync") == "sync"  # not checked: kept
    for draw, label in (("power", "power"), ("sun", "brightness")):
        px = _ring_page(draw)
        assert not is_bare_ring(px, box)
        assert checked_answer(px, box, label) == label


def test_a_power_glyph_whose_bar_stands_apart_from_its_ring_keeps_its_answer() -> None:
    """A power glyph drawn small: its ring closed but for a sliver, its bar a part of
    its own reaching into the ring's middle."""
    img = Image.new("RGB", (300, 300), (250, 250, 250))
    d = ImageDraw.Draw(img)
    d.arc((105, 105, 155, 155), start=-84, end=264, fill=(40, 40, 40), width=9)
    d.line((130, 118, 130, 130), fill=(40, 40, 40), width=3)
    px = np.asarray(img)
    assert checked_answer(px, Box(95, 95, 165, 165), "power") == "power"


def _logo() -> np.ndarray:
    """Chrome's logo drawn roughly: a ring of red, yellow and green round a blue disc."""
    img = Image.new("RGB", (300, 300), (250, 250, 250))
    d = ImageDraw.Draw(img)
    for start, colour in ((210, (219, 68, 55)), (330, (244, 180, 0)), (90, (15, 157, 88))):
        d.pieslice((92, 92, 168, 168), start, start + 120, fill=colour)
    d.ellipse((113, 113, 147, 147), fill=(250, 250, 250))
    d.ellipse((118, 118, 142, 142), fill=(66, 133, 244))
    return np.asarray(img)


def test_a_logo_of_many_colours_names_no_function() -> None:
    from screenpilot.vision.hues import hue_count, many_hues

    logo = _logo()
    assert hue_count(logo[BOX.y1 : BOX.y2, BOX.x1 : BOX.x2]) >= 3 and many_hues(logo, BOX)
    assert checked_answer(logo, BOX, "location") == ""
    glyph = _page("cross")  # one colour on the page
    assert not many_hues(glyph, BOX) and checked_answer(glyph, BOX, "close") == "close"
    button = np.asarray(Image.new("RGB", (300, 300), (33, 150, 243)))  # a blue button ...
    button = button.copy()
    button[120:140, 100:160] = 255  # ... with a white bar: two colours
    assert not many_hues(button, BOX)
    assert checked_answer(button, BOX, "remove") == "remove"
    assert hue_count(np.zeros((0, 0, 3), np.uint8)) == 0
