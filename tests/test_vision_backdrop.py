"""Pictures on a busy backdrop: a launcher's icons on a wallpaper (vision/backdrop.py)."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.backdrop import find_backdrop_pictures, in_a_row

W, H = 1080, 2160
#: Four dock icons of 140 px (0.13 of the width) in a row near the bottom.
DOCK = [(130 + i * 220, 1820, 270 + i * 220, 1960) for i in range(4)]


def _wallpaper() -> Image.Image:
    """A wallpaper's gradient: dark teal at the top left to pink at the bottom right."""
    x = np.linspace(0.0, 1.0, W)[None, :, None]
    y = np.linspace(0.0, 1.0, H)[:, None, None]
    t = 0.5 * x + 0.5 * y
    top, bottom = np.array([10, 40, 50]), np.array([220, 120, 140])
    return Image.fromarray(((1 - t) * top + t * bottom).astype(np.uint8))


def _icon(im: Image.Image, box: tuple[int, int, int, int], fill: tuple[int, int, int]) -> None:
    d = ImageDraw.Draw(im)
    d.rounded_rectangle(box, radius=24, fill=fill)
    x1, y1, x2, y2 = box
    d.ellipse((x1 + 40, y1 + 40, x2 - 40, y2 - 40), fill=(255, 255, 255))  # its glyph


def test_icons_on_a_gradient_wallpaper_are_found() -> None:
    im = _wallpaper()
    fills = [(30, 140, 230), (90, 200, 60), (250, 200, 30), (120, 60, 200)]
    for box, fill in zip(DOCK, fills, strict=True):
        _icon(im, box, fill)
    found = find_backdrop_pictures(np.asarray(im), [])
    assert len(found) == len(DOCK)
    for e, box in zip(sorted(found, key=lambda e: e.box.x1), DOCK, strict=True):
        assert e.kind is ElementKind.ICON and e.clickable
        assert e.box.iou(Box.of(*box)) > 0.8


def test_a_wallpaper_alone_or_a_panel_corner_gives_nothing() -> None:
    assert find_backdrop_pictures(np.asarray(_wallpaper()), []) == []
    page = Image.new("RGB", (W, H), (250, 250, 250))
    ImageDraw.Draw(page).rectangle((700, 1200, W, H), fill=(90, 90, 90))  # a panel's corner
    ImageDraw.Draw(page).rectangle((0, 600, 1080, 900), fill=(30, 30, 30))  # a dark band
    assert find_backdrop_pictures(np.asarray(page), []) == []


def test_what_describe_found_or_the_status_bar_keeps_its_place() -> None:
    im = _wallpaper()
    _icon(im, DOCK[0], (30, 140, 230))
    _icon(im, (500, 10, 580, 90), (30, 140, 230))  # in the status bar
    assert find_backdrop_pictures(np.asarray(im), [Box.of(*DOCK[0])]) == []


def test_a_button_the_icons_lie_on_does_not_take_them_but_a_picture_does() -> None:
    im = _wallpaper()
    _icon(im, DOCK[0], (30, 140, 230))
    dock = Box.of(0, 1780, W, 2000)  # the whole dock reported as one button
    found = find_backdrop_pictures(np.asarray(im), [], panels=[dock])
    assert [e.box.iou(Box.of(*DOCK[0])) > 0.8 for e in found] == [True]
    # a button about the icon's size takes it; so does a picture of any size (a photo)
    assert find_backdrop_pictures(np.asarray(im), [], panels=[Box.of(100, 1800, 300, 1980)]) == []
    assert find_backdrop_pictures(np.asarray(im), [dock]) == []


def _home_with_hill(icons: bool) -> tuple[Image.Image, list[tuple[int, int, int, int]]]:
    """The emulator's default home: a pink-to-purple wallpaper, a dark hill whose ridge
    the dock's round icons stand on, a pale search bar; the icons' boxes."""
    y = np.linspace(0.0, 1.0, H)[:, None, None]
    top, bottom = np.array([200, 110, 150]), np.array([110, 50, 120])
    im = Image.fromarray(np.broadcast_to((1 - y) * top + y * bottom, (H, W, 3)).astype(np.uint8))
    d = ImageDraw.Draw(im)
    d.polygon([(0, 1930), (300, 1880), (600, 1910), (W, 1870), (W, H), (0, H)], fill=(45, 20, 70))
    d.rounded_rectangle((60, 2010, W - 60, 2120), radius=55, fill=(215, 210, 220))
    circles = [(270 + i * 200, 1800, 410 + i * 200, 1940) for i in range(3)]
    if icons:
        d.ellipse(circles[0], fill=(30, 120, 230))
        d.ellipse(circles[1], fill=(250, 250, 250))
        d.polygon([(510, 1830), (580, 1870), (510, 1910)], fill=(40, 160, 90))  # its glyph
        d.ellipse(circles[2], fill=(220, 60, 50))
    return im, circles


def test_icons_standing_on_a_dark_hill_are_split_from_it_by_colour() -> None:
    # icons, hill and search bar differ from the wallpaper as one blob too large for a
    # picture; its colour groups part them
    im, circles = _home_with_hill(icons=True)
    found = sorted(find_backdrop_pictures(np.asarray(im), []), key=lambda e: e.box.x1)
    assert len(found) == len(circles)
    for e, box in zip(found, circles, strict=True):
        assert e.kind is ElementKind.ICON
        assert Box.of(*box).contains(*e.box.center)
        assert e.box.area <= Box.of(*box).area * 1.2
    # the white icon is as pale as the search bar: only its glyph stands out
    assert found[0].box.iou(Box.of(*circles[0])) > 0.8
    assert found[2].box.iou(Box.of(*circles[2])) > 0.8
    # only a band across the screen's foot is split: the same band at the top (a video
    # frame's place) is not
    flipped = np.ascontiguousarray(np.asarray(im)[::-1])
    assert find_backdrop_pictures(flipped, []) == []


def test_a_hill_and_a_search_bar_alone_give_nothing() -> None:
    im, _ = _home_with_hill(icons=False)
    assert find_backdrop_pictures(np.asarray(im), []) == []


def test_a_part_split_out_is_kept_only_in_a_row_of_pictures() -> None:
    def part(x: int, y: int, side: int) -> Element:
        return Element(0, ElementKind.ICON, Box(x, y, x + side, y + side))

    lone = part(100, 500, 120)  # a patch of a photo: nothing beside it
    assert in_a_row([lone]) == []
    left, right = part(100, 1800, 136), part(700, 1800, 136)
    glyph = part(510, 1830, 76)  # a white icon's glyph, level with both
    far = part(300, 1400, 136)  # above the row
    assert in_a_row([left, right, glyph, far]) == [left, right, glyph]
    # a picture found otherwise stands in the row
    assert in_a_row([left], [Box(700, 1805, 830, 1930)]) == [left]
    assert in_a_row([lone], [Box(700, 1805, 830, 1930)]) == []
