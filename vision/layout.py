"""The blocks of a described screen: regions (divided and detected bars), tab rows and
the on-screen keyboard's panel as numbered blocks, each element's home block, the active
tab, captions, and the all-black screen of a secure window."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from screenpilot.model import Block, BlockKind, Box, Element, ElementKind, Screen
from screenpilot.model.screen import BLACK_LEVEL
from screenpilot.vision import blocks as blocks_mod
from screenpilot.vision import group
from screenpilot.vision.behind import with_behind
from screenpilot.vision.grids import with_grids
from screenpilot.vision.image import RGB
from screenpilot.vision.keyboard import keyboard_panel
from screenpilot.vision.lists import with_row_lists
from screenpilot.vision.navkeys import NAMES, is_key_row
from screenpilot.vision.toolbar import row_toolbar

#: A card that overlaps a found field this much is the field's outline.
FIELD_OUTLINE_IOU = 0.7
#: An element of a tab row over this many times the row's median area is no tab.
NOTCH = 3.0
#: A status bar found too short (a tall one over a camera's cutout: the detector's box,
#: or a guessed 24 dp, ends above its clock) grows over the items its bottom edge cuts,
#: at most ``STATUS_TALL`` times as tall as it, centred above ``STATUS_REACH`` times its
#: bottom.
STATUS_TALL = 1.5
STATUS_REACH = 1.3


#: A bar the detector found that touches the screen's top or bottom edge within this
#: share of its height...
BAR_EDGE = 0.02
#: ... and is at least this share of the screen's width is the whole bar.
BAR_PART = 0.3


def across(box: Box, w: int, h: int) -> Box:
    """A status or navigation bar the detector found only part of (NetGuard's navigation
    bar from its home key rightwards, a popup menu over its left part): a bar runs the
    screen's width, so a box at its top or bottom edge, wider than tall and at least
    ``BAR_PART`` of the width, is stretched to it; any other box as it is (a bar down a
    phone's side in landscape)."""
    at_edge = box.y1 <= BAR_EDGE * h or box.y2 >= (1 - BAR_EDGE) * h
    if at_edge and box.width > box.height and box.width >= BAR_PART * w:
        return Box(0, box.y1, w, box.y2)
    return box


def one_per_kind(bars: Sequence[blocks_mod.Region]) -> list[blocks_mod.Region]:
    """The detector's bars with those of one kind that overlap as one, their union (two
    status bars found one over the other on EtarCalendar's month view, two parts of one
    navigation bar stretched ``across``)."""
    out: list[blocks_mod.Region] = []
    for bar in bars:
        twin = next(
            (k for k, o in enumerate(out) if o.kind is bar.kind and o.box.intersection(bar.box)),
            None,
        )
        if twin is None:
            out.append(bar)
        else:
            out[twin] = dataclasses.replace(out[twin], box=Box.around([out[twin].box, bar.box]))
    return out


def merge_bars(
    regions: list[blocks_mod.Region], detected: list[blocks_mod.Region]
) -> list[blocks_mod.Region]:
    """The detector's bars, and the divided regions of kinds the detector did not find (a
    toolbar under a guessed 24-dp status bar starts where the detected one ends)."""
    kinds = {r.kind for r in detected}
    top = max((r.box.y2 for r in detected if r.kind is BlockKind.STATUS_BAR), default=None)
    kept = []
    for r in regions:
        if r.kind in kinds:
            continue
        if top is not None and r.kind is BlockKind.TOOLBAR and r.box.y1 < top < r.box.y2:
            r = dataclasses.replace(r, box=Box(r.box.x1, top, r.box.x2, r.box.y2))
        kept.append(r)
    return detected + kept


def _grown_status_bar(region: blocks_mod.Region, elements: Sequence[Element]) -> blocks_mod.Region:
    """``region``, a status bar grown down over the small items its bottom edge cuts
    (``STATUS_REACH``), unless its new edge would cut another (a camera's controls under
    a status bar the detector guessed); any other region as it is."""
    if region.kind is not BlockKind.STATUS_BAR:
        return region
    bar = region.box
    cut = [
        e.box.y2
        for e in elements
        if e.box.y1 < bar.y2 < e.box.y2
        and e.box.height <= STATUS_TALL * bar.height
        and e.box.center[1] <= STATUS_REACH * bar.y2
    ]
    if not cut:
        return region
    edge = max(cut)
    if any(e.box.y1 < edge < e.box.y2 for e in elements):
        return region
    return dataclasses.replace(region, box=Box(bar.x1, bar.y1, bar.x2, edge))


#: letters or digits in a line of text that no navigation bar holds (a key read as "<"
#: or "O" has one or two)
BAR_WORD = 3
#: A navigation bar's key is narrower than this share of the bar's width.
BAR_PICTURE = 0.25


def _worded_bar(region: blocks_mod.Region, elements: Sequence[Element]) -> bool:
    """Whether ``region`` is a navigation bar guessed from the bottom rows' colours (source
    ``bar``) that holds a line of text (the page's last row of text runs under it: Seal's
    format cards on a screen with no bar) or a picture wider than a key
    (``BAR_PICTURE``: Markor's logo at the foot of its page), and no navigation bar is
    there."""
    if region.kind is not BlockKind.NAVIGATION_BAR or region.source != "bar":
        return False
    inside = [e for e in elements if region.box.contains(*e.box.center)]
    return any(
        sum(c.isalnum() for c in e.text) >= BAR_WORD
        if e.kind is ElementKind.TEXT
        else e.box.width > BAR_PICTURE * region.box.width
        for e in inside
    )


#: A navigation bar holds its three keys (four with a keyboard switcher) or a gesture
#: pill: a "navigation bar" holding this many elements, none of them a key (the keys'
#: names: ``vision.navkeys.NAMES``), is an app's bottom toolbar.
TOOL_ITEMS = 4


def _bottom_toolbar(region: blocks_mod.Region, elements: Sequence[Element]) -> blocks_mod.Region:
    """``region``, a toolbar where it is a "navigation bar" that holds ``TOOL_ITEMS`` or
    more elements and none of the navigation keys (Markor's formatting bar, found by the
    detector on a screenshot with no navigation bar: its bold, link and more buttons
    were the system's, which no task taps); any other region as it is."""
    if region.kind is not BlockKind.NAVIGATION_BAR:
        return region
    inside = [e for e in elements if region.box.contains(*e.box.center)]
    if len(inside) < TOOL_ITEMS or any(e.icon_label in NAMES for e in inside):
        return region
    return dataclasses.replace(region, kind=BlockKind.TOOLBAR)


def _bar_keys(elements: list[Element], bars: Sequence[Box]) -> list[Element]:
    """A "check box" in the navigation bar is its recents key, a square outline: an icon
    (the check box finder leaves it out only where the detector found the bar). So is one
    in a "navigation bar" that turned out a toolbar (``_bottom_toolbar``): a glyph of
    Markor's formatting bar, its bin."""
    return [
        dataclasses.replace(e, kind=ElementKind.ICON, checked=None)
        if e.kind is ElementKind.CHECK_BOX and any(b.contains(*e.box.center) for b in bars)
        else e
        for e in elements
    ]


def build_screen(
    pixels: RGB,
    elements: list[Element],
    regions: list[blocks_mod.Region],
    *,
    collections: bool = True,
    drawer: int | None = None,
) -> Screen:
    """The ``Screen`` of ``elements`` with its blocks: ``regions``, tab bars, a toolbar
    from its row, the keyboard's panel and (with ``collections``, describe's "blocks"
    stage) lists and grids from their rows and cells, and what lies under an open
    dialog's or drawer's scrim (``drawer``: the drawer's right edge) or around a popup
    menu in a ``BEHIND`` block."""
    h, w = pixels.shape[:2]
    regions = [_grown_status_bar(r, elements) for r in regions if not _worded_bar(r, elements)]
    bars = [r.box for r in regions if r.kind is BlockKind.NAVIGATION_BAR]
    regions = [_bottom_toolbar(r, elements) for r in regions]
    regions = _key_bar(elements, _tab_regions(elements, regions, w, h), w, h)
    toolbar = row_toolbar(elements, regions, w, h)  # one in the page's own colour
    regions = [*regions, toolbar] if toolbar is not None else regions
    regions = _keyboard_region(pixels, elements, regions)
    if collections:
        regions = with_row_lists(elements, regions, w, h)  # lists without lines round rows
        regions = with_grids(elements, regions, w, h)  # cells in columns, row under row
    regions = _without_field_outlines(regions, elements)
    ordered = sorted(regions, key=lambda r: (r.box.y1, r.box.x1, -r.box.area))
    blocks = [
        Block(i, r.box, r.kind, scrollable=r.kind is BlockKind.LIST)
        for i, r in enumerate(ordered, start=1)
    ]
    # a list or grid found from its rows or cells has no heading of its own: its first
    # row is not one
    bare = {i for i, r in enumerate(ordered, start=1) if r.source in ("rows", "grid")}
    elements = [dataclasses.replace(e, block_id=_home(e.box, blocks)) for e in elements]
    bars += [b.box for b in blocks if b.kind is BlockKind.NAVIGATION_BAR]
    elements = _bar_keys(elements, bars)
    blocks, elements = _active_tabs(pixels, blocks, elements)
    blocks = group.caption_blocks(blocks, elements, skip=bare)
    if collections:  # describe's "blocks" stage: what lies behind a modal surface too
        blocks, elements = with_behind(pixels, blocks, elements, drawer)
    return Screen(
        width=w,
        height=h,
        elements=tuple(elements),
        blocks=tuple(blocks),
        secure=is_blacked_out(pixels),
    )


def _without_field_outlines(
    regions: list[blocks_mod.Region], elements: Sequence[Element]
) -> list[blocks_mod.Region]:
    """``regions`` without the cards that are a found field's outline (an outlined text
    field's four lines make a closed rectangle, which the divider takes for a card)."""
    fields = [e.box for e in elements if e.kind is ElementKind.EDIT_TEXT]
    return [
        r
        for r in regions
        if r.kind is not BlockKind.CARD or all(r.box.iou(f) < FIELD_OUTLINE_IOU for f in fields)
    ]


def _keyboard_region(
    pixels: RGB, elements: list[Element], regions: list[blocks_mod.Region]
) -> list[blocks_mod.Region]:
    """``regions`` with the keyboard's panel (down to the navigation bar), if a keyboard
    is up (neither the divided regions nor the detector's bars are ever one)."""
    navs = [r.box.y1 for r in regions if r.kind is BlockKind.NAVIGATION_BAR]
    panel = keyboard_panel(pixels, elements, min(navs) if navs else None)
    if panel is None:
        return regions
    return [*regions, blocks_mod.Region(panel, BlockKind.KEYBOARD, "keys")]


def is_blacked_out(pixels: RGB) -> bool:
    """True for the all-black capture of a FLAG_SECURE screen (payment, banking, PIN)."""
    return bool(pixels.max() <= BLACK_LEVEL)


def _home(box: Box, blocks: Sequence[Block]) -> int | None:
    """The smallest block holding most of ``box``."""
    holders = [b for b in blocks if b.box.intersection(box) >= 0.6 * box.area]
    return min(holders, key=lambda b: b.box.area).id if holders else None


def _key_bar(
    elements: list[Element], regions: list[blocks_mod.Region], w: int, h: int
) -> list[blocks_mod.Region]:
    """``regions`` with a NAVIGATION_BAR from the row of the navigation bar's named keys
    (:mod:`vision.navkeys`) down to the screen's bottom, where no region is that bar
    already: the keys belong to it, not to a tab bar or a list above them."""
    keys = [e for e in elements if e.icon_label in NAMES and e.kind is ElementKind.ICON]
    if not is_key_row(keys):
        return regions
    top = min(e.box.y1 for e in keys)
    if any(r.kind is BlockKind.NAVIGATION_BAR and r.box.y1 <= top < r.box.y2 for r in regions):
        return regions
    pad = max(e.box.height for e in keys) // 2
    return [
        *regions,
        blocks_mod.Region(Box(0, max(0, top - pad), w, h), BlockKind.NAVIGATION_BAR, "keys"),
    ]


def _tab_regions(
    elements: list[Element], regions: list[blocks_mod.Region], w: int, h: int
) -> list[blocks_mod.Region]:
    """Regions with a TAB_BAR for each tab row (upgrading a bar that holds it); a row of
    the navigation bar's keys (:mod:`vision.navkeys`) is none."""
    out = list(regions)
    for row in group.find_tab_rows(elements, w, h):
        cells = group.tab_cells(row, w)
        box = Box(0, min(c.y1 for c in cells), w, max(c.y2 for c in cells))
        if is_key_row(row):
            if not any(r.kind is BlockKind.NAVIGATION_BAR and r.box.intersection(box) for r in out):
                out.append(
                    blocks_mod.Region(Box(0, box.y1, w, h), BlockKind.NAVIGATION_BAR, "keys")
                )
            continue
        holder = [
            i
            for i, r in enumerate(out)
            if r.source != "lines"
            and r.kind in (BlockKind.TOOLBAR, BlockKind.GENERIC)
            and (
                (r.box.intersection(box) >= 0.8 * box.area and r.box.height < 3 * box.height)
                # a bar holding the row, within the tab cells' reach round it (Habitica's
                # bottom navigation: a coloured bar just the row's height)
                or (
                    r.box.intersection(box) >= 0.8 * r.box.area
                    and all(r.box.contains(*e.box.center) for e in row)
                )
            )
        ]
        if holder:
            out[holder[0]] = dataclasses.replace(out[holder[0]], kind=BlockKind.TAB_BAR)
        else:
            out.append(blocks_mod.Region(box, BlockKind.TAB_BAR, "tabs"))
    return out


def _active_tabs(
    pixels: RGB, blocks: list[Block], elements: list[Element]
) -> tuple[list[Block], list[Element]]:
    h, w = pixels.shape[:2]
    by_id = {e.id: e for e in elements}
    out_blocks = []
    for b in blocks:
        members = [e for e in elements if e.block_id == b.id]
        rows = group.find_tab_rows(members, w, h) if b.kind is BlockKind.TAB_BAR else []
        if not rows:
            out_blocks.append(b)
            continue
        row = max(rows, key=len)
        cells = group.tab_cells(row, w)
        # a picture far larger than the row's others is no tab (the floating button's
        # notch in Habitica's bottom navigation): its colours do not make it the active
        # one (an unnamed tab can be: the virtual phone's active tab's label stands apart)
        typical = float(np.median([e.box.area for e in row]))
        tabs = [i for i, e in enumerate(row) if e.box.area <= NOTCH * typical]
        tab_boxes = [cells[i] for i in tabs]
        labels = [
            [
                e.box
                for e in members
                if e.kind is ElementKind.TEXT and e.text and c.contains(*e.box.center)
            ]
            for c in tab_boxes
        ]
        idx = group.active_tab(pixels, tab_boxes, labels)
        if idx is None:
            out_blocks.append(b)
            continue
        chosen = row[tabs[idx]]
        by_id[chosen.id] = dataclasses.replace(chosen, selected=True)
        out_blocks.append(dataclasses.replace(b, active_element=chosen.id))
    return out_blocks, [by_id[e.id] for e in elements]
