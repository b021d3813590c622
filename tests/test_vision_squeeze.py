"""Plain bands left out of text detection: which rows go, how y maps back, and that
OCR finds the same lines on a screen with long empty bands, where they are."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from screenpilot.core.fonts import text_font
from screenpilot.errors import VisionError
from screenpilot.vision.squeeze import plain_rows, squeeze_rows


def _bands(h: int = 600, w: int = 200) -> np.ndarray:
    """White, with ink rows at 100-119 and 400-419 and a grey ramp at 500-599."""
    image = np.full((h, w, 3), 255, np.uint8)
    image[100:120, 20:60] = 0
    image[400:420, 50:90] = 30
    image[500:, :] = np.linspace(0, 255, w, dtype=np.uint8)[None, :, None]
    return image


def test_plain_rows_are_one_colour_across() -> None:
    image = _bands()
    plain = plain_rows(image)
    assert plain[:100].all() and plain[120:400].all()
    assert not plain[100:120].any() and not plain[400:420].any() and not plain[500:].any()
    noisy = image.copy()
    noisy[200, 10] = 250  # within the tolerance
    assert plain_rows(noisy)[200]
    noisy[200, 10] = 200
    assert not plain_rows(noisy)[200]
    assert plain_rows(np.zeros((0, 5, 3), np.uint8)).shape == (0,)


def test_long_plain_runs_lose_their_inside() -> None:
    image = _bands()
    out = squeeze_rows(image, margin=10, min_run=50)
    # the top run (0-99, at the edge) keeps 10 rows; 120-399 keeps 10 at each end;
    # 420-499 (80 rows) is longer than 50 and keeps 10 + 10
    expected = list(range(90, 130)) + list(range(390, 430)) + list(range(490, 600))
    assert out.rows.tolist() == expected
    assert out.removed == 600 - len(expected)
    assert np.array_equal(out.image, image[expected])
    # every kept row is its original; a y between rows keeps its offset from the one above
    ys = np.array([0, 10, 39.5, 40, 79, 80, len(expected)], np.float32)
    assert out.unsqueeze_y(ys).tolist() == [90, 100, 129.5, 390, 429, 490, 600]


def test_nothing_to_squeeze() -> None:
    busy = np.random.default_rng(0).integers(0, 255, (300, 100, 3), dtype=np.uint8)
    same = squeeze_rows(busy)
    assert same.removed == 0 and same.image is busy
    ys = np.array([3.5, 250], np.float32)
    assert np.array_equal(same.unsqueeze_y(ys), ys)
    blank = np.full((300, 100, 3), 7, np.uint8)  # all plain: left as it is
    assert squeeze_rows(blank).removed == 0


def test_ocr_finds_the_same_lines_with_the_empty_bands_left_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``vision.ocr_squeeze`` (on by default): a settings-like page with long empty bands
    reads the same words in boxes a few pixels from the whole page's (the detector weighs
    the whole image, so its boxes move a little; describe then fits them to the ink)."""
    from screenpilot.vision.ocr import SQUEEZE_ENV, RapidOcrBackend, read_tiled

    image = Image.new("RGB", (1080, 2000), (250, 250, 250))
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(str(text_font()), 44)
    words = ["Network", "Battery saver", "Storage"]
    tops = (120, 900, 1700)
    for top, text in zip(tops, words, strict=True):
        draw.text((60, top), text, font=font, fill=(20, 20, 20))
    pixels = np.asarray(image)
    monkeypatch.delenv(SQUEEZE_ENV, raising=False)
    squeezed = RapidOcrBackend(rec_cache=0)
    assert squeezed.squeeze
    whole = RapidOcrBackend(rec_cache=0, squeeze=False)
    found = [[t for t in read_tiled(b, pixels) if t.score >= 0.9] for b in (squeezed, whole)]
    assert [t.text for t in found[0]] == [t.text for t in found[1]] == words
    for a, b, top in zip(*found, tops, strict=True):
        assert top < a.box.center[1] < top + 70
        apart = [abs(p - q) for p, q in zip(a.box.as_tuple(), b.box.as_tuple(), strict=True)]
        assert max(apart) <= 10
    monkeypatch.setenv(SQUEEZE_ENV, "false")
    assert not RapidOcrBackend().squeeze
    monkeypatch.setenv(SQUEEZE_ENV, "maybe")
    with pytest.raises(VisionError, match="true or false"):
        RapidOcrBackend()
