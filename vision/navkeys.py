"""The navigation bar's keys named by their shape: back, home, recent apps.

A phone in three-button navigation draws three keys in its bottom bar: a triangle
pointing left (back; down while the keyboard is up, when it hides the keyboard), a
circle (home) and a square (recent apps), filled or as outlines, the circle at the
middle of the screen. Nothing else on a screen sits there
in that order, and the icon model, trained on app glyphs, does not name them (a
ring reads as "brightness" or "power"). Each picture with no label and no text
of a key's size (:data:`MAX_KEY`) whose middle lies in the screen's bottom
:data:`BAND` dp (above the black rows at its bottom, :func:`drawn_bottom`) is judged by
its outline
(:func:`key_shape`); the keys are named when the home circle is at the middle of the
screen and at least one other key sits on its row, within :data:`REACH` of it (of
two of one shape, the nearer: the keyboard switcher beside the keys is no recents
key). The names are those the simulator's own ground truth gives its keys. Inside a
navigation bar the detector found, where the icon finder does not look, the keys are
found from the bar's pixels (:func:`keys_of_bar`) and kept only when named so.

    >>> elements = name_nav_keys(pixels, elements)   # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.blocks import dp_size
from screenpilot.vision.image import RGB, glyph_ink

#: A row of a screenshot whose pixels are all this dark (every channel) is black: one
#: captured with the keyboard's window black under the navigation bar (DroidBot's
#: captures of F-Droid apps, with the keys ~220 dp above the bottom) has its keys in
#: the band above its black rows.
BLACK = 10
#: Rows looked at together, up from the bottom, for the last one drawn.
CHUNK = 64
#: Names of the keys, by shape.
BACK, HOME, RECENTS = "back", "home", "recent apps"
NAMES = frozenset({BACK, HOME, RECENTS})
#: A key's middle lies this many dp from the screen's bottom edge at most (a
#: navigation bar is 48 dp tall).
BAND = 48
#: A key's box is at most this many dp each way (the keys are drawn ~20 dp; a camera's
#: shutter or a floating button is larger).
MAX_KEY = 36
#: The home key's middle is this share of the screen's width from its middle at most.
CENTRED = 0.03
#: Keys on one row: their middles differ by this share of the home key's height at most.
SAME_ROW = 0.35
#: An outline's area as a share of its box: a square's (rounded a little) at least
#: this...
SQUARE_FILL = 0.86
#: ... a circle's (0.785) in this range...
CIRCLE_FILL = (0.68, 0.84)
#: ... and a triangle's (0.5) in this one.
TRIANGLE_FILL = (0.38, 0.64)
#: A key's box is about square: width over height in this range (the keyboard
#: switcher beside the keys is wider).
ASPECT = (0.8, 1.25)
#: The back and recents keys lie this share of the screen's width from the home key at
#: most.
REACH = 0.4
#: Kinds a key may have been found as (its square outline reads as a check box).
KEY_KINDS = frozenset(
    {ElementKind.ICON, ElementKind.IMAGE, ElementKind.BUTTON, ElementKind.CHECK_BOX}
)


def key_shape(pixels: RGB, box: Box) -> str:
    """The key ``box`` on ``pixels`` draws: :data:`BACK`, :data:`HOME`, :data:`RECENTS`
    or "" (another shape, or ink in several parts)."""
    import cv2

    mask = glyph_ink(pixels, box).alone(0.1)
    if mask is None:
        return ""
    h, w = mask.shape
    if h < 6 or w < 6 or not ASPECT[0] <= w / h <= ASPECT[1]:
        return ""
    contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    fill = max(cv2.contourArea(c) for c in contours) / float(h * w)
    if fill >= SQUARE_FILL:
        return RECENTS
    if CIRCLE_FILL[0] <= fill <= CIRCLE_FILL[1] and _even(mask):
        return HOME
    if TRIANGLE_FILL[0] <= fill <= TRIANGLE_FILL[1] and (_points_left(mask) or _points_down(mask)):
        return BACK
    return ""


def _spans(mask: np.ndarray) -> np.ndarray:
    """Each column's height from its first to its last inked row (0 where none)."""
    inked = mask.any(axis=0)
    first = np.argmax(mask, axis=0)
    last = mask.shape[0] - 1 - np.argmax(mask[::-1], axis=0)
    return np.where(inked, last - first + 1, 0)


def _points_left(mask: np.ndarray) -> bool:
    """Whether the shape narrows to its left: its left quarter's columns at most half
    as tall as its right quarter's, and it is as tall above its middle as below."""
    spans = _spans(mask)
    q = max(1, len(spans) // 4)
    if spans[:q].mean() > 0.5 * spans[-q:].mean():
        return False
    rows = np.flatnonzero(mask.any(axis=1))
    return bool(abs((rows[0] + rows[-1]) / 2 - (mask.shape[0] - 1) / 2) <= 0.1 * mask.shape[0])


def _points_down(mask: np.ndarray) -> bool:
    """Whether the shape narrows to its bottom and is as wide left of its middle as
    right of it: the back key while the keyboard is up (it hides the keyboard)."""
    return _points_left(np.ascontiguousarray(mask.T[:, ::-1]))


def _even(mask: np.ndarray) -> bool:
    """Whether the shape is as tall at its left quarter as at its right (a circle, not a
    triangle)."""
    spans = _spans(mask)
    q = max(1, len(spans) // 4)
    left, right = spans[:q].mean(), spans[-q:].mean()
    return bool(min(left, right) >= 0.75 * max(left, right))


def drawn_bottom(pixels: RGB) -> int:
    """The row under the last one drawn on ``pixels``: its height, less the black rows
    at its bottom (every channel at most :data:`BLACK`; only where its last row is black:
    a screenshot under whose navigation bar the keyboard's window was left black)."""
    h = int(pixels.shape[0])
    if int(pixels[-1, ::4].max()) > BLACK:
        return h
    for end in range(h, 0, -CHUNK):  # up from the bottom, a chunk of rows at a time
        start = max(0, end - CHUNK)
        drawn = np.flatnonzero(pixels[start:end, ::4].max(axis=(1, 2)) > BLACK)
        if len(drawn):
            return start + int(drawn[-1]) + 1
    return h


def name_nav_keys(pixels: RGB, elements: Sequence[Element]) -> list[Element]:
    """``elements`` with the navigation bar's keys labelled (the module docstring); a
    key found as a check box becomes an icon."""
    h, w = pixels.shape[:2]
    dp = dp_size(w, h)
    low, largest = drawn_bottom(pixels) - BAND * dp, MAX_KEY * dp
    shapes: dict[int, str] = {}
    for i, e in enumerate(elements):
        if (
            e.kind in KEY_KINDS
            and not e.icon_label
            and not e.text
            and e.box.center[1] >= low
            and max(e.box.width, e.box.height) <= largest
        ):
            shape = key_shape(pixels, e.box)
            if shape:
                shapes[i] = shape
    homes = [
        i
        for i, s in shapes.items()
        if s == HOME and abs(elements[i].box.center[0] - w / 2) <= CENTRED * w
    ]
    if len(homes) != 1:
        return list(elements)
    home = elements[homes[0]].box
    nearest: dict[str, int] = {}
    for i, shape in shapes.items():
        box = elements[i].box
        off = abs(box.center[0] - home.center[0])
        if abs(box.center[1] - home.center[1]) > SAME_ROW * home.height or off > REACH * w:
            continue
        if shape not in nearest or off < abs(
            elements[nearest[shape]].box.center[0] - home.center[0]
        ):
            nearest[shape] = i
    row = set(nearest.values())
    if len(row) < 2:
        return list(elements)
    out = list(elements)
    for i in row:
        out[i] = dataclasses.replace(
            elements[i], kind=ElementKind.ICON, icon_label=shapes[i], checked=None, clickable=True
        )
    return out


#: A key's pixels differ from the bar's colour (its median) by this much (the largest
#: channel difference): LoopHabits' grey keys on its dark grey bar by ~100.
BAR_CONTRAST = 40
#: A key drawn is at least this many dp each way.
MIN_KEY = 6
#: A key found in the bar gets a box this share of its ink's size wider each way (the
#: simulator's truth: a 46 px box round home's 44 px circle).
KEY_PAD = 0.1


def keys_of_bar(pixels: RGB, bar: Box, elements: Sequence[Element]) -> list[Element]:
    """The navigation bar's keys drawn inside ``bar`` (the detector's navigation bar,
    where no icon is looked for), found from its pixels: parts of ink off the bar's
    colour (its median), of a key's size, each judged by its outline; kept only when they
    make a key row as :func:`name_nav_keys` names one (the home circle at the middle).
    Returns the named keys as new icons (id 0), none when ``elements`` has a key already
    or a box of ``elements`` lies on one, unless that box is a picture of the key itself
    (then the key is named with the others and left to that picture)."""
    import cv2

    if any(e.icon_label in NAMES and bar.contains(*e.box.center) for e in elements):
        return []
    h, w = pixels.shape[:2]
    x1, y1, x2, y2 = max(0, bar.x1), max(0, bar.y1), min(w, bar.x2), min(h, bar.y2)
    crop = np.ascontiguousarray(pixels[y1:y2, x1:x2])
    if crop.size == 0:
        return []
    ground = np.median(crop[::3, ::3].reshape(-1, 3), axis=0)  # keys are a small share
    off = [
        cv2.absdiff(crop[..., c], np.full_like(crop[..., c], round(ground[c]))) for c in range(3)
    ]
    mask = (np.maximum(np.maximum(off[0], off[1]), off[2]) > BAR_CONTRAST).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    dp = dp_size(w, h)
    small, large = MIN_KEY * dp, MAX_KEY * dp
    found: list[Element] = []
    taken: set[Box] = set()  # keys a picture of ``elements`` stands for already
    for x, y, bw, bh, _area in stats[1:count]:
        if not (small <= bw <= large and small <= bh <= large):
            continue
        pad = max(2, round(KEY_PAD * max(bw, bh)))
        box = Box.of(
            max(0, x1 + x - pad),
            max(0, y1 + y - pad),
            min(w, x1 + x + bw + pad),
            min(h, y1 + y + bh + pad),
        )
        on = [e for e in elements if e.box.intersection(box) > 0.1 * box.area]
        if any(not _stands_for(e.box, e.kind, box) for e in on):
            return []
        if on:
            taken.add(box)
        found.append(Element(0, ElementKind.ICON, box, clickable=True, confidence=0.5))
    return [e for e in name_nav_keys(pixels, found) if e.icon_label and e.box not in taken]


def _stands_for(found: Box, kind: ElementKind, key: Box) -> bool:
    """Whether an element already there (``found``, of ``kind``) is the key ``key``
    itself: a picture holding the key's centre, at most twice its size each way (the
    detector's weak box on the back key when its bar was found without it)."""
    return (
        kind in (ElementKind.ICON, ElementKind.IMAGE)
        and found.contains(*key.center)
        and found.width <= 2 * key.width
        and found.height <= 2 * key.height
    )


def is_key_row(row: Sequence[Element]) -> bool:
    """Whether ``row`` (pictures on one row) is the navigation bar's keys: all named by
    :func:`name_nav_keys`, the home and recents keys among them (the icon model never
    says "recent apps"; it may say "back" or "home" for an app's bottom bar), on one
    row."""
    labels = [e.icon_label for e in row]
    if not (HOME in labels and RECENTS in labels and all(label in NAMES for label in labels)):
        return False
    home = next(e.box for e in row if e.icon_label == HOME)
    return all(abs(e.box.center[1] - home.center[1]) <= SAME_ROW * home.height for e in row)
