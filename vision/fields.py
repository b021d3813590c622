"""Input fields from the pixels: a detected ``edit_text`` must look like a container,
and a field the detector missed is found around its one line of text.

A text field is drawn as a container for what is typed: filled with a colour of its
own (a search pill, a filled Material field), outlined, or underlined. A detector
trained on real screens also calls an app bar with its title, an empty tab bar, a
list row or a card an ``edit_text`` (detector v4 on the simulator: 30 of 54 edit
texts at confidence >= 0.25 on one variant's 59 pages were not fields), and a planner
that types into a title reports a task done that is not. So :func:`confirmed_fields`
keeps a detected field only when, with its text lines masked out, its inside differs
from a band around it by at least ``FILL`` grey levels and it does not hold two lines
one above the other (a filled card's title and subtitle: a field holds one line,
typed or its hint), or when one row near its top or bottom edge (an outline's or an
underline's, looked for a little outside the box too) differs from its inside over
``LINE`` of its width and it does not hold just a title over a smaller subtitle (a
list row between dividers; an outlined field may hold a floating label over its
larger text, a code editor many lines). The text lines of a dropped box stay texts.

Both detectors miss outlined fields on plain pages (v2 and v4 found none of the 16
fields of the simulator's checkout and new-contact pages in one variant), so
:func:`found_fields` reports a field where a line of text sits alone at the left of
a wide outline, or of a fill with an underline, as :mod:`screenpilot.vision.targets`
finds the shape around a text (or, for Material's filled field whose tint is a few
grey levels off the page, as ``_underlined_fill`` does).

On the 236 simulator screens of ``bench/vision_truth.py`` both together take edit
text recall from 0.54 to 0.93 (precision 0.88 -> 0.98) with detector v2, and from 0.62
to 0.93 (precision 0.87 -> 0.94) with v4, the shipped one (models/MODELS.md).

    >>> kept = confirmed_fields(pixels, widgets, line_boxes)   # doctest: +SKIP
    >>> more = found_fields(pixels, texts, widgets, shapes)    # doctest: +SKIP
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

import cv2
import numpy as np

from screenpilot.model import Box, Element, ElementKind

#: Grey-level difference between a filled field's inside and its surround.
FILL = 6.0
#: Share of a row's (unmasked) pixels that must differ from the inside for an outline
#: or underline...
LINE = 0.5
#: ... by this many grey levels.
LINE_CONTRAST = 25.0
#: An outline or underline is looked for this share of the box's height outside it
#: too (a detector's box often stops short of a field's underline).
OUTSIDE = 0.6
#: Band around the box that is its surround, in pixels.
SURROUND = 10
#: A subtitle's height is at most this share of its title's.
SUBTITLE = 0.9
#: A field found around a text line (``found_fields``): its shape at least
#: ``FOUND_WIDTH`` of the screen's width, between ``FOUND_HEIGHT`` times the line's
#: height, the line starting in its left ``FOUND_LEFT``.
FOUND_WIDTH = 0.3
FOUND_HEIGHT = (1.5, 4.0)
FOUND_LEFT = 0.2
#: A found shape's outline or underline lies within this many pixels of its edge.
EDGE_REACH = 3
#: A filled field's underline: within this many line heights under its line; its fill
#: within ``FILL_TINT`` grey levels above and below the line, and at least that far
#: from the page.
UNDERLINE_REACH = 1.6
FILL_TINT = 3.0
#: An underline is thin: the rows under it change back within this many pixels (or
#: 0.12 of the line's height), where a shadow under a panel fades slowly.
UNDERLINE_THICK = 4
#: A card's shadow under a found shape (``_shadow_under``): looked at to this many
#: pixels under its edge; it fades over ``SHADOW_ROWS`` rows at least, each keeping at
#: least ``SHADOW_FADE`` of the last one's difference from the page.
SHADOW_REACH = 12
SHADOW_ROWS = 3
SHADOW_FADE = 0.35
#: A strip at least ``LABEL_STRIP`` of the screen wide with a divider at an edge and
#: only one line in it, at most ``LABEL_LINE`` of the strip's width and centred in it
#: within ``LABEL_CENTRED`` of that width, is a card's flat text button (LoopHabits'
#: "EDIT" under its history card), not a field.
LABEL_STRIP = 0.6
LABEL_LINE = 0.25
LABEL_CENTRED = 0.03
#: The confidence given to a field found from the pixels.
FOUND_CONFIDENCE = 0.5
#: Controls a found field's shape may not hold two of (their centres inside it): a
#: field holds its text and at most an icon or one button; a list row holds a row of
#: check cells (LoopHabits' habit rows).
CONTROLS = frozenset(
    {
        ElementKind.BUTTON,
        ElementKind.CHECK_BOX,
        ElementKind.SWITCH,
        ElementKind.RADIO_GROUP,
        ElementKind.SPINNER,
        ElementKind.SEEK_BAR,
        ElementKind.EDIT_TEXT,
    }
)


def _text_mask(shape: tuple[int, int], lines: Sequence[Box]) -> np.ndarray:
    mask = np.ones(shape, bool)
    for b in lines:
        mask[max(0, b.y1 - 4) : b.y2 + 4, max(0, b.x1 - 4) : b.x2 + 4] = False
    return mask


def _edge_line(
    gray: np.ndarray,
    box: Box,
    mask: np.ndarray,
    refs: Sequence[float],
    reach: tuple[int, int] | None = None,
    *,
    top: bool = True,
) -> bool:
    """Whether a row near ``box``'s top or bottom edge differs from every grey of
    ``refs`` over ``LINE`` of its unmasked width. ``reach``: how far outside and inside
    the edges rows are looked at (default: ``OUTSIDE`` of the height outside, at least
    6 pixels below, and a quarter of it inside); ``top``: False to look at the bottom
    edge alone."""
    h_img = gray.shape[0]
    x1, x2 = box.x1 + int(0.1 * box.width), box.x2 - int(0.1 * box.width)
    h = box.height
    out, edge = reach or (int(OUTSIDE * h), max(1, int(0.25 * h)))
    below = out if reach is not None else max(6, out)
    rows = [
        *(range(max(0, box.y1 - out), min(h_img, box.y1 + edge)) if top else ()),
        *range(max(0, box.y2 - edge), min(h_img, box.y2 + below)),
    ]
    for y in rows:
        keep = mask[y, x1:x2]
        if keep.mean() < 0.5:
            continue
        row = gray[y, x1:x2][keep]
        apart = np.ones(row.shape, bool)
        for ref in refs:
            apart &= np.abs(row - ref) > LINE_CONTRAST
        if float(apart.mean()) >= LINE:
            return True
    return False


def _clipped(gray: np.ndarray, box: Box) -> Box | None:
    h_img, w_img = gray.shape
    x1, y1, x2, y2 = max(0, box.x1), max(0, box.y1), min(w_img, box.x2), min(h_img, box.y2)
    return Box.of(x1, y1, x2, y2) if x2 - x1 >= 4 and y2 - y1 >= 4 else None


def _inside(gray: np.ndarray, box: Box, mask: np.ndarray) -> float | None:
    """The median grey of ``box``'s inner part, text lines left out (None: all text)."""
    ix1, ix2 = box.x1 + int(0.1 * box.width), box.x2 - int(0.1 * box.width)
    iy1, iy2 = box.y1 + int(0.15 * box.height), box.y2 - int(0.15 * box.height)
    inside = gray[iy1:iy2, ix1:ix2][mask[iy1:iy2, ix1:ix2]]
    return float(np.median(inside)) if inside.size else None


def _ring(gray: np.ndarray, box: Box) -> float | None:
    """The median grey of the bands ``SURROUND`` pixels above and below ``box``."""
    h_img, w_img = gray.shape
    x1, y1, x2, y2 = box.x1, box.y1, box.x2, box.y2
    oy1, oy2 = max(0, y1 - SURROUND), min(h_img, y2 + SURROUND)
    ox1, ox2 = max(0, x1 - SURROUND), min(w_img, x2 + SURROUND)
    ring = np.concatenate(
        [
            gray[oy1 : max(oy1, y1 - 2), ox1:ox2].ravel(),
            gray[min(oy2, y2 + 2) : oy2, ox1:ox2].ravel(),
        ]
    )
    return float(np.median(ring)) if ring.size else None


def _confirmed(gray: np.ndarray, box: Box, mask: np.ndarray, lines: Sequence[Box]) -> bool:
    """A detected field is kept when it has a fill (its inside, text masked, differs from
    a band around it by ``FILL``) and no stacked lines (a filled card has a title and a
    subtitle; a field holds one line, typed or its hint), or an edge (an outline's or an
    underline's row near its top or bottom) and not a title over a smaller subtitle (an
    outlined or underlined field may hold a floating label over its larger text, or a
    code editor's many lines) nor a short label alone in the middle of a wide strip (a
    card's flat button over a divider)."""
    clipped = _clipped(gray, box)
    if clipped is None:
        return False
    inside, ring = _inside(gray, clipped, mask), _ring(gray, clipped)
    inner = _lines_in(box, lines)
    filled = inside is not None and ring is not None and abs(inside - ring) >= FILL
    if filled and not _stacked(inner):
        return True
    ref = inside if inside is not None else ring
    if _titled(inner) or ref is None or _centred_label(box, inner, gray.shape[1]):
        return False
    return _edge_line(gray, clipped, mask, [ref])


def _centred_label(box: Box, lines: Sequence[Box], width: int) -> bool:
    """Whether ``box`` is a wide strip whose one line is a short label centred in it
    (``LABEL_STRIP``, ``LABEL_LINE``, ``LABEL_CENTRED``): a card's flat button."""
    if len(lines) != 1 or box.width < LABEL_STRIP * width:
        return False
    line = lines[0]
    off = abs((line.x1 + line.x2) / 2 - (box.x1 + box.x2) / 2)
    return line.width <= LABEL_LINE * box.width and off <= LABEL_CENTRED * box.width


def _lines_in(box: Box, lines: Sequence[Box]) -> list[Box]:
    return [b for b in lines if box.contains(*b.center)]


def _stacked(lines: Sequence[Box]) -> bool:
    """Whether one of ``lines`` lies wholly below another it overlaps across."""
    for a in lines:
        for b in lines:
            slack = 0.2 * min(a.height, b.height)
            if b.y1 >= a.y2 - slack and min(a.x2, b.x2) > max(a.x1, b.x1):
                return True
    return False


def _titled(lines: Sequence[Box]) -> bool:
    """Whether ``lines`` are two, one above the other, the lower one smaller (a list
    row's or a card's title and subtitle)."""
    if len(lines) != 2:
        return False
    top, low = sorted(lines, key=lambda b: b.y1)
    return _stacked(lines) and low.height <= SUBTITLE * top.height


def confirmed_fields(
    pixels: np.ndarray, widgets: Sequence[Element], lines: Sequence[Box]
) -> list[Element]:
    """``widgets`` without the ``edit_text`` boxes that are no container (see the module)."""
    if not any(e.kind is ElementKind.EDIT_TEXT for e in widgets):
        return list(widgets)
    grey = cv2.cvtColor(np.ascontiguousarray(pixels), cv2.COLOR_RGB2GRAY).astype(np.float32)
    mask = _text_mask(grey.shape, lines)
    return [
        e
        for e in widgets
        if e.kind is not ElementKind.EDIT_TEXT or _confirmed(grey, e.box, mask, lines)
    ]


def found_fields(
    pixels: np.ndarray,
    texts: Sequence[Element],
    widgets: Sequence[Element],
    shapes: Mapping[Box, Box | None],
) -> list[Element]:
    """Input fields the detector missed, found around their one line of text: the
    shape the line sits in (``shapes``, by the line's box: an outline or a fill, as
    :mod:`screenpilot.vision.targets` finds it) is a field when it is wide
    (``FOUND_WIDTH``), a few lines tall (``FOUND_HEIGHT``), holds that line alone at
    its left (within ``FOUND_LEFT``, and nearer the left edge than half its gap to
    the right one: a button's label is centred), overlaps no widget and holds at most
    one control (``CONTROLS``), stands on the page (the page's grey left and right of
    it too: not a list row between dividers and coloured columns; one page above and
    below: not a dialog's title), and has a line along its bottom edge that is not a
    card's fading shadow: outlined or underlined (a filled shape alone is as often a
    chip or a selected row). Returns the new ``edit_text`` elements."""
    w_img = pixels.shape[1]
    lines = [t.box for t in texts]
    candidates: list[Box] = []
    grey = cv2.cvtColor(np.ascontiguousarray(pixels), cv2.COLOR_RGB2GRAY).astype(np.float32)
    for t in texts:
        shape = shapes.get(t.box) or _underlined_fill(grey, t.box)
        if shape is None or not _field_shaped(shape, t.box, w_img):
            continue
        if len(_lines_in(shape, lines)) != 1:
            continue
        if any(shape.iou(w.box) >= 0.3 or _holds(w.box, shape) for w in widgets):
            continue
        if sum(w.kind in CONTROLS and shape.contains(*w.box.center) for w in widgets) >= 2:
            continue
        candidates.append(shape)
    if not candidates:
        return []
    mask = _text_mask(grey.shape, lines)
    out: list[Element] = []
    for shape in candidates:
        inner = _clipped(grey, shape)
        if inner is None or any(shape.iou(e.box) >= 0.5 for e in out):
            continue
        ref = _inside(grey, inner, mask)
        page = _page(grey, inner)
        if ref is None or page is None or not _on_page(grey, inner, page):
            continue
        if _edge_line(
            grey, inner, mask, [ref, page], (EDGE_REACH, EDGE_REACH), top=False
        ) and not _shadow_under(grey, inner):
            out.append(Element(0, ElementKind.EDIT_TEXT, shape, confidence=FOUND_CONFIDENCE))
    return out


def _shadow_under(gray: np.ndarray, box: Box) -> bool:
    """Whether ``box``'s bottom edge is a card's shadow, not a line: down its middle
    columns (median grey by row, from ``EDGE_REACH`` inside the edge to ``SHADOW_REACH``
    under it) the row that differs most from the page under it is followed by
    ``SHADOW_ROWS`` rows each nearer the page than the one before, yet keeping at least
    ``SHADOW_FADE`` of its difference (TrackerControl's tip card: 209, 225, 234, 242
    on a 250 page). An underline or an outline is a solid line, its rows alike and the page
    right after it."""
    h_img = gray.shape[0]
    x1, x2 = box.x1 + int(0.1 * box.width), box.x2 - int(0.1 * box.width)
    y1, y2 = max(0, box.y2 - EDGE_REACH), min(h_img, box.y2 + SHADOW_REACH)
    if x2 - x1 < 4 or y2 - y1 < SHADOW_ROWS + 2:
        return False
    profile = np.median(gray[y1:y2, x1:x2], axis=1)
    off = np.abs(profile - profile[-1])
    k = int(np.argmax(off))
    steps = off[k : k + SHADOW_ROWS + 1]
    if len(steps) < SHADOW_ROWS + 1 or steps[-1] < 2:
        return False
    return all(SHADOW_FADE * a <= b < a for a, b in itertools.pairwise(steps))


def _underlined_fill(gray: np.ndarray, line: Box) -> Box | None:
    """The filled field with an underline that ``line`` sits in, where the fill is too
    close to the page for :mod:`screenpilot.vision.targets` (Material's filled text
    field: a tint a few grey levels off the page, a dark line under it): the nearest
    row under the line, within ``UNDERLINE_REACH`` line heights, that differs from the
    fill by ``LINE_CONTRAST`` in one run across the line; the fill above and below the
    line alike and off the page left of the run by ``FILL_TINT``. The box: the run's
    width, as far above the line as the underline is below it. None when not so."""
    h_img, w_img = gray.shape
    h = line.height
    x1, x2 = max(0, line.x1), min(w_img, line.x2)
    if line.y1 < 8 or line.y2 + 8 >= h_img or x2 - x1 < 4:
        return None
    fill = float(np.median(gray[line.y2 + 1 : line.y2 + 5, x1:x2]))
    above = float(np.median(gray[line.y1 - 5 : line.y1 - 1, x1:x2]))
    if abs(fill - above) > FILL_TINT:
        return None
    y0, y_end = line.y2 + 1, min(h_img - 2, line.y2 + int(UNDERLINE_REACH * h))
    if y_end <= y0:
        return None
    # every row under the line at once: its share of pixels off the fill, its mean distance
    off = np.abs(gray[y0:y_end, x1:x2] - fill)
    across = (off > LINE_CONTRAST).mean(axis=1) >= 0.95
    tinted = off.mean(axis=1) > FILL_TINT
    for k in range(y_end - y0):
        if not across[k]:
            if tinted[k]:
                return None  # something else under the line: no field of this kind
            continue
        y = y0 + k
        apart = np.abs(gray[y] - fill) > LINE_CONTRAST
        left, right = _run_bounds(apart, x1, x2)
        pad = y - line.y2
        if left < 1 or line.x1 - left < 0.3 * h:
            return None
        ink = float(np.median(gray[y, left:right]))
        thick = max(UNDERLINE_THICK, int(0.12 * h))
        after = [
            float(np.median(gray[yy, left:right])) for yy in range(y + 1, min(h_img, y + thick + 1))
        ]
        if not any(abs(a - ink) > LINE_CONTRAST for a in after):
            return None  # no thin line: a shadow's gradient, an edge of a panel
        page = float(np.median(gray[line.y1 : line.y2, max(0, left - 12) : left - 2]))
        if abs(page - fill) < FILL_TINT:
            return None
        return Box.of(left, max(0, line.y1 - pad), right, y + 1)
    return None


def _run_bounds(ok: np.ndarray, x1: int, x2: int) -> tuple[int, int]:
    """The run of true values of ``ok`` through ``[x1, x2)`` (gaps of up to 3 bridged)."""
    left, gap = x1, 0
    while left > 0 and gap <= 3:
        gap = 0 if ok[left - 1] else gap + 1
        left -= 1
    left += gap
    right, gap = x2, 0
    while right < len(ok) and gap <= 3:
        gap = 0 if ok[right] else gap + 1
        right += 1
    return left, right - gap


def _page(gray: np.ndarray, box: Box) -> float | None:
    """The median grey of the page a little above and below ``box`` (past its edges);
    None when the two differ by more than ``LINE_CONTRAST``."""
    h_img = gray.shape[0]
    gap = EDGE_REACH + 2
    bands = [
        gray[max(0, box.y1 - gap - SURROUND) : max(0, box.y1 - gap), box.x1 : box.x2].ravel(),
        gray[
            min(h_img, box.y2 + gap) : min(h_img, box.y2 + gap + SURROUND), box.x1 : box.x2
        ].ravel(),
    ]
    greys = [float(np.median(b)) for b in bands if b.size]
    if not greys or max(greys) - min(greys) > LINE_CONTRAST:
        return None  # not one page above and below: a panel's part (a dialog's title)
    return float(np.median(np.concatenate(bands)))


def _on_page(gray: np.ndarray, box: Box, page: float) -> bool:
    """Whether the page just left and right of ``box`` (across its middle half) has the
    grey ``page`` it has above and below: a field stands on the page, where a list
    row between dividers meets a coloured column or the next cell."""
    w_img = gray.shape[1]
    gap = EDGE_REACH + 2
    qy = box.height // 4
    for x1, x2 in ((box.x1 - gap - 4, box.x1 - gap), (box.x2 + gap, box.x2 + gap + 4)):
        if x1 < 0 or x2 > w_img:
            continue  # at the screen's edge
        side = gray[box.y1 + qy : box.y2 - qy, x1:x2]
        if side.size and abs(float(np.median(side)) - page) > LINE_CONTRAST:
            return False
    return True


def _field_shaped(shape: Box, line: Box, width: int) -> bool:
    lo, hi = FOUND_HEIGHT
    return (
        shape.width >= FOUND_WIDTH * width
        and lo * line.height <= shape.height <= hi * line.height
        and shape.x1 - 2 <= line.x1
        and line.x2 <= shape.x2 + 2
        and line.x1 - shape.x1 <= FOUND_LEFT * shape.width
        and line.x1 - shape.x1 < 0.5 * (shape.x2 - line.x2)
    )


def _holds(outer: Box, inner: Box) -> bool:
    return outer.intersection(inner) >= inner.area
