"""Semantic block division (the approach's Algorithm 1) and the screen's bars.

Algorithm 1, on a copy scaled to ``WORK_WIDTH`` pixels wide (cheap: ~10 ms):

1. grayscale, quantised to the ``k`` most frequent grey levels (flat UI colours
   stay, anti-aliasing and gradients collapse);
2. gradient magnitude and orientation (Sobel) of the Gaussian-filtered image;
3. Canny edges;
4. aligned neighbouring edge pixels: runs of edge pixels whose gradient is
   across the run (horizontal runs with vertical gradient and vice versa);
5. a least-squares line fitted to each run's pixels (nearly axis-parallel only);
6. segments grouped by proximity and orientation into lines;
7. rectangles from intersecting horizontal and vertical lines (the screen's
   frame counts as lines): minimal cells, stacks of equal cells become lists,
   cells closed on all four sides become cards (dialogs when inset over a scrim).

Bars come from the row profile (each row's dominant colour) and the lines:
status bar (top 24 dp), toolbar (the next colour boundary or full-width line
44-80 dp below), navigation bar (a boundary 12-60 dp from the bottom), and a
bottom bar above it (48-96 dp), which grouping may recognise as a tab bar.
A dp is estimated as the short side / 411 (a typical phone is ~411 dp across).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from screenpilot.model import BlockKind, Box
from screenpilot.vision.density import PHONE_DP, short_side
from screenpilot.vision.image import RGB

WORK_WIDTH = 360


def dp_size(width: int, height: int) -> float:
    """Pixels in a dp, estimated from the screen's short side (a phone is ~411 dp
    across: its width in portrait, its height on its side)."""
    return short_side(width, height) / PHONE_DP


Orientation = Literal["h", "v"]
IntArray = npt.NDArray[np.int64]
Cell = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class Segment:
    """An axis-parallel line in image pixels: ``pos`` across, ``start..end`` along."""

    orient: Orientation
    pos: float
    start: float
    end: float

    @property
    def length(self) -> float:
        return self.end - self.start


@dataclass(frozen=True, slots=True)
class Region:
    """A block candidate: its box, its kind, and what found it (``bar``, ``lines``)."""

    box: Box
    kind: BlockKind
    source: str = "lines"


# --------------------------------------------------------------------------- edges


def _work_copy(image: RGB) -> tuple[npt.NDArray[np.uint8], float]:
    import cv2

    h, w = image.shape[:2]
    scale = min(1.0, WORK_WIDTH / w)
    gray = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY)
    if scale < 1.0:
        size = (max(1, round(w * scale)), max(1, round(h * scale)))
        gray = cv2.resize(gray, size, interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(gray), scale


def quantise(gray: npt.NDArray[np.uint8], k: int = 8, bin_size: int = 8) -> npt.NDArray[np.uint8]:
    """Each pixel snapped to the nearest of the ``k`` most frequent grey levels."""
    hist = np.bincount((gray // bin_size).ravel(), minlength=256 // bin_size)
    top = np.argsort(hist)[::-1][:k]
    top = top[hist[top] > 0]
    centres = top * bin_size + bin_size // 2
    levels = np.arange(256)
    nearest = centres[np.argmin(np.abs(levels[:, None] - centres[None, :]), axis=1)]
    lut = nearest.astype(np.uint8)
    out: npt.NDArray[np.uint8] = lut[gray]
    return out


def edge_masks(
    gray: npt.NDArray[np.uint8], k: int = 8
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Edge pixels of horizontal and of vertical structures (steps 1-4)."""
    import cv2

    q = quantise(gray, k)
    smooth = cv2.GaussianBlur(q, (3, 3), 0.8)
    gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3)
    edges = cv2.Canny(smooth, 10, 30) > 0
    ax, ay = np.abs(gx), np.abs(gy)
    return edges & (ay > 2 * ax), edges & (ax > 2 * ay)


# --------------------------------------------------------------------------- segments


def _runs(mask: npt.NDArray[np.bool_], min_len: int) -> list[tuple[int, int, int]]:
    """(row, start, end) of horizontal runs of True at least ``min_len`` long."""
    padded = np.pad(mask.astype(np.int8), ((0, 0), (1, 1)))
    d = np.diff(padded, axis=1)
    rows, starts = np.nonzero(d == 1)
    _, ends = np.nonzero(d == -1)
    keep = (ends - starts) >= min_len
    return list(zip(rows[keep].tolist(), starts[keep].tolist(), ends[keep].tolist(), strict=True))


def _fit(mask: npt.NDArray[np.bool_], row: int, start: int, end: int) -> float | None:
    """Least-squares line through the run's pixels (+-1 row); its mean row, or None if tilted."""
    r0 = max(0, row - 1)
    ys, xs = np.nonzero(mask[r0 : row + 2, start:end])
    if len(xs) < 2:
        return float(row)
    if np.ptp(xs) == 0:
        return None
    slope, intercept = np.polyfit(xs.astype(np.float64), ys.astype(np.float64) + r0, 1)
    if abs(slope) > 0.02:
        return None
    return float(intercept + slope * (end - start) / 2)


def segments(
    mask: npt.NDArray[np.bool_], orient: Orientation, min_len: int, scale: float
) -> list[Segment]:
    """Least-squares segments of aligned edge pixels, in original pixels (step 5)."""
    import cv2

    m = mask if orient == "h" else mask.T
    closed = cv2.morphologyEx(m.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((1, 3), np.uint8)) > 0
    out = []
    for row, start, end in _runs(closed, min_len):
        pos = _fit(closed, row, start, end)
        if pos is not None:
            out.append(Segment(orient, pos / scale, start / scale, end / scale))
    return out


def group_segments(segs: list[Segment], pos_tol: float, gap_tol: float) -> list[Segment]:
    """Segments of one orientation merged when close across and touching along (step 6)."""
    merged: list[Segment] = []
    for s in sorted(segs, key=lambda s: (s.pos, s.start)):
        for i, m in enumerate(merged):
            if (
                abs(m.pos - s.pos) <= pos_tol
                and s.start <= m.end + gap_tol
                and m.start <= s.end + gap_tol
            ):
                w = m.length + s.length
                pos = (m.pos * m.length + s.pos * s.length) / max(w, 1e-6)
                merged[i] = Segment(m.orient, pos, min(m.start, s.start), max(m.end, s.end))
                break
        else:
            merged.append(s)
    return merged


def find_lines(
    image: RGB, *, k: int = 8, min_frac: float = 0.12
) -> tuple[list[Segment], list[Segment]]:
    """Horizontal and vertical lines of ``image`` (steps 1-6)."""
    gray, scale = _work_copy(image)
    hmask, vmask = edge_masks(gray, k)
    min_len = max(8, round(min_frac * gray.shape[1]))
    tol = 2.5 / scale
    hs = group_segments(segments(hmask, "h", min_len, scale), tol, 4 / scale)
    vs = group_segments(segments(vmask, "v", min_len, scale), tol, 4 / scale)
    return hs, vs


# --------------------------------------------------------------------------- rectangles


def _frame(width: int, height: int) -> tuple[list[Segment], list[Segment]]:
    return (
        [Segment("h", 0.0, 0.0, width), Segment("h", float(height), 0.0, width)],
        [Segment("v", 0.0, 0.0, height), Segment("v", float(width), 0.0, height)],
    )


def _supports(v: Segment, top: Segment, bottom: Segment, x1: float, x2: float, tol: float) -> bool:
    return x1 - tol <= v.pos <= x2 + tol and v.start <= top.pos + tol and v.end >= bottom.pos - tol


def _cell(
    top: Segment, bottom: Segment, vs: list[Segment], hs: list[Segment], tol: float, min_w: float
) -> Cell | None:
    x1, x2 = max(top.start, bottom.start), min(top.end, bottom.end)
    if x2 - x1 < min_w:
        return None
    sides = sorted(v.pos for v in vs if _supports(v, top, bottom, x1, x2, tol))
    if len(sides) < 2 or sides[-1] - sides[0] < min_w:
        return None
    left, right = sides[0], sides[-1]
    for h in hs:  # minimal: no line between top and bottom spans the cell
        if (
            top.pos + tol < h.pos < bottom.pos - tol
            and h.start <= left + tol
            and h.end >= right - tol
        ):
            return None
    return left, top.pos, right, bottom.pos


def rectangles(hs: list[Segment], vs: list[Segment], width: int, height: int) -> list[Cell]:
    """Minimal rectangles whose four sides are lines or the screen's frame (step 7)."""
    fh, fv = _frame(width, height)
    hs, vs = sorted(hs + fh, key=lambda s: s.pos), vs + fv
    tol = max(4.0, width / 60)
    min_w, min_h = 0.2 * width, 0.025 * height
    out = []
    for i, top in enumerate(hs):
        for bottom in hs[i + 1 :]:
            if bottom.pos - top.pos < min_h:
                continue
            cell = _cell(top, bottom, vs, hs, tol, min_w)
            if cell is not None:
                out.append(cell)
    return out


def _closed(cell: Cell, width: int, tol: float) -> bool:
    return cell[0] > tol and cell[2] < width - tol


def _stacks(cells: list[Cell], tol: float) -> list[list[Cell]]:
    """Cells grouped into vertical runs of equal width and similar height that touch."""
    runs: list[list[Cell]] = []
    for c in sorted(cells, key=lambda c: (c[1], c[0])):
        for run in runs:
            last = run[-1]
            same_x = abs(last[0] - c[0]) <= tol and abs(last[2] - c[2]) <= tol
            similar = 0.6 <= (c[3] - c[1]) / max(last[3] - last[1], 1.0) <= 1.67
            if same_x and similar and abs(last[3] - c[1]) <= tol:
                run.append(c)
                break
        else:
            runs.append([c])
    return runs


def _is_dialog(box: Box, image: RGB) -> bool:
    h, w = image.shape[:2]
    left, right = box.x1, w - box.x2
    if min(left, right) < 0.04 * w or abs(left - right) > 0.04 * w or box.height < 0.12 * h:
        return False
    inside = float(image[box.y1 : box.y2, box.x1 : box.x2].mean())
    band = image[box.y1 : box.y2, : box.x1]
    return band.size > 0 and float(band.mean()) < inside - 30


def _outside(cell: Cell, bars: list[Box]) -> bool:
    box = Box.of(*cell)
    return all(box.intersection(b) < 0.3 * box.area for b in bars)


def layout_regions(
    image: RGB, hs: list[Segment], vs: list[Segment], bars: list[Box] | None = None
) -> list[Region]:
    """Lists, cards and dialogs from the rectangles of ``hs`` x ``vs`` (outside ``bars``)."""
    h, w = image.shape[:2]
    cells = [
        c
        for c in rectangles(hs, vs, w, h)
        if (c[2] - c[0]) * (c[3] - c[1]) < 0.8 * w * h and _outside(c, bars or [])
    ]
    tol = max(4.0, w / 60)
    out = []
    for run in _stacks(cells, tol):
        box = Box.of(run[0][0], run[0][1], run[-1][2], run[-1][3])
        if len(run) >= 3:
            out.append(Region(box, BlockKind.LIST))
        elif _closed(run[0], w, tol):
            kind = BlockKind.DIALOG if _is_dialog(box, image) else BlockKind.CARD
            out.append(Region(box, kind))
    return _dedupe(out)


def _dedupe(regions: list[Region]) -> list[Region]:
    """Regions without near-duplicates (double edges of thick borders)."""
    kept: list[Region] = []
    for r in sorted(regions, key=lambda r: -r.box.area):
        if all(r.box.iou(k.box) < 0.8 for k in kept):
            kept.append(r)
    return kept


# --------------------------------------------------------------------------- bars


def row_colours(image: RGB) -> npt.NDArray[np.int16]:
    """Each row's dominant colour (median RGB) on a narrow copy of ``image``."""
    import cv2

    h, w = image.shape[:2]
    small = (
        np.asarray(cv2.resize(image, (96, h), interpolation=cv2.INTER_AREA)) if w > 96 else image
    )
    colours: npt.NDArray[np.int16] = np.median(small, axis=1).astype(np.int16)
    return colours


def boundaries(image: RGB, hs: list[Segment]) -> list[int]:
    """Rows where the dominant colour changes, plus rows of near-full-width lines."""
    colours = row_colours(image)
    _h, w = image.shape[:2]
    diff = np.abs(np.diff(colours, axis=0)).max(axis=1)
    rows = (np.nonzero(diff >= 10)[0] + 1).tolist()
    rows += [round(s.pos) for s in hs if s.length >= 0.9 * w]
    return sorted(set(rows))


def _first_in(rows: list[int], lo: float, hi: float) -> int | None:
    hits = [r for r in rows if lo <= r <= hi]
    return hits[0] if hits else None


def _last_in(rows: list[int], lo: float, hi: float) -> int | None:
    hits = [r for r in rows if lo <= r <= hi]
    return hits[-1] if hits else None


def find_bars(image: RGB, hs: list[Segment] | None = None) -> list[Region]:
    """Status bar, toolbar, navigation bar and bottom bar, where the pixels show them."""
    h, w = image.shape[:2]
    dp = dp_size(w, h)
    if h < 1.2 * w or round(24 * dp) < 2:  # not a phone in portrait: no bars to guess
        return []
    rows = boundaries(image, hs or [])
    out = []
    status = 0 if _toolbar_on_top(image, rows, dp) else round(24 * dp)
    if status:
        out.append(Region(Box(0, 0, w, status), BlockKind.STATUS_BAR, "bar"))
    tool = _first_in(rows, status + 44 * dp, status + 80 * dp)
    if tool is not None:
        out.append(Region(Box(0, status, w, tool), BlockKind.TOOLBAR, "bar"))
    bottom = h
    nav = _last_in(rows, h - 60 * dp, h - 12 * dp)
    if nav is not None and _uniform(image[nav:]):
        out.append(Region(Box(0, nav, w, h), BlockKind.NAVIGATION_BAR, "bar"))
        bottom = nav
    bar = _last_in(rows, bottom - 96 * dp, bottom - 48 * dp)
    if bar is not None and _uniform(image[bar:bottom]) and _distinct(image, bar):
        out.append(Region(Box(0, bar, w, bottom), BlockKind.TOOLBAR, "bottom_bar"))
    return out


#: A screenshot cut below the status bar (an app's store pictures) starts with its
#: toolbar: one colour from the top down to an edge ``TOP_TOOLBAR_DP`` down (a status
#: bar and a toolbar of one colour end 72 dp down or more; a status bar alone, 24)...
TOP_TOOLBAR_DP = (48.0, 66.0)
#: ... and every row where a status bar ends (``STATUS_END_DP``) crosses the
#: toolbar's title or icons (``TOP_TOOLBAR_EDGES`` colour edges or more); a status
#: bar's bottom rows are plain.
STATUS_END_DP = (18.0, 28.0)
TOP_TOOLBAR_EDGES = 3
#: A colour edge: neighbouring pixels this far apart in some channel.
EDGE_STEP = 24


def _toolbar_on_top(image: RGB, rows: list[int], dp: float) -> bool:
    """Whether ``image`` has no status bar: its toolbar starts at the top (Markor's
    screenshots; a status bar guessed there took the toolbar's top 24 dp and put the
    toolbar's block a status bar lower)."""
    first = [r for r in rows if r >= 4 * dp]
    lo, hi = TOP_TOOLBAR_DP
    if not first or not lo * dp <= first[0] <= hi * dp or not _uniform(image[: first[0]]):
        return False
    a, b = STATUS_END_DP
    for y in range(round(a * dp), min(round(b * dp), first[0] - 1) + 1):
        row = image[y].astype(np.int16)
        if int((np.abs(np.diff(row, axis=0)).max(axis=1) > EDGE_STEP).sum()) < TOP_TOOLBAR_EDGES:
            return False
    return True


def _uniform(strip: RGB) -> bool:
    """Whether most of ``strip`` is one colour (a bar's background)."""
    if strip.size == 0:
        return False
    med = np.median(strip.reshape(-1, 3), axis=0)
    close = np.abs(strip.astype(np.int16) - med.astype(np.int16)).max(axis=2) <= 12
    return float(close.mean()) >= 0.7


def _distinct(image: RGB, row: int, span: int = 16) -> bool:
    """Whether the background below ``row`` differs from the one above it (a bar's edge)."""
    above = np.median(image[max(0, row - span) : row].reshape(-1, 3), axis=0)
    below = np.median(image[row : row + span].reshape(-1, 3), axis=0)
    return float(np.abs(above - below).max()) >= 10


def divide(image: RGB) -> list[Region]:
    """Every block candidate on ``image``: bars first, then lists, cards and dialogs."""
    hs, vs = find_lines(image)
    bars = find_bars(image, hs)
    return bars + layout_regions(image, hs, vs, [b.box for b in bars])
