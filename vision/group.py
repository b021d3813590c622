"""Semantic grouping: text-widget matching, block captions, tab bars and the active tab.

- :func:`match_texts`: proximity-based matching (the approach's rule). A text
  within ``max_dist`` of a widget belongs to it: inside a button or field it is
  the widget's text; on the same row as a switch, check box, radio group or
  seek bar it is the widget's caption (for a seek or rating bar also a title just
  above it); centred under an image or icon it is the
  app icon's name (home screens: only the widget stays). A widget may take
  several aligned texts (joined in reading order); matched texts are removed.
- :func:`block_caption`: the left- (or top-) justified pure text at the top of a block.
- :func:`find_tab_rows`: rows of 2-6 evenly spread short texts/icons near the
  top or bottom of the screen; :func:`active_tab` picks the tab whose HSV hue
  distribution differs most from the others' (achromatic pixels get their own
  bins by brightness, so black-on-grey tabs are told apart too).
"""

from __future__ import annotations

import dataclasses
import itertools
import logging
import re
from collections.abc import Collection, Sequence

import numpy as np
import numpy.typing as npt

from screenpilot.model import Block, BlockKind, Box, Element, ElementKind
from screenpilot.vision.blocks import dp_size
from screenpilot.vision.image import RGB
from screenpilot.vision.markcharts import weekday

log = logging.getLogger("screenpilot.vision")

#: A button cut down to its own label (``_own_part``) reaches this share of the
#: label's height beyond it.
LABEL_PAD = 0.6
#: Widgets whose text is inside them.
CONTAINERS = frozenset({ElementKind.BUTTON, ElementKind.EDIT_TEXT, ElementKind.SPINNER})
#: Widgets labelled by a text beside them on the same row.
LABELLED = frozenset(
    {
        ElementKind.SWITCH,
        ElementKind.CHECK_BOX,
        ElementKind.RADIO_GROUP,
        ElementKind.SEEK_BAR,
        ElementKind.RATING_BAR,
    }
)
#: Texts inside one widget, side by side with a gap over this many line heights, are
#: separate labels (a toolbar or a bar of buttons read as one widget): they stay texts.
APART = 1.0
#: Two tabs' labels each lie within this share of the screen's width of their half's centre.
TWO_TABS_OFF = 0.08
#: Widgets a settings row's label belongs to first.
TOGGLE_KINDS = frozenset({ElementKind.SWITCH, ElementKind.CHECK_BOX})
#: Widgets a two-line item (a title and its summary) names when centred on it.
ITEM_KINDS = TOGGLE_KINDS | {ElementKind.RADIO_GROUP}
#: Wide widgets whose label may stand above them.
#: (A rating bar is not: in a list or a card the text above it is the item's name,
#: which must stay a text to tap.)
BARS = frozenset({ElementKind.SEEK_BAR})
#: A label on a widget's row may be this many times ``max_dist`` away (settings rows).
ROW_LABEL_FACTOR = 20
#: Blocks that never take a caption.
NO_CAPTION = frozenset(
    {BlockKind.STATUS_BAR, BlockKind.NAVIGATION_BAR, BlockKind.TAB_BAR, BlockKind.KEYBOARD}
)
#: What flanks a toolbar's title without being it: icons, and buttons with no text.
TOOLBAR_ICONS = frozenset({ElementKind.ICON, ElementKind.IMAGE, ElementKind.BUTTON})
#: Widgets named by a text centred below them (app icons on a home screen).
PICTURES = frozenset({ElementKind.IMAGE, ElementKind.ICON, ElementKind.BUTTON})
#: A picture's name is centred under it within this share of its width (plus 4 px) ...
NAME_CENTRED = 0.1
#: ... or starts where the picture starts, within this share of its width (plus 4 px).
NAME_LEFT = 0.05
#: A picture's name is at most this share of its height tall.
NAME_HEIGHT = 0.9


def gap(a: Box, b: Box) -> float:
    """The distance between two boxes (0 when they touch or overlap)."""
    dx = max(0, max(a.x1, b.x1) - min(a.x2, b.x2))
    dy = max(0, max(a.y1, b.y1) - min(a.y2, b.y2))
    return float(np.hypot(dx, dy))


def same_row(a: Box, b: Box) -> bool:
    """Whether the boxes overlap vertically by at least half the shorter one."""
    overlap = min(a.y2, b.y2) - max(a.y1, b.y1)
    return overlap >= 0.5 * min(a.height, b.height)


def _inside(text: Box, widget: Box) -> bool:
    return text.intersection(widget) >= 0.6 * text.area


def _below_centred(text: Box, widget: Box, max_dist: float) -> bool:
    """A picture's name: just below it, centred on it or starting where it starts (a
    tile's caption). A text below a picture but neither is the next row's, not its name
    (a drawer's first item under the drawer's header picture), and so is a text about as
    tall as the picture (a calendar's date under the event dots of the date above)."""
    cx_t, cx_w = text.center[0], widget.center[0]
    aligned = (
        abs(cx_t - cx_w) <= NAME_CENTRED * widget.width + 4
        or abs(text.x1 - widget.x1) <= NAME_LEFT * widget.width + 4
    )
    return (
        0 <= text.y1 - widget.y2 <= max_dist
        and abs(cx_t - cx_w) <= 0.25 * widget.width + 4
        and aligned
        and text.width <= 2.5 * widget.width
        and text.height <= NAME_HEIGHT * widget.height
    )


def _label_above(text: Box, widget: Box, max_dist: float) -> bool:
    """A left-aligned title just above a wide widget (a seek bar's "Media volume")."""
    return (
        0 <= widget.y1 - text.y2 <= 2 * max_dist
        and text.x1 < widget.x2
        and text.x2 > widget.x1
        and text.x1 <= widget.x1 + 0.3 * widget.width
    )


def _relation(text: Box, widget: Element, max_dist: float, item: Box | None = None) -> str | None:
    """How a text relates to a widget: ``text``, ``caption``, ``name`` or None.
    ``item``: the text's two-line item (:func:`_item_of`), which names a switch or check
    box (or a radio button) centred on the item rather than on its first line."""
    if widget.kind in CONTAINERS and _inside(text, widget.box):
        return "text"
    if (
        widget.kind in LABELLED
        and (
            same_row(text, widget.box)
            or (widget.kind in ITEM_KINDS and item is not None and same_row(item, widget.box))
        )
        and gap(text, widget.box) <= ROW_LABEL_FACTOR * max_dist
    ):
        return "caption"
    if widget.kind in BARS and _label_above(text, widget.box, max_dist):
        return "caption"
    if widget.kind in PICTURES and _below_centred(text, widget.box, max_dist):
        return "name"
    return None


#: A summary line's box may be this many times its title's height.
SUMMARY_TALL = 1.2


def _item_of(text: Box, texts: Sequence[Element]) -> Box | None:
    """``text`` with the line just under it when the two stack as one list item's title
    and summary (the next line starts where it starts, within half its height, begins
    less than half its height below it, and is at most ``SUMMARY_TALL`` times as tall:
    a summary's ink box with a capital and a descender, "Displays", can outgrow a title
    without one); None when no line does."""
    for other in texts:
        o = other.box
        if (
            o is not text
            and 0 <= o.y1 - text.y2 <= 0.5 * text.height
            and abs(o.x1 - text.x1) <= 0.5 * text.height
            and o.height <= SUMMARY_TALL * text.height
        ):
            return Box.around([text, o])
    return None


def _wrapped(texts: Sequence[Element], items: dict[int, Box | None]) -> dict[int, Box]:
    """The second lines of ``items`` (by ``id``), each with its item: a radio button's
    label wrapped onto a second line ("Allow only while using the / app"), the ring
    centred on both, is named by both."""
    out: dict[int, Box] = {}
    for t in texts:
        item = items.get(id(t))
        if item is None:
            continue
        for o in texts:
            if o is not t and items.get(id(o)) is None and item.intersection(o.box) >= o.box.area:
                out[id(o)] = item
    return out


#: A picture's name lies on the surface the picture lies on. Where the row just above
#: a text under a picture is plain (off its median by at most ``PLAIN_ROW`` levels,
#: summed over the channels, on average) and its median differs by ``SURFACE_STEP`` (the
#: same sum) or more both from the pixels beside the picture's lower end (``BESIDE`` px
#: either side of it, themselves plain) and from the median of the screen's rows there,
#: the text lies on another surface: a toolbar's button over the page's first line
#: (ActivityDiary's close button over "Activity title"). A photo's caption lies on the
#: card or page round the photo, and a bottom bar's label on the bar, where the selected
#: tab's icon sits on a pill of its own colour.
SURFACE_STEP = 60
PLAIN_ROW = 12.0
BESIDE = 8


def _plain_median(part: npt.NDArray[np.int32]) -> npt.NDArray[np.float64] | None:
    """The median colour of ``part`` (N x 3), or None where it is not plain."""
    median = np.median(part, axis=0)
    return median if float(np.abs(part - median).sum(axis=1).mean()) <= PLAIN_ROW else None


def on_one_surface(pixels: RGB, picture: Box, text: Box) -> bool:
    """Whether ``text``, below ``picture``, lies on the surface that ``picture`` lies on
    (see ``SURFACE_STEP``)."""
    h, w = pixels.shape[:2]
    top, low = max(0, picture.y2 - BESIDE), min(h, picture.y2)
    sides = [
        pixels[top:low, max(0, x1) : min(w, x2)].reshape(-1, 3)
        for x1, x2 in ((picture.x1 - BESIDE, picture.x1), (picture.x2, picture.x2 + BESIDE))
    ]
    beside = np.concatenate(sides).astype(np.int32)
    y1, y2 = max(0, text.y1 - 3), min(h, text.y1)
    above = pixels[y1:y2, max(0, text.x1) : min(w, text.x2)].reshape(-1, 3).astype(np.int32)
    if len(beside) < BESIDE or len(above) < BESIDE:
        return True
    near, under = _plain_median(beside), _plain_median(above)
    if near is None or under is None:
        return True  # a photo, a wallpaper: no plain surface to compare
    if float(np.abs(near - under).sum()) < SURFACE_STEP:
        return True
    rows = np.median(pixels[top:low, ::4].reshape(-1, 3), axis=0)  # the screen's, there
    return float(np.abs(rows - under).sum()) < SURFACE_STEP


def _best_widget(
    text: Box,
    widgets: Sequence[Element],
    max_dist: float,
    item: Box | None = None,
    wrapped: Box | None = None,
    nameless: bool = False,
    pixels: RGB | None = None,
) -> tuple[int, str] | None:
    """The widget ``text`` belongs to and how (``item``: the two-line item it is the
    first line of; ``wrapped``: the one it is the second line of, which only a radio
    button takes whole: a switch's summary line stays a text; ``nameless``: it is a
    weekday's name, ``vision.markcharts.weekday``, or a number, :func:`bare_number`,
    which names no picture: a calendar's or a chart's column or row of days under a
    toolbar, EtarCalendar's "SAT" and "SUN" under its today and overflow buttons; with
    ``pixels``, a text names only a picture on its surface, :func:`on_one_surface`)."""
    best: tuple[float, int, str] | None = None
    for i, w in enumerate(widgets):
        own = wrapped if w.kind is ElementKind.RADIO_GROUP and item is None else item
        rel = _relation(text, w, max_dist, own)
        if rel is None:
            continue
        if rel == "name" and (
            nameless or (pixels is not None and not on_one_surface(pixels, w.box, text))
        ):
            continue
        d = gap(text, w.box)
        if w.kind is ElementKind.RADIO_GROUP and any(
            o.kind in TOGGLE_KINDS and _relation(text, o, max_dist) == "caption" for o in widgets
        ):
            continue  # a row's switch names the row, not a (doubtful) radio group on it
        if best is None or d < best[0]:
            best = (d, i, rel)
    return None if best is None else (best[1], best[2])


#: Digits alone, with separators, a sign or a percent ("2", "1,024", "+10%", "7:30").
_NUMBER = re.compile(r"[+\-\u2212]?\d[\d.,:/]*%?")


def bare_number(text: str) -> bool:
    """Whether ``text`` is a number alone, which names no picture either: a day of a
    calendar strip just under a toolbar (Loop Habit Tracker's "2" under its back
    arrow), a count or a chart's value."""
    return bool(_NUMBER.fullmatch(text.strip()))


#: Pictures holding a number, at least this many on a row, are a calendar's cells.
CELL_ROW = 3


def numbered_cells(elements: Sequence[Element]) -> set[int]:
    """Indices of the pictures of ``elements`` that hold a number (a text of
    :func:`bare_number` wholly inside, or as their own text) on a row of ``CELL_ROW`` or
    more numbers (free ones or such pictures'): a calendar's day cells (Loop Habit
    Tracker's history), which the icon model, seeing a digit, would name as glyphs
    ("trophy", "group"). A lone picture holding a number (a calendar button showing the
    date) is not one."""
    numbers = [e.box for e in elements if e.kind is ElementKind.TEXT and bare_number(e.text)]
    held = [
        i
        for i, e in enumerate(elements)
        if e.kind in PICTURES
        and (
            bare_number(e.text)  # a cell that took its number as its text
            or any(e.box.intersection(n) >= 0.9 * n.area for n in numbers)
        )
    ]
    row_numbers = numbers + [elements[i].box for i in held if bare_number(elements[i].text)]
    return {i for i in held if sum(same_row(elements[i].box, n) for n in row_numbers) >= CELL_ROW}


def _reading_key(e: Element) -> tuple[int, int]:
    return (e.box.y1 // 8, e.box.x1)


def match_texts(
    widgets: Sequence[Element],
    texts: Sequence[Element],
    *,
    max_dist: float,
    pixels: RGB | None = None,
) -> tuple[list[Element], list[Element]]:
    """Texts matched to widgets: (widgets with their text/caption, unmatched texts);
    with the screen's ``pixels``, a picture's name must lie on its surface."""
    taken: dict[int, list[tuple[str, Element]]] = {}
    free: list[Element] = []
    toggles = any(w.kind in TOGGLE_KINDS for w in widgets)
    itemised = any(w.kind in ITEM_KINDS for w in widgets)  # the only users of an item
    items = {id(t): _item_of(t.box, texts) for t in texts} if itemised else {}
    wrapped = _wrapped(texts, items)
    for t in sorted(texts, key=_reading_key):
        nameless = weekday(t.text or "") is not None or bare_number(t.text or "")
        hit = _best_widget(
            t.box, widgets, max_dist, items.get(id(t)), wrapped.get(id(t)), nameless, pixels
        )
        if hit is None:
            free.append(t)
        else:
            taken.setdefault(hit[0], []).append((hit[1], t))
    if toggles:
        free = _far_row_labels(widgets, texts, items, free, taken, max_dist)
    for i, got in list(taken.items()):
        taken[i] = _free_label_rows(widgets[i], got, free)
    out = [
        _absorb(_own_part(w, taken.get(i, []), texts), taken.get(i, []))
        for i, w in enumerate(widgets)
    ]
    return out, free


def _far_row_labels(
    widgets: Sequence[Element],
    texts: Sequence[Element],
    items: dict[int, Box | None],
    free: list[Element],
    taken: dict[int, list[tuple[str, Element]]],
    max_dist: float,
) -> list[Element]:
    """A switch or check box still without a label takes the free text on its row
    farther than ``ROW_LABEL_FACTOR`` times ``max_dist`` away when nothing else (a text or
    a widget) stands between them: the row of a wide screen (a tablet, a foldable, a
    phone on its side), where the label sits at one edge and the switch at the other.
    A text counts as on the row when it is, or when it and the line under it (a
    two-line item's title and summary: ``items``, by ``id`` of the text, as
    :func:`_item_of` gives them) are; the first in reading order wins (the title). What
    is left of ``free`` is returned."""
    boxes = [t.box for t in texts] + [w.box for w in widgets]
    for i, w in enumerate(widgets):
        if w.kind not in TOGGLE_KINDS or i in taken:
            continue
        row = [t for t in free if same_row(t.box, w.box) or same_row(items[id(t)] or t.box, w.box)]
        clear = [t for t in row if _clear_between(t.box, w.box, boxes)]
        if not clear:
            continue
        label = min(clear, key=_reading_key)  # a two-line item's title, not its summary
        if gap(label.box, w.box) <= ROW_LABEL_FACTOR * max_dist:
            continue  # near texts were offered to the widget already
        taken[i] = [("caption", label)]
        free = [t for t in free if t is not label]
    return free


def _clear_between(a: Box, b: Box, boxes: Sequence[Box]) -> bool:
    """Whether no box of ``boxes`` (other than ``a`` and ``b``) has its centre on their
    row between them (a summary line under a title, starting where it starts, is not
    between)."""
    left, right = (a, b) if a.x2 <= b.x1 else (b, a)
    if left.x2 > right.x1:
        return False
    y1, y2 = min(a.y1, b.y1), max(a.y2, b.y2)
    return not any(
        o is not a and o is not b and left.x2 < o.center[0] < right.x1 and y1 < o.center[1] < y2
        for o in boxes
    )


def _own_part(widget: Element, got: list[tuple[str, Element]], texts: Sequence[Element]) -> Element:
    """A button whose box also holds another text on its label's row (a dialog's
    "Cancel" inside the box given to "Delete": a detector's box over a row of
    buttons) keeps the part around its own label, ``LABEL_PAD`` of the label's height
    beyond it (within the box), so that a tap on it lands on its label."""
    inner = [t for rel, t in got if rel == "text"]
    if widget.kind is not ElementKind.BUTTON or not inner:
        return widget
    w = widget.box
    mine = {id(t) for t in inner}
    if not any(
        id(t) not in mine
        and w.contains(*t.box.center)
        and any(same_row(t.box, m.box) for m in inner)
        for t in texts
    ):
        return widget
    label = Box.around([t.box for t in inner])
    pad = round(LABEL_PAD * label.height)
    part = Box.of(
        max(w.x1, label.x1 - pad),
        max(w.y1, label.y1 - pad),
        min(w.x2, label.x2 + pad),
        min(w.y2, label.y2 + pad),
    )
    return dataclasses.replace(widget, box=part)


def _free_label_rows(
    widget: Element, texts: list[tuple[str, Element]], free: list[Element]
) -> list[tuple[str, Element]]:
    """``texts`` (relation, text) that ``widget`` keeps: labels side by side inside it,
    or beside a widget other than a switch or check box on one side of it, are a row of
    separate labels (a toolbar's title and actions, a tab row over a line read as a
    seek bar) and go back to ``free``; a seek bar's name and value either side stay."""
    inner = [t for rel, t in texts if rel == "text"]
    if len(inner) >= 2 and _apart(inner):
        free += inner
        texts = [(rel, t) for rel, t in texts if rel != "text"]
    caps = [t for rel, t in texts if rel == "caption"]
    w = widget.box
    flank = any(t.box.x2 <= w.x1 for t in caps) and any(t.box.x1 >= w.x2 for t in caps)
    if len(caps) >= 2 and widget.kind not in TOGGLE_KINDS and not flank and _apart(caps):
        free += caps
        texts = [(rel, t) for rel, t in texts if rel != "caption"]
    return texts


def _apart(texts: Sequence[Element]) -> bool:
    """Whether two of ``texts`` stand side by side on a row, further apart than
    ``APART`` times their height (separate labels: a toolbar's title and actions)."""
    return any(
        same_row(a.box, b.box)
        and max(a.box.x1, b.box.x1) - min(a.box.x2, b.box.x2)
        > APART * min(a.box.height, b.box.height)
        for a, b in itertools.combinations(texts, 2)
    )


_GLYPH = re.compile(r"^[\u2e80-\u9fff\uf900-\ufaff]\s+(?=[A-Za-z]{2})")
_CLOSE = re.compile(r"^[×✕xX]\s+(?=[A-Z][a-z])")


def strip_glyph(text: str) -> str:
    """An icon read as one character before a Latin label is not part of the label:
    a CJK character ("曰 Start chat") or a close cross ("X Edit contact"). Chinese
    text (more than the one character) stays as it is."""
    rest = _CLOSE.sub("", _GLYPH.sub("", text))
    return rest if rest != text and rest.isascii() else text


def _icon_reads(lines: Sequence[Element]) -> list[Element]:
    """A widget's label lines without those that are one character, not a digit, beside
    a longer one: an icon drawn in a button next to its label ("Q" for a location pin
    before "Use my location"), found by the text detector as a line of its own."""
    longer = any(len(t.text.strip()) > 1 for t in lines)
    return [t for t in lines if not (longer and len(t.text.strip()) == 1 and not t.text.isdigit())]


def _absorb(widget: Element, texts: list[tuple[str, Element]]) -> Element:
    lines = _icon_reads([t for rel, t in texts if rel in ("text", "name")])
    inner = strip_glyph(" ".join(t.text for t in lines))
    caption = " ".join(t.text for rel, t in texts if rel == "caption")
    if not (inner or caption):
        return widget
    target = widget.target
    joined = [t.target or t.box for rel, t in texts if rel == "caption"]  # the row it names
    joined += [t.box for rel, t in texts if rel == "name"]  # a tile: the picture and its name
    if joined:
        target = Box.around([widget.target or widget.box, *joined])
    return dataclasses.replace(
        widget, text=widget.text or inner, caption=widget.caption or caption, target=target
    )


# --------------------------------------------------------------------------- captions


def block_caption(
    block: Box, elements: Sequence[Element], *, indent: float = 0.12
) -> Element | None:
    """The pure text (a lone TEXT on its row) at the top of ``block``, left- or centre-justified."""
    inside = [e for e in elements if block.intersection(e.box) >= 0.8 * e.box.area]
    if not inside:
        return None
    first = min(inside, key=_reading_key)
    if first.kind is not ElementKind.TEXT or not first.text:
        return None
    if any(e is not first and same_row(e.box, first.box) for e in inside):
        return None
    near_top = first.box.y1 - block.y1 <= max(0.25 * block.height, 2 * first.box.height)
    left = first.box.x1 - block.x1 <= indent * block.width
    centred = abs(first.box.center[0] - block.center[0]) <= 0.05 * block.width
    return first if near_top and (left or centred) else None


# --------------------------------------------------------------------------- tabs


def find_tab_rows(elements: Sequence[Element], width: int, height: int) -> list[list[Element]]:
    """Rows of 2-6 short, evenly spread items in the top third or bottom sixth of the screen.

    Rows of labels come first: a labelled tab's icon (a detected image above its label)
    must not make a second bar of the same tabs; icon-only rows count where no row of
    labels lies on the same band."""
    texts = _rows([e for e in elements if e.kind is ElementKind.TEXT], width, height)
    others = _rows(
        [
            e
            for e in elements
            if e.kind in (ElementKind.ICON, ElementKind.IMAGE, ElementKind.BUTTON)
        ],
        width,
        height,
    )
    bands = [(min(e.box.y1 for e in r), max(e.box.y2 for e in r)) for r in texts]
    near = 0.08 * height
    rows = texts + [
        r
        for r in others
        if not any(y1 - near <= r[0].box.center[1] <= y2 + near for y1, y2 in bands)
    ]
    # a row with a switch or check box on it is a setting's, not tabs (TrackerControl's
    # "Essential" heading and the "Block" beside its switch)
    toggles = [e.box for e in elements if e.kind in TOGGLE_KINDS]
    return [
        r
        for r in rows
        if not any(same_row(r[0].box, t) for t in toggles) and not _tile_grid(r, elements, width)
    ]


def _named_tile(text: Element, pictures: Sequence[Element]) -> bool:
    """Whether ``text`` is a picture's name: a picture right above it, centred on it."""
    t = text.box
    return any(
        p.box.y2 <= t.y1 + 0.25 * t.height
        and t.y1 - p.box.y2 <= 1.5 * t.height
        and abs(p.box.center[0] - t.center[0]) <= 0.5 * p.box.width
        for p in pictures
    )


def _tile_grid(row: Sequence[Element], elements: Sequence[Element], width: int) -> bool:
    """Whether ``row`` (texts) names pictures of a grid: two or more of its texts are
    pictures' names, and another picture's name lies in one of the row's columns on
    another row (a launcher's apps, the virtual phone's home screen); a bottom
    navigation bar's labels have nothing in their columns below them."""
    pictures = [e for e in elements if e.kind in (ElementKind.IMAGE, ElementKind.ICON)]
    named = [t for t in row if t.kind is ElementKind.TEXT and _named_tile(t, pictures)]
    if len(named) < 2:
        return False
    return any(
        o.kind is ElementKind.TEXT
        and o not in row
        and not same_row(o.box, row[0].box)
        and any(abs(o.box.center[0] - t.box.center[0]) <= TILE_COLUMN * width for t in named)
        and _named_tile(o, pictures)
        for o in elements
    )


def _rows(elements: Sequence[Element], width: int, height: int) -> list[list[Element]]:
    rows: list[list[Element]] = []
    for e in sorted(elements, key=lambda e: e.box.center[0]):
        if len(e.text.split()) > 2:
            continue
        for row in rows:
            if same_row(row[0].box, e.box) and abs(row[0].box.height - e.box.height) <= 0.5 * max(
                row[0].box.height, e.box.height
            ):
                row.append(e)
                break
        else:
            rows.append([e])
    return [r for r in rows if _is_tab_row(r, width, height)]


#: A picture's name in a row's column: centred within this share of the width.
TILE_COLUMN = 0.05
#: Tabs at the bottom are centred below this share of the height (a phone in portrait),
#: or within this many dp of the bottom edge on a screen held sideways.
BOTTOM_TABS, BOTTOM_TABS_DP = 0.83, 155.0


def _is_tab_row(row: list[Element], width: int, height: int) -> bool:
    if not 2 <= len(row) <= 6:
        return False
    y = row[0].box.center[1]
    dp = dp_size(width, height)
    # tabs sit at the top or the bottom; on a screen held sideways the bottom's band is
    # as deep as on a tall phone in portrait (155 dp), not a share of the short height
    low = BOTTOM_TABS * height if height >= width else height - BOTTOM_TABS_DP * dp
    if 0.3 * height < y < low or y < 26 * dp:  # or in the status bar
        return False
    xs = np.array([e.box.center[0] for e in row], dtype=np.float64)
    if len(row) == 2:  # two tabs: each label centred on its half (a toolbar's title
        # and its action, "6 selected" and "Download", are not)
        off = (abs(xs[0] - width / 4), abs(xs[1] - 3 * width / 4))
        return bool(
            sum(off) <= 0.15 * width
            and max(off) <= TWO_TABS_OFF * width
            and all(e.kind is ElementKind.TEXT for e in row)
        )
    steps = np.diff(xs)
    span_ok = xs[-1] - xs[0] >= (0.45 if len(row) == 2 else 0.55) * width
    even = len(steps) < 2 or float(steps.std() / steps.mean()) < 0.25
    margins = abs(xs[0] - (width - xs[-1])) <= 0.12 * width
    return bool(span_ok and even and margins and steps.min() > 0)


def tab_cells(row: Sequence[Element], width: int) -> list[Box]:
    """Each tab's cell: from the midpoint to its left neighbour to the one on its right."""
    xs = [e.box.center[0] for e in row]
    y1 = min(e.box.y1 for e in row)
    y2 = max(e.box.y2 for e in row)
    pad = max(4, (y2 - y1) // 3)
    below = max(4, y2 - y1)  # the active tab's indicator line sits under its label
    mids = [0] + [(a + b) // 2 for a, b in itertools.pairwise(xs)] + [width]
    return [
        Box(mids[i], max(0, y1 - pad), max(mids[i] + 1, mids[i + 1]), y2 + below)
        for i in range(len(row))
    ]


def _ink(crop: RGB, background: npt.NDArray[np.float64]) -> RGB:
    """The pixels of ``crop`` (N x 3) that differ from the bar's background by more than
    40 in some channel (labels, icons, indicator); none at all may be."""
    flat = crop.reshape(-1, 3)
    return np.asarray(flat[np.abs(flat.astype(np.float64) - background).max(axis=1) > 40])


def _foreground(crop: RGB, background: npt.NDArray[np.float64]) -> RGB:
    """:func:`_ink` as an image (N x 1 x 3), or ``crop`` itself where it has none."""
    ink = _ink(crop, background)
    return np.ascontiguousarray(ink.reshape(-1, 1, 3)) if len(ink) else crop


#: Where every tab has a label, the active tab's label differs from the others' by at
#: least this much (the largest gap, over R, G and B, between the mean colour of its ink
#: and of theirs): a selected tab's label is coloured or brighter. NewPipe's "Background |
#: Play All | Popup" buttons, labels of one grey, had "Popup" chosen for its icon.
LABEL_APART = 20.0


def _label_stands_out(
    image: RGB, labels: Sequence[Sequence[Box]], idx: int, background: npt.NDArray[np.float64]
) -> bool:
    """Whether tab ``idx`` may stand as active by its label (``labels``: each cell's text
    boxes): where each cell holds a text, the mean colour of the chosen one's ink is
    ``LABEL_APART`` from the others'; a cell with no text, or a label with no ink: nothing
    to compare, it may."""
    if not labels or not all(labels):
        return True
    colours = []
    for boxes in labels:
        ink = np.concatenate([_ink(image[t.y1 : t.y2, t.x1 : t.x2], background) for t in boxes])
        if not len(ink):
            return True
        colours.append(ink.astype(np.float64).mean(axis=0))
    others = [c for k, c in enumerate(colours) if k != idx]
    return float(np.abs(colours[idx] - np.mean(others, axis=0)).max()) >= LABEL_APART


def hue_histogram(pixels: RGB, bins: int = 18) -> npt.NDArray[np.float64]:
    """Normalised HSV hue histogram; low-saturation pixels counted in 3 brightness bins."""
    import cv2

    hsv = cv2.cvtColor(np.ascontiguousarray(pixels), cv2.COLOR_RGB2HSV).reshape(-1, 3)
    colourful = (hsv[:, 1] >= 60) & (hsv[:, 2] >= 50)
    hue = np.bincount((hsv[colourful, 0].astype(np.int64) * bins) // 180, minlength=bins)
    grey = np.bincount(np.minimum(hsv[~colourful, 2].astype(np.int64) // 86, 2), minlength=3)
    hist = np.concatenate([hue, grey]).astype(np.float64)
    normalised: npt.NDArray[np.float64] = hist / max(float(hist.sum()), 1.0)
    return normalised


def active_tab(
    image: RGB, cells: Sequence[Box], labels: Sequence[Sequence[Box]] = ()
) -> int | None:
    """Index of the tab whose colour distribution differs most from the others (None if
    unclear); ``labels``, each cell's text boxes, when given, must agree
    (:func:`_label_stands_out`)."""
    if len(cells) < 2:
        return None
    crops = [image[c.y1 : c.y2, c.x1 : c.x2] for c in cells]
    background = np.median(np.concatenate([c.reshape(-1, 3) for c in crops]), axis=0)
    hists = [hue_histogram(_foreground(c, background)) for c in crops]
    idx = _salient(hists) if len(cells) == 2 else _standout(hists)
    if idx is None or not _label_stands_out(image, labels, idx, background):
        return None
    return idx


def _standout(hists: Sequence[npt.NDArray[np.float64]]) -> int | None:
    """Of three or more tabs, the one whose colours stand out from the others', if one does."""
    scores = []
    for i, h in enumerate(hists):
        others = [np.abs(h - o).sum() for j, o in enumerate(hists) if j != i]
        scores.append(float(np.mean(others)))
    log.debug("tab colour scores %s", scores)
    order = np.argsort(scores)[::-1]
    best, second = scores[order[0]], scores[order[1]]
    if best < 0.25 or best < 1.4 * second:  # nothing stands out: no active tab to report
        return None
    return int(order[0])


def _salient(hists: Sequence[npt.NDArray[np.float64]]) -> int | None:
    """Of two tabs (equally far from each other), the more colourful, else the darker."""
    if float(np.abs(hists[0] - hists[1]).sum()) < 0.05:
        return None
    colour = [float(h[:-3].sum()) for h in hists]
    if abs(colour[0] - colour[1]) >= 0.02:
        return int(np.argmax(colour))
    dark = [float(h[-3]) for h in hists]
    return int(np.argmax(dark))


def _without_actions(members: Sequence[Element]) -> list[Element]:
    """A toolbar's elements without the buttons right of its first text (its actions,
    "Save", "Done"), which stand on the title's row but do not name the page."""
    texts = [e for e in members if e.kind is ElementKind.TEXT and e.text]
    if not texts:
        return list(members)
    title = min(texts, key=lambda e: e.box.x1)
    return [e for e in members if e.kind is not ElementKind.BUTTON or e.box.x1 < title.box.x2]


def caption_blocks(
    blocks: Sequence[Block], elements: Sequence[Element], skip: Collection[int] = ()
) -> list[Block]:
    """``blocks`` with their captions filled in where one is found (not for the blocks
    whose ids are in ``skip``)."""
    out = []
    for b in blocks:
        if b.caption or b.kind in NO_CAPTION or b.id in skip:
            out.append(b)
            continue
        indent = 0.3 if b.kind is BlockKind.TOOLBAR else 0.12  # a toolbar's title follows its icon
        members = [e for e in elements if e.block_id == b.id]
        if b.kind is BlockKind.TOOLBAR:  # its icons (back, menu, search) flank the title,
            # found as icons, pictures or buttons with no text (a real back arrow's box)
            members = [e for e in members if e.text or e.kind not in TOOLBAR_ICONS]
            members = _without_actions(members)
        cap = block_caption(b.box, members, indent=indent)
        out.append(dataclasses.replace(b, caption=cap.text) if cap is not None else b)
    return out
