"""A toolbar drawn in the page's own colour, found from the row of elements it holds.

``vision.blocks`` finds a toolbar where the pixels bound it: a change of colour or a
full-width line 44-80 dp under the status bar. A Material 3 toolbar has neither: it is
the page's colour, and the page starts under it. Such a toolbar is still a row of its
own right under the status bar: a back or menu icon, the page's title, action icons,
all centred on one line 20-40 dp below the status bar, nothing else beside them. The
toolbar then reaches as far below that line as the line is below the status bar (40-80
dp in all), provided nothing on the screen straddles that edge.

Only on a screen with a status bar and no toolbar or tab bar found under it; a row
that holds a switch, a check box, a field or two lines of text is the page's first
row, not a toolbar.
"""

from __future__ import annotations

from collections.abc import Sequence

from screenpilot.model import BlockKind, Box, Element, ElementKind
from screenpilot.vision.blocks import Region, dp_size

#: Kinds a toolbar's row holds.
ROW_KINDS = (ElementKind.TEXT, ElementKind.ICON, ElementKind.IMAGE, ElementKind.BUTTON)
#: The row's centre lies this far under the status bar (dp): toolbars 48-80 dp tall.
CENTRE_DP = (20.0, 40.0)
#: Elements of the row are centred within this of the row's centre (dp).
ALIGN_DP = 8.0
#: A toolbar is at most this tall (dp), its elements at most this tall.
MAX_DP, ELEMENT_DP = 80.0, 56.0
#: The row's title starts in this share of the screen's width (after a back icon).
TITLE_LEFT = 0.4


def row_toolbar(
    elements: Sequence[Element], regions: Sequence[Region], width: int, height: int
) -> Region | None:
    """The toolbar that the row right under the status bar makes, if it makes one."""
    dp = dp_size(width, height)
    status = [r.box for r in regions if r.kind is BlockKind.STATUS_BAR and r.box.y1 <= 4 * dp]
    if not status:
        return None
    top = max(b.y2 for b in status)
    limit = top + MAX_DP * dp
    taken = (BlockKind.TOOLBAR, BlockKind.TAB_BAR, BlockKind.KEYBOARD, BlockKind.DIALOG)
    if any(r.kind in taken and r.box.y1 < limit and r.box.y2 > top for r in regions):
        return None
    band = [e for e in elements if e.box.y1 >= top - 2 and e.box.center[1] < limit]
    if not band or any(
        e.kind not in ROW_KINDS or e.box.y2 > limit or e.box.height > ELEMENT_DP * dp for e in band
    ):
        return None
    centres = sorted(e.box.center[1] for e in band)
    centre = centres[len(centres) // 2]
    if any(abs(c - centre) > ALIGN_DP * dp for c in centres):
        return None  # two lines: a list's first item, not a toolbar
    if not CENTRE_DP[0] * dp <= centre - top <= CENTRE_DP[1] * dp:
        return None
    texts = [e for e in band if e.kind is ElementKind.TEXT]
    if len(texts) > 2 or (texts and min(e.box.x1 for e in texts) > TITLE_LEFT * width):
        return None  # a row of words, or words only at the right: not a title
    if not texts and min(e.box.x1 for e in band) > 0.15 * width:
        return None  # no title and no leading icon
    bottom = round(2 * centre - top)
    if any(e.box.y1 < bottom - 2 * dp and e.box.y2 > bottom + 2 * dp for e in elements):
        return None  # something straddles the toolbar's edge
    return Region(Box(0, top, width, min(height, bottom)), BlockKind.TOOLBAR, "row")
