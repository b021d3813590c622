"""A chart of marks by weekday, and the detections on it that are no widgets.

LoopHabits' "Frequency" card draws, for each weekday (a row, named at its right end:
"Sun" ... "Sat") and each month (a column, named under the chart), a dot whose size is
how often the habit was done. The detector took 60 of its dots for buttons, pictures
and icons, the blob finder the rest, and OCR read a few as "●" or "O": about 80
elements with no name, which a planner can only read as clutter, and a button over
"Tue" took "Tue Wed" for its label.

:func:`mark_charts` finds such a chart by its weekday axis: three or more weekday names
(:data:`WEEKDAYS`, as short as "Mo") whose left or right ends line up
(``vision.charts.aligned_axes``, as a value axis' labels do), in the week's
order downwards, their centres one step apart for each day between them (``EVEN``;
GitHub's contribution map names only Mon, Wed and Fri), spanning at least ``MIN_DAYS``
days. The chart runs half a step above the first day's row and below the last one's,
and from the axis (half a step past it) to the screen's far edge. It is a chart of
marks only where nothing else is written in it: a text centred in it that is neither a
weekday name nor a mark's read (:data:`MARK_READS`) makes it a calendar, whose days are
numbered and which a person taps (LoopHabits' "Calendar" card, with the same axis) --
and where the detector found at least ``PER_ROW`` boxes a row in it.

:func:`on_marks` says whether a detected button, picture, icon, field or spinner is one
of a chart's marks (centred in it and no larger than ``MARK_STEPS`` steps); such a
detection is left out, as are the texts that read a mark, and the axis' names stay
texts.

    >>> charts = mark_charts(texts, widgets, width)                     # doctest: +SKIP
    >>> widgets = [e for e in widgets if not on_marks(e, charts)]      # doctest: +SKIP
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import median

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.charts import BANDS, aligned_axes

#: Each weekday's names, Sunday first, as a chart's axis writes them (lower case, a
#: full stop after an abbreviation dropped).
WEEKDAYS: tuple[frozenset[str], ...] = (
    frozenset({"su", "sun", "sunday"}),
    frozenset({"mo", "mon", "monday"}),
    frozenset({"tu", "tue", "tues", "tuesday"}),
    frozenset({"we", "wed", "wednesday"}),
    frozenset({"th", "thu", "thur", "thurs", "thursday"}),
    frozenset({"fr", "fri", "friday"}),
    frozenset({"sa", "sat", "saturday"}),
)
#: What OCR makes of a round mark (a dot, a ring).
MARK_READS = frozenset({"●", "•", "·", "○", "◯", "O", "o", "0", "°", "."})
#: An axis has at least this many names ...
MIN_NAMES = 3
#: ... spanning at least this many days, first to last ...
MIN_DAYS = 4
#: ... each gap between centres, per day, within this share of the median ...
EVEN = 0.15
#: ... which is at least this many name heights (lines of a list are further apart
#: than their text is tall; a paragraph's lines are not an axis).
MIN_STEP = 1.2
#: The detector found at least this many boxes a row in the chart.
PER_ROW = 2
#: A mark is at most this many steps across (the chart's card, or a picture beside it,
#: is larger).
MARK_STEPS = 2.5
#: The detections that a chart's marks are taken for: those a value axis' chart's
#: bands are (``vision.charts.BANDS``).
MARKS = BANDS


@dataclass(frozen=True)
class MarkChart:
    """A chart of marks: its ``area`` on the screen, the ``step`` between its rows (px)
    and the boxes of its axis' names."""

    area: Box
    step: float
    names: tuple[Box, ...]


def weekday(text: str) -> int | None:
    """The day (0 Sunday ... 6 Saturday) that ``text`` names, or ``None``."""
    word = text.strip().rstrip(".").lower()
    return next((day for day, names in enumerate(WEEKDAYS) if word in names), None)


def is_mark_read(text: str) -> bool:
    """Whether ``text`` is what OCR makes of a mark or two ("●", "O", "● ●")."""
    signs = text.replace(" ", "")
    return bool(signs) and len(signs) <= 2 and all(c in MARK_READS for c in signs)


def mark_charts(
    texts: Sequence[Element], widgets: Sequence[Element], width: int
) -> list[MarkChart]:
    """The charts of marks that a weekday axis among ``texts`` (OCR lines) heads, with
    ``widgets`` (the detector's boxes) in them, on a screen ``width`` across; see the
    module docstring."""
    days = [(t, d) for t in texts if t.text and (d := weekday(t.text)) is not None]
    charts = [_chart(axis, width) for axis in aligned_axes(days, width, _axis)]
    return [chart for chart in charts if _only_marks(chart, texts, widgets)]


def on_marks(element: Element, charts: Sequence[MarkChart]) -> bool:
    """Whether ``element`` is a mark of one of ``charts``: a detected button, picture,
    icon, field or spinner centred in it, at most ``MARK_STEPS`` steps across; or a
    text there that reads a mark."""
    for chart in charts:
        if not chart.area.contains(*element.box.center):
            continue
        if element.kind is ElementKind.TEXT:
            return is_mark_read(element.text)
        side = max(element.box.width, element.box.height)
        return element.kind in MARKS and side <= MARK_STEPS * chart.step
    return False


def _axis(column: list[tuple[Element, int]]) -> list[Element]:
    """``column`` (weekday names top to bottom, with their days) as an axis, or ``[]``:
    at least ``MIN_NAMES`` names in the week's order over ``MIN_DAYS`` days or more, a
    step a day apart, the step ``MIN_STEP`` name heights at least."""
    if len(column) < MIN_NAMES:
        return []
    days = [d for _, d in column]
    per_day = _per_day([e for e, _ in column], days)
    if per_day is None or sum((b - a) % 7 for a, b in itertools.pairwise(days)) < MIN_DAYS - 1:
        return []
    step = median(per_day)
    height = median(e.box.height for e, _ in column)
    if step < MIN_STEP * height or any(abs(s - step) > EVEN * step for s in per_day):
        return []
    return [e for e, _ in column]


def _per_day(names: list[Element], days: list[int]) -> list[float] | None:
    """The gap between each two names' centres (top to bottom) a day of the ``days``
    between them; ``None`` where the days are not in the week's order within one week."""
    steps = [(b - a) % 7 for a, b in itertools.pairwise(days)]
    if 0 in steps or sum(steps) > 6:  # the same day twice, or more than a week
        return None
    gaps = [b.box.center[1] - a.box.center[1] for a, b in itertools.pairwise(names)]
    return [gap / k for gap, k in zip(gaps, steps, strict=True)]


def _chart(axis: list[Element], width: int) -> MarkChart:
    """The area that ``axis`` (weekday names a step a day apart) heads: its rows, from
    the axis to the far edge of the screen."""
    per_day = _per_day(axis, [weekday(e.text) or 0 for e in axis]) or [0.0]
    step = median(per_day)
    top = max(0, round(axis[0].box.center[1] - step / 2))
    bottom = round(axis[-1].box.center[1] + step / 2)
    left = min(e.box.x1 for e in axis)
    right = max(e.box.x2 for e in axis)
    if left + right < width:  # the axis at the left: the chart lies right of it
        area = Box(max(0, round(left - step / 2)), top, width, bottom)
    else:
        area = Box(0, top, min(width, round(right + step / 2)), bottom)
    return MarkChart(area, step, tuple(e.box for e in axis))


def _only_marks(chart: MarkChart, texts: Sequence[Element], widgets: Sequence[Element]) -> bool:
    """Whether ``chart`` holds nothing written but its axis and the reads of its marks,
    and at least ``PER_ROW`` detected boxes a row."""
    for t in texts:
        if not chart.area.contains(*t.box.center) or t.box in chart.names or not t.text.strip():
            continue
        if not (weekday(t.text) is not None or is_mark_read(t.text)):
            return False
    rows = chart.area.height / chart.step
    marks = [e for e in widgets if on_marks(e, [chart]) and e.kind is not ElementKind.TEXT]
    return len(marks) >= PER_ROW * rows
