"""Lists and positions (rule 7 of the offline planner): "the most recent message",
"the second product", the control on the row of the item the command names, a row's
text for its icon."""

from __future__ import annotations

import re
from collections.abc import Sequence

from screenpilot.language.apps import is_app
from screenpilot.language.taskparse import TaskIntent, norm
from screenpilot.language.words import APP_NAMES, stems, task_stems
from screenpilot.model import BlockKind, Element, ElementKind, Screen, Step
from screenpilot.planner.forms import in_system_bar, viewport
from screenpilot.planner.offline.acts import act_words
from screenpilot.planner.offline.steps import label_at

_RECENT = re.compile(r"\b(most recent|latest|newest|last (?:message|text|email|one))\b", re.I)
_TIME_LIKE = re.compile(
    r"^(\d{1,2}:\d{2}\s*(am|pm)?|yesterday|today|mon|tue|wed|thu|fri|sat|"
    r"sun|[a-z]{3} \d{1,2})$",
    re.I,
)


def recent_row(
    intent: TaskIntent, screen: Screen, history: Sequence[Step], els: Sequence[Element]
) -> Element | None:
    """ "The most recent message": on an app's first page, the first row of its list
    (the name on it, not its time)."""
    if not _RECENT.search(intent.text) or not history or not is_app(label_at(history[-1])):
        return None
    rows = [
        e
        for e in els
        if e.kind is ElementKind.TEXT
        and e.box.y1 > viewport(screen) * 0.08
        and len(e.text) >= 3
        and not _TIME_LIKE.match(e.text.strip())
        and not is_app(e.text)
    ]
    return min(rows, key=lambda e: (e.box.y1, e.box.x1)) if rows else None


_PRICE_LIKE = re.compile(r"^[\s$€£¥(]*[\d.,]+[\s)%]*$|^[$€£¥]")


def nth_item(
    intent: TaskIntent, screen: Screen, history: Sequence[Step], els: Sequence[Element]
) -> Element | None:
    """ "The second product", "the last contact": on an app's first page, the item at that
    position of the list: the items are the pictured rows (an image or icon with its
    name beside or under it), in reading order; the name is what is tapped."""
    if intent.ordinal is None or not history or not is_app(label_at(history[-1])):
        return None
    top = viewport(screen) * 0.1
    bars = {
        BlockKind.TAB_BAR,
        BlockKind.TOOLBAR,
        BlockKind.STATUS_BAR,
        BlockKind.NAVIGATION_BAR,
        BlockKind.KEYBOARD,
    }
    pictures = [
        e
        for e in screen.elements
        if e.kind in (ElementKind.IMAGE, ElementKind.ICON)
        and e.box.y1 > top
        and not in_system_bar(e, screen)
        and (e.block_id is None or screen.block(e.block_id).kind not in bars)
    ]
    named = []
    for pic in pictures:
        beside = [
            e
            for e in els
            if e.kind is ElementKind.TEXT
            and len(e.text) >= 3
            and not _PRICE_LIKE.match(e.text)
            and not _TIME_LIKE.match(e.text.strip())
            and (
                (
                    abs(e.box.center[1] - pic.box.center[1]) < pic.box.height * 0.6
                    and e.box.x1 >= pic.box.x2 - 4
                )
                or (
                    e.box.y1 >= pic.box.y2 - 4
                    and e.box.y1 - pic.box.y2 < pic.box.height
                    and e.box.x1 < pic.box.x2
                    and e.box.x2 > pic.box.x1
                )
            )
        ]
        if beside:
            named.append((pic, min(beside, key=lambda e: (e.box.y1, e.box.x1))))
    if not named:
        return None
    named.sort(key=lambda pe: (pe[0].box.y1 // max(1, pe[0].box.height // 2), pe[0].box.x1))
    k = intent.ordinal
    if k == -1:
        return named[-1][1]
    return named[k - 1][1] if 0 < k <= len(named) else None


def beside_named(intent: TaskIntent, els: Sequence[Element], i: int) -> int:
    """Of several controls with the chosen label ("Remove" on every cart row), the first
    one after what the task names ("the coffee mug")."""
    same = [j for j, e in enumerate(els) if norm(e.label) == norm(els[i].label)]
    if len(same) < 2:
        return i
    task = task_stems(intent) - APP_NAMES - act_words(intent)
    named = [
        e
        for e in els
        if (w := stems(e.label) - APP_NAMES) and w <= task and norm(e.label) != norm(els[i].label)
    ]
    if not named:
        return i
    most = max(len(stems(e.label)) for e in named)  # the most specific: 'Coffee Mug'
    named = [e for e in named if len(stems(e.label)) == most]
    # an item's controls follow its name in reading order (title, price, then buttons)
    anchor = named[0].box.center[1]
    after = [j for j in same if els[j].box.center[1] >= anchor]
    return min(after or same, key=lambda j: abs(els[j].box.center[1] - anchor))


def _stacked(title: Element, summary: Element) -> bool:
    """Whether ``summary`` is a text line stacked under ``title`` as one two-line item's:
    it starts where ``title`` starts and less than half ``title``'s height below it."""
    h = title.box.height
    return (
        summary is not title
        and summary.kind is ElementKind.TEXT
        and bool(summary.text)
        and 0 <= summary.box.y1 - title.box.y2 <= 0.5 * h
        and abs(summary.box.x1 - title.box.x1) <= 0.5 * h
    )


def _item_band(e: Element, els: Sequence[Element]) -> tuple[int, int]:
    """The rows ``e`` spans with the summary line stacked under it, if one is: an icon
    centred on a two-line item sits between its lines."""
    below = [o.box.y2 for o in els if _stacked(e, o)]
    return e.box.y1, max([e.box.y2, *below[:1]])


def _title_above(els: Sequence[Element], i: int) -> int:
    """The title of the two-line item whose summary line is ``els[i]``, else ``i``."""
    titles = [
        j
        for j, t in enumerate(els)
        if t.kind is ElementKind.TEXT and t.text and _stacked(t, els[i])
    ]
    return max(titles, key=lambda j: els[j].box.y2) if titles else i


def row_text(els: Sequence[Element], i: int) -> int:
    """An unlabelled icon at the start of a list row stands for the row: tap the row's
    text instead (the same row, what a person reads and taps): a line beside it that
    overlaps it by half, or the title of a two-line item it is centred on. A two-line
    item's summary stands for its title too ("Bluetooth, pairing" under "Connected
    devices": the same row)."""
    icon = els[i]
    if icon.kind is ElementKind.TEXT:
        return _title_above(els, i)
    if icon.text or icon.kind not in (ElementKind.ICON, ElementKind.IMAGE):
        return i

    def overlap(e: Element) -> int:
        top, bottom = _item_band(e, els)
        return min(bottom, icon.box.y2) - max(top, icon.box.y1)

    row = [
        j
        for j, e in enumerate(els)
        if e.kind is ElementKind.TEXT
        and e.text
        and e.box.x1 >= icon.box.x2 - 4
        and e.box.x1 - icon.box.x2 <= icon.box.width * 3
        and overlap(e) >= 0.5 * min(e.box.height, icon.box.height)
    ]
    return min(row, key=lambda j: (els[j].box.x1 // 24, els[j].box.y1)) if row else i
