"""Block division (Algorithm 1) on a drawn layout, and bars on a real screen."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from screenpilot.model import BlockKind, Box
from screenpilot.vision.blocks import Region, divide, find_lines, quantise
from screenpilot.vision.image import load_image

SCREENS = Path(__file__).parent / "data" / "screens"


def _layout(w: int = 1080, h: int = 2400) -> np.ndarray:
    image = Image.new("RGB", (w, h), (250, 250, 250))
    d = ImageDraw.Draw(image)
    d.rectangle([0, 0, w, 62], fill=(25, 118, 210))  # status bar
    d.rectangle([0, 63, w, 209], fill=(33, 150, 243))  # toolbar
    for i in range(6):  # a list: 5 rows between dividers
        y = 400 + i * 160
        d.rectangle([0, y, w, y + 2], fill=(220, 220, 220))
    d.rectangle([60, 1500, w - 60, 1900], outline=(180, 180, 180), width=3)  # a card
    d.rectangle([0, h - 126, w, h], fill=(0, 0, 0))  # navigation bar
    return np.asarray(image)


def _find(regions: list[Region], kind: BlockKind) -> list[Box]:
    return [r.box for r in regions if r.kind is kind]


def test_quantise_keeps_k_levels() -> None:
    gray = np.arange(256, dtype=np.uint8).reshape(16, 16)
    assert len(np.unique(quantise(gray, k=4))) <= 4


def test_lines_of_the_layout() -> None:
    hs, vs = find_lines(_layout())
    full = sorted(round(s.pos) for s in hs if s.length > 1000)
    for y in (400, 560, 720, 880, 1040, 1200):
        assert any(abs(p - y) <= 4 for p in full), (y, full)
    assert any(abs(s.pos - 60) <= 4 and s.length > 350 for s in vs)


def test_divides_the_layout() -> None:
    regions = divide(_layout())
    assert _find(regions, BlockKind.STATUS_BAR)[0].y2 in range(55, 70)
    toolbar = _find(regions, BlockKind.TOOLBAR)[0]
    assert abs(toolbar.y1 - 63) <= 8 and abs(toolbar.y2 - 210) <= 8
    nav = _find(regions, BlockKind.NAVIGATION_BAR)[0]
    assert abs(nav.y1 - 2274) <= 8 and nav.y2 == 2400
    lists = _find(regions, BlockKind.LIST)
    assert any(b.iou(Box(0, 400, 1080, 1202)) > 0.7 for b in lists), lists
    cards = _find(regions, BlockKind.CARD)
    assert len(cards) == 1 and cards[0].iou(Box(60, 1500, 1020, 1900)) > 0.9


def test_real_settings_screen() -> None:
    regions = divide(load_image(SCREENS / "netguard-32-settings-network.png"))
    kinds = {r.kind for r in regions}
    assert {
        BlockKind.STATUS_BAR,
        BlockKind.TOOLBAR,
        BlockKind.NAVIGATION_BAR,
        BlockKind.LIST,
    } <= kinds
    nav = _find(regions, BlockKind.NAVIGATION_BAR)[0]
    assert abs(nav.y1 - 1776) <= 6


def test_landscape_and_blank_images_have_no_bars() -> None:
    assert divide(np.full((400, 800, 3), 255, np.uint8)) == []


def test_a_dp_is_counted_across_the_short_side() -> None:
    from screenpilot.vision.blocks import dp_size

    assert dp_size(1080, 2400) == dp_size(2400, 1080) == pytest.approx(1080 / 411)


def _toolbar_screen(top: int) -> np.ndarray:
    """A dark toolbar 56 dp tall from ``top`` (its title and four icons drawn), under a
    status bar of the same colour when ``top`` > 0 (its clock and battery drawn)."""
    w, h = 1080, 2400
    dp = w / 411
    image = Image.new("RGB", (w, h), (250, 250, 250))
    d = ImageDraw.Draw(image)
    bottom = top + round(56 * dp)
    d.rectangle([0, 0, w, bottom], fill=(30, 35, 40))
    if top:  # the status bar's clock and battery, within its top 20 dp
        d.rectangle([40, round(6 * dp), 140, round(17 * dp)], fill=(230, 230, 230))
        d.rectangle([980, round(6 * dp), 1030, round(17 * dp)], fill=(230, 230, 230))
    mid = top + round(28 * dp)
    for x in range(50, 330, 28):  # the title's strokes
        d.rectangle([x, mid - 40, x + 6, mid + 40], fill=(240, 240, 240))
    for x in (640, 750, 860, 970):  # its icons, 24 dp outlines
        d.rectangle([x, mid - 32, x + 63, mid + 32], outline=(240, 240, 240), width=6)
    return np.asarray(image)


def test_a_screenshot_cut_below_the_status_bar_starts_with_its_toolbar() -> None:
    dp = 1080 / 411
    regions = divide(_toolbar_screen(0))
    assert _find(regions, BlockKind.STATUS_BAR) == []
    toolbar = _find(regions, BlockKind.TOOLBAR)[0]
    assert toolbar.y1 == 0 and abs(toolbar.y2 - 56 * dp) <= 4
    with_status = divide(_toolbar_screen(round(24 * dp)))
    assert _find(with_status, BlockKind.STATUS_BAR)[0].y2 == round(24 * dp)
    assert abs(_find(with_status, BlockKind.TOOLBAR)[0].y2 - 80 * dp) <= 4
