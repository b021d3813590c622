"""Pixel primitives for the renderer: cached fonts, anti-aliased shapes, text, icons.

Everything here works in screen pixels. Fonts come from pip packages through
``screenpilot.core.fonts`` (Roboto for Latin text, Noto Sans CJK when a string holds
Chinese, Material Design Icons for glyphs) and are cached per size and weight.
Round shapes are drawn from supersampled masks that are cached per geometry, so
a frame costs a few pastes and the result is identical for identical input.
"""

from __future__ import annotations

import functools

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from screenpilot.core import fonts
from screenpilot.errors import DataError
from screenpilot.simulator.theme import RGB

_SS = 4  # supersampling factor of shape masks
BoxF = tuple[float, float, float, float]


def has_cjk(text: str) -> bool:
    """Whether ``text`` needs the CJK font."""
    return any(ord(c) >= 0x2E80 for c in text)


@functools.lru_cache(maxsize=256)
def text_font(size: int, weight: int = 400, cjk: bool = False) -> ImageFont.FreeTypeFont:
    """Roboto at ``size`` px and ``weight`` (100-900), or Noto Sans CJK."""
    if cjk:
        return ImageFont.truetype(str(fonts.cjk_font()), max(1, size))
    font = ImageFont.truetype(str(fonts.text_font()), max(1, size))
    font.set_variation_by_axes([weight, 100])
    return font


@functools.lru_cache(maxsize=64)
def icon_font(size: int) -> ImageFont.FreeTypeFont:
    """Material Design Icons at ``size`` px (the glyph fills the em square)."""
    return ImageFont.truetype(str(fonts.mdi_font()), max(1, size))


def glyph(name: str) -> str:
    """The MDI character for an icon name (``wifi``, ``arrow_left``...)."""
    try:
        return fonts.mdi_codepoints()[name]
    except KeyError as exc:
        raise DataError(
            f"unknown icon {name!r}", hint="use a Material Design Icons name, e.g. 'wifi'"
        ) from exc


def font_for(text: str, size: int, weight: int = 400) -> ImageFont.FreeTypeFont:
    return text_font(size, weight, has_cjk(text))


def text_width(text: str, size: int, weight: int = 400) -> float:
    return float(font_for(text, size, weight).getlength(text)) if text else 0.0


def line_height(size: int) -> int:
    """Material line height for a font size (about 1.4 em)."""
    return round(size * 1.4)


def ellipsize(text: str, size: int, weight: int, max_w: float) -> str:
    """``text`` cut with an ellipsis so that it fits ``max_w`` pixels."""
    if text_width(text, size, weight) <= max_w:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if text_width(text[:mid] + "…", size, weight) <= max_w:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…" if lo else ""


def tail_fit(text: str, size: int, weight: int, max_w: float) -> str:
    """The longest end of ``text`` that fits (a focused single-line field scrolls)."""
    if text_width(text, size, weight) <= max_w:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi) // 2
        if text_width(text[mid:], size, weight) <= max_w:
            hi = mid
        else:
            lo = mid + 1
    return text[lo:]


def wrap(text: str, size: int, weight: int, max_w: float) -> list[str]:
    """Greedy word wrap (character wrap for CJK and over-long words)."""
    lines: list[str] = []
    for para in text.split("\n"):
        current = ""
        tokens = list(para) if has_cjk(para) else para.split(" ")
        sep = "" if has_cjk(para) else " "
        for tok in tokens:
            trial = f"{current}{sep}{tok}" if current else tok
            if text_width(trial, size, weight) <= max_w or not current:
                current = trial
            else:
                lines.append(current)
                current = tok
        lines.append(current)
    return lines


@functools.lru_cache(maxsize=1024)
def shape_mask(
    shape: str, w: int, h: int, radius: int, stroke: int, alpha: float = 1.0
) -> Image.Image:
    """An anti-aliased L mask of a rounded rectangle or ellipse (ring when stroke > 0)."""
    if alpha < 1.0:
        return shape_mask(shape, w, h, radius, stroke).point(lambda v: round(v * alpha))
    big = Image.new("L", (w * _SS, h * _SS), 0)
    d = ImageDraw.Draw(big)
    outer = (0, 0, w * _SS - 1, h * _SS - 1)
    r, s = radius * _SS, stroke * _SS
    if shape == "ellipse":
        d.ellipse(outer, fill=255)
        if s:
            d.ellipse((s, s, w * _SS - 1 - s, h * _SS - 1 - s), fill=0)
    else:
        d.rounded_rectangle(outer, radius=r, fill=255)
        if s:
            d.rounded_rectangle(
                (s, s, w * _SS - 1 - s, h * _SS - 1 - s), radius=max(0, r - s), fill=0
            )
    return big.resize((w, h), Image.Resampling.BOX)


@functools.lru_cache(maxsize=16)
def gradient(w: int, h: int, top: RGB, bottom: RGB, diagonal: bool = True) -> Image.Image:
    """A smooth two-colour gradient image (cached; copy before drawing on it)."""
    ys = np.linspace(0.0, 1.0, h, dtype=np.float32)[:, None]
    xs = np.linspace(0.0, 1.0, w, dtype=np.float32)[None, :]
    t = (ys * 0.75 + xs * 0.25) if diagonal else np.broadcast_to(ys, (h, w))
    a = np.array(top, dtype=np.float32)
    b = np.array(bottom, dtype=np.float32)
    arr = a[None, None, :] + (b - a)[None, None, :] * t[:, :, None]
    return Image.fromarray(np.clip(arr + 0.5, 0, 255).astype(np.uint8), "RGB")


class Painter:
    """Draws on one RGB image; all coordinates in pixels (floats are rounded)."""

    def __init__(self, image: Image.Image) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)

    # --- rectangles and round shapes -------------------------------------------------
    def rect(self, box: BoxF, fill: RGB) -> None:
        x1, y1, x2, y2 = (round(v) for v in box)
        if x2 > x1 and y2 > y1:
            self.draw.rectangle((x1, y1, x2 - 1, y2 - 1), fill=fill)

    def _mask_paste(
        self, shape: str, box: BoxF, radius: float, stroke: float, fill: RGB, alpha: float = 1.0
    ) -> None:
        x1, y1, x2, y2 = (round(v) for v in box)
        w, h = x2 - x1, y2 - y1
        if w <= 0 or h <= 0:
            return
        r = min(round(radius), w // 2, h // 2)
        mask = shape_mask(shape, w, h, r, round(stroke), round(alpha, 3))
        self.image.paste(fill, (x1, y1, x2, y2), mask)

    def rounded(self, box: BoxF, radius: float, fill: RGB, alpha: float = 1.0) -> None:
        """A filled, anti-aliased rounded rectangle (big ones paste only their corners)."""
        x1, y1, x2, y2 = (round(v) for v in box)
        w, h = x2 - x1, y2 - y1
        r = min(round(radius), w // 2, h // 2)
        if r <= 0 and alpha >= 1.0:
            self.rect(box, fill)
            return
        if alpha < 1.0 or w * h <= 40_000:
            self._mask_paste("rrect", box, r, 0, fill, alpha)
            return
        self.rect((x1 + r, y1, x2 - r, y2), fill)
        self.rect((x1, y1 + r, x1 + r, y2 - r), fill)
        self.rect((x2 - r, y1 + r, x2, y2 - r), fill)
        corner = shape_mask("ellipse", 2 * r, 2 * r, r, 0)
        for cx, cy in ((0, 0), (r, 0), (0, r), (r, r)):
            part = corner.crop((cx, cy, cx + r, cy + r))
            px = x1 if cx == 0 else x2 - r
            py = y1 if cy == 0 else y2 - r
            self.image.paste(fill, (px, py, px + r, py + r), part)

    def outline(self, box: BoxF, radius: float, width: float, color: RGB) -> None:
        """An anti-aliased rounded-rectangle outline."""
        self._mask_paste("rrect", box, radius, max(1.0, width), color)

    def circle(self, cx: float, cy: float, r: float, fill: RGB, alpha: float = 1.0) -> None:
        self._mask_paste("ellipse", (cx - r, cy - r, cx + r, cy + r), 0, 0, fill, alpha)

    def ring(self, cx: float, cy: float, r: float, width: float, color: RGB) -> None:
        self._mask_paste("ellipse", (cx - r, cy - r, cx + r, cy + r), 0, max(1.0, width), color)

    def line(self, x1: float, y1: float, x2: float, y2: float, color: RGB, width: float) -> None:
        self.draw.line((x1, y1, x2, y2), fill=color, width=max(1, round(width)))

    def polygon(self, points: list[tuple[float, float]], fill: RGB) -> None:
        self.draw.polygon(points, fill=fill)

    def polygon_aa(self, points: list[tuple[float, float]], fill: RGB) -> None:
        """An anti-aliased filled polygon (for small shapes such as nav-bar buttons)."""
        x1 = int(min(p[0] for p in points))
        y1 = int(min(p[1] for p in points))
        x2 = int(max(p[0] for p in points)) + 2
        y2 = int(max(p[1] for p in points)) + 2
        big = Image.new("L", ((x2 - x1) * _SS, (y2 - y1) * _SS), 0)
        ImageDraw.Draw(big).polygon(
            [((px - x1) * _SS, (py - y1) * _SS) for px, py in points], fill=255
        )
        mask = big.resize((x2 - x1, y2 - y1), Image.Resampling.BOX)
        self.image.paste(fill, (x1, y1, x2, y2), mask)

    def paste(
        self, image: Image.Image, x: float, y: float, mask: Image.Image | None = None
    ) -> None:
        self.image.paste(image, (round(x), round(y)), mask)

    # --- text and icons --------------------------------------------------------------
    def text(
        self, x: float, top: float, text: str, size: int, color: RGB, weight: int = 400
    ) -> BoxF:
        """Draw one line whose line box starts at ``top``; returns the ink box."""
        font = font_for(text, size, weight)
        ascent, descent = font.getmetrics()
        baseline = top + (line_height(size) - (ascent + descent)) / 2 + ascent
        pos = (round(x), round(baseline))
        self.draw.text(pos, text, font=font, fill=color, anchor="ls")
        left, top_, right, bottom = self.draw.textbbox(pos, text, font=font, anchor="ls")
        return (float(left), float(top_), float(right), float(bottom))

    def icon(self, name: str, cx: float, cy: float, size: int, color: RGB) -> BoxF:
        """Draw an MDI glyph centred at (cx, cy) in a ``size`` px square; returns that square."""
        font = icon_font(size)
        self.draw.text((round(cx), round(cy)), glyph(name), font=font, fill=color, anchor="mm")
        half = size / 2
        return (cx - half, cy - half, cx + half, cy + half)
