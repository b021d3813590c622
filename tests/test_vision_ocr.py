"""OCR on real and drawn screens: known text, Chinese, thresholds, tall images, errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from screenpilot.core.fonts import cjk_font, text_font
from screenpilot.errors import VisionError
from screenpilot.model import Box
from screenpilot.vision.ocr import TextLine, get_backend, read_tiled, recognize

SCREENS = Path(__file__).parent / "data" / "screens"


def _drawn(lines: list[tuple[str, Path]], size: tuple[int, int] = (720, 400)) -> np.ndarray:
    image = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(image)
    for i, (text, font) in enumerate(lines):
        draw.text((40, 40 + i * 90), text, font=ImageFont.truetype(str(font), 44), fill="black")
    return np.asarray(image)


@pytest.fixture(scope="module")
def netguard() -> list[TextLine]:
    return recognize(SCREENS / "netguard-32-settings-network.png", threshold=0.0)


def test_reads_known_text_from_a_real_screen(netguard: list[TextLine]) -> None:
    texts = {line.text for line in netguard if line.score >= 0.95}
    assert {"Settings", "Allow tethering", "Consider 2G unmetered"} <= texts
    title = next(line for line in netguard if line.text == "Settings")
    assert title.box.y1 > 60 and title.box.y2 < 240 and title.box.x1 > 100  # in the toolbar


def test_threshold_only_removes(netguard: list[TextLine]) -> None:
    kept = recognize(SCREENS / "netguard-32-settings-network.png", threshold=0.95)
    assert {(t.text, t.box) for t in kept} <= {(t.text, t.box) for t in netguard}
    assert all(t.score >= 0.95 for t in kept)
    with pytest.raises(VisionError, match="outside"):
        recognize(SCREENS / "seal-3.jpg", threshold=1.5)


def test_reads_roboto_and_chinese() -> None:
    image = _drawn([("Turn on Wi-Fi", text_font()), ("蓝牙设置", cjk_font())])
    texts = [line.text for line in recognize(image, threshold=0.8)]
    assert texts == ["Turn on Wi-Fi", "蓝牙设置"]


class _Recorder:
    name = "recorder"

    def __init__(self) -> None:
        self.shapes: list[tuple[int, ...]] = []

    def read(self, image: np.ndarray) -> list[TextLine]:
        self.shapes.append(image.shape)
        h = image.shape[0]
        return [TextLine(f"y{y}", Box(0, y, 10, y + 10), 1.0) for y in range(0, h - 10, 50)]


def test_tall_images_are_read_in_tiles_without_duplicates() -> None:
    fake = _Recorder()
    lines = read_tiled(fake, np.zeros((20_000, 400, 3), np.uint8))
    assert len(fake.shapes) > 10 and all(s[0] <= 1000 for s in fake.shapes)
    centres = [t.box.center[1] for t in lines]
    assert centres == sorted(centres) and len(set(centres)) == len(centres)
    assert centres[0] < 50 and centres[-1] > 19_900


def test_unknown_backend() -> None:
    with pytest.raises(VisionError, match="unknown OCR backend"):
        get_backend("tesseract")


def test_paddleocr_backend_says_what_is_missing() -> None:
    with pytest.raises(VisionError, match="paddleocr"):
        get_backend("paddleocr").read(np.zeros((20, 20, 3), np.uint8))
