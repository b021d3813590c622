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

    def read(self, image: np.ndarray, *, span: int | None = None) -> list[TextLine]:
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


def test_lines_are_found_small_and_read_large(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``vision.ocr_det_width`` 480 the detector sees a 1080-wide screen at 480 px and
    the recogniser at 720: small text is still read, in boxes of full-size pixels."""
    from screenpilot.vision.ocr import DET_WIDTH_ENV, RapidOcrBackend

    image = Image.new("RGB", (1080, 1200), "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(str(text_font()), 30)  # ~11 px tall at 480 wide
    words = ["Battery saver", "Adaptive brightness", "Screen timeout"]
    for i, text in enumerate(words):
        draw.text((60, 100 + i * 300), text, font=font, fill="black")
    pixels = np.asarray(image)
    monkeypatch.setenv(DET_WIDTH_ENV, "480")
    fast = RapidOcrBackend()
    assert (fast.det_width, fast.max_width) == (480, 720)
    monkeypatch.delenv(DET_WIDTH_ENV)
    default = RapidOcrBackend()
    assert default.det_width == 720
    for backend in (fast, default):
        lines = [t for t in read_tiled(backend, pixels) if t.score >= 0.9]
        assert [t.text for t in lines] == words
        for i, line in enumerate(lines):
            assert abs(line.box.x1 - 60) < 12 and 95 + i * 300 < line.box.center[1] < 150 + i * 300
    with pytest.raises(VisionError, match="at least 32"):
        RapidOcrBackend(det_width=16)
    monkeypatch.setenv(DET_WIDTH_ENV, "fast")
    with pytest.raises(VisionError, match="whole number"):
        RapidOcrBackend()


def test_the_int8_text_detector_reads_what_the_float_one_reads(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``vision.ocr_det_model``: int8 (the shipped quantised detector, the default),
    fp32 (rapidocr's own) or a file; both read the same lines of a real screen, in boxes
    within a few pixels of each other; a missing file is an error that says what to set."""
    from screenpilot.vision.ocr import (
        DET_MODEL_ENV,
        INT8_DET_FILE,
        RapidOcrBackend,
        det_model_path,
        wheel_det_model,
    )
    from screenpilot.vision.shipped import MODELS_DIR

    monkeypatch.delenv(DET_MODEL_ENV, raising=False)
    assert det_model_path() == MODELS_DIR / INT8_DET_FILE and wheel_det_model().is_file()
    assert det_model_path("fp32") is None
    int8, fp32 = RapidOcrBackend(), RapidOcrBackend(det_model="fp32")
    assert int8.det_model == MODELS_DIR / INT8_DET_FILE and fp32.det_model is None
    assert int8._params()["Det.model_path"] == str(MODELS_DIR / INT8_DET_FILE)
    assert "Det.model_path" not in fp32._params()
    pixels = np.asarray(Image.open(SCREENS / "netguard-32-settings-network.png").convert("RGB"))
    a = [t for t in read_tiled(int8, pixels) if t.score >= 0.95]
    b = [t for t in read_tiled(fp32, pixels) if t.score >= 0.95]
    assert [t.text for t in a] == [t.text for t in b] and len(a) >= 5
    for x, y in zip(a, b, strict=True):
        edges = zip(
            (x.box.x1, x.box.y1, x.box.x2, x.box.y2),
            (y.box.x1, y.box.y1, y.box.x2, y.box.y2),
            strict=True,
        )
        assert max(abs(p - q) for p, q in edges) <= 8
    monkeypatch.setenv(DET_MODEL_ENV, str(tmp_path / "gone.onnx"))
    with pytest.raises(VisionError, match="missing") as caught:
        RapidOcrBackend()
    assert "fp32" in (caught.value.hint or "")
    monkeypatch.setenv(DET_MODEL_ENV, "int8")
    assert RapidOcrBackend().det_model == MODELS_DIR / INT8_DET_FILE
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"not a model")
    with pytest.raises(VisionError, match="cannot start rapidocr") as caught:
        RapidOcrBackend(det_model=str(broken)).engine()
    assert "broken.onnx" in (caught.value.hint or "")


def test_narrow_lines_are_padded_as_rapidocr_pads_them() -> None:
    """``vision.ocr_rec_width`` 160 (the default) pads a line to 160 px at 48 tall, but a
    line under twice as wide as tall (a glyph: a menu's three bars, read as "三" with
    more confidence when padded less) still to 320:48, as rapidocr pads it."""
    from screenpilot.vision.ocr import RapidOcrBackend, pad_narrow

    crop = np.zeros((30, 40, 3), np.uint8)
    padded = pad_narrow(crop, 160)  # scaled to 48 tall (64 wide), padded to 320
    assert padded.shape == (48, 320, 3) and (padded[:, 64:] == 127.5).all()
    assert (padded[:, :64] == 0).all()
    assert pad_narrow(crop, 320) is crop  # rapidocr's own width pads it anyway
    wide = np.zeros((30, 61, 3), np.uint8)
    assert pad_narrow(wide, 160) is wide
    image = Image.new("RGB", (720, 200), "white")
    draw = ImageDraw.Draw(image)
    for y in (60, 80, 100):  # a menu's three bars
        draw.rectangle((40, y, 90, y + 8), fill="black")
    draw.text((200, 60), "Inbox", font=ImageFont.truetype(str(text_font()), 40), fill="black")
    pixels = np.asarray(image)
    boxes = [Box(30, 50, 100, 118), Box(190, 55, 320, 110)]  # ratios 1.0 and 2.4
    backend = RapidOcrBackend(rec_width=160, rec_cache=0)
    recogniser = backend.engine()._load_rec_model()
    widths: list[int] = []
    session = recogniser.session

    def recorded(batch: np.ndarray) -> object:
        widths.append(batch.shape[-1])
        return session(batch)

    recogniser.session = recorded
    try:
        bars, word = backend.read_boxes(pixels, boxes)
    finally:
        recogniser.session = session
    assert sorted(widths) == [160, 320]  # the word at 160, the bars at 320
    assert word.text == "Inbox" and bars.box == boxes[0]
    as_before = RapidOcrBackend(rec_width=320, rec_cache=0).read_boxes(pixels, boxes[:1])[0]
    assert (bars.text, bars.score) == (as_before.text, as_before.score)  # the same read


def test_the_text_detectors_input_is_made_in_float32_to_the_same_bits() -> None:
    """rapidocr's own preprocessing normalises in float64; the backend's float32 one
    (``_float32_preprocess``) gives the detector the same tensor, bit for bit."""
    from rapidocr.ch_ppocr_det.utils import DetPreProcess

    from screenpilot.vision.ocr import RapidOcrBackend

    detector = RapidOcrBackend().engine()._load_det_model()
    ours = detector.get_preprocess()
    theirs = DetPreProcess(
        detector.limit_side_len, detector.limit_type, detector.mean, detector.std
    )
    assert type(ours).__name__ == "_Float32Pre"  # installed
    screen = np.asarray(Image.open(SCREENS / "netguard-32-settings-network.png").convert("RGB"))
    noise = np.random.default_rng(1).integers(0, 256, (320, 224, 3), dtype=np.uint8)
    for image in (np.ascontiguousarray(screen[:, :, ::-1]), noise):
        a, b = ours(image), theirs(image)
        assert a is not None and b is not None
        assert a.dtype == b.dtype == np.float32 and a.shape == b.shape
        assert np.array_equal(a, b)


def test_the_float32_input_looked_up_in_a_table_equals_computing_it_per_pixel() -> None:
    """``_Float32Pre``'s table gives the values of its float32 steps on every pixel: one
    table for equal channels, one a channel otherwise, and a float image computed."""
    from types import SimpleNamespace

    from screenpilot.vision.ocr import _Float32Pre

    image = np.random.default_rng(2).integers(0, 256, (37, 53, 3), dtype=np.uint8)
    for mean, std in (((0.5,) * 3, (0.5,) * 3), ((0.485, 0.456, 0.406), (0.229, 0.224, 0.225))):
        base = SimpleNamespace(
            scale=1 / 255.0, mean=np.asarray(mean), std=np.asarray(std), resize=lambda x: x
        )
        pre = _Float32Pre(base)
        want = image.astype(np.float32) * np.float32(1 / 255.0)
        want -= np.asarray(mean, np.float32)
        want /= np.asarray(std, np.float32)
        want = want.transpose(2, 0, 1)[None]
        for got in (pre(image), pre(image.astype(np.float32))):
            assert got is not None and got.dtype == np.float32 and got.flags.c_contiguous
            assert np.array_equal(got, want)


def test_a_screen_is_scaled_once_for_finding_reading_and_reading_boxes() -> None:
    """read() and then read_boxes() on one screen share its scaled copy, which nobody may
    change; another screen (or another scale) is scaled anew."""
    from screenpilot.vision.ocr import RapidOcrBackend

    backend = RapidOcrBackend()
    screen = np.asarray(Image.open(SCREENS / "netguard-32-settings-network.png").convert("RGB"))
    lines = backend.read(screen)
    first = backend._bgr(screen, 720 / screen.shape[1])
    assert not first.flags.writeable and first.shape[1] == 720
    from screenpilot.vision.ocr import _resize

    assert np.array_equal(first, _resize(screen, 720 / screen.shape[1])[:, :, ::-1])
    boxes = [line.box for line in lines[:3]]
    again = backend.read_boxes(screen, boxes)
    assert backend._bgr(screen, 720 / screen.shape[1]) is first  # not scaled again
    assert [t.text for t in again] == [t.text for t in lines[:3]]
    other = screen.copy()
    assert backend._bgr(other, 720 / screen.shape[1]) is not first


def test_a_screen_on_its_side_is_scaled_by_its_short_side() -> None:
    """A 2400x1080 screen is read at the scale of a 1080x2400 one (its short side to
    720 px), not shrunk to 720 px across its long side: 16 px text stays legible."""
    words = ["Battery saver", "Adaptive brightness", "Screen timeout", "Dark theme"]
    font = ImageFont.truetype(str(text_font()), 16)
    for size in ((2400, 1080), (1080, 2400)):
        image = Image.new("RGB", size, "white")
        draw = ImageDraw.Draw(image)
        for i, word in enumerate(words):
            draw.text((60, 100 + i * 200), word, font=font, fill=(60, 60, 60))
        read = {line.text for line in recognize(np.asarray(image), threshold=0.9)}
        assert set(words) <= read, size
