"""Check boxes from the pixels (vision/checkboxes.py) on the virtual phone's real renders."""

from __future__ import annotations

import numpy as np
import pytest

from screenpilot.model import Box, Element, ElementKind
from screenpilot.simulator.phone import VirtualPhone
from screenpilot.vision.checkboxes import find_check_boxes, with_check_boxes

K = ElementKind


def _render(app: str, page: str, **kw: object) -> tuple[np.ndarray, VirtualPhone]:
    phone = VirtualPhone(**kw)  # type: ignore[arg-type]
    phone.open_page(app, page)
    return np.asarray(phone.frame().image.convert("RGB")), phone


def _truth(phone: VirtualPhone) -> list[Element]:
    return [e for e in phone.screen().elements if e.kind is K.CHECK_BOX]


@pytest.mark.parametrize(
    "kw",
    [{}, {"theme": "dark", "locale": "zh"}, {"size": (720, 1600)}],
    ids=["light", "dark-zh", "720"],
)
@pytest.mark.parametrize("page", ["add", "cities"])
def test_every_check_box_is_found_with_its_state(page: str, kw: dict[str, object]) -> None:
    pixels, phone = _render("clock", page, **kw)
    truth = _truth(phone)
    found = find_check_boxes(pixels)
    assert truth and len(found) == len(truth)
    for t in truth:
        match = next(f for f in found if f.box.iou(t.box) >= 0.5)
        assert match.checked == t.checked and match.clickable


def test_ticked_and_empty_boxes_are_told_apart() -> None:
    pixels, phone = _render("clock", "cities")
    assert {t.checked for t in _truth(phone)} == {True, False}
    assert {f.checked for f in find_check_boxes(pixels)} == {True, False}


@pytest.mark.parametrize(
    ("app", "page"),
    [("home", ""), ("contacts", "files"), ("contacts", ""), ("settings", "storage")],
)
def test_icons_in_squares_are_not_check_boxes(app: str, page: str) -> None:
    pixels, _ = _render(app, page)
    assert find_check_boxes(pixels) == []


def test_the_detector_image_on_a_check_box_becomes_the_check_box() -> None:
    pixels, phone = _render("clock", "add")
    square = _truth(phone)[0].box
    as_image = Element(0, K.IMAGE, square, confidence=0.4)
    bar = Element(0, K.NAVIGATION_BAR, Box.of(0, 2270, 1080, 2400))
    out = with_check_boxes(pixels, [as_image, bar])
    assert [e.kind for e in out].count(K.IMAGE) == 0
    assert len([e for e in out if e.kind is K.CHECK_BOX]) == len(_truth(phone))


def test_a_detector_check_box_the_pixels_do_not_confirm_is_a_picture() -> None:
    pixels, phone = _render("clock", "add")
    square = _truth(phone)[0].box
    confirmed = Element(0, K.CHECK_BOX, square, confidence=0.5)
    # a settings row's leading icon that a detector took for a check box
    icon = Element(1, K.CHECK_BOX, Box.of(60, 480, 130, 550), confidence=0.3)
    out = with_check_boxes(pixels, [confirmed, icon])
    kept = next(e for e in out if e.box == square)
    assert kept.kind is K.CHECK_BOX and kept.checked is not None
    moved = next(e for e in out if e.box == icon.box)
    assert moved.kind is K.IMAGE and moved.checked is None
    assert len([e for e in out if e.kind is K.CHECK_BOX]) == len(_truth(phone))


def test_a_detector_check_box_loose_round_a_found_square_stays_a_check_box() -> None:
    """The detector's own check box, its box loose round the square (IoU under 0.5, as
    on NetGuard's menu: 85 x 95 px round 55 px), is confirmed, not turned into an image."""
    pixels, phone = _render("clock", "add")
    truth = _truth(phone)[0].box
    square = next(f.box for f in find_check_boxes(pixels) if f.box.iou(truth) > 0.5)
    pad = square.width // 3
    loose = Box.of(square.x1 - pad, square.y1 - pad, square.x2 + pad, square.y2 + pad)
    assert loose.iou(square) < 0.5
    out = with_check_boxes(pixels, [Element(0, K.CHECK_BOX, loose, confidence=0.88)])
    kept = next(e for e in out if e.box == loose)
    assert kept.kind is K.CHECK_BOX and kept.checked is not None
    assert len([e for e in out if e.kind is K.CHECK_BOX]) == len(_truth(phone))


def test_a_detection_shifted_off_a_found_square_is_that_check_box() -> None:
    """ajsha's check boxes: the detector's box 15 px left of the square and smaller (IoU
    0.38) was not confirmed, became an image, and hid the square; the square wins."""
    pixels, phone = _render("clock", "add")
    truth = _truth(phone)[0].box
    square = next(f.box for f in find_check_boxes(pixels) if f.box.iou(truth) > 0.5)
    d = square.width // 4
    shifted = Box.of(square.x1 - d, square.y1 + 2, square.x2 - d - 6, square.y2 - 2)
    assert 0.3 < shifted.iou(square) < 0.5
    out = with_check_boxes(pixels, [Element(0, K.CHECK_BOX, shifted, confidence=0.81)])
    assert not [e for e in out if e.box == shifted]
    kept = next(e for e in out if e.box == square)
    assert kept.kind is K.CHECK_BOX and kept.checked is not None
    assert len([e for e in out if e.kind is K.CHECK_BOX]) == len(_truth(phone))


def _photo_tile(size: int = 400, seed: int = 3) -> np.ndarray:
    """A photo-like tile: a green-blue gradient with noise (not a plain surround)."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:size, 0:size] / size
    tile = np.stack([40 + 60 * x, 90 + 80 * y, 60 + 40 * (1 - x)], axis=-1)
    return np.clip(tile + rng.normal(0, 12, tile.shape), 0, 255).astype(np.uint8)


def _outline(pixels: np.ndarray, x: int, y: int, side: int, grey: int, stroke: int) -> None:
    pixels[y : y + side, x : x + side] = np.where(
        np.pad(
            np.zeros((side - 2 * stroke, side - 2 * stroke), bool), stroke, constant_values=True
        )[..., None],
        np.uint8(grey),
        pixels[y : y + side, x : x + side],
    )


def test_a_check_box_on_a_photo_and_a_faint_one_on_a_white_thumbnail_are_found() -> None:
    screen = np.full((2400, 1080, 3), 250, np.uint8)
    screen[300:700, 60:460] = _photo_tile()
    _outline(screen, 370, 330, 60, 235, 6)  # a light outline at the photo's corner
    _outline(screen, 910, 330, 60, 225, 6)  # a faint grey outline on a white thumbnail
    found = sorted(find_check_boxes(screen), key=lambda e: e.box.x1)
    assert [f.checked for f in found] == [False, False]
    assert found[0].box.iou(Box.of(370, 330, 430, 390)) > 0.8
    assert found[1].box.iou(Box.of(910, 330, 970, 390)) > 0.8


def test_a_square_patch_of_a_photo_is_no_check_box() -> None:
    screen = np.full((2400, 1080, 3), 250, np.uint8)
    screen[300:700, 60:460] = _photo_tile()
    screen[330:390, 370:430] = 235  # a light square, filled: no outline, no tick
    assert find_check_boxes(screen) == []


def _material_box(
    screen: np.ndarray, x: int, y: int, side: int, *, ticked: bool, grey: int = 115
) -> None:
    """A Material check box as a phone draws it: a rounded outline 6 px thick at 420 dpi
    (2 of its 18 dp), filled and ticked when on."""
    from PIL import Image, ImageDraw

    page = tuple(int(v) for v in screen[y, x - 4])
    tile = Image.new("RGB", (side, side), page)
    draw = ImageDraw.Draw(tile)
    box = (0, 0, side - 1, side - 1)
    if ticked:
        draw.rounded_rectangle(box, radius=7, fill=(grey,) * 3)
        tick = [(0.22 * side, 0.52 * side), (0.42 * side, 0.72 * side), (0.8 * side, 0.3 * side)]
        draw.line(tick, fill=(250, 250, 250), width=6)
    else:
        draw.rounded_rectangle(box, radius=7, outline=(grey,) * 3, width=6)
    screen[y : y + side, x : x + side] = np.asarray(tile)


def _jpeg(screen: np.ndarray, quality: int = 90) -> np.ndarray:
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(screen).save(buffer, "JPEG", quality=quality)
    return np.asarray(Image.open(io.BytesIO(buffer.getvalue())).convert("RGB"))


def test_a_rounded_check_box_in_a_jpeg_is_found_with_its_state() -> None:
    """A real phone's check box in a JPEG screenshot (AirUnlock's storage cleaner,
    aeondroid's settings): the contour's box lies a pixel outside the stroke on both
    sides, a quarter of the ring's 4 px band, and the round corners leave more of the
    page in it; judged one pixel in, the ring is even."""
    screen = np.full((2400, 1080, 3), 250, np.uint8)
    _material_box(screen, 905, 204, 54, ticked=False)
    _material_box(screen, 905, 604, 54, ticked=True, grey=93)
    found = sorted(find_check_boxes(_jpeg(screen)), key=lambda e: e.box.y1)
    assert [f.checked for f in found] == [False, True]
    assert found[0].box.iou(Box.of(905, 204, 959, 258)) > 0.8
    assert found[1].box.iou(Box.of(905, 604, 959, 658)) > 0.8


def test_a_letter_o_with_round_corners_is_no_check_box() -> None:
    """A geometric font's "O" (GIPHY's "REACTIONS") is a square with round corners: one
    pixel in, its corners hold no stroke, so its ring is not even."""
    from PIL import Image, ImageDraw

    screen = np.full((2400, 1080, 3), 250, np.uint8)
    tile = Image.new("RGB", (180, 180), (250, 250, 250))
    ImageDraw.Draw(tile).rounded_rectangle((0, 0, 179, 179), radius=70, outline=(60,) * 3, width=24)
    screen[500:545, 500:545] = np.asarray(tile.resize((45, 45), Image.Resampling.LANCZOS))
    assert find_check_boxes(screen) == []


def test_an_icon_framed_twice_is_no_check_box() -> None:
    """Settings' "Photos & videos" icon: a square frame with another frame's corner
    beside it; the surround is the page but for that stroke, so it is no photo."""
    screen = np.full((2400, 1080, 3), 250, np.uint8)
    _outline(screen, 520, 300, 50, 110, 5)
    screen[306:366, 506:512] = 110  # the frame behind: down its left...
    screen[360:366, 506:566] = 110  # ... and along its bottom
    screen[335:343, 532:558] = 110  # a picture's mark inside
    assert find_check_boxes(screen) == []


def test_a_ticked_square_in_the_status_bar_is_a_notification_icon() -> None:
    screen = np.full((2400, 1080, 3), 250, np.uint8)
    screen[:70] = 40  # a dark status bar
    _material_box(screen, 300, 12, 46, ticked=True, grey=200)
    _material_box(screen, 300, 600, 56, ticked=True)
    assert len(find_check_boxes(screen)) == 2
    kept = [e for e in with_check_boxes(screen, []) if e.kind is K.CHECK_BOX]
    assert [e.box.y1 > 500 for e in kept] == [True]
