"""Kinds a box's shape rules out or shows (vision/shapes.py): a square "switch" is a
picture, a picture of a track with a thumb at one end a switch."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.shapes import (
    blob_switch,
    by_shape,
    is_rule,
    switch_drawn,
    thumb_on_right,
)
from screenpilot.vision.states import with_state


def test_a_square_switch_is_a_picture_and_a_track_shaped_one_stays() -> None:
    fab = Element(0, ElementKind.SWITCH, Box(893, 1882, 1027, 2006), checked=True, confidence=0.44)
    track = Element(1, ElementKind.SWITCH, Box(900, 300, 1030, 380), checked=True, confidence=0.9)
    button = Element(2, ElementKind.BUTTON, Box(0, 0, 100, 100), confidence=0.9)
    picture = by_shape(fab)
    assert picture.kind is ElementKind.IMAGE and picture.checked is None
    assert picture.box == fab.box and picture.confidence == fab.confidence
    assert by_shape(track) == track
    assert by_shape(button) == button


def _page() -> np.ndarray:
    return np.full((2400, 1080, 3), (254, 247, 255), np.uint8)  # a phone in portrait


def _stadium(pixels: np.ndarray, box: Box, colour: tuple[int, int, int]) -> None:
    r = box.height // 2
    cv2.rectangle(pixels, (box.x1 + r, box.y1), (box.x2 - 1 - r, box.y2 - 1), colour, -1)
    cv2.circle(pixels, (box.x1 + r, box.y1 + r), r, colour, -1)
    cv2.circle(pixels, (box.x2 - 1 - r, box.y1 + r), r, colour, -1)


TRACK = Box(880, 200, 1017, 284)


@pytest.mark.parametrize("on", [True, False])
def test_a_picture_of_a_track_with_a_thumb_at_one_end_is_a_switch(on: bool) -> None:
    pixels = _page()
    _stadium(pixels, TRACK, (26, 115, 232) if on else (230, 224, 233))
    r = TRACK.height // 2
    cx = TRACK.x2 - r if on else TRACK.x1 + r
    cv2.circle(pixels, (cx, TRACK.y1 + r), r - 10, (255, 255, 255) if on else (121, 116, 126), -1)
    seen = Element(0, ElementKind.IMAGE, Box(883, 212, 1004, 291), confidence=0.2)  # off a bit
    switch = switch_drawn(pixels, seen)
    assert switch.kind is ElementKind.SWITCH and switch.box.iou(TRACK) >= 0.9
    assert with_state(pixels, switch).checked is on


@pytest.mark.parametrize("on", [True, False])
def test_a_dark_themes_switch_is_read_by_where_its_thumb_lies(on: bool) -> None:
    """Material 3's dark theme: on is a dark thumb at the right of a pale track (no
    accent colour anywhere), off a small grey thumb at the left of a dark outlined one;
    a detected switch's state comes from the thumb's end."""
    pixels = np.full((2400, 1080, 3), (19, 19, 19), np.uint8)
    r = TRACK.height // 2
    if on:
        _stadium(pixels, TRACK, (208, 194, 210))
        cv2.circle(pixels, (TRACK.x2 - r, TRACK.y1 + r), r - 10, (60, 45, 70), -1)
    else:
        _stadium(pixels, TRACK, (147, 143, 153))
        inner = Box(TRACK.x1 + 5, TRACK.y1 + 5, TRACK.x2 - 5, TRACK.y2 - 5)
        _stadium(pixels, inner, (54, 52, 58))
        cv2.circle(pixels, (TRACK.x1 + r, TRACK.y1 + r), r // 2, (147, 143, 153), -1)
    assert thumb_on_right(pixels, TRACK) is on
    switch = Element(0, ElementKind.SWITCH, Box(876, 195, 1021, 289), confidence=0.9)
    assert with_state(pixels, switch).checked is on


def test_a_switch_in_the_left_half_is_left_to_its_colour() -> None:
    """A right-to-left row puts its switch at the left end, mirrored (on is the thumb
    at the left): the thumb's end is not read there, the accent colour decides."""
    pixels = np.full((2400, 1080, 3), (250, 250, 250), np.uint8)
    mirrored = Box(63, 200, 200, 284)
    r = mirrored.height // 2
    _stadium(pixels, mirrored, (0, 121, 107))  # a teal track, on ...
    cv2.circle(pixels, (mirrored.x1 + r, mirrored.y1 + r), r - 10, (255, 255, 255), -1)
    assert thumb_on_right(pixels, mirrored) is None  # ... its thumb at the left
    switch = Element(0, ElementKind.SWITCH, mirrored, confidence=0.9)
    assert with_state(pixels, switch).checked is True


def test_a_switch_with_no_thumb_end_to_tell_is_left_to_its_colour() -> None:
    pixels = _page()
    _stadium(pixels, TRACK, (26, 115, 232))  # a blue stadium, both ends alike
    assert thumb_on_right(pixels, TRACK) is None
    switch = Element(0, ElementKind.SWITCH, TRACK, confidence=0.9)
    assert with_state(pixels, switch).checked is True


def test_a_pill_with_its_icon_in_the_middle_and_a_photo_stay_pictures() -> None:
    pixels = _page()
    _stadium(pixels, TRACK, (232, 222, 248))  # a navigation bar's active pill
    cv2.circle(pixels, TRACK.center, 14, (30, 30, 30), -1)
    pill = Element(0, ElementKind.IMAGE, TRACK, confidence=0.3)
    assert switch_drawn(pixels, pill) == pill
    photo_box = Box(100, 300, 260, 400)
    pixels[photo_box.y1 : photo_box.y2, photo_box.x1 : photo_box.x2] = (90, 140, 60)
    photo = Element(1, ElementKind.IMAGE, photo_box, confidence=0.8)
    assert switch_drawn(pixels, photo) == photo


def _thumb_on_track(on: bool, *, page: int = 250, side_box: bool = False) -> tuple[np.ndarray, Box]:
    """A Material 2 switch (a 20 dp disc over one end of a 14 dp track, 37 dp in all, at
    420 dpi) on a plain page, with the detector's box round it: its square touch target
    (``side_box``) or the switch itself."""
    pixels = np.full((2400, 1080, 3), page, np.uint8)
    x, y, d, t = 900, 500, 52, 36  # the shape's left, top, the thumb's and track's heights
    width = 97
    cy = y + d // 2
    thumb = x + width - d // 2 - 1 if on else x + d // 2
    track_colour = (184, 207, 203) if on else (185, 185, 185)
    thumb_colour = (31, 82, 70) if on else (236, 236, 236)
    far = x + t // 2 if on else x + width - 1 - t // 2
    cv2.rectangle(
        pixels, (min(far, thumb), cy - t // 2), (max(far, thumb), cy + t // 2), track_colour, -1
    )
    cv2.circle(pixels, (far, cy), t // 2, track_colour, -1)
    cv2.circle(pixels, (thumb, cy), d // 2, thumb_colour, -1)
    if side_box:
        return pixels, Box.of(x - 16, y - 45, x + width + 16, y + d + 45)
    return pixels, Box.of(x - 2, y - 2, x + width + 2, y + d + 2)


@pytest.mark.parametrize("on", [True, False])
@pytest.mark.parametrize("side_box", [False, True])
def test_a_thumb_over_a_thinner_track_is_a_switch_with_its_state(on: bool, side_box: bool) -> None:
    """Android 7-11's settings and permission switches (TrackerControl, the permission
    controller): the thumb overhangs the track, so the shape is no stadium; the thumb's
    end tells whether it is on. The detector's box may be the square touch target."""
    pixels, box = _thumb_on_track(on, side_box=side_box)
    seen = by_shape(
        Element(0, ElementKind.SWITCH if side_box else ElementKind.IMAGE, box, confidence=0.7)
    )
    assert seen.kind is ElementKind.IMAGE
    switch = switch_drawn(pixels, seen)
    assert switch.kind is ElementKind.SWITCH and switch.checked is on
    assert switch.box.iou(Box.of(900, 500, 997, 552)) > 0.8


def test_a_switch_in_a_toolbars_tall_touch_target_found_as_a_button_is_a_switch() -> None:
    """NetGuard's master switch in its toolbar: the detector's box is a "button" with no
    text, 64 dp tall at 2.63 px a dp (167 px), round a 25 dp switch; a button with a
    label stays a button."""
    pixels, _ = _thumb_on_track(True, side_box=True)
    box = Box.of(865, 443, 1040, 610)
    switch = switch_drawn(pixels, Element(0, ElementKind.BUTTON, box, confidence=0.5))
    assert switch.kind is ElementKind.SWITCH and switch.checked is True
    named = Element(0, ElementKind.BUTTON, box, text="Wi-Fi", confidence=0.5)
    assert switch_drawn(pixels, named) == named


def test_a_switch_on_a_coloured_bar_is_seen_in_its_own_box() -> None:
    """Settings' master switch on a teal bar: the grown crop takes the page above the bar
    for the page, so the track is looked for in the touch target alone."""
    pixels, box = _thumb_on_track(True, page=250, side_box=True)
    pixels[box.y1 : box.y2 + 3, :] = np.where(
        (pixels[box.y1 : box.y2 + 3, :] == 250).all(axis=-1, keepdims=True),
        np.array([0, 137, 123], np.uint8),
        pixels[box.y1 : box.y2 + 3, :],
    )
    switch = switch_drawn(pixels, Element(0, ElementKind.IMAGE, box, confidence=0.7))
    assert switch.kind is ElementKind.SWITCH and switch.checked is True


def test_a_round_button_in_a_square_box_stays_a_picture() -> None:
    pixels = np.full((2400, 1080, 3), 250, np.uint8)
    cv2.circle(pixels, (540, 600), 60, (30, 90, 200), -1)
    cv2.circle(pixels, (540, 600), 20, (250, 250, 250), -1)
    box = Box.of(470, 530, 610, 670)
    assert (
        switch_drawn(pixels, Element(0, ElementKind.IMAGE, box, confidence=0.7)).kind
        is ElementKind.IMAGE
    )


def test_a_switch_found_as_a_blob_of_ink_is_a_switch() -> None:
    """NetGuard's "Allow tethering" switch, missed by the detector, was found as a blob
    of ink, an icon the icon model named "wifi": an icon that is a picture of a switch is
    a switch (on: its thumb at the right); other icons stay as they are."""
    pixels, box = _thumb_on_track(True)
    blob = Element(0, ElementKind.ICON, box, confidence=0.3)
    switch = blob_switch(pixels, blob)
    assert switch.kind is ElementKind.SWITCH and switch.checked is True
    glyph = Element(1, ElementKind.ICON, Box(100, 300, 160, 360), confidence=0.3)
    assert blob_switch(pixels, glyph) == glyph
    picture = Element(2, ElementKind.IMAGE, box, confidence=0.3)
    assert blob_switch(pixels, picture) == picture  # the detector's pictures: switch_drawn


def test_a_box_holding_only_a_line_across_it_is_a_rule() -> None:
    """EtarCalendar's drawer had a 0.75 "button" round the divider between its groups: a
    box whose ink is one thin band of rows across its width holds only a rule; a button
    with a label, an underlined field's line with its text, and an empty box are not."""
    pixels = np.full((2400, 1080, 3), 250, np.uint8)
    pixels[610:613, 0:760] = 218  # the divider, 3 px (1.1 dp at 420 dpi)
    assert is_rule(pixels, Box(16, 581, 731, 641))
    pixels[1000:1004, 100:700] = 120  # an underline ...
    pixels[940:980, 110:300] = 30  # ... under its text
    assert not is_rule(pixels, Box(90, 930, 710, 1010))
    pixels[1400:1440, 200:320] = 40  # a thick bar is a shape, not a rule
    assert not is_rule(pixels, Box(180, 1380, 340, 1460))
    assert not is_rule(pixels, Box(500, 1800, 700, 1900))  # nothing drawn


REAL = Path(__file__).resolve().parents[2] / "shared" / "data" / "real-screens"


@pytest.mark.skipif(not (REAL / "Seal" / "9.jpg").exists(), reason="../shared/data absent")
def test_real_switches_read_by_their_thumb() -> None:
    """Seal's Material 3 dark theme: "Dynamic color" off, "Dark theme" on (a dark thumb on
    a pale track); TrackerControl's master switch, a rocket on its thumb, on."""
    from screenpilot.vision.pipeline import analyse

    seal = [e for e in analyse(REAL / "Seal" / "9.jpg").screen.elements if e.kind.value == "switch"]
    assert [(e.caption.split()[0], e.checked) for e in seal] == [("Dynamic", False), ("Dark", True)]
    tracker = analyse(REAL / "TrackerControl" / "1.png").screen.elements
    assert [e.checked for e in tracker if e.kind.value == "switch"] == [True]
