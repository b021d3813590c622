"""The Wi-Fi fan and the mobile signal's triangle named from their pixels
(vision/signals.py), and inside the glyph rules (vision/glyphrules.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.glyphrules import name_drawn_glyphs
from screenpilot.vision.signals import SIGNAL, WIFI, signal_label

REAL = Path(__file__).resolve().parents[2] / "shared" / "data" / "real-screens"
PAGE = (250, 250, 250)
DARK = (0, 150, 136)
PALE = (178, 223, 219)
#: 1080 px across: 2.63 px a dp; glyphs drawn about 24 dp (64 px) in a 100 px box
BOX = Box(100, 100, 200, 200)


def _fan(
    d: ImageDraw.ImageDraw, cx: float, apex: float, r: float, fill: tuple[int, int, int]
) -> None:
    """Material's Wi-Fi fan: a circle's sector of 90 degrees opening upwards from
    ``(cx, apex)``."""
    d.pieslice((cx - r, apex - r, cx + r, apex + r), start=225, end=315, fill=fill)


def _page(draw: str) -> np.ndarray:
    img = Image.new("RGB", (1080, 2000), PAGE)
    d = ImageDraw.Draw(img)
    if draw == "wifi":
        _fan(d, 150, 170, 45, DARK)
    elif draw == "wifi two-tone":  # two bars of four: a pale full fan, a darker smaller one
        _fan(d, 150, 170, 45, PALE)
        _fan(d, 150, 170, 28, DARK)
    elif draw == "signal":
        d.polygon([(180, 120), (180, 175), (125, 175)], fill=DARK)
    elif draw == "signal two-tone":
        d.polygon([(180, 120), (180, 175), (125, 175)], fill=PALE)
        d.polygon([(155, 145), (155, 175), (125, 175)], fill=DARK)
    elif draw == "down triangle":  # a drop-down's arrow: its top row is its widest
        d.polygon([(115, 130), (185, 130), (150, 170)], fill=DARK)
    elif draw == "pin":  # a map pin: a disc over a point, taller than wide
        d.ellipse((125, 110, 175, 160), fill=DARK)
        d.polygon([(128, 145), (172, 145), (150, 190)], fill=DARK)
    elif draw == "left triangle":  # a right angle at the bottom left: not the signal's
        d.polygon([(125, 120), (125, 175), (180, 175)], fill=DARK)
    elif draw == "launcher fan":  # an app's icon that pictures a fan, 48 dp
        img = Image.new("RGB", (1080, 2000), PAGE)
        d = ImageDraw.Draw(img)
        _fan(d, 300, 330, 150, DARK)
    return np.asarray(img)


@pytest.mark.parametrize(
    ("draw", "label"),
    [("wifi", WIFI), ("wifi two-tone", WIFI), ("signal", SIGNAL), ("signal two-tone", SIGNAL)],
)
def test_the_network_glyphs_are_named(draw: str, label: str) -> None:
    assert signal_label(_page(draw), BOX) == label


@pytest.mark.parametrize("draw", ["down triangle", "pin", "left triangle", "blank"])
def test_other_shapes_are_not(draw: str) -> None:
    assert signal_label(_page(draw), BOX) == ""


def test_an_app_icon_as_large_as_a_launchers_is_not_a_glyph() -> None:
    assert signal_label(_page("launcher fan"), Box(100, 150, 500, 350)) == ""


def test_the_glyph_rules_name_a_fan_with_no_text_only() -> None:
    px = _page("wifi")
    els = [
        Element(id=1, kind=ElementKind.ICON, box=BOX),
        Element(id=2, kind=ElementKind.IMAGE, box=BOX, text="Wi"),  # a word read on it
    ]
    named = name_drawn_glyphs(px, els)
    assert [(e.text, e.icon_label) for e in named] == [("", WIFI), ("Wi", "")]


@pytest.mark.skipif(
    not (REAL / "NetGuard" / "01-main.png").exists(), reason="../shared/data absent"
)
def test_netguards_rows_show_what_each_app_may_use() -> None:
    from screenpilot.vision.pipeline import analyse

    screen = analyse(REAL / "NetGuard" / "01-main.png").screen
    labels = [e.icon_label for e in screen.elements]
    assert labels.count(WIFI) >= 3 and labels.count(SIGNAL) >= 1


def test_a_gem_flat_on_top_is_no_fan() -> None:
    """Habitica's gem: widest near its flat top, pointed at the bottom."""
    img = Image.new("RGB", (1080, 2000), PAGE)
    d = ImageDraw.Draw(img)
    d.polygon([(132, 130), (168, 130), (182, 145), (150, 180), (118, 145)], fill=DARK)
    assert signal_label(np.asarray(img), BOX) == ""


def _slashed(
    *,
    slash: bool = True,
    gap: bool = True,
    tones: bool = False,
    page: tuple[int, int, int] = PAGE,
    ink: tuple[int, int, int] = DARK,
) -> np.ndarray:
    """NetGuard's "mobile data blocked": the signal's triangle (24 dp) struck through
    from its top left, a gap of the page along the slash, the stroke past the triangle."""
    img = Image.new("RGB", (1080, 2000), page)
    d = ImageDraw.Draw(img)
    d.polygon([(185, 112), (185, 180), (117, 180)], fill=ink)
    if tones:  # a two-tone triangle instead: a darker part, no slash
        d.polygon([(185, 112), (185, 180), (117, 180)], fill=PALE)
        d.polygon([(150, 147), (150, 180), (117, 180)], fill=DARK)
        return np.asarray(img)
    if gap:
        d.line([(112, 116), (192, 196)], fill=page, width=12)
    if slash:
        d.line([(116, 120), (178, 182)], fill=ink, width=6)
    return np.asarray(img)


def test_the_struck_through_triangle_is_signal_off() -> None:
    from screenpilot.vision.blocks import dp_size
    from screenpilot.vision.image import glyph_ink
    from screenpilot.vision.signals import SIGNAL_OFF, largest_glyph, slashed_in

    def read(px: np.ndarray) -> str:
        return slashed_in(glyph_ink(px, BOX), largest_glyph(px), dp_size(1080, 2000))

    assert read(_slashed()) == SIGNAL_OFF
    assert read(_slashed(slash=False)) == ""  # a gap alone: no stroke past the triangle
    assert read(_slashed(tones=True)) == ""  # two tones: no slash
    assert read(_page("signal")) == ""  # one part: the plain triangle (``signal``)
    named = name_drawn_glyphs(_slashed(), [Element(id=1, kind=ElementKind.ICON, box=BOX)])
    assert named[0].icon_label == SIGNAL_OFF
    # NetGuard's dark theme: orange (157, 72, 46) on grey 58, 36 grey levels apart
    assert read(_slashed(page=(58, 58, 58), ink=(157, 72, 46))) == SIGNAL_OFF


@pytest.mark.skipif(
    not (REAL / "NetGuard" / "50-theme.png").exists(), reason="../shared/data absent"
)
def test_netguards_blocked_mobile_data_is_signal_off() -> None:
    from screenpilot.vision.pipeline import analyse

    screen = analyse(REAL / "NetGuard" / "50-theme.png").screen
    assert [e.icon_label for e in screen.elements].count("signal_off") >= 3


def test_the_struck_through_fan_is_wifi_off() -> None:
    from screenpilot.vision.blocks import dp_size
    from screenpilot.vision.image import glyph_ink
    from screenpilot.vision.signals import WIFI_OFF, largest_glyph, slashed_in

    def read(px: np.ndarray) -> str:
        return slashed_in(glyph_ink(px, BOX), largest_glyph(px), dp_size(1080, 2000))

    img = Image.new("RGB", (1080, 2000), PAGE)
    d = ImageDraw.Draw(img)
    _fan(d, 150, 180, 50, DARK)
    d.line([(108, 118), (192, 202)], fill=PAGE, width=12)  # the gap along the slash
    d.line([(112, 122), (178, 188)], fill=DARK, width=6)  # the slash, past the fan
    assert read(np.asarray(img)) == WIFI_OFF
    assert read(_page("wifi two-tone")) == ""  # two parts, but as symmetric as the fan
    img = Image.new("RGB", (1080, 2000), PAGE)
    d = ImageDraw.Draw(img)  # a pencil in two parts (its tip apart), running up to the right
    d.line([(118, 182), (166, 134)], fill=DARK, width=14)
    d.line([(172, 128), (182, 118)], fill=DARK, width=14)
    assert read(np.asarray(img)) == ""


def test_a_dim_two_tone_triangle_on_a_dark_theme_is_signal() -> None:
    """NetGuard's purple theme: the triangle's bright part (107, 49, 117) stands 33 grey
    levels and 59 in one channel off the dark grey page, its dim part hardly at all; the
    bright part, a right triangle of its own, is the glyph read."""
    img = Image.new("RGB", (1080, 2000), (58, 58, 58))
    d = ImageDraw.Draw(img)
    d.polygon([(200, 110), (200, 175), (135, 175)], fill=(72, 55, 75))  # the dim whole
    d.polygon([(175, 135), (175, 175), (135, 175)], fill=(107, 49, 117))  # the bright bars
    assert signal_label(np.asarray(img), Box(120, 100, 180, 190)) == SIGNAL
