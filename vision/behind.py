"""What lies behind a modal surface: the page under a dialog's, a bottom sheet's or a
drawer's scrim, or around a popup menu.

A dialog, a modal bottom sheet or an open navigation drawer darkens the page under it
with a scrim. The page still shows, and OCR reads it ("CANCEL" and "CONTINUE" of a
permission page under its "Deny anyway?" dialog), but a tap there does not reach it: it
closes the dialog. Describe keeps those elements (a person sees them too, and they say
where the dialog was opened) and puts them in one ``BEHIND`` block, captioned
``dialog``, ``bottom sheet`` or ``drawer``, which ``Screen.describe`` names as dimmed
and which planners do not act on (``Screen.in_front``).

- **The surface**, the first of: the largest ``DIALOG`` region (``blocks.layout_regions``:
  a closed rectangle of lines), joined with the regions stacked on it with its sides;
  a dialog found by its edges (``vision.dialogs.find_dialog``: Material dialogs have no
  outline), which becomes a ``DIALOG`` block; a bottom sheet (``vision.dialogs``: a
  panel across the width from a row down to the bottom); an open drawer
  (``vision.panels.drawer_edge``: the panel from the left edge to its right edge); a
  popup menu (``vision.menus.find_menu``: a raised panel whose shadow darkens the page
  below and beside it), which becomes a ``MENU`` block. A menu has no scrim: the page
  around it is behind it, dimmed or not, and its caption is ``menu``.
- **The scrim** (the drawer's edge is found by its scrim): the brightest pixels of the
  page around the dialog or above the sheet (the ``BRIGHT`` quantile of grey, between the
  bars, a thin band round the surface's edge left out; ``SHEET_BRIGHT`` for a sheet) are
  at most ``DIMMED`` of the surface's own. A white page under Material's 32 % black
  scrim is at most 174 of 255 against the dialog's 255; a card on a grey page has white
  cards beside it, so it is no dialog.
- **Behind**: an element whose centre lies under the scrim and outside the surface
  (left of a drawer's edge is the drawer), whose home is no status bar, navigation bar
  or keyboard, and which is itself dimmed (its ``BRIGHT`` quantile of grey at most
  ``DIMMED`` of the surface's: a status bar's white clock that describe did not put in
  the bar is drawn above the scrim). The scrim spans the rows between the bars (the
  status bar at least ``STATUS_SHARE`` of the short side); a sheet's page test starts
  below the screen's top band of one colour (``status_band``: a status bar over a
  camera's cutout can be 170 px tall, its icons white over the scrim; a dialog's does
  not, where a dark page's own white title under that band is the evidence); a
  drawer's scrim starts where its edge first steps darker (``scrim_top``: some apps
  open the drawer under their app bar, which stays in front). A block left with none
  of its elements that lies mostly behind (the page's toolbar, its list) is dropped:
  what it held is in the ``BEHIND`` block.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from screenpilot.model import Block, BlockKind, Box, Element
from screenpilot.vision.dialogs import find_dialog, sheet_edges, spans_width
from screenpilot.vision.image import RGB, channel_mean
from screenpilot.vision.menus import EDGE, find_menu
from screenpilot.vision.panels import DARKER

#: The share of the page's pixels (by grey level) that must be darker than ``DIMMED``
#: of the dialog's brightest: the page's brightest pixels, bar a few.
BRIGHT = 0.995
#: A bottom sheet's page is held to more of its pixels: a coloured header over a white
#: form, or a camera's black viewfinder with white icons, leaves a few bright ones.
SHEET_BRIGHT = 0.999
DIMMED = 0.8
#: Blocks never behind: the system's bars and the keyboard stay above any scrim.
ABOVE = (BlockKind.STATUS_BAR, BlockKind.NAVIGATION_BAR, BlockKind.KEYBOARD)
#: A status bar is at least this share of the screen's short side tall (24 dp).
STATUS_SHARE = 0.06
#: The top band of one colour (``status_band``) is looked for in this share of the
#: height, its rows within ``BAND_LEVELS`` of the first row's colour.
STATUS_MOST = 0.1
BAND_LEVELS = 12
#: A bottom sheet's page holds a text of this many letters or digits among what lies
#: behind (``_worded``).
WORDED = 3
#: ... or under a tenth of its rows are black (at most ``BLACK`` in every channel)
#: across the width: a video's letterbox (``_letterboxed``).
LETTERBOX = 0.1
BLACK = 16
#: A block lies behind when this share of its box does.
MOSTLY = 0.6
#: An element with this share of its box beyond the surface's edge (and its margin) is
#: the page's, cut by the surface's edge (the virtual phone's "Screen timeout" dialog
#: covers half of the page's "Adaptive brightness" switch): a surface's own elements
#: lie inside it.
CROSSING = 0.25


@dataclasses.dataclass(frozen=True, slots=True)
class Surface:
    """A modal surface: its box, what it is (``dialog``, ``bottom sheet`` or ``drawer``)
    and the rows its scrim covers (``top`` to ``bottom``)."""

    box: Box
    what: str
    top: int
    bottom: int


def content_span(blocks: Sequence[Block], height: int, width: int = 0) -> tuple[int, int]:
    """The rows between the status bar and the navigation bar (or the keyboard). The
    status bar is at least ``STATUS_SHARE`` of the short side tall, found or not: its
    icons stay white over any scrim."""
    least = round(STATUS_SHARE * min(width or height, height))
    top = max([least] + [b.box.y2 for b in blocks if b.kind is BlockKind.STATUS_BAR])
    bottom = min(
        (b.box.y1 for b in blocks if b.kind in (BlockKind.NAVIGATION_BAR, BlockKind.KEYBOARD)),
        default=height,
    )
    return top, max(top, bottom)


def is_scrimmed(pixels: RGB, dialog: Box, top: int, bottom: int, bright: float = BRIGHT) -> bool:
    """Whether the page around ``dialog`` (rows ``top`` to ``bottom``) is dimmed: its
    brightest pixels (the ``bright`` quantile) at most ``DIMMED`` of the dialog's own
    (module docstring)."""
    h, w = pixels.shape[:2]
    step = max(1, min(h, w) // 360)
    grey = channel_mean(pixels[top:bottom:step, ::step])
    if grey.size == 0:
        return False
    m = max(8, w // 60)  # its edge, found to a few pixels, is neither
    inside = _in_box(grey.shape, top, 0, step, _grown(dialog, -m))
    around = _in_box(grey.shape, top, 0, step, _grown(dialog, m))
    page, own = grey[~around], grey[inside]
    if page.size < 0.1 * grey.size or own.size == 0:
        return False
    return float(np.quantile(page, bright)) <= DIMMED * float(np.quantile(own, bright))


def status_band(pixels: RGB, top: int) -> int:
    """The first row below the screen's top band of one colour, when it ends below
    ``top`` (and within ``STATUS_MOST`` of the height): a status bar describe found too
    short, or one over a camera's cutout, is one colour with white icons, which stay
    white over a scrim. The page's scrim test starts there."""
    from screenpilot.vision.blocks import row_colours

    h = pixels.shape[0]
    most = int(STATUS_MOST * h)
    colours = row_colours(pixels[: most + 1])
    differs = np.abs(colours - colours[0]).max(axis=1) > BAND_LEVELS
    end = int(np.argmax(differs)) if differs.any() else most
    return max(top, min(end, most))


def modal_surface(pixels: RGB, blocks: Sequence[Block], drawer: int | None) -> Surface | None:
    """The dialog, bottom sheet or drawer the screen shows over a scrim, if any (module
    docstring)."""
    h = pixels.shape[0]
    top, bottom = content_span(blocks, h, pixels.shape[1])
    dialogs = [b.box for b in blocks if b.kind is BlockKind.DIALOG]
    if dialogs:
        parts = [b.box for b in blocks if b.kind not in ABOVE]  # a list of its choices too
        box = _stacked(max(dialogs, key=lambda b: b.area), parts, pixels.shape[1], h)
        if is_scrimmed(pixels, box, top, bottom):
            return Surface(box, "dialog", top, bottom)
    found = find_dialog(pixels, top, bottom)  # a dialog with no outline: by its edges
    if found is not None and is_scrimmed(pixels, found, top, bottom):
        return Surface(found, "dialog", top, bottom)
    edges = sheet_edges(pixels, top, bottom)  # a modal bottom sheet
    band = status_band(pixels, top) if edges else top  # where the page's test starts
    for edge in reversed(edges):
        sheet = Box(0, edge, pixels.shape[1], bottom)
        if spans_width(pixels, sheet) and is_scrimmed(pixels, sheet, band, bottom, SHEET_BRIGHT):
            return Surface(sheet, "bottom sheet", top, bottom)
    if drawer is not None and bottom > top:
        top = scrim_top(pixels, drawer, top, bottom)
        return Surface(Box(0, top, drawer, bottom), "drawer", top, bottom) if bottom > top else None
    menu = find_menu(pixels, top, bottom)  # a popup menu: a shadow, no scrim
    if menu is None:
        return None
    # a panel from the left edge down to the bottom, most of the page tall, is a drawer
    # whose edge drawer_edge missed
    drawn = menu.x1 <= EDGE * pixels.shape[1] and menu.y2 >= bottom - 1
    what = "drawer" if drawn and menu.height >= 0.5 * (bottom - top) else "menu"
    return Surface(menu, what, top, bottom)


def scrim_top(pixels: RGB, edge: int, top: int, bottom: int) -> int:
    """The first row of an open drawer's scrim: from the screen's middle up, the rows
    where the drawer's edge steps to something darker (``vision.panels``), until a
    hundredth of the screen's height in a row does not (an app bar the drawer opens
    under keeps its own colour across the edge)."""
    h, w = pixels.shape[:2]
    near, hold = max(1, w // 360), max(2, w // 90)
    if edge - near < 0 or edge + near + hold >= w:
        return top
    grey = channel_mean(pixels[:, [edge - near, edge + near + hold]])
    steps = grey[:, 0] - grey[:, 1] >= DARKER  # the step drawer_edge found the edge by
    gap = max(4, h // 100)
    first, miss = (top + bottom) // 2, 0
    for y in range((top + bottom) // 2, top - 1, -1):
        if steps[y]:
            first, miss = y, 0
        else:
            miss += 1
            if miss >= gap:
                break
    return max(top, first)


def _stacked(box: Box, parts: Sequence[Box], w: int, h: int) -> Box:
    """``box`` joined with the regions stacked on it with the same sides (a dialog whose
    dividers between its body and its buttons made two rectangles, or a list)."""
    tol, gap = 0.02 * w, 0.02 * h
    grown = True
    while grown:
        grown = False
        for d in parts:
            same_sides = abs(d.x1 - box.x1) <= tol and abs(d.x2 - box.x2) <= tol
            touching = d.y1 <= box.y2 + gap and d.y2 >= box.y1 - gap
            joined = Box.around([box, d])
            if same_sides and touching and joined != box:
                box, grown = joined, True
    return box


def _grown(box: Box, m: int) -> tuple[int, int, int, int]:
    """``box``'s edges moved out by ``m`` px (in, for a negative ``m``); may be empty."""
    return (box.x1 - m, box.y1 - m, box.x2 + m, box.y2 + m)


def _in_box(
    shape: tuple[int, ...], y0: int, x0: int, step: int, box: Box | tuple[int, int, int, int]
) -> np.ndarray:
    """Which cells of a grid sampled every ``step`` px from (``x0``, ``y0``) lie in ``box``
    (x1, y1, x2, y2 in screen pixels)."""
    x1, y1, x2, y2 = box.as_tuple() if isinstance(box, Box) else box
    ys = np.arange(y0, y0 + shape[0] * step, step)[: shape[0], None]
    xs = np.arange(x0, x0 + shape[1] * step, step)[None, : shape[1]]
    return (ys >= y1) & (ys < y2) & (xs >= x1) & (xs < x2)


def _bright(pixels: RGB, box: Box, outside: Box | None = None) -> float:
    """The ``BRIGHT`` quantile of grey inside ``box``, on its pixels outside ``outside``
    (a page's line cut by a sheet's edge is judged by its part above the sheet). A
    status bar's white clock is brighter than any scrim lets a page be: it is drawn
    above it."""
    h, w = pixels.shape[:2]
    x1, y1, x2, y2 = max(0, box.x1), max(0, box.y1), min(w, box.x2), min(h, box.y2)
    step = max(1, min(box.width, box.height) // 48)
    grey = channel_mean(pixels[y1:y2:step, x1:x2:step])
    if grey.size == 0:
        return 0.0
    if outside is not None:
        grey = grey[~_in_box(grey.shape, y1, x1, step, outside)]
        if grey.size == 0:
            return 0.0
    return float(np.quantile(grey, BRIGHT))


def _worded(elements: Sequence[Element], moved: set[int]) -> bool:
    """Whether a text of ``WORDED`` letters or digits is among the ``moved`` elements: a
    page under a bottom sheet's scrim shows its words, dimmed. A picture under one (a
    map under Uber's time picker) shows none; :func:`_letterboxed` tells it from a
    video."""
    return any(e.id in moved and sum(c.isalnum() for c in e.text) >= WORDED for e in elements)


def _letterboxed(pixels: RGB, surface: Surface) -> bool:
    """Whether ``LETTERBOX`` of the rows above a bottom sheet are black across the width
    (a video's letterbox, which no scrim makes of a page). A dark video over a player's
    details (NewPipe) has a sheet's edge and a page as dark as a scrim makes one; with
    no words behind it (only the frame's specks, read as "5" or found as icons), it is
    no sheet."""
    rows = pixels[surface.top : surface.box.y1]
    if rows.size == 0:
        return False
    black = rows.max(axis=(1, 2)) <= BLACK
    return float(black.mean()) >= LETTERBOX


def _is_behind(box: Box, surface: Surface, edge: Box) -> bool:
    """Whether ``box`` lies under the scrim outside the surface: its centre does, or
    ``CROSSING`` of it lies beyond ``edge`` (the surface and its margin)."""
    cx, cy = box.center
    if not surface.top <= cy < surface.bottom:
        return False
    outside = box.area - box.intersection(edge)
    return not surface.box.contains(cx, cy) or outside >= CROSSING * box.area


def with_behind(
    pixels: RGB, blocks: list[Block], elements: list[Element], drawer: int | None = None
) -> tuple[list[Block], list[Element]]:
    """``blocks`` and ``elements`` with what lies under a scrim moved into one ``BEHIND``
    block (the last id), and the blocks it emptied dropped; unchanged when no dialog or
    drawer is open."""
    surface = modal_surface(pixels, blocks, drawer)
    if surface is None:
        return blocks, elements
    w = pixels.shape[1]
    above = {b.id for b in blocks if b.kind in ABOVE}
    # brighter than this: not under the scrim (a menu's page is not dimmed at all)
    lit = DIMMED * _bright(pixels, surface.box) if surface.what != "menu" else 255.0
    m = max(8, w // 60)  # the surface's edge, found to a few pixels, is not the page
    edge = Box(*_grown(surface.box, m))
    moved = {
        e.id
        for e in elements
        if e.block_id not in above
        and _is_behind(e.box, surface, edge)
        and _bright(pixels, e.box, edge) <= lit
    }
    if not moved or (
        surface.what == "bottom sheet"
        and not _worded(elements, moved)
        and _letterboxed(pixels, surface)
    ):
        return blocks, elements
    next_id = max((b.id for b in blocks), default=0) + 1
    kind = {"dialog": BlockKind.DIALOG, "menu": BlockKind.MENU}.get(surface.what)
    if kind is not None and not any(
        b.kind is kind and b.box.iou(surface.box) >= 0.5 for b in blocks
    ):
        blocks, elements = _with_surface(blocks, elements, Block(next_id, surface.box, kind))
        next_id += 1
    region = Box(0, surface.top, w, surface.bottom)
    kept_home = {e.block_id for e in elements if e.id not in moved}
    kept = [
        b
        for b in blocks
        if b.id in kept_home
        or b.kind in ABOVE
        or b.box.intersection(region) - b.box.intersection(surface.box) < MOSTLY * b.box.area
    ]
    behind = Block(next_id, region, BlockKind.BEHIND, caption=surface.what)
    ids = {b.id for b in kept}
    out = [
        dataclasses.replace(e, block_id=behind.id)
        if e.id in moved
        else (
            e if e.block_id is None or e.block_id in ids else dataclasses.replace(e, block_id=None)
        )
        for e in elements
    ]
    return [*kept, behind], out


def _with_surface(
    blocks: list[Block], elements: list[Element], dialog: Block
) -> tuple[list[Block], list[Element]]:
    """``dialog`` (a dialog or a menu) added to ``blocks``: the elements inside it whose
    home is no block inside it (none, or the page's list it covers) move into it."""
    inside = {b.id for b in blocks if b.box.intersection(dialog.box) >= 0.9 * b.box.area}
    out = [
        dataclasses.replace(e, block_id=dialog.id)
        if dialog.box.contains(*e.box.center) and e.block_id not in inside
        else e
        for e in elements
    ]
    return [*blocks, dialog], out
