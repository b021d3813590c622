"""The Wi-Fi fan and the mobile signal's triangle from their pixels.

Android draws its network glyphs as two filled shapes (Material's
"signal_wifi_4_bar" and "signal_cellular_4_bar"), in a status bar, in a network
setting, and on every row of a firewall's app list (NetGuard: the Wi-Fi and mobile
data each app may use). The icon model never learnt them filled: it reads the fan as a
map pin or a down arrow and the triangle as "previous" or "block", below its threshold,
so they were left unlabelled (on NetGuard's screenshots, on nearly every app row). The
shapes are fixed, so the pixels decide, on the ink of the box as the glyph rules see it
(:func:`vision.image.glyph_ink`; its largest part, other parts specks at most): at most
:data:`MAX_DP` each way, every row of it one run of ink (:data:`ONE_RUN` of the rows),
and

- ``wifi``: a fan, a circle's sector opening upwards from an apex at the bottom: wider
  than tall (:data:`FAN_ASPECT`), each row centred (:data:`CENTRED`), its bottom rows
  narrow (:data:`APEX`), its widest row in the upper part (:data:`WIDEST`) and its top
  rows narrower than that (a dome, :data:`DOME`: a down-pointing triangle's top row is
  its widest), the rows below the widest narrowing along two straight sides
  (:data:`STRAIGHT` of the width from a straight line);
- ``signal``: a right triangle with its right angle at the bottom right: about square
  (:data:`TRIANGLE_ASPECT`), each row ending at the right edge and as wide as its height
  from the top would make it (:data:`STRAIGHT`), half its box filled (:data:`HALF`).

A two-tone glyph (the signal's strength in a darker part over a pale full shape) is
read as found: a smaller fan or triangle of the same angle is the same shape.

``signal_off`` is the triangle struck through from its top left (Material's
"signal_cellular_off"; NetGuard's "mobile data blocked" on every blocked app's row, 56
times on its screenshots, unnamed: the model read it as a cross, which its mirror check
refuses): its ink in two parts or more, on either side of a gap along the slash, and the
slash's stroke past the triangle. :func:`slashed_in` fills the gap (a closing with a
line across it, ``SLASH_GAP`` dp), drops the stroke (an opening with the same line,
``SLASH_STROKE`` dp) and reads what is left as the triangle, its right angle cut a
little by the slash's end (``CUT_CORNER``). ``wifi_off`` is the fan struck through the
same way (NetGuard's "Wi-Fi blocked"): healed, and what its mirror image lacks (the
slash, ``ODD_INK`` of the ink at least: a two-tone fan is symmetric) dropped, it is read
as the fan.

    >>> signal_label(pixels, element.box)   # doctest: +SKIP
    'wifi'
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from screenpilot.model import Box
from screenpilot.vision.blocks import dp_size
from screenpilot.vision.image import InkParts, glyph_ink, largest_part

WIFI, SIGNAL, WIFI_OFF, SIGNAL_OFF = "wifi", "signal", "wifi_off", "signal_off"
#: The shape is at least this many pixels each way ...
MIN_SIDE = 10
#: ... and at most this many dp (a glyph is drawn 24 dp; an app's launcher icon that
#: pictures a fan is twice that).
MAX_DP = 32
#: Other parts of ink make at most this share of the largest one's area.
OTHER_INK = 0.1
#: At least this share of the rows is one run of ink.
ONE_RUN = 0.9
#: A fan is this many times as wide as tall (Material's: 1.26) ...
FAN_ASPECT = (1.1, 1.7)
#: ... each row's middle within this share of the width from the shape's middle, ...
CENTRED = 0.08
#: ... its bottom tenth of rows at most this share of the width wide (the apex), ...
APEX = 0.3
#: ... its widest row within this share of the height from the top ...
WIDEST = (0.05, 0.5)
#: ... and its top tenth of rows on average at most this share of the width, its top
#: row at most TOP_ROW (a dome: NetGuard's fans 0.33-0.55 and 0.04-0.39; Habitica's gem,
#: flat on top, 0.65 and 0.62).
DOME = 0.6
TOP_ROW = 0.5
#: Below a fan's widest row, and down a triangle, a row's width is within this share of
#: the width of the straight line's.
STRAIGHT = 0.1
#: A signal triangle is this many times as wide as tall ...
TRIANGLE_ASPECT = (0.75, 1.35)
#: ... and fills this share of its box.
HALF = (0.4, 0.62)
#: A slash's gap is filled over this many dp across it, and its stroke, this many dp
#: thick at most, dropped ...
SLASH_GAP = 3.0
SLASH_STROKE = 2.5
#: ... where the stroke's ink past the triangle is at least this share of the
#: triangle's (a two-tone glyph's parts leave none) ...
STROKE_INK = 0.02
#: ... and this share of the triangle's rows at least end at its right edge (the
#: slash's end cuts its right angle).
CUT_CORNER = 0.75
#: A struck-through fan's ink that its mirror image lacks (the slash) is at least this
#: share of it.
ODD_INK = 0.05
#: ... and runs down to the right, as a slash does: its columns and rows correlate by
#: this much at least (a pencil's "/" on a disc runs the other way).
SLASH_LINE = 0.5


def signal_label(pixels: npt.NDArray[Any], box: Box) -> str:
    """``wifi`` where ``box`` on ``pixels`` shows the Wi-Fi fan and nothing else,
    ``signal`` for the mobile signal's triangle, else ``""`` (the module docstring)."""
    return signal_in(glyph_ink(pixels, box), largest_glyph(pixels))


def largest_glyph(pixels: npt.NDArray[Any]) -> float:
    """:data:`MAX_DP` in pixels of the screen ``pixels``."""
    return MAX_DP * dp_size(pixels.shape[1], pixels.shape[0])


def signal_in(parts: InkParts, largest: float) -> str:
    """:func:`signal_label` on a box's ink already in parts, the shape at most
    ``largest`` pixels each way."""
    shape = parts.alone(OTHER_INK)
    if shape is None:
        return ""
    h, w = shape.shape
    if min(h, w) < MIN_SIDE or max(h, w) > largest:
        return ""
    rows = _rows(shape)
    if rows is None:
        return ""
    first, last, widths = rows
    if _fan(widths, first, last, w) and FAN_ASPECT[0] <= w / h <= FAN_ASPECT[1]:
        return WIFI
    if TRIANGLE_ASPECT[0] <= w / h <= TRIANGLE_ASPECT[1] and _triangle(shape, widths, last, w):
        return SIGNAL
    return ""


def _rows(
    shape: npt.NDArray[np.bool_],
) -> tuple[npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any]] | None:
    """Each row's first and last inked column and its width from one to the other (0 for
    an empty row), or None where fewer than ``ONE_RUN`` of the rows are one run of ink."""
    w = shape.shape[1]
    first = np.argmax(shape, axis=1)
    last = w - 1 - np.argmax(shape[:, ::-1], axis=1)
    widths = np.where(shape.any(axis=1), last - first + 1, 0)
    if float(np.mean(shape.sum(axis=1) == widths)) < ONE_RUN:
        return None
    return first, last, widths


def _fan(widths: npt.NDArray[Any], first: npt.NDArray[Any], last: npt.NDArray[Any], w: int) -> bool:
    """Whether the rows' widths make a fan (the module docstring)."""
    h = len(widths)
    tenth = max(1, h // 10)
    middles = (first + last) / 2
    if float(np.max(np.abs(middles - (w - 1) / 2))) > CENTRED * w:
        return False
    if float(widths[-tenth:].max()) > APEX * w or float(widths[:tenth].mean()) > DOME * w:
        return False
    if float(widths[0]) > TOP_ROW * w:
        return False
    top = int(np.argmax(widths))
    if not WIDEST[0] * h <= top <= WIDEST[1] * h:
        return False
    below = widths[top:].astype(float)
    line = np.linspace(below[0], 0.0, len(below) + 1)[:-1]  # straight sides to the apex
    return float(np.mean(np.abs(below - line))) <= STRAIGHT * w


def _triangle(
    shape: npt.NDArray[np.bool_],
    widths: npt.NDArray[Any],
    last: npt.NDArray[Any],
    w: int,
    *,
    corner: float = ONE_RUN,
) -> bool:
    """Whether the ink is a right triangle with its right angle at the bottom right:
    half its box filled, ``corner`` of its rows at least ending at its right edge (fewer
    where a slash cuts the corner), and its rows' widths along the hypotenuse."""
    h = len(widths)
    if not HALF[0] <= float(shape.mean()) <= HALF[1]:
        return False
    if float(np.mean(last >= w - 2)) < corner:
        return False
    line = w * (np.arange(h) + 1) / h  # the hypotenuse from the top right to the bottom left
    return bool(float(np.mean(np.abs(widths - line))) <= STRAIGHT * w)


def slashed_in(parts: InkParts, largest: float, dp: float) -> str:
    """``signal_off`` where ``parts`` (a box's ink) is the mobile signal's triangle
    struck through, ``wifi_off`` for the Wi-Fi fan struck through (the module docstring),
    else ""; ``largest``: the most pixels the glyph may take each way, on a screen of
    ``dp`` pixels a dp."""
    import cv2

    ink = parts.cut()
    if ink is None or parts.count < 3 or min(ink.shape) < MIN_SIDE or max(ink.shape) > largest:
        return ""
    drawn = np.pad(ink.astype(np.uint8), 6)
    across = np.eye(max(3, round(SLASH_GAP * dp)), dtype=np.uint8)[::-1]  # "/" across "\"
    healed = cv2.morphologyEx(drawn, cv2.MORPH_CLOSE, across)
    if _struck_triangle(drawn, healed, dp):
        return SIGNAL_OFF
    return WIFI_OFF if _struck_fan(drawn, healed) else ""


def _struck_triangle(drawn: npt.NDArray[Any], healed: npt.NDArray[Any], dp: float) -> bool:
    """Whether ``healed`` (``drawn``'s ink with the slash's gap filled), its stroke dropped,
    is the signal's triangle, with the stroke's ink past it."""
    import cv2

    stroke = np.eye(max(3, round(SLASH_STROKE * dp)), dtype=np.uint8)[::-1]
    found = largest_part(cv2.morphologyEx(healed, cv2.MORPH_OPEN, stroke))
    if found is None:
        return False
    (x, y, w, h), whole = found
    shape = whole[y : y + h, x : x + w]
    body = cv2.dilate(whole.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    if int((drawn.astype(bool) & ~body).sum()) < STROKE_INK * int(shape.sum()):
        return False  # no stroke past the shape: two tones, not a slash
    rows = _rows(shape)
    if rows is None or not TRIANGLE_ASPECT[0] <= w / h <= TRIANGLE_ASPECT[1]:
        return False
    _, last, widths = rows
    return _triangle(shape, widths, last, w, corner=CUT_CORNER)


def _struck_fan(drawn: npt.NDArray[Any], healed: npt.NDArray[Any]) -> bool:
    """Whether ``healed`` (``drawn``'s ink with the slash's gap filled) is the Wi-Fi fan
    once what its mirror image lacks (the slash's stroke) is dropped, that being at least
    ``ODD_INK`` of the ink (a two-tone fan is symmetric) and running down to the right
    (``SLASH_LINE``)."""
    mirror = healed[:, ::-1].astype(bool)
    ys, xs = np.nonzero(drawn.astype(bool) & ~mirror)
    if len(xs) < max(3, ODD_INK * int(drawn.sum())):
        return False
    if float(np.corrcoef(xs, ys)[0, 1]) < SLASH_LINE:  # it runs down to the right: "\"
        return False
    found = largest_part(healed.astype(bool) & mirror)
    if found is None:
        return False
    (x, y, w, h), whole = found
    shape = whole[y : y + h, x : x + w]
    rows = _rows(shape)
    if rows is None:
        return False
    first, last, widths = rows
    return FAN_ASPECT[0] <= w / h <= FAN_ASPECT[1] and _fan(widths, first, last, w)
