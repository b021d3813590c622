"""Bad and unusual images: each is read correctly or refused with an ImageError that says why."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from screenpilot.errors import ImageError
from screenpilot.vision.discs import _fill_colour
from screenpilot.vision.image import MAX_SIDE, channel_mean, load_image, mask_bounds

SCREENS = Path(__file__).parent / "data" / "screens"


def _png(image: Image.Image, fmt: str = "PNG") -> bytes:
    buf = io.BytesIO()
    image.save(buf, format=fmt)
    return buf.getvalue()


def test_real_png_and_jpeg() -> None:
    rgb = load_image(SCREENS / "netguard-32-settings-network.png")
    assert rgb.shape == (1920, 1080, 3) and rgb.dtype == np.uint8
    assert load_image(SCREENS / "seal-3.jpg").shape == (1280, 576, 3)


def test_all_inputs_agree() -> None:
    path = SCREENS / "seal-3.jpg"
    ref = load_image(path)
    assert np.array_equal(load_image(str(path)), ref)
    assert np.array_equal(load_image(path.read_bytes()), ref)
    assert np.array_equal(load_image(Image.open(path)), ref)
    assert np.array_equal(load_image(ref.copy()), ref)


@pytest.mark.parametrize("cut", [0.5, 0.9])
def test_truncated_png(tmp_path: Path, cut: float) -> None:
    data = (SCREENS / "netguard-32-settings-network.png").read_bytes()
    path = tmp_path / "cut.png"
    path.write_bytes(data[: int(len(data) * cut)])
    with pytest.raises(ImageError, match="truncated or corrupt"):
        load_image(path)


def test_truncated_jpeg() -> None:
    data = (SCREENS / "seal-3.jpg").read_bytes()
    with pytest.raises(ImageError, match="truncated or corrupt"):
        load_image(data[: len(data) // 3])


def test_corrupt_png_header_and_body() -> None:
    data = bytearray((SCREENS / "netguard-32-settings-network.png").read_bytes())
    header = bytearray(data)
    header[16:29] = b"\xff" * 13  # IHDR: absurd size, bad CRC
    with pytest.raises(ImageError):
        load_image(bytes(header))
    body = bytearray(data)
    body[2000:6000] = b"\x00" * 4000  # compressed pixel data destroyed
    with pytest.raises(ImageError, match="truncated or corrupt"):
        load_image(bytes(body))


def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.png"
    path.write_bytes(b"")
    with pytest.raises(ImageError, match="empty"):
        load_image(path)


def test_missing_file_and_folder(tmp_path: Path) -> None:
    with pytest.raises(ImageError, match="no such image"):
        load_image(tmp_path / "nope.png")
    with pytest.raises(ImageError, match="folder"):
        load_image(tmp_path)


def test_text_file_named_png(tmp_path: Path) -> None:
    path = tmp_path / "notes.png"
    path.write_text("hello, not an image\n")
    with pytest.raises(ImageError, match="looks like text"):
        load_image(path)


def test_wrong_extension_is_read_by_content(tmp_path: Path) -> None:
    path = tmp_path / "screen.jpg"
    path.write_bytes(_png(Image.new("RGB", (40, 80), (10, 20, 30))))
    assert load_image(path)[0, 0].tolist() == [10, 20, 30]


def test_one_pixel() -> None:
    with pytest.raises(ImageError, match="too small"):
        load_image(_png(Image.new("RGB", (1, 1))))


def test_tall_image_is_accepted() -> None:
    rgb = load_image(_png(Image.new("L", (200, 20_000), 255)))
    assert rgb.shape == (20_000, 200, 3)


def test_absurd_size_is_refused() -> None:
    with pytest.raises(ImageError, match="too large"):
        load_image(np.zeros((MAX_SIDE + 1, 8), np.uint8))


def test_rgba_grey_palette_and_16_bit() -> None:
    rgba = Image.new("RGBA", (20, 20), (200, 100, 50, 255))
    assert load_image(_png(rgba))[0, 0].tolist() == [200, 100, 50]
    clear = Image.new("RGBA", (20, 20), (200, 100, 50, 0))
    assert load_image(_png(clear))[0, 0].tolist() == [0, 0, 0]
    assert load_image(_png(Image.new("L", (20, 20), 77)))[0, 0].tolist() == [77, 77, 77]
    assert load_image(_png(Image.new("P", (20, 20), 3)))[0, 0].shape == (3,)
    sixteen = Image.fromarray(np.full((20, 20), 65535, np.uint16))
    assert load_image(_png(sixteen))[0, 0].tolist() == [255, 255, 255]


def test_numpy_dtypes_and_shapes() -> None:
    assert load_image(np.full((10, 10), 0.5, np.float32))[0, 0].tolist() == [128, 128, 128]
    assert load_image(np.full((10, 10, 3), 65535, np.uint16))[0, 0].tolist() == [255] * 3
    assert load_image(np.ones((10, 10, 1), bool))[0, 0].tolist() == [255] * 3
    with pytest.raises(ImageError, match="not an image"):
        load_image(np.zeros((10, 10, 5), np.uint8))
    with pytest.raises(ImageError, match="cannot read an image"):
        load_image(42)  # type: ignore[arg-type]


def test_channel_mean_equals_numpy_s_mean_on_every_sum_and_on_slices() -> None:
    every = np.arange(256, dtype=np.uint8)
    grid = np.stack(np.meshgrid(every, every[::5], every[::17], indexing="ij"), axis=-1)
    rng = np.random.default_rng(3)
    noise = rng.integers(0, 256, (41, 67, 3), dtype=np.uint8)[1::2, ::3]  # strided
    for pixels in (grid, noise, noise[..., 0]):
        out = channel_mean(pixels)
        want = pixels.astype(np.float32)
        want = want.mean(axis=-1) if pixels.ndim == 3 else want
        assert out.dtype == np.float32
        assert np.array_equal(out, want)


def test_the_fill_colour_of_a_patch_is_the_mean_of_the_pixels_near_its_commonest_colour() -> None:
    rng = np.random.default_rng(4)
    patch = rng.integers(0, 256, (40, 50, 3)).astype(np.int16)
    patch[5:35, 5:45] = (200, 30, 40)
    patch[10:12, 10:40] = (203, 33, 37)  # near the fill: counted in its mean
    flat = patch.reshape(-1, 3)
    near = np.abs(flat - np.array([204, 28, 44])).sum(axis=1) <= 18
    assert np.array_equal(_fill_colour(patch), flat[near].mean(axis=0))


@pytest.mark.parametrize(
    "corners",
    [(200, 200, 220, 220), (-30, -30, -10, -10), (0, 120, 50, 160), (120, 0, 160, 40)],
)
def test_a_box_off_the_image_has_no_ink_and_no_glyph(corners: tuple[int, int, int, int]) -> None:
    """A box wholly off the screen has an empty window and no ink: the glyph rules read
    nothing there (they used to raise inside OpenCV, or read the far end of the image)."""
    from screenpilot.model.geometry import Box
    from screenpilot.vision.glyphrules import _drawn_label
    from screenpilot.vision.image import box_pixels, glyph_ink, glyph_window, off_median

    pixels = np.full((100, 100, 3), 255, np.uint8)
    pixels[70:90, 70:90] = 0  # a glyph in the far corner, which a wrapped slice would see
    x1, y1, x2, y2 = corners
    box = Box(x1=x1, y1=y1, x2=x2, y2=y2)
    assert glyph_window(pixels, box)[0].size == 0
    assert box_pixels(pixels, box).size == 0 and off_median(pixels, box, 24) is None
    parts = glyph_ink(pixels, box)
    assert parts.count == 1 and parts.cut() is None and parts.largest() is None
    assert parts.alone(0.1) is None
    assert _drawn_label(pixels, box, "") == ""
    assert _drawn_label(pixels, box, ">") == ""


def test_mask_bounds_is_the_box_round_every_set_pixel_ends_exclusive() -> None:
    mask = np.zeros((10, 12), np.uint8)
    assert mask_bounds(mask) is None
    mask[3, 4] = 1
    assert mask_bounds(mask) == (4, 3, 5, 4)
    mask[7, 10] = 255
    mask[5, 2] = 1
    assert mask_bounds(mask) == (2, 3, 11, 8)
    full = np.ones((2, 3), bool)
    assert mask_bounds(full) == (0, 0, 3, 2)
    x1, y1, x2, y2 = mask_bounds(mask) or (0, 0, 0, 0)
    assert int(np.count_nonzero(mask[y1:y2, x1:x2])) == int(np.count_nonzero(mask))
