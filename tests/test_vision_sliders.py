"""Seek bars from the pixels (vision/sliders.py) on the virtual phone's real renders."""

from __future__ import annotations

import numpy as np
import pytest

from screenpilot.model import Box, Element, ElementKind
from screenpilot.simulator.phone import VirtualPhone
from screenpilot.vision import group
from screenpilot.vision.sliders import find_sliders, icon_row, surround_share, with_sliders


def _render(app: str, page: str, **kw: object) -> tuple[np.ndarray, VirtualPhone]:
    phone = VirtualPhone(**kw)  # type: ignore[arg-type]
    phone.open_page(app, page)
    return np.asarray(phone.frame().image.convert("RGB")), phone


def _truth_bars(phone: VirtualPhone) -> list[Box]:
    return [e.box for e in phone.screen().elements if e.kind is ElementKind.SEEK_BAR]


@pytest.mark.parametrize(
    "kw", [{}, {"theme": "dark"}, {"size": (720, 1600)}], ids=["light", "dark", "720"]
)
def test_every_seek_bar_of_the_sound_page_is_found(kw: dict[str, object]) -> None:
    pixels, phone = _render("settings", "sound", **kw)
    truth = _truth_bars(phone)
    found = find_sliders(pixels)
    assert len(truth) == 4
    assert len(found) == len(truth)
    for t in truth:
        assert any(
            f.box.iou(t) > 0.4
            or (abs(f.box.center[1] - t.center[1]) < t.height and f.box.width > 0.8 * t.width)
            for f in found
        )


def test_pages_without_seek_bars_get_none() -> None:
    for app, page in (("settings", "main"), ("contacts", None), ("clock", None)):
        pixels, _ = _render(app, page) if page else _render(app, "")
        assert find_sliders(pixels) == [], app


def test_a_detected_seek_bar_is_not_found_twice() -> None:
    pixels, phone = _render("settings", "display")
    bar = _truth_bars(phone)[0]
    known = [Element(1, ElementKind.SEEK_BAR, bar)]
    assert find_sliders(pixels, known) == []
    assert len(find_sliders(pixels)) == 1


def test_a_title_above_names_the_seek_bar() -> None:
    bar = Element(1, ElementKind.SEEK_BAR, Box(70, 370, 1010, 422))
    title = Element(2, ElementKind.TEXT, Box(36, 285, 345, 340), text="Brightness level")
    below = Element(3, ElementKind.TEXT, Box(36, 480, 400, 530), text="Adaptive brightness")
    widgets, free = group.match_texts([bar], [title, below], max_dist=38)
    assert widgets[0].caption == "Brightness level"
    assert [t.text for t in free] == ["Adaptive brightness"]


def _toolbar(with_line: bool) -> np.ndarray:
    """A dark toolbar of six white icon glyphs (a toolbar of icon buttons) above a
    light divider and a knob-sized glyph, the look a slider finder can take for a
    track and its knob."""
    from PIL import Image, ImageDraw

    im = Image.new("RGB", (1080, 600), (40, 40, 40))
    d = ImageDraw.Draw(im)
    for k in range(6):
        x = 40 + 170 * k
        d.rectangle((x, 120, x + 80, 200), fill=(245, 245, 245))  # a folder's body
        d.rectangle((x + 20, 140, x + 60, 180), fill=(40, 40, 40))  # its hole
    if with_line:
        d.rectangle((0, 230, 1080, 234), fill=(200, 200, 200))
    return np.asarray(im)


def test_a_row_of_icons_is_not_a_seek_bar() -> None:
    pixels = _toolbar(with_line=False)
    assert icon_row(pixels, Box.of(20, 110, 1060, 210))
    detected = Element(1, ElementKind.SEEK_BAR, Box.of(20, 110, 1060, 210), confidence=0.8)
    assert with_sliders(pixels, [detected]) == []  # no track, a row of icons: dropped


def test_a_seek_bar_with_its_times_is_kept() -> None:
    pixels, phone = _render("settings", "sound")
    bar = _truth_bars(phone)[0]
    assert not icon_row(pixels, bar)
    detected = Element(1, ElementKind.SEEK_BAR, bar, confidence=0.8)
    assert len([e for e in with_sliders(pixels, [detected]) if e.kind is ElementKind.SEEK_BAR]) == 4
    # a media bar: a track, a knob, and a time at each end
    from PIL import Image, ImageDraw

    im = Image.new("RGB", (1080, 300), (255, 255, 255))
    d = ImageDraw.Draw(im)
    d.text((20, 110), "0:35", fill=(0, 0, 0), font_size=48)
    d.rectangle((160, 130, 860, 138), fill=(90, 90, 90))
    d.ellipse((480, 112, 516, 156), fill=(30, 30, 200))
    d.text((900, 110), "1:34", fill=(0, 0, 0), font_size=48)
    assert not icon_row(np.asarray(im), Box.of(10, 100, 1070, 170))


def test_a_track_and_knob_on_a_map_are_the_map() -> None:
    pixels, phone = _render("settings", "sound")
    bars = _truth_bars(phone)
    assert len([e for e in with_sliders(pixels, []) if e.kind is ElementKind.SEEK_BAR]) == 4
    # the same pixels under a detected picture many times a track's height: a map
    picture = Element(1, ElementKind.IMAGE, Box.of(0, bars[0].y1 - 400, 1080, bars[-1].y2 + 400))
    kept = [e for e in with_sliders(pixels, [picture]) if e.kind is ElementKind.SEEK_BAR]
    assert kept == []
    # a detected seek bar there is still snapped to its track and kept
    detected = Element(2, ElementKind.SEEK_BAR, bars[0], confidence=0.8)
    out = with_sliders(pixels, [picture, detected])
    assert [e.kind for e in out if e.kind is ElementKind.SEEK_BAR] == [ElementKind.SEEK_BAR]


def test_a_line_through_text_is_a_strike_through_not_a_seek_bar() -> None:
    """A to-do list's done item: a line and a round letter read as a track and a knob."""
    from screenpilot.vision.ocr import TextLine
    from screenpilot.vision.pipeline import Observations, assemble
    from screenpilot.vision.sliders import crosses_text

    pixels, phone = _render("settings", "sound")
    bars = _truth_bars(phone)
    done = Box.of(162, 1500, 806, 1528)  # the bar's pixels through a done item
    item = TextLine("Swipe an item right to edit it", Box.of(150, 1490, 820, 1540), 0.99)
    label = TextLine(
        "Media volume", Box.of(bars[0].x1, bars[0].y1 - 70, 500, bars[0].y1 - 20), 0.99
    )
    assert crosses_text(done, [item.box])
    assert not crosses_text(bars[0], [label.box])  # a title above a track is its name
    found = [Element(0, ElementKind.SEEK_BAR, done, confidence=0.5)]
    found += [Element(0, ElementKind.SEEK_BAR, b, confidence=0.5) for b in bars]
    screen = assemble(
        pixels, Observations((item, label), tuple(found)), ("detect",), icons=None, reports={}
    )
    seek = [e for e in screen.elements if e.kind is ElementKind.SEEK_BAR]
    assert len(seek) == 4 and all(e.box.y1 < 1400 for e in seek)
    assert any(e.text == item.text for e in screen.elements)


def test_a_knob_read_as_a_symbol_is_the_seek_bars() -> None:
    """On a wide screen OCR reads the small round knob as "●": the bar through it stays
    a seek bar, and the "●" is no text of the screen."""
    from screenpilot.vision.ocr import TextLine
    from screenpilot.vision.pipeline import Observations, assemble
    from screenpilot.vision.sliders import crosses_text, is_knob_read

    pixels, phone = _render("settings", "sound")
    bars = _truth_bars(phone)
    b = bars[1]
    band = pixels[b.y1 : b.y2, b.x1 : b.x2].astype(int)
    inked = (np.abs(band - band[:2].mean(axis=(0, 1))).sum(axis=2) > 60).sum(axis=0)
    cx = b.x1 + int(np.flatnonzero(inked >= 0.8 * inked.max()).mean())  # the knob: the tallest ink
    cy = b.center[1]
    knob = TextLine("●", Box.of(cx - 20, cy - 20, cx + 20, cy + 20), 0.95)
    assert crosses_text(bars[1], [knob.box]) and is_knob_read(knob.text, knob.box)
    assert not is_knob_read("o", knob.box) and not is_knob_read("●", Box.of(0, 0, 100, 30))
    found = tuple(Element(0, ElementKind.SEEK_BAR, b, confidence=0.9) for b in bars)
    screen = assemble(pixels, Observations((knob,), found), ("detect",), icons=None, reports={})
    assert len([e for e in screen.elements if e.kind is ElementKind.SEEK_BAR]) == 4
    assert not any(e.text == "●" for e in screen.elements)


def test_a_track_and_knob_on_a_picture_is_no_seek_bar() -> None:
    pixels, phone = _render("settings", "display")
    bar = _truth_bars(phone)[0]
    assert len(find_sliders(pixels)) == 1
    # the same page with speckles beside the track, as on a map or a photo: the
    # track's surround is no longer plain, so it is not taken for a seek bar
    speckled = pixels.copy()
    rng = np.random.default_rng(0)
    y1, y2 = int(bar.y1), int(bar.y2)
    rows = speckled[y1:y2, int(bar.x1) : int(bar.x2)]
    dots = rng.random(rows.shape[:2]) < 0.05
    rows[dots] = 255 - rows[dots]
    assert find_sliders(speckled) == []


def test_surround_share_counts_marked_pixels_beside_the_track_only() -> None:
    mask = np.zeros((40, 100), dtype=bool)
    mask[19:21, 10:90] = True  # the track
    mask[12:28, 40:52] = True  # the knob
    band, knob = (19, 21, 10, 90), (40, 12, 52, 28)
    assert surround_share(mask, band, knob) == 0.0
    mask[14, 10:30] = True  # a line above the track, beside the knob
    assert 0.0 < surround_share(mask, band, knob) < 0.1
