"""Glyphs drawn over every picture of a grid (vision/overlays.py)."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.ocr import TextLine
from screenpilot.vision.overlays import drop_misreads, find_overlays
from screenpilot.vision.pipeline import Observations, assemble

SIDE, GAP, TOP = 220, 20, 400  # thumbnails on a 720 px wide screen


def _photo(rng: np.random.Generator) -> Image.Image:
    """A photo: smooth colour blobs, no white."""
    small = rng.integers(30, 200, size=(6, 6, 3)).astype(np.uint8)
    return Image.fromarray(small).resize((SIDE, SIDE), Image.Resampling.BICUBIC)


def _expand_badge(d: ImageDraw.ImageDraw, cx: int, cy: int) -> None:
    """A dark disc holding ⤢ as four white corner arrows."""
    d.ellipse((cx - 30, cy - 30, cx + 30, cy + 30), fill=(60, 60, 60))
    for sx in (-1, 1):
        for sy in (-1, 1):
            x, y = cx + sx * 16, cy + sy * 16
            d.line((x, y, x - sx * 9, y), fill=(255, 255, 255), width=3)
            d.line((x, y, x, y - sy * 9), fill=(255, 255, 255), width=3)
            d.line((x, y, x - sx * 7, y - sy * 7), fill=(255, 255, 255), width=3)


def _grid(
    count: int, badges: bool, white_beside: int | None = None
) -> tuple[np.ndarray, list[Box], list[tuple[int, int]]]:
    """``count`` thumbnails in rows of 3, each with an expand badge at its top right
    when ``badges``; thumbnail ``white_beside`` has white paint touching its badge."""
    rng = np.random.default_rng(7)
    im = Image.new("RGB", (720, 1600), (32, 32, 32))
    d = ImageDraw.Draw(im)
    boxes, centres = [], []
    for k in range(count):
        x, y = GAP + (k % 3) * (SIDE + GAP), TOP + (k // 3) * (SIDE + GAP)
        im.paste(_photo(rng), (x, y))
        if k == white_beside:
            d.rectangle((x + SIDE - 120, y + 5, x + SIDE - 75, y + 70), fill=(255, 255, 255))
        if badges:
            cx, cy = x + SIDE - 45, y + 45
            _expand_badge(d, cx, cy)
            centres.append((cx, cy))
        boxes.append(Box.of(x, y, x + SIDE, y + SIDE))
    return np.asarray(im), boxes, centres


def test_a_badge_on_every_thumbnail_is_an_icon() -> None:
    pixels, pictures, centres = _grid(6, badges=True)
    found = find_overlays(pixels, pictures, [])
    assert len(found) == 6
    assert all(f.kind is ElementKind.ICON and f.clickable and f.confidence < 0.5 for f in found)
    for cx, cy in centres:
        assert sum(f.box.contains(cx, cy) and f.box.width < 60 for f in found) == 1


def test_a_badge_that_white_paint_touches_is_found_by_its_look() -> None:
    pixels, pictures, centres = _grid(6, badges=True, white_beside=4)
    found = find_overlays(pixels, pictures, [])
    cx, cy = centres[4]
    assert any(f.box.contains(cx, cy) for f in found)
    assert len(found) == 6


def test_photos_without_badges_or_too_few_pictures_give_nothing() -> None:
    pixels, pictures, _ = _grid(6, badges=False, white_beside=2)
    assert find_overlays(pixels, pictures, []) == []
    pixels, pictures, _ = _grid(2, badges=True)
    assert find_overlays(pixels, pictures, []) == []


def test_a_glyph_under_a_word_is_left_to_ocr() -> None:
    pixels, pictures, centres = _grid(3, badges=True)
    words = [
        Element(0, ElementKind.TEXT, Box.of(cx - 40, cy - 25, cx + 40, cy + 25), text="Open")
        for cx, cy in centres
    ]
    assert find_overlays(pixels, pictures, words) == []


def test_the_glyph_read_as_a_letter_is_dropped() -> None:
    icon = Element(0, ElementKind.ICON, Box.of(100, 100, 150, 150))
    misread = Element(0, ElementKind.TEXT, Box.of(105, 110, 145, 140), text="K")
    beside = Element(0, ElementKind.TEXT, Box.of(300, 110, 345, 140), text="K")
    word = Element(0, ElementKind.TEXT, Box.of(90, 110, 160, 140), text="Kite")
    assert drop_misreads([misread, beside, word], [icon]) == [beside, word]


def test_describe_reports_the_badges_and_not_the_misreads() -> None:
    pixels, pictures, centres = _grid(6, badges=True)
    widgets = tuple(Element(0, ElementKind.IMAGE, p, confidence=0.9) for p in pictures)
    lines = tuple(
        TextLine("K", Box.of(cx - 20, cy - 12, cx + 20, cy + 12), 0.6) for cx, cy in centres[:3]
    )
    screen = assemble(pixels, Observations(lines, widgets), ("detect",), icons=None, reports={})
    for cx, cy in centres:
        on = [e for e in screen.elements if e.box.contains(cx, cy) and e.box.width < 100]
        assert [e.kind for e in on] == [ElementKind.ICON]
    assert not any(e.text == "K" for e in screen.elements)


def test_the_overlay_shows_an_icon_inside_a_picture_listed_after_it() -> None:
    from screenpilot.model import Screen
    from screenpilot.vision.overlay import KIND_COLOURS, render

    pixels = np.full((800, 720, 3), 250, np.uint8)
    icon = Element(1, ElementKind.ICON, Box.of(400, 300, 440, 340))
    picture = Element(2, ElementKind.IMAGE, Box.of(300, 200, 600, 500))
    drawn = np.asarray(render(pixels, Screen(720, 800, (icon, picture))).convert("RGB"))
    edge = drawn[320, 440 - 1].astype(int)  # the icon's right outline
    teal = np.array(KIND_COLOURS[ElementKind.ICON])
    assert np.abs(edge - teal).sum() < 60
