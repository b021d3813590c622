"""Crops of glyphs rendered the way icons appear on phone screens: 16-48 dp at 420 dpi
(42-126 px) with padding, page colours light or dark, an optional circular or rounded
button, contrasting foreground, small offsets, aspect jitter, slight blur and JPEG
artefacts, then resized to the model's input size.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from screenpilot.datasets.icons.glyphs import Glyph
from screenpilot.errors import DataError
from screenpilot.vision.icon_vocab import Vocabulary, load_vocabulary

MASK_SIZE = 96
DPI = 420
Rgb = tuple[int, int, int]
U8Array = npt.NDArray[np.uint8]


@functools.cache
def _font(path: Path, size: int) -> ImageFont.FreeTypeFont:
    try:
        return ImageFont.truetype(str(path), size)
    except OSError as exc:
        raise DataError(f"cannot open icon font {path}: {exc}") from exc


@functools.lru_cache(maxsize=40000)
def glyph_mask(glyph: Glyph) -> U8Array | None:
    """The glyph's coverage, cropped to its ink (at most ``MASK_SIZE`` px), or ``None``
    when the font draws nothing for it."""
    font = _font(glyph.font, MASK_SIZE)
    canvas = Image.new("L", (MASK_SIZE * 2, MASK_SIZE * 2), 0)
    ImageDraw.Draw(canvas).text(
        (MASK_SIZE, MASK_SIZE), glyph.char, fill=255, font=font, anchor="mm"
    )
    box = canvas.getbbox()
    if box is None or (box[2] - box[0]) * (box[3] - box[1]) < 9:
        return None
    mask = canvas.crop(box)
    scale = MASK_SIZE / max(mask.size)
    if scale < 1:
        mask = mask.resize(
            (max(1, round(mask.width * scale)), max(1, round(mask.height * scale))),
            Image.Resampling.LANCZOS,
        )
    return np.asarray(mask, dtype=np.uint8)


def _luminance(rgb: Rgb) -> float:
    r, g, b = (c / 255 for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _random_colour(rng: np.random.Generator) -> Rgb:
    r, g, b = (int(v) for v in rng.integers(0, 256, 3))
    return (r, g, b)


def _page_colour(rng: np.random.Generator) -> Rgb:
    roll = rng.random()
    if roll < 0.4:
        v = int(rng.integers(225, 256))
        return (v, v - int(rng.integers(0, 8)), v - int(rng.integers(0, 10)))
    if roll < 0.7:
        v = int(rng.integers(0, 60))
        return (v, v + int(rng.integers(0, 8)), v + int(rng.integers(0, 12)))
    return _random_colour(rng)


def _contrasting(rng: np.random.Generator, background: Rgb) -> Rgb:
    lum = _luminance(background)
    for _ in range(8):
        colour = _random_colour(rng) if rng.random() < 0.5 else _grey(rng, lum)
        if abs(_luminance(colour) - lum) > 0.35:
            return colour
    return (255, 255, 255) if lum < 0.5 else (0, 0, 0)


def _grey(rng: np.random.Generator, background_lum: float) -> Rgb:
    v = int(rng.integers(0, 90)) if background_lum > 0.5 else int(rng.integers(170, 256))
    return (v, v, v)


def render_crop(mask: U8Array, rng: np.random.Generator, size: int = 64) -> U8Array:
    """One crop of a glyph as a phone would show it, ``size`` x ``size`` RGB."""
    icon_px = rng.uniform(16, 48) * DPI / 160
    margin = rng.uniform(0.06, 0.55)
    aspect = float(np.exp(rng.uniform(-0.2, 0.2))) if rng.random() < 0.5 else 1.0
    crop = icon_px * (1 + 2 * margin)
    scale = min(1.0, 128 / crop)
    width = max(8, round(crop * scale * aspect))
    height = max(8, round(crop * scale))
    page = _page_colour(rng)
    canvas = Image.new("RGB", (width, height), page)
    background = _draw_button(canvas, rng, page)
    _paste_glyph(canvas, mask, rng, icon_px * scale, _contrasting(rng, background))
    if rng.random() < 0.3:
        canvas = canvas.filter(ImageFilter.GaussianBlur(float(rng.uniform(0.3, 1.0))))
    if rng.random() < 0.5:
        canvas = _jpeg(canvas, int(rng.integers(30, 92)))
    canvas = canvas.resize((size, size), Image.Resampling.BILINEAR)
    return np.asarray(canvas, dtype=np.uint8)


def _draw_button(canvas: Image.Image, rng: np.random.Generator, page: Rgb) -> Rgb:
    roll = rng.random()
    if roll > 0.45:
        return page
    colour = _random_colour(rng)
    w, h = canvas.size
    side = min(w, h) * rng.uniform(0.8, 1.02)
    x0, y0 = (w - side) / 2, (h - side) / 2
    box = (x0, y0, x0 + side, y0 + side)
    draw = ImageDraw.Draw(canvas)
    if roll < 0.25:
        draw.ellipse(box, fill=colour)
    else:
        draw.rounded_rectangle(box, radius=side * rng.uniform(0.1, 0.35), fill=colour)
    return colour


def _paste_glyph(
    canvas: Image.Image, mask: U8Array, rng: np.random.Generator, icon_px: float, colour: Rgb
) -> None:
    glyph = Image.fromarray(mask)
    longest = max(4.0, icon_px * rng.uniform(0.75, 1.0))
    factor = longest / max(glyph.size)
    new_size = (max(1, round(glyph.width * factor)), max(1, round(glyph.height * factor)))
    glyph = glyph.resize(new_size, Image.Resampling.LANCZOS)
    w, h = canvas.size
    dx, dy = rng.normal(0, 0.05, 2) * np.array([w, h])
    x = round((w - glyph.width) / 2 + dx)
    y = round((h - glyph.height) / 2 + dy)
    canvas.paste(Image.new("RGB", glyph.size, colour), (x, y), glyph)


def _jpeg(image: Image.Image, quality: int) -> Image.Image:
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=quality)
    buffer.seek(0)
    with Image.open(buffer) as decoded:
        return decoded.convert("RGB")


def drawable(glyphs: Iterable[Glyph]) -> list[Glyph]:
    """The glyphs the font actually draws (some glyph maps name empty code points)."""
    return [g for g in glyphs if glyph_mask(g) is not None]


def render_set(
    glyphs: Sequence[Glyph],
    *,
    per_glyph: int,
    seed: int,
    size: int = 64,
    vocab: Vocabulary | None = None,
) -> tuple[U8Array, npt.NDArray[np.int64]]:
    """``per_glyph`` crops of each glyph: images (N, size, size, 3) and label indices
    (-1 for unmapped glyphs)."""
    vocab = vocab or load_vocabulary()
    rng = np.random.default_rng(seed)
    images: list[U8Array] = []
    labels: list[int] = []
    for glyph in glyphs:
        mask = glyph_mask(glyph)
        if mask is None:
            continue
        for _ in range(per_glyph):
            images.append(render_crop(mask, rng, size))
            labels.append(vocab.index(glyph.label) if glyph.label else -1)
    if not images:
        return np.zeros((0, size, size, 3), np.uint8), np.zeros(0, np.int64)
    return np.stack(images), np.asarray(labels, dtype=np.int64)
