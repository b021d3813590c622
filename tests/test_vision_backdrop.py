"""Pictures on a busy backdrop: a launcher's icons on a wallpaper (vision/backdrop.py)."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from screenpilot.model import Box, ElementKind
from screenpilot.vision.backdrop import find_backdrop_pictures

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
