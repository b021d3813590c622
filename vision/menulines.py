"""OCR lines cut at a popup menu's side: the page's "Downloa" and the menu's "Support"
on one row are two texts, not "DownloaSupport".

The text detector joins words of one row into a line even across a popup menu's edge
(``vision.menus``): the page's text cut off at the menu's left side runs into the
menu's item ("Android Launch activity as root"), and the line lands in neither. Before
the texts are matched, :func:`cut_at_menu` finds the menu (its rows between the bars
the detector found) and cuts every line whose box crosses one of its sides, with at
least ``MIN_PART`` line heights on each side, at that side: both parts, ``MARGIN`` of
the width clear of the edge's shadow, are read again by the recogniser alone
(``BoxReader.read_boxes``), and the parts read with ``DEFAULT_THRESHOLD`` or more
replace the line (when neither is, the line stays). Without a reader (another OCR
backend) lines stay as they are.
"""

from __future__ import annotations

from collections.abc import Sequence

from screenpilot.model import Block, BlockKind, Box
from screenpilot.vision.behind import content_span
from screenpilot.vision.glyphread import BoxReader
from screenpilot.vision.image import RGB
from screenpilot.vision.menus import find_menu
from screenpilot.vision.ocr import DEFAULT_THRESHOLD, TextLine

#: A line is cut only with this many of its heights on each side of the menu's edge.
MIN_PART = 0.6
#: Each part stops this share of the screen's width short of the edge (its shadow).
MARGIN = 0.005


def menu_between(pixels: RGB, bars: Sequence[Block] = ()) -> Box | None:
    """The popup menu between ``bars`` (the status and navigation bars found so far),
    if one is open (``vision.menus.find_menu``)."""
    h, w = pixels.shape[:2]
    top, bottom = content_span(bars, h, w)
    return find_menu(pixels, top, bottom)


def cut_at_menu(
    pixels: RGB, lines: Sequence[TextLine], reader: BoxReader | None, menu: Box | None
) -> list[TextLine]:
    """``lines`` with those crossing a side of ``menu`` (a popup menu's box) cut there
    and read again (module docstring)."""
    if reader is None or not lines or menu is None:
        return list(lines)
    w = pixels.shape[1]
    margin = max(1, round(MARGIN * w))
    todo: list[tuple[int, list[Box]]] = []
    for i, line in enumerate(lines):
        b = line.box
        least = MIN_PART * b.height
        if not menu.y1 <= b.center[1] < menu.y2:
            continue
        for x in (menu.x1, menu.x2):
            if b.x1 + least < x < b.x2 - least:
                todo.append(
                    (i, [Box(b.x1, b.y1, x - margin, b.y2), Box(x + margin, b.y1, b.x2, b.y2)])
                )
                break
    if not todo:
        return list(lines)
    reads = reader.read_boxes(pixels, [part for _, parts in todo for part in parts])
    cut: dict[int, list[TextLine]] = {}
    for k, (i, _) in enumerate(todo):
        parts = [r for r in reads[2 * k : 2 * k + 2] if r.text and r.score >= DEFAULT_THRESHOLD]
        cut[i] = parts or [lines[i]]  # neither part read: the line as it was
    return [part for i, line in enumerate(lines) for part in cut.get(i, [line])]


def bar_blocks(boxes: Sequence[tuple[Box, str]]) -> list[Block]:
    """The status and navigation bars of (box, kind value) pairs, as blocks for
    :func:`menu_between`."""
    kinds = {k.value: k for k in (BlockKind.STATUS_BAR, BlockKind.NAVIGATION_BAR)}
    return [Block(0, box, kinds[kind]) for box, kind in boxes if kind in kinds]
