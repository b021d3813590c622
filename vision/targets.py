"""Tap extents: the region a person taps for each element, beside the box that is seen.

What is seen and what is tapped differ on real screens: a list row's text is a line
of ink, but its clickable view is the whole row; a toolbar icon is a 24 dp glyph in a
48 dp touch target. From pixels alone screenpilot cannot know which views are
clickable, but it can say where a tap on an element would belong, which is what
mapping a person's tap to an element (demonstrations) and comparing boxes with a
view hierarchy need. :func:`with_targets` sets ``Element.target``:

- **text rows**: lines of text that are stacked and left-aligned (a title and its
  subtitle) form one item (a line further below than the item's lines are from each
  other starts a new one); its target is the band from half-way to the content above
  to half-way to the content below (at most ``ROW_PAD`` line heights beyond the text,
  and ``MAX_PAD_DP``), across the narrowest card, list or dialog that holds it (else
  the screen; an open navigation drawer's rows end at its edge, ``vision.panels``),
  shared at the middle of the gap with items side by side, except a row's trailing
  value (a short one-line text with a digit at the row's right end, "17 GB", "00:26",
  or a glyph read as one symbol, "☆", right of a title that starts in the left half):
  the title and the value both take the row;
- **icons and small pictures** (under ``TOUCH_DP``): the filled shape they sit on
  (as a text's, below) when it is ``ICON_FILL`` times their box or more, else a square
  of ``TOUCH_DP`` (the platform's minimum touch target) around the glyph, no closer to
  a neighbour than half the gap between them;
- **a widget that a text names** (``group.match_texts``, run after the texts have their
  bands): a switch or check box with its label beside it takes the label's row band
  (with itself), a picture with its name below takes both (a launcher's tile);
- **a text on a filled shape** (a button or chip whose fill differs from the page): the
  shape, grown from the text while its columns and rows keep the fill's colour; a
  text in an outline on a plain page (an outlined field or button): the outline; a
  chip or a pill, whose round ends have no straight side and which may hold an icon
  before its label: the closed outline's extent (:func:`_ring_ends`);
- **a text button** (a one-line label in capitals, "OK", "CANCEL", off the screen's
  middle or beside another one): ``TOUCH_DP`` tall, ``BUTTON_PAD_DP`` beyond the label
  each side, at least ``BUTTON_MIN_DP`` wide (a label alone in the middle is a
  full-width button's: its row band);
- **a grid of short labels** (a calendar's days, a keypad's keys: three or more rows
  of three or more, on common column and row steps): the cell;
- **tabs and tiles** (a picture with a one-line name under it, two or more evenly
  spaced in a row: a bottom navigation bar, a launcher's grid): the column, from
  half-way to the tile beside it, ``TILE_PAD_DP`` above and below;
- **a row's leading picture** (an icon or avatar left of a text row's lines, with no
  name of its own): its touch square as above, and the row's title as its caption
  (the planner then calls a tap on it by the row's name);
- every other element: no target (its box is what is tapped: a button, a field).

A dp is estimated as the short side / 411, as in :mod:`screenpilot.vision.blocks`.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping, Sequence

import numpy as np

from screenpilot.model import BlockKind, Box, Element, ElementKind
from screenpilot.vision.blocks import Region, dp_size
from screenpilot.vision.group import same_row
from screenpilot.vision.image import RGB, colour_distance

#: The platform's minimum touch target (Android: 48 dp).
TOUCH_DP = 48.0
#: A row's band reaches at most this many line heights above and below its text...
ROW_PAD = 1.0
#: ... and at most this many dp.
MAX_PAD_DP = 28.0
#: Lines of one item: the gap between them under this share of a line's height,
#: and their left edges within ``ALIGN_DP``.
STACK_GAP = 0.45
ALIGN_DP = 12.0
#: ... and a line joins an item of several lines only with a gap at most this share of
#: a line's height over the item's largest gap (a paragraph's lines are evenly spaced).
EVEN_GAP = 0.25
#: A text on a fill: the fill differs from the page by more than this (sum of R, G, B);
#: a pixel has the fill's colour within ``FILL_TOLERANCE``; a column or row of the
#: shape has at least ``FILL_SHARE`` of them; its edges lie within ``FILL_REACH_DP``.
FILL_CONTRAST = 45
FILL_TOLERANCE = 30
FILL_SHARE = 0.6
FILL_REACH_DP = 120.0
#: An icon on a filled shape this many times its box's area takes the shape.
ICON_FILL = 1.5
#: A fill this share of the screen's width is a row's (its band is the row's).
FILL_MAX_WIDTH = 0.9
#: A text button (a label in capitals, alone on its item): this much each side of the
#: label, and at least ``BUTTON_MIN_DP`` wide (Material's text button).
BUTTON_PAD_DP = 8.0
BUTTON_MIN_DP = 64.0
#: ... unless it is alone on its row and its centre is within this share of the
#: screen's width of the middle (a full-width button's label).
CENTRED = 0.03
#: A grid of short labels (at most ``GRID_LABEL`` characters): ``GRID_MIN`` or more
#: in a row and as many rows; centres within ``GRID_SLACK`` of a step off the grid.
GRID_LABEL = 3
GRID_MIN = 3
GRID_SLACK = 0.2
#: A tile: a picture at most ``TILE_PICTURE_DP`` on a side with a name of one line (at
#: most ``TILE_LINE_DP`` tall) at most ``TILE_GAP_DP`` (or half the picture) under it;
#: tiles side by side with centres evenly spaced (steps within ``TILE_EVEN`` x each
#: other) share the row in columns, ``TILE_PAD_DP`` above and below.
TILE_PICTURE_DP = 100.0
TILE_LINE_DP = 28.0
TILE_GAP_DP = 20.0
TILE_EVEN = 1.3
#: ... or up to this many times the smallest step where a slot is left out (a launcher's
#: empty cell, the floating button between a bottom bar's tabs): such a step's
#: tiles take the smallest step's column there.
TILE_SKIP = 2.2
TILE_PAD_DP = 8.0
#: A row's leading picture starts at most ``LEAD_DP`` from the band's left edge and
#: ends at most ``LEAD_GAP_DP`` before the row's lines start.
LEAD_DP = 48.0
LEAD_GAP_DP = 40.0
#: A row's leading picture is at most this many dp each way (Material's list image is
#: 56 dp; MaterialFiles' folder glyph came with a detector box 49 dp tall).
LEAD_MAX_DP = 64.0
#: A picture that leads a label in capitals ends at least this far before it to make
#: the label a row's title (a text button's own icon is 8 dp from its label).
LEAD_MIN_GAP_DP = 14.0
#: Two or more pictures at least this share of a line tall, leading one item's lines,
#: cut it into rows (:func:`split_by_leading_pictures`).
LEAD_MIN_LINES = 0.6
#: ... and is no app bar's navigation icon: one of these glyphs, or centred within
#: ``APP_BAR_DP`` of the top (a status bar and a 64 dp app bar, with some to spare).
NAVIGATION_GLYPHS = frozenset({"back", "menu", "close"})
APP_BAR_DP = 100.0
SMALL = (ElementKind.ICON, ElementKind.IMAGE, ElementKind.BUTTON)
HOLDERS = (BlockKind.CARD, BlockKind.LIST, BlockKind.DIALOG, BlockKind.GRID)
#: A row's trailing value: one line of at most ``VALUE_CHARS`` characters, a digit among
#: them (a size, a time, a count: not a second button's label) or one symbol, ending at
#: most ``VALUE_END_DP`` before the row's right edge, starting in its right half.
VALUE_CHARS = 12
VALUE_END_DP = 32.0


def with_targets(
    elements: Sequence[Element],
    width: int,
    height: int,
    regions: Sequence[Region] = (),
    *,
    neighbours: Sequence[Box] = (),
    pixels: RGB | None = None,
    fills: dict[Box, Box | None] | None = None,
    drawer: int | None = None,
) -> list[Element]:
    """``elements`` with ``target`` set where the tapped region differs from the box:
    every text's row band, and a touch square for each small picture that has no
    target yet (one that names a row or a tile has it from ``group.match_texts``).
    ``neighbours``: other boxes on the screen that bound the bands (not changed);
    ``pixels``: the screen, to find the filled shape a text sits on (a button);
    ``fills``: the shapes already found, by the text's span (read and added to, so
    that a second call on the same screen does not look again); ``drawer``: an open
    navigation drawer's right edge (:func:`screenpilot.vision.panels.drawer_edge`),
    where the rows on the drawer end."""
    dp = dp_size(width, height)
    boxes = [e.box for e in elements] + list(neighbours)
    out = list(elements)
    found = {} if fills is None else fills
    for i, e in enumerate(elements):
        small = max(e.box.width, e.box.height) < TOUCH_DP * dp
        if e.kind in SMALL and small and e.target is None:
            shape = None
            if pixels is not None:
                if e.box not in found:
                    found[e.box] = filled_shape(pixels, e.box, dp)
                shape = found[e.box]
            if shape is None or shape.area < ICON_FILL * e.box.area:
                shape = _touch_square(i, boxes, dp, width, height)
            out[i] = dataclasses.replace(e, target=shape)
    texts = [i for i, e in enumerate(elements) if e.kind is ElementKind.TEXT]
    items = split_by_leading_pictures(_items(texts, boxes, dp), elements, dp)
    spans = [Box.around([boxes[i] for i in item]) for item in items]
    values = [len(item) == 1 and _value_text(elements[item[0]].text) for item in items]
    is_value = dict(zip(spans, values, strict=True))  # which spans may trail a row
    for k, item in enumerate(items):
        band = None
        if pixels is not None:
            if spans[k] not in found:
                shape = filled_shape(pixels, spans[k], dp) or _outlined(pixels, spans[k], dp)
                found[spans[k]] = shape
            band = found[spans[k]]
        trailing = any(  # "17 GB" at the end of a row across the screen
            _trailing_value(other, spans[k], 0.0, float(width), dp, values[k]) for other in spans
        )
        if (
            band is None
            and len(item) == 1
            and not trailing  # "17 GB" at a row's end is no button
            and _text_button_label(item[0], elements, width, dp)
        ):
            band = _text_button(item[0], boxes, dp, width, height)
        band = band or _band(
            spans[k], item, boxes, dp, width, height, regions, spans, drawer, is_value
        )
        for i in item:
            out[i] = dataclasses.replace(out[i], target=band)
    for i, cell in _text_grid(out, width, height).items():
        out[i] = dataclasses.replace(out[i], target=cell)
    for i, tile in _tile_rows(out, dp, width, height).items():
        out[i] = dataclasses.replace(out[i], target=tile)
    for i, title in _leading_pictures(out, items, dp, regions).items():
        out[i] = dataclasses.replace(out[i], caption=title)
    return out


def _leading_pictures(
    elements: Sequence[Element],
    items: Sequence[Sequence[int]],
    dp: float,
    regions: Sequence[Region] = (),
) -> dict[int, str]:
    """Pictures that lead a text row (a settings row's icon, a contact's avatar): a
    picture at most ``LEAD_MAX_DP`` each way with no name of its own, inside the row
    band of an item whose lines start right of it, within ``LEAD_GAP_DP`` of it, and
    itself within ``LEAD_DP`` of the band's left edge. It is named by the row: it takes
    the row's title (the item's first line beside it: an item found in a dense list can
    hold several rows) as its caption, and keeps its own target (on real screens such
    an icon is sometimes a button of its own); the lines stay texts. Not an app bar's
    navigation icon before the screen's title (a menu or back glyph, in a toolbar or
    within ``APP_BAR_DP`` of the top): it opens a drawer or goes back."""
    out: dict[int, str] = {}
    bars = [r.box for r in regions if r.kind in (BlockKind.TOOLBAR, BlockKind.TAB_BAR)]
    for i, e in enumerate(elements):
        if (
            e.kind not in (ElementKind.ICON, ElementKind.IMAGE)
            or e.text
            or e.caption
            or e.icon_label in NAVIGATION_GLYPHS
            or max(e.box.width, e.box.height) > LEAD_MAX_DP * dp
            or e.box.center[1] < APP_BAR_DP * dp
            or any(b.contains(*e.box.center) for b in bars)
        ):
            continue
        best: tuple[float, int] | None = None
        for k, item in enumerate(items):
            band = elements[item[0]].target
            left = min(elements[j].box.x1 for j in item)
            gap_x = left - e.box.x2
            if (
                band is None
                or not band.x1 <= e.box.x1 <= band.x1 + LEAD_DP * dp
                or not band.y1 <= e.box.center[1] <= band.y2
                or not -2 <= gap_x <= LEAD_GAP_DP * dp
                or band.width < 4 * e.box.width
            ):
                continue
            if best is None or gap_x < best[0]:
                best = (gap_x, k)
        if best is not None:
            beside = [
                elements[j]
                for j in items[best[1]]
                if min(elements[j].box.y2, e.box.y2) > max(elements[j].box.y1, e.box.y1)
            ]
            if beside:
                out[i] = min(beside, key=lambda t: t.box.y1).text
    return out


def _caps_label(text: str) -> bool:
    """A text button's label: one to three words in capitals ("OK", "CANCEL", "SIGN IN")."""
    words = text.split()
    return 0 < len(words) <= 3 and len(text) <= 24 and text.isupper() and text.isascii()


def _text_button_label(i: int, elements: Sequence[Element], width: int, dp: float) -> bool:
    """A label in capitals, not centred on the screen unless another one shares its row
    (a centred one alone is a full-width button's, whose row is tapped), and not a list
    row's title that a picture leads (``_led``: MaterialFiles' folder "DCIM")."""
    e = elements[i]
    if not _caps_label(e.text) or _led(e.box, elements, dp):
        return False
    if abs(e.box.center[0] - width / 2) > CENTRED * width:
        return True
    return any(
        j != i and o.kind is ElementKind.TEXT and _caps_label(o.text) and same_row(o.box, e.box)
        for j, o in enumerate(elements)
    )


def _led(label: Box, elements: Sequence[Element], dp: float) -> bool:
    """Whether a picture on ``label``'s row, at the screen's left (within ``LEAD_DP``),
    ends ``LEAD_MIN_GAP_DP`` to ``LEAD_GAP_DP`` before it starts: a row's leading
    picture (a button's own icon sits nearer its label)."""
    return any(
        o.kind in (ElementKind.ICON, ElementKind.IMAGE)
        and o.box.x1 <= LEAD_DP * dp
        and LEAD_MIN_GAP_DP * dp <= label.x1 - o.box.x2 <= LEAD_GAP_DP * dp
        and same_row(o.box, label)
        for o in elements
    )


def _text_button(i: int, boxes: Sequence[Box], dp: float, width: int, height: int) -> Box:
    """A borderless text button around its label: ``TOUCH_DP`` tall, ``BUTTON_PAD_DP``
    each side and at least ``BUTTON_MIN_DP`` wide, no closer to a neighbour than half
    the gap (as a touch square)."""
    b = boxes[i]
    w = max(b.width + 2 * BUTTON_PAD_DP * dp, BUTTON_MIN_DP * dp)
    h = max(b.height, TOUCH_DP * dp)
    cx, cy = b.center
    return _bounded(i, Box.of(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2), boxes, width, height)


def _text_grid(elements: Sequence[Element], width: int, height: int) -> dict[int, Box]:
    """Short labels on a grid (a calendar's days, a keypad's keys): rows of at least
    ``GRID_MIN`` labels whose centres sit on columns a common step apart, at least
    ``GRID_MIN`` such rows evenly spaced: each label's target is its cell."""
    short = [
        i
        for i, e in enumerate(elements)
        if e.kind is ElementKind.TEXT and 0 < len(e.text.strip()) <= GRID_LABEL
    ]
    rows: list[list[int]] = []
    for i in sorted(short, key=lambda k: elements[k].box.center[1]):
        b = elements[i].box
        if rows and abs(b.center[1] - elements[rows[-1][0]].box.center[1]) <= 0.5 * b.height:
            rows[-1].append(i)
        else:
            rows.append([i])
    rows = [sorted(r, key=lambda k: elements[k].box.center[0]) for r in rows if len(r) >= GRID_MIN]
    if len(rows) < GRID_MIN:
        return {}
    xs = [[float(elements[k].box.center[0]) for k in r] for r in rows]
    steps = sorted(b - a for x in xs for a, b in itertools.pairwise(x))
    pitch = steps[len(steps) // 2]
    if pitch <= 0:
        return {}
    origin = xs[0][0]

    def on_grid(x: float) -> bool:
        k = (x - origin) / pitch
        return abs(k - round(k)) <= GRID_SLACK

    rows = [r for r, x in zip(rows, xs, strict=True) if all(on_grid(v) for v in x)]
    if len(rows) < GRID_MIN:
        return {}
    ys = [float(np.mean([elements[k].box.center[1] for k in r])) for r in rows]
    gaps = [b - a for a, b in itertools.pairwise(ys)]
    row_pitch = sorted(gaps)[len(gaps) // 2]
    if row_pitch <= 0 or max(gaps) > (1 + GRID_SLACK) * row_pitch:
        return {}
    found: dict[int, Box] = {}
    for r, y in zip(rows, ys, strict=True):
        for k in r:
            x = float(elements[k].box.center[0])
            found[k] = _clip(
                x - pitch / 2, y - row_pitch / 2, x + pitch / 2, y + row_pitch / 2, width, height
            )
    return found


def _stacks(elements: Sequence[Element], dp: float) -> list[tuple[list[int], Box]]:
    """Pictures with a one-line name centred under them (a tab, a launcher's app):
    (the elements of each, their span). A picture that took its name already
    (``group.match_texts``) is a stack by its target."""
    pictures = [
        i
        for i, e in enumerate(elements)
        if e.kind in SMALL
        and max(e.box.width, e.box.height) <= TILE_PICTURE_DP * dp
        and e.box.width <= 1.6 * e.box.height
    ]
    texts = [i for i, e in enumerate(elements) if e.kind is ElementKind.TEXT]
    used: set[int] = set()
    out: list[tuple[list[int], Box]] = []
    for i in pictures:
        p = elements[i].box
        named = elements[i].target
        if elements[i].text and named is not None and named.y2 > p.y2 + 4 * dp:
            out.append(([i], named))
            continue
        best: tuple[float, int] | None = None
        for j in texts:
            t = elements[j].box
            gap = t.y1 - p.y2
            off = abs(t.center[0] - p.center[0])
            if (
                j not in used
                and -0.15 * p.height <= gap <= max(0.5 * p.height, TILE_GAP_DP * dp)
                and t.height <= TILE_LINE_DP * dp
                and off <= 0.15 * max(p.width, t.width) + 4 * dp
                and (best is None or gap < best[0])
            ):
                best = (gap, j)
        if best is not None:
            used.add(best[1])
            out.append(([i, best[1]], Box.around([p, elements[best[1]].box])))
    return out


def _tile_rows(elements: Sequence[Element], dp: float, width: int, height: int) -> dict[int, Box]:
    """Rows of evenly spaced stacks (a bottom navigation bar, a launcher's grid), a
    slot left out here and there (``TILE_SKIP``): each stack's target is its column,
    from half-way to the stack beside it (half the smallest step beside a left-out
    slot), and its span with ``TILE_PAD_DP`` above and below."""
    stacks = sorted(_stacks(elements, dp), key=lambda s: (s[1].y1, s[1].x1))
    rows: list[list[tuple[list[int], Box]]] = []
    for stack in stacks:
        span = stack[1]
        for row in rows:
            first = row[0][1]
            if abs(span.center[1] - first.center[1]) <= 0.25 * first.height and not any(
                span.x1 < o.x2 and o.x1 < span.x2 for _, o in row
            ):
                row.append(stack)
                break
        else:
            rows.append([stack])
    found: dict[int, Box] = {}
    for row in rows:
        if len(row) < 2:
            continue
        row.sort(key=lambda s: s[1].center[0])
        centres = [span.center[0] for _, span in row]
        steps = [b - a for a, b in itertools.pairwise(centres)]
        pitch = min(steps)
        if max(steps) > TILE_SKIP * pitch:
            continue
        # a wider step (an empty cell, a floating button between tabs) is not shared
        steps = [st if st <= TILE_EVEN * pitch else pitch for st in steps]
        for k, (members, span) in enumerate(row):
            left = centres[k] - (steps[k - 1] if k else steps[0]) / 2
            right = centres[k] + (steps[k] if k < len(steps) else steps[-1]) / 2
            pad = TILE_PAD_DP * dp
            tile = _clip(left, span.y1 - pad, right, span.y2 + pad, width, height)
            for i in members:
                found[i] = tile
    return found


def filled_shape(pixels: RGB, span: Box, dp: float) -> Box | None:
    """The filled shape ``span`` (a text) sits on, where its fill differs from the page
    around it (a button, a chip, a selected row): grown from the text while at least
    ``FILL_SHARE`` of each column, then each row, has the fill's colour. None on a
    plain page (the text's band is then its row), or when no edge is found within
    ``FILL_REACH_DP``."""
    h, w = pixels.shape[:2]
    ring = np.concatenate(  # 3 px around the text, read before the window (most fail here)
        [
            pixels[max(0, span.y1 - 3) : span.y1, span.x1 : span.x2].reshape(-1, 3),
            pixels[span.y2 : span.y2 + 3, span.x1 : span.x2].reshape(-1, 3),
            pixels[span.y1 : span.y2, max(0, span.x1 - 3) : span.x1].reshape(-1, 3),
            pixels[span.y1 : span.y2, span.x2 : span.x2 + 3].reshape(-1, 3),
        ]
    ).astype(np.int16)
    if len(ring) < 8:
        return None
    # float32: a median is whole or a half, exact in float32 as in the float64 it
    # was, and the distances below are computed on half as many bytes
    fill = np.median(ring, axis=0).astype(np.float32)
    page = np.median(pixels[span.y1 : span.y2, :: max(1, w // 64)].reshape(-1, 3), axis=0)
    if np.abs(fill - page).sum() <= FILL_CONTRAST:
        return None
    reach = round(FILL_REACH_DP * dp)
    x1, y1 = max(0, span.x1 - reach), max(0, span.y1 - reach)
    x2, y2 = min(w, span.x2 + reach), min(h, span.y2 + reach)
    window = pixels[y1:y2, x1:x2]
    sx1, sy1, sx2, sy2 = span.x1 - x1, span.y1 - y1, span.x2 - x1, span.y2 - y1

    def same(part: np.ndarray) -> np.ndarray:  # only the text's band, then its columns
        return np.asarray(colour_distance(part.astype(np.int16), fill) <= FILL_TOLERANCE)

    cols = same(window[sy1:sy2]).mean(axis=0) >= FILL_SHARE
    left, right = _run(cols, sx1, -1), _run(cols, sx2 - 1, 1)
    rows = same(window[:, left : right + 1]).mean(axis=1) >= FILL_SHARE
    top, bottom = _run(rows, sy1, -1), _run(rows, sy2 - 1, 1)
    edges = (left > 0 or x1 == 0, right < len(cols) - 1 or x2 == w)
    if not all(edges) or not (top > 0 or y1 == 0) or not (bottom < len(rows) - 1 or y2 == h):
        return None
    if right + 1 - left >= FILL_MAX_WIDTH * w:  # a full-width fill: a row, not a button
        return None
    return Box.of(x1 + left, y1 + top, x1 + right + 1, y1 + bottom + 1)


def _outlined(pixels: RGB, span: Box, dp: float) -> Box | None:
    """The outline ``span`` (a text) sits in, where the page inside is plain (an
    outlined field or button): the nearest line of ink each way from the text's middle
    (across the screen, and within ``FILL_REACH_DP`` above and below), each side a
    line over at least ``FILL_SHARE`` of the middle half of its length (a rounded
    corner leaves the ends). None when a side has no such line."""
    h, w = pixels.shape[:2]
    reach = round(FILL_REACH_DP * dp)
    y1, y2 = max(0, span.y1 - reach), min(h, span.y2 + reach)
    window = pixels[y1:y2]  # only the lines below are compared: a few px, not the window
    sx1, sy1, sx2, sy2 = span.x1, span.y1 - y1, span.x2, span.y2 - y1
    if min(sx1, sy1) < 1 or sx2 >= w - 1 or sy2 >= window.shape[0] - 1:
        return None
    inside = np.median(  # the page colour just around the text
        np.concatenate([window[sy1:sy2, sx1 - 1], window[sy1:sy2, sx2], window[sy1 - 1, sx1:sx2]]),
        axis=0,
    ).astype(np.float32)  # whole or a half: exact (see ``filled_shape``)

    def ink(line: np.ndarray) -> np.ndarray:
        return np.asarray(colour_distance(line.astype(np.int16), inside) > FILL_CONTRAST)

    cy, cx = (sy1 + sy2) // 2, (sx1 + sx2) // 2
    row, col = ink(window[cy]), ink(window[:, cx])
    left, right = _first(row[:sx1][::-1]), _first(row[sx2:])
    top, bottom = _first(col[:sy1][::-1]), _first(col[sy2:])
    if left is None or right is None or top is None or bottom is None:
        return None
    left, right, top, bottom = sx1 - 1 - left, sx2 + right, sy1 - 1 - top, sy2 + bottom
    qx, qy = (right - left) // 4, (bottom - top) // 4
    lines = (
        ink(window[top, left + qx : right + 1 - qx]).mean(),
        ink(window[bottom, left + qx : right + 1 - qx]).mean(),
        ink(window[top + qy : bottom + 1 - qy, left]).mean(),
        ink(window[top + qy : bottom + 1 - qy, right]).mean(),
    )
    # a chip or a pill: its round ends have no straight side, and the first ink beside
    # the label may be the chip's icon (the top line then runs on past it)
    runs_on = left > 0 and right < w - 1 and bool(ink(window[top, [left - 1, right + 1]]).any())
    over = min(ink(window[top, sx1:sx2]).mean(), ink(window[bottom, sx1:sx2]).mean())
    if (min(lines) < FILL_SHARE or runs_on) and over >= FILL_SHARE:
        ring = _ring_ends(ink(window[top : bottom + 1]), (sx1, sx2), (sy1 + sy2) // 2 - top)
        if ring is not None and ring[1] - ring[0] < FILL_MAX_WIDTH * w:
            return Box.of(ring[0], y1 + top, ring[1], y1 + bottom + 1)
    if min(lines) < FILL_SHARE:
        return None
    return Box.of(left, y1 + top, right + 1, y1 + bottom + 1)


def _ring_ends(band: np.ndarray, span: tuple[int, int], middle: int) -> tuple[int, int] | None:
    """Where a closed outline around a text ends left and right (a chip or a pill,
    whose rounded ends have no straight side, and which may hold an icon before its
    label): ``band`` is the ink from the outline's top line to its bottom line (both
    crossing the text's middle column), ``span`` the text's columns, ``middle`` the
    text's middle row in it. The outline is the connected ink of the top line; it
    counts when it holds the bottom line too, reaches past the text both ways, and
    crosses the middle row only at its two ends (within one band height of them),
    not between (a table's cell walls join its lines into one grid). None otherwise."""
    import cv2

    h = band.shape[0]
    x1, x2 = span
    cx = (x1 + x2) // 2
    if h < 3 or not band[0, cx] or not band[h - 1, cx] or not 0 < middle < h - 1:
        return None
    _, labels = cv2.connectedComponents(band.astype(np.uint8), connectivity=8)
    if labels[h - 1, cx] != labels[0, cx]:
        return None
    ring = labels == labels[0, cx]
    cols = np.flatnonzero(ring.any(axis=0))
    left, right = int(cols[0]), int(cols[-1]) + 1
    if not (left < x1 and right > x2):
        return None
    crossed = np.flatnonzero(ring[middle])
    if ((crossed >= left + h) & (crossed < right - h)).any():
        return None
    return left, right


def _first(line: np.ndarray) -> int | None:
    """The index of the first true value of ``line``, None when there is none."""
    if not len(line) or not line.any():
        return None
    return int(np.argmax(line))


def _run(ok: np.ndarray, start: int, step: int) -> int:
    """The last index from ``start`` (exclusive of the span) going ``step`` that is ok."""
    i = start
    while 0 <= i + step < len(ok) and ok[i + step]:
        i += step
    return i


def _touch_square(i: int, boxes: Sequence[Box], dp: float, width: int, height: int) -> Box:
    b = boxes[i]
    half = max(TOUCH_DP * dp, b.width, b.height) / 2
    cx, cy = (b.x1 + b.x2) / 2, (b.y1 + b.y2) / 2
    return _bounded(i, Box.of(cx - half, cy - half, cx + half, cy + half), boxes, width, height)


def _bounded(i: int, around: Box, boxes: Sequence[Box], width: int, height: int) -> Box:
    """``around`` (a region centred on ``boxes[i]``) no closer to another box than half
    the gap between it and ``boxes[i]``, and never smaller than ``boxes[i]``."""
    b = boxes[i]
    x1, y1, x2, y2 = (float(v) for v in (around.x1, around.y1, around.x2, around.y2))
    for j, o in enumerate(boxes):
        if j == i or o.intersection(b) > 0:
            continue
        rows = min(o.y2, y2) > max(o.y1, y1)
        cols = min(o.x2, x2) > max(o.x1, x1)
        if rows and o.x1 >= b.x2:
            x2 = min(x2, (b.x2 + o.x1) / 2)
        elif rows and o.x2 <= b.x1:
            x1 = max(x1, (b.x1 + o.x2) / 2)
        elif cols and o.y1 >= b.y2:
            y2 = min(y2, (b.y2 + o.y1) / 2)
        elif cols and o.y2 <= b.y1:
            y1 = max(y1, (b.y1 + o.y2) / 2)
    return _clip(min(x1, b.x1), min(y1, b.y1), max(x2, b.x2), max(y2, b.y2), width, height)


def _items(texts: list[int], boxes: Sequence[Box], dp: float) -> list[list[int]]:
    """Text lines grouped into items: stacked, left-aligned, close lines."""
    items: list[list[int]] = []
    for i in sorted(texts, key=lambda k: (boxes[k].y1, boxes[k].x1)):
        b = boxes[i]
        for item in items:
            last = boxes[item[-1]]
            gap = b.y1 - last.y2
            line = min(b.height, last.height)
            gaps = [boxes[k].y1 - boxes[j].y2 for j, k in itertools.pairwise(item)]
            if (
                -0.3 * b.height <= gap < STACK_GAP * line
                and (not gaps or gap <= max(gaps) + EVEN_GAP * line)
                and abs(b.x1 - boxes[item[0]].x1) <= ALIGN_DP * dp
            ):
                item.append(i)
                break
        else:
            items.append([i])
    return items


def split_by_leading_pictures(
    items: list[list[int]], elements: Sequence[Element], dp: float
) -> list[list[int]]:
    """``items`` with each one that two or more leading pictures share cut into one item
    a picture. A list whose rows hold a title and a subtitle as evenly spaced as the
    rows themselves (a moon phase over its date, row after row) reads as one stack of
    lines; the picture each row starts with (an icon, an avatar: left of the lines,
    within ``LEAD_GAP_DP``, ``LEAD_MIN_LINES`` of a line tall or more, at most
    ``TILE_PICTURE_DP``) tells the rows apart. Each line goes to the picture whose
    half-way marks to the pictures above and below hold its centre."""
    out: list[list[int]] = []
    for item in items:
        if len(item) < 3:  # two lines are one row, or two rows already
            out.append(item)
            continue
        lines = [elements[i].box for i in item]
        left = min(b.x1 for b in lines)
        top, bottom = min(b.y1 for b in lines), max(b.y2 for b in lines)
        tall = float(np.median([b.height for b in lines]))
        leads = sorted(
            e.box.center[1]
            for e in elements
            if e.kind in SMALL
            and not e.text
            and e.box.x1 < left
            and -ALIGN_DP * dp <= left - e.box.x2 <= LEAD_GAP_DP * dp
            and top <= e.box.center[1] <= bottom
            and LEAD_MIN_LINES * tall <= e.box.height <= TILE_PICTURE_DP * dp
        )
        if len(leads) < 2:
            out.append(item)
            continue
        cuts = [(a + b) / 2 for a, b in itertools.pairwise(leads)]
        rows: dict[int, list[int]] = {}
        for i in item:
            y = elements[i].box.center[1]
            rows.setdefault(sum(y >= c for c in cuts), []).append(i)
        out.extend(rows[k] for k in sorted(rows))
    return out


def _band(
    span: Box,
    item: list[int],
    boxes: Sequence[Box],
    dp: float,
    width: int,
    height: int,
    regions: Sequence[Region],
    spans: Sequence[Box],
    drawer: int | None = None,
    is_value: Mapping[Box, bool] | None = None,
) -> Box:
    """An item's row band (module docstring); ``drawer``: an open drawer's right edge,
    where the band of an item on the drawer ends; ``is_value``: whether each of ``spans``
    could be a row's trailing value (one short line)."""
    line = min(boxes[i].height for i in item)
    pad = min(ROW_PAD * line, MAX_PAD_DP * dp)
    members = set(item)
    x1, x2 = 0.0, float(width)
    holders = [
        r.box
        for r in regions
        if r.kind in HOLDERS
        and r.box.intersection(span) >= span.area
        and r.box.width < width * 0.98
    ]
    if holders:
        tightest = min(holders, key=lambda r: r.area)
        x1, x2 = float(tightest.x1), float(tightest.x2)
    if drawer is not None and span.x2 <= drawer:
        x2 = min(x2, float(drawer))
    is_value = is_value or {}
    left, right = x1, x2
    for other in spans:
        if other == span or not _beside(other, span):
            continue
        pair = (span, other) if other.x1 >= span.x2 else (other, span)
        if _trailing_value(*pair, left, right, dp, is_value.get(pair[1], False)):
            continue
        if other.x1 >= span.x2:
            x2 = min(x2, (span.x2 + other.x1) / 2)
        elif other.x2 <= span.x1:
            x1 = max(x1, (span.x1 + other.x2) / 2)
    y1, y2 = span.y1 - pad, span.y2 + pad
    for j, o in enumerate(boxes):
        if j in members or o.x2 <= x1 or o.x1 >= x2:
            continue
        if o.y2 <= span.y1:
            y1 = max(y1, (span.y1 + o.y2) / 2)
        elif o.y1 >= span.y2:
            y2 = min(y2, (span.y2 + o.y1) / 2)
    return _clip(x1, y1, x2, y2, width, height)


def _value_text(text: str) -> bool:
    """Whether ``text`` can be a row's trailing value: a short one with a digit ("17 GB",
    "00:26"), or one symbol (an icon's glyph read as "☆" or ">")."""
    t = text.strip()
    if len(t) == 1:
        return not t.isalpha()
    return len(t) <= VALUE_CHARS and any(c.isdigit() for c in t)


def _beside(a: Box, b: Box) -> bool:
    """Whether ``a`` and ``b`` share a row: they overlap by half the shorter's height."""
    return min(a.y2, b.y2) - max(a.y1, b.y1) >= 0.5 * min(a.height, b.height)


def _trailing_value(
    title: Box, value: Box, x1: float, x2: float, dp: float, may_be_value: bool
) -> bool:
    """Whether ``value`` (a span that ``may_be_value``: one short line) is the trailing
    value of ``title``'s row, which spans ``x1`` to ``x2``: the one rule behind a lone
    value that is no text button (the row across the screen) and a row's band that
    takes its value (the row inside its holder)."""
    return (
        may_be_value
        and title != value
        and _beside(title, value)
        and _trails(title, value, x1, x2, dp)
    )


def _trails(title: Box, value: Box, x1: float, x2: float, dp: float) -> bool:
    """Whether ``value`` is the trailing value of ``title``'s row, which spans ``x1`` to
    ``x2``: it ends at most ``VALUE_END_DP`` before ``x2`` and starts right of the middle,
    and the title starts left of it."""
    middle = (x1 + x2) / 2
    return value.x2 >= x2 - VALUE_END_DP * dp and value.x1 >= middle and title.x1 < middle


def _clip(x1: float, y1: float, x2: float, y2: float, width: int, height: int) -> Box:
    return Box.of(max(0.0, x1), max(0.0, y1), min(float(width), x2), min(float(height), y2))
