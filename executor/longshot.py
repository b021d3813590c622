"""The whole scrollable page as one tall image, and the way back from it to the phone.

Capture: screenshot, swipe about half a screen, screenshot... until the content
stops moving or ``max_screens`` is reached. Between two frames the fixed parts
(status bar, toolbar, sticky headers at the top; tab bars, navigation bar at the
bottom) are the rows that did not change; the content between them moved up by
a shift found by matching row profiles (the finger's travel breaks ties between
look-alike list rows). The tall image is frame 0 down to the footer, the new
rows of every later frame, and the last frame's footer.

``LongPage.locate`` maps a point on the tall image back to (scroll offset
needed, point on screen); ``LongPage.reveal`` scrolls there and returns the
point to tap, re-measuring the real scroll from the pixels (a real phone never
scrolls exactly by the finger's travel) and then finding the element's own rows
on the screen (look-alike list rows can fool the measured scroll by a row).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace

import numpy as np
from PIL import Image

from screenpilot.errors import DeviceError
from screenpilot.executor.device import Device
from screenpilot.executor.settle import STATUS_BAR_SHARE, frames_equal
from screenpilot.model import Box

_ROW_TOLERANCE = 2.0
_BANDS = 16


def _gray(image: Image.Image) -> np.ndarray:
    return np.asarray(image.convert("L"), dtype=np.float32)


def _profile(gray: np.ndarray) -> np.ndarray:
    """Per-row means over vertical bands: a cheap fingerprint of each row."""
    _h, w = gray.shape
    edges = np.linspace(0, w, _BANDS + 1).astype(int)
    return np.stack([gray[:, a:b].mean(axis=1) for a, b in itertools.pairwise(edges)], axis=1)


def fixed_regions(a: Image.Image, b: Image.Image) -> tuple[int, int]:
    """(top, bottom): rows [0, top) and [bottom, h) that did not move between frames.

    Rows are compared by structure (each row minus its mean), because toolbars
    change tint once the page scrolls under them without moving.
    """
    ga, gb = _gray(a), _gray(b)
    ga -= ga.mean(axis=1, keepdims=True)
    gb -= gb.mean(axis=1, keepdims=True)
    same = np.abs(ga - gb).mean(axis=1) < _ROW_TOLERANCE
    h = len(same)
    top = int(h * STATUS_BAR_SHARE)
    while top < h and same[top]:
        top += 1
    bottom = h
    while bottom > top and same[bottom - 1]:
        bottom -= 1
    return top, bottom


def _row_error(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.asarray(np.abs(a - b).mean(axis=1))


def moving_band(
    a: Image.Image, b: Image.Image, expected: int | None = None
) -> tuple[int, int, int]:
    """(top, bottom, shift) of the content that moved up between two frames.

    The shift is found on the middle fifth of the screen (content on any page);
    the band then grows up and down while rows of ``b`` still match rows of
    ``a`` moved by that shift. Toolbars that only change tint, status and
    navigation bars, sticky headers and tab bars stay outside it.
    """
    ga, gb = _gray(a), _gray(b)
    h = ga.shape[0]
    y0, y1 = int(h * 0.4), int(h * 0.6)
    pa, pb = _profile(ga), _profile(gb)
    shifts = np.arange(0, h - y1)
    errors = np.array([float(np.abs(pb[y0:y1] - pa[y0 + s : y1 + s]).mean()) for s in shifts])
    shift = _pick(shifts, errors, expected)
    if shift == 0:
        return 0, h, 0
    match = _row_error(gb[: h - shift], ga[shift:]) < _ROW_TOLERANCE
    top = _grow(match, y0, int(h * STATUS_BAR_SHARE), -1)
    bottom = _grow(match, y1, h - shift, +1)
    _, fixed_bottom = fixed_regions(a, b)
    return top, max(bottom, min(fixed_bottom, h)), shift


#: A fixed part ends the moving band only after this many rows in a row that do not
#: match: single rows differ now and then (text re-rendered a pixel apart).
_MISS_RUN = 8


def _grow(match: np.ndarray, start: int, limit: int, step: int) -> int:
    """From ``start``, the band's edge towards ``limit`` (step -1: up, +1: down): the
    last matching row before a run of ``_MISS_RUN`` rows that do not match."""
    edge = pos = start
    misses = 0
    while pos != limit:
        row = pos - 1 if step < 0 else pos
        if not 0 <= row < len(match):
            break
        if match[row]:
            misses = 0
            pos += step
            edge = pos
        else:
            misses += 1
            pos += step
            if misses >= _MISS_RUN:
                break
    return edge


def _pick(shifts: np.ndarray, errors: np.ndarray, expected: int | None) -> int:
    best = float(errors.min())
    candidates = shifts[errors <= best + 0.5]
    if expected is None or len(candidates) == 1:
        return int(candidates[0])
    return int(candidates[np.argmin(np.abs(candidates - expected))])


def estimate_shift(
    a: Image.Image, b: Image.Image, top: int, bottom: int, expected: int | None = None
) -> int:
    """How many pixels the content between ``top`` and ``bottom`` moved up from a to b."""
    pa, pb = _profile(_gray(a)[top:bottom]), _profile(_gray(b)[top:bottom])
    n = bottom - top
    if n <= 0:
        return 0
    min_overlap = max(8, n // 8)
    shifts = np.arange(0, n - min_overlap + 1)
    errors = np.array([float(np.abs(pa[s:] - pb[: n - s]).mean()) for s in shifts])
    return _pick(shifts, errors, expected)


@dataclass(frozen=True)
class LongPage:
    """A stitched page and how it maps back to the screen."""

    image: Image.Image
    screen_size: tuple[int, int]
    top: int
    bottom: int
    offsets: tuple[int, ...]
    current_offset: int

    @property
    def content_height(self) -> int:
        return self.offsets[-1] + (self.bottom - self.top)

    @property
    def max_offset(self) -> int:
        return self.offsets[-1]

    def locate(self, box: Box) -> tuple[int, Box]:
        """(scroll offset to reach, the box on screen at that offset) for a tall-image box."""
        view = self.bottom - self.top
        if box.y2 <= self.top:
            return self.current_offset, box
        foot = self.top + self.content_height
        if box.y1 >= foot:
            dy = self.bottom - foot
            return self.current_offset, Box(box.x1, box.y1 + dy, box.x2, box.y2 + dy)
        c1, c2 = box.y1 - self.top, min(box.y2, foot) - self.top
        lo, hi = max(0, c2 - view), min(self.max_offset, c1)
        if (
            lo <= self.current_offset <= hi
            and c1 - self.current_offset >= view // 10
            and c2 - self.current_offset <= view - view // 10
        ):
            offset = self.current_offset  # well in view already
        else:  # scroll it to the middle
            offset = int(np.clip(c1 - (view - (c2 - c1)) // 2, 0, self.max_offset))
        y1 = c1 - offset + self.top
        return offset, Box(box.x1, y1, box.x2, max(y1 + 1, c2 - offset + self.top))

    def reveal(self, device: Device, box: Box) -> tuple[LongPage, Box]:
        """Scroll so that ``box`` (tall-image coordinates) is on screen; return it on screen.

        A box in the fixed header is checked to be where the first frame had it; when
        the screen shows something else there (the "header" scrolled after all), the
        page is scrolled back to its top, where the first frame's places hold."""
        if box.y2 <= self.top and self.current_offset > 0:
            shown = _gray(device.capture())[box.y1 : box.y2]
            first = _gray(self.image)[box.y1 : box.y2]
            if shown.shape == first.shape and float(np.abs(shown - first).mean()) > 4.0:
                page = self
                for _ in range(12):
                    if page.current_offset <= 0:
                        break
                    page = page._scroll_by(device, -page.current_offset)
                return replace(page, current_offset=0), box
        offset, on_screen = self.locate(box)
        page = self
        for _ in range(8):
            delta = offset - page.current_offset
            if abs(delta) <= 2:
                break
            page = page._scroll_by(device, delta)
        if page.current_offset != self.current_offset:
            _, on_screen = page.locate(box)
        seen = self._find_on(device.capture(), box, on_screen)
        if seen is not None and seen.y1 != on_screen.y1:
            # the measured scroll was off (look-alike list rows): trust where it is seen
            page = replace(page, current_offset=page.current_offset + on_screen.y1 - seen.y1)
            on_screen = seen
        return page, on_screen

    def _find_on(self, screen: Image.Image, box: Box, expected: Box) -> Box | None:
        """Where the rows of ``box`` (tall-image coordinates) are on ``screen``: the best
        match of that full-width strip below the status bar, when it is a near-exact
        match; None for the fixed bars or when nothing matches well."""
        if box.y1 < self.top or box.y1 >= self.top + self.content_height:
            return None
        strip = _gray(self.image)[box.y1 : box.y2]
        start = int(screen.size[1] * STATUS_BAR_SHARE)  # the whole screen below the
        band = _gray(screen)[start:]  # status bar: a band may be off
        h = strip.shape[0]
        if h < 4 or band.shape[0] <= h or strip.std() < 1.0:
            return None  # blank rows tell nothing apart
        a, b = strip[::2, ::2], band[::2, ::2]
        diffs = np.array(
            [
                np.abs(b[y : y + a.shape[0]] - a).mean()
                for y in range(0, b.shape[0] - a.shape[0] + 1)
            ]
        )
        best = int(np.argmin(diffs))
        if diffs[best] > 2.0:
            return None
        y1 = start + 2 * best
        # among near-equal matches (look-alike rows), the one nearest the expectation
        close = np.flatnonzero(diffs <= diffs[best] + 0.5)
        if close.size > 1:
            y1 = start + 2 * int(close[np.argmin(np.abs(start + 2 * close - expected.y1))])
        return Box(box.x1, y1, box.x2, y1 + (box.y2 - box.y1))

    def _scroll_by(self, device: Device, delta: int) -> LongPage:
        w, _ = self.screen_size
        view = self.bottom - self.top
        step = int(np.clip(delta, -int(view * 0.8), int(view * 0.8)))
        y_mid = self.top + view // 2
        x = w // 2
        before = device.capture()
        device.swipe(x, y_mid + step // 2, x, y_mid - step // 2, 600)
        after = device.capture()
        if step > 0:
            moved = estimate_shift(before, after, self.top, self.bottom, expected=step)
        else:
            moved = -estimate_shift(after, before, self.top, self.bottom, expected=-step)
        if moved == 0:
            raise DeviceError("the page did not scroll; cannot reach the element below the fold")
        return replace(self, current_offset=self.current_offset + moved)


def capture_long(device: Device, *, max_screens: int = 8, overlap: float = 0.5) -> LongPage:
    """Scroll down through the page, capturing and stitching it into one tall image."""
    first = device.capture()
    w, h = first.size
    frames, shifts = [first], []
    top, bottom = int(h * STATUS_BAR_SHARE), h
    for _ in range(max_screens - 1):
        span = min(int((bottom - top) * overlap), int(h * 0.35))
        y_mid = (top + bottom) // 2
        device.swipe(w // 2, y_mid + span // 2, w // 2, y_mid - span // 2, 600)
        current = device.capture()
        if frames_equal(frames[-1], current, tolerance=0.0005):
            break
        if len(frames) == 1:
            top, bottom, shift = moving_band(first, current, expected=span)
        else:
            shift = estimate_shift(frames[-1], current, top, bottom, expected=span)
        if shift <= 0:
            break
        frames.append(current)
        shifts.append(shift)
    return _stitch(frames, shifts, top, bottom)


def _stitch(frames: list[Image.Image], shifts: list[int], top: int, bottom: int) -> LongPage:
    w, h = frames[0].size
    if not shifts:
        return LongPage(frames[0], (w, h), top, bottom, (0,), 0)
    parts = [np.asarray(frames[0].convert("RGB"))[:bottom]]
    for frame, shift in zip(frames[1:], shifts, strict=True):
        parts.append(np.asarray(frame.convert("RGB"))[bottom - shift : bottom])
    parts.append(np.asarray(frames[-1].convert("RGB"))[bottom:])
    offsets = tuple(int(v) for v in np.cumsum([0, *shifts]))
    image = Image.fromarray(np.concatenate(parts, axis=0))
    return LongPage(image, (w, h), top, bottom, offsets, offsets[-1])
