"""Round buttons found by their outline on any surround (vision/discs.py)."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.discs import add_round_buttons, find_round_buttons

W, H = 1080, 2280
BACK = (44, 212, 200, 370)  # a map app's back button: a white disc at the top left


def _map(seed: int = 3) -> Image.Image:
    """A map: light blue water with pale land patches of random shapes."""
    rng = np.random.default_rng(seed)
    im = Image.new("RGB", (W, H), (170, 210, 250))
    d = ImageDraw.Draw(im)
    for _ in range(120):
        x, y = rng.integers(0, W), rng.integers(0, H)
        pts = [(int(x + rng.integers(-60, 60)), int(y + rng.integers(-60, 60))) for _ in range(5)]
        d.polygon(pts, fill=(232, 236, 248))
    return im


def _back_button(im: Image.Image, box: tuple[int, int, int, int] = BACK) -> None:
    d = ImageDraw.Draw(im)
    d.ellipse(box, fill=(255, 255, 255))
    cx, cy = (box[0] + box[2]) // 2, (box[1] + box[3]) // 2
    d.line((cx - 28, cy, cx + 28, cy), fill=(0, 0, 0), width=7)  # ←
    d.line((cx - 28, cy, cx - 6, cy - 22), fill=(0, 0, 0), width=7)
    d.line((cx - 28, cy, cx - 6, cy + 22), fill=(0, 0, 0), width=7)


def test_a_disc_with_a_glyph_on_a_map_is_a_round_button() -> None:
    im = _map()
    _back_button(im)
    found = find_round_buttons(np.asarray(im), [])
    assert len(found) == 1
    assert found[0].iou(Box.of(*BACK)) > 0.8


def test_a_map_alone_a_ring_or_a_plain_disc_is_not() -> None:
    im = _map()
    d = ImageDraw.Draw(im)
    d.ellipse((400, 600, 560, 760), outline=(40, 40, 40), width=6)  # a ring, no fill
    d.ellipse((400, 1000, 560, 1160), fill=(255, 255, 255))  # a disc, no glyph
    assert find_round_buttons(np.asarray(im), []) == []


def test_a_button_under_text_or_in_the_status_bar_is_left_out() -> None:
    im = _map()
    _back_button(im)
    _back_button(im, (600, 4, 680, 84))  # in the status bar
    words = [Box.of(60, 270, 190, 320)]  # OCR read something on it
    assert find_round_buttons(np.asarray(im), words) == []


def test_a_round_button_is_added_over_a_map_but_not_over_its_own_glyph() -> None:
    button = Box.of(*BACK)
    map_picture = Element(1, ElementKind.IMAGE, Box.of(0, 150, W, 1500))
    out = add_round_buttons([map_picture], [button])
    assert len(out) == 2
    icon = out[1]
    assert icon.kind is ElementKind.ICON and icon.clickable and icon.target == button
    assert button.contains(*icon.box.center) and icon.box.area < 0.5 * button.area
    glyph = Element(1, ElementKind.IMAGE, Box.of(90, 260, 150, 320))  # the detector's arrow
    assert add_round_buttons([glyph], [button]) == [glyph]
