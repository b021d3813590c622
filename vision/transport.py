"""A media player's transport glyphs from their pixels: play, skip, fast forward and
rewind.

A player's buttons are solid triangles and bars: ▶ play, ▶▶ fast forward, ◀◀ rewind,
▶| skip to the next, |◀ skip to the previous. The icon model reads them from a 32 px
crop and mixes them up: on NewPipe's player it called rewind `volume_down` and skip to
the previous `back`, under its threshold. The shapes are fixed, so the pixels decide,
on the ink of the box as the glyph rules see it (:func:`vision.image.glyph_ink`, all
its parts cut to their box, at most ``largest`` pixels each way). Its columns are read
left to right as the height of their ink (``profile``, a share of the glyph's height),
each column's ink one run centred on the glyph's middle row (:data:`CENTRED`; a
triangle pointing left or right and a bar are symmetric about it). The profile is cut
into pieces where it drops to nothing or jumps up (two triangles touching tip to
base), and each piece is

- a **bar**: at most :data:`BAR_WIDE` of the height wide, full height
  (:data:`FULL`) all across;
- a triangle pointing **right**: at least :data:`TRIANGLE_WIDE` of the height wide,
  its columns falling along a straight line (:data:`STRAIGHT`) from full height to a
  tip (:data:`TIP`);
- a triangle pointing **left**: the same, rising.

The glyph is ``play`` (right), ``fast_forward`` (right, right), ``fast_rewind`` (left,
left), ``skip_next`` (right, bar), ``skip_previous`` (bar, left) or ``pause`` (bar,
bar); anything else is no transport glyph. A player draws them large (NewPipe's are
33 dp wide): at most :data:`MAX_DP` each way. A lone triangle pointing left is left to
other rules (the navigation bar's back key, a "previous" chevron).

A drop-down's arrow (Material's ``arrow_drop_down``, "▼" beside a spinner's value:
LoopHabits' "Week" and "Month", NetGuard's theme list) is a small solid triangle
pointing down: :func:`drop_down_in` reads it as a triangle pointing right in the
glyph turned on its side (its rows top to bottom), at most :data:`DROP_DP` wide and
at least :data:`DROP_WIDE` of that tall, and
names it ``expand`` (pointing up: ``collapse``).

    >>> transport_in(glyph_ink(pixels, box), largest_glyph(pixels))  # doctest: +SKIP
    'skip_next'
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from screenpilot.vision.blocks import dp_size
from screenpilot.vision.image import InkParts

#: The glyph is at least this many pixels tall and at most this many dp each way.
MIN_SIDE = 10
MAX_DP = 48
#: Each column's ink is one run whose middle lies within this share of the height of
#: the glyph's middle row...
CENTRED = 0.08
#: ... for at least this share of the inked columns.
MOST = 0.9
#: A column under this share of the height is no ink (a gap between pieces)...
EMPTY = 0.05
#: ... and one this much taller than the column before starts a piece (a triangle's
#: base after the tip of the one before).
JUMP = 0.5
#: A bar is at most this share of the height wide and at least FULL tall all across.
BAR_WIDE = 0.45
FULL = 0.85
#: A triangle is at least this share of the height wide, full height at its base and
#: at most TIP at its tip, every column within STRAIGHT of the line between them.
TRIANGLE_WIDE = 0.5
TIP = 0.35
STRAIGHT = 0.15
#: A drop-down's arrow is at most this many dp wide (Material's is 10 dp).
DROP_DP = 24
#: ... and at least this share of its width tall (half, its tip's last rows faint).
DROP_WIDE = 0.4
#: What a drop-down's arrow pointing down (up) is named.
DROP_LABELS = {"right": "expand", "left": "collapse"}
#: What the pieces make, left to right.
GLYPHS = {
    ("right",): "play",
    ("right", "right"): "fast_forward",
    ("left", "left"): "fast_rewind",
    ("right", "bar"): "skip_next",
    ("bar", "left"): "skip_previous",
    ("bar", "bar"): "pause",
}


def largest_glyph(pixels: npt.NDArray[np.uint8]) -> float:
    """:data:`MAX_DP` in pixels of the screen ``pixels``."""
    return MAX_DP * dp_size(pixels.shape[1], pixels.shape[0])


def transport_in(parts: InkParts, largest: float) -> str:
    """The transport glyph ``parts`` (a box's ink) shows, or "" (module docstring);
    ``largest``: the most pixels a glyph may take each way."""
    ink = parts.cut()
    if ink is None or ink.shape[0] < MIN_SIDE or max(ink.shape) > largest:
        return ""
    profile = _profile(ink)
    if profile is None:
        return ""
    pieces = [_piece(p, ink.shape[0]) for p in _pieces(profile)]
    if "" in pieces:
        return ""
    return GLYPHS.get(tuple(pieces), "")


def drop_down_in(parts: InkParts, dp: float) -> str:
    """``expand`` where ``parts`` (a box's ink) is one solid triangle pointing down at
    most :data:`DROP_DP` wide on a screen of ``dp`` pixels a dp, ``collapse`` where it
    points up, else "" (module docstring)."""
    ink = parts.cut()
    if ink is None or max(ink.shape) > DROP_DP * dp:
        return ""
    turned = np.ascontiguousarray(ink.T)  # rows top to bottom as columns left to right
    if turned.shape[0] < MIN_SIDE:
        return ""
    profile = _profile(turned)
    if profile is None:
        return ""
    pieces = _pieces(profile)
    if len(pieces) != 1:
        return ""
    return DROP_LABELS.get(_piece(pieces[0], turned.shape[0], DROP_WIDE), "")


def _profile(ink: npt.NDArray[np.bool_]) -> npt.NDArray[np.float64] | None:
    """Each column's ink height as a share of the glyph's, or None where the columns
    are not single runs centred on the middle row (no triangle or bar)."""
    height = ink.shape[0]
    counts = ink.sum(axis=0)
    inked = np.flatnonzero(counts >= max(1, EMPTY * height))
    if not len(inked):
        return None
    good = 0
    middle = (height - 1) / 2
    for x in inked:
        rows = np.flatnonzero(ink[:, x])
        one_run = rows[-1] - rows[0] + 1 == len(rows)
        centred = abs((rows[0] + rows[-1]) / 2 - middle) <= CENTRED * height
        good += int(one_run and centred)
    if good < MOST * len(inked):
        return None
    return np.asarray(counts / height, dtype=np.float64)


def _pieces(profile: npt.NDArray[np.float64]) -> list[npt.NDArray[np.float64]]:
    """The profile cut where it drops under ``EMPTY`` or jumps up by ``JUMP``."""
    pieces: list[list[float]] = []
    current: list[float] = []
    for value in profile:
        if value < EMPTY:
            if current:
                pieces.append(current)
            current = []
            continue
        if current and value - current[-1] >= JUMP:
            pieces.append(current)
            current = []
        current.append(float(value))
    if current:
        pieces.append(current)
    return [np.asarray(p) for p in pieces]


def _piece(p: npt.NDArray[np.float64], height: int, least: float = TRIANGLE_WIDE) -> str:
    """``bar``, ``right`` or ``left`` for one piece of the profile (column heights as
    shares of the glyph's ``height``, in pixels; a triangle at least ``least`` of it
    wide), else ""."""
    wide = len(p)
    if p.min() >= FULL:
        return "bar" if wide <= BAR_WIDE * height else ""
    if wide < least * height:
        return ""
    for name, ramp in (("right", p), ("left", p[::-1])):
        if ramp[0] < FULL or ramp[-1] > TIP:
            continue
        line = np.linspace(ramp[0], ramp[-1], wide)
        if np.abs(ramp - line).max() <= STRAIGHT:
            return name
    return ""
