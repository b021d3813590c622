"""vision/glyphread.py: a lone digit the text detector missed is read where its blob is."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from screenpilot.core.fonts import text_font
from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.glyphread import box_reader, read_glyphs
from screenpilot.vision.ocr import RapidOcrBackend


def _ink_box(img: Image.Image, region: Box) -> Box:
    a = np.asarray(img.convert("L"))[region.y1 : region.y2, region.x1 : region.x2] < 128
    ys, xs = np.nonzero(a)
    return Box(
        region.x1 + int(xs.min()),
        region.y1 + int(ys.min()),
        region.x1 + int(xs.max()) + 1,
        region.y1 + int(ys.max()) + 1,
    )


def _blob(box: Box) -> Element:
    return Element(0, ElementKind.ICON, box, clickable=True, confidence=0.3)


def _page() -> tuple[np.ndarray, list[Element]]:
    """The top of a 1080-wide screen in portrait (sizes are shares of its short side): a
    '1' and a '7' drawn in Roboto, and a ring."""
    img = Image.new("RGB", (1080, 1200), "white")
    draw = ImageDraw.Draw(img)
    font = ImageFont.truetype(str(text_font()), 44)
    draw.text((300, 70), "1", font=font, fill=(30, 30, 30))
    draw.text((500, 70), "7", font=font, fill=(30, 30, 30))
    draw.ellipse((700, 80, 740, 120), outline=(30, 30, 30), width=4)
    boxes = [_ink_box(img, Box(x, 50, x + 100, 150)) for x in (280, 480, 680)]
    return np.asarray(img), [_blob(b) for b in boxes]


def test_lone_digits_become_texts_and_a_ring_stays_a_blob() -> None:
    pixels, blobs = _page()
    reader = box_reader(RapidOcrBackend())
    texts, left = read_glyphs(pixels, blobs, reader)
    assert [t.text for t in texts] == ["1", "7"]
    assert all(t.kind is ElementKind.TEXT and not t.clickable for t in texts)
    assert [t.box for t in texts] == [blobs[0].box, blobs[1].box]
    assert left == [blobs[2]]  # a ring is rounder than any digit, whatever it is read as


def test_named_blobs_and_no_reader_are_left_alone() -> None:
    pixels, blobs = _page()
    named = [Element(0, ElementKind.ICON, b.box, icon_label="more_options") for b in blobs]
    assert read_glyphs(pixels, named, box_reader(RapidOcrBackend())) == ([], named)
    assert read_glyphs(pixels, blobs, None) == ([], blobs)


def test_an_engine_without_read_boxes_is_no_reader() -> None:
    assert box_reader(object()) is None
