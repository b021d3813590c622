"""Line drawings found from the pixels (vision/drawings.py): a map drawn in thin lines is
one picture, outlined cards and chips are not."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.drawings import find_drawings, in_drawings

REAL = Path(__file__).resolve().parents[2] / "shared" / "data" / "real-screens"
PAGE, LINE = (250, 250, 250), (60, 60, 60)


def _coast(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, seed: int) -> None:
    """A continent's outline: a closed wobbly line 2 px wide."""
    rng = np.random.default_rng(seed)
    wobble = rng.uniform(0.6, 1.0, 40)
    points = [
        (
            cx + r * wobble[k] * math.cos(2 * math.pi * k / 40),
            cy + r * wobble[k] * math.sin(2 * math.pi * k / 40),
        )
        for k in range(40)
    ]
    d.line([*points, points[0]], fill=LINE, width=2)


def _map() -> np.ndarray:
    image = Image.new("RGB", (1080, 2400), PAGE)
    d = ImageDraw.Draw(image)
    _coast(d, 300, 1200, 220, 1)  # two continents whose boxes overlap (TrackerControl's
    _coast(d, 620, 1150, 260, 2)  # Americas and Eurasia)
    _coast(d, 470, 960, 18, 3)  # an island between them
    return np.asarray(image)


def test_a_map_in_thin_lines_is_one_picture_with_its_islands() -> None:
    pixels = _map()
    drawings = find_drawings(pixels, [])
    assert [d.kind for d in drawings] == [ElementKind.IMAGE]
    box = drawings[0].box
    assert box.x1 < 120 and box.x2 > 840 and box.y1 < 940 and box.y2 > 1370
    island = Element(0, ElementKind.ICON, Box(450, 942, 490, 978), confidence=0.3)
    assert in_drawings(island, drawings)
    assert not in_drawings(Element(0, ElementKind.ICON, Box(40, 200, 100, 260)), drawings)


def test_text_over_it_or_outlines_are_no_drawing() -> None:
    pixels = _map()
    assert find_drawings(pixels, [Box(0, 850, 1080, 1500)]) == []  # the known boxes cover it
    image = Image.new("RGB", (1080, 2400), PAGE)
    d = ImageDraw.Draw(image)
    for row in range(6):  # a grid of outlined chips, joined by the dilation
        for col in range(3):
            x, y = 80 + col * 300, 600 + row * 90
            d.rounded_rectangle((x, y, x + 290, y + 80), radius=20, outline=LINE, width=2)
    d.rectangle((60, 1300, 1020, 2000), outline=LINE, width=2)  # a dialog's outline
    d.line((60, 1500, 1020, 1500), fill=LINE, width=2)
    assert find_drawings(np.asarray(image), []) == []


@pytest.mark.skipif(
    not (REAL / "TrackerControl" / "3.png").exists(), reason="../shared/data absent"
)
def test_trackercontrols_world_map() -> None:
    from screenpilot.vision.pipeline import analyse

    screen = analyse(REAL / "TrackerControl" / "3.png").screen
    below = [
        e for e in screen.elements if e.box.y1 > 850 and e.kind is not ElementKind.NAVIGATION_BAR
    ]
    assert [e.kind for e in below] == [ElementKind.IMAGE]  # no island icons, no button
    assert below[0].box.width > 900
