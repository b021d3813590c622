"""A chart's value axis, and the detections on a chart that are no widgets.

The detector takes a line chart's bands for widgets: LoopHabits' score chart (grid
lines 20 % apart, each labelled at its left end) came out as a spinner '100%', a button
'60%' and two empty fields with the hints '40%' and '20%', and the dates under it as
twelve buttons. :func:`chart_areas` finds a chart by its value axis: a column of three
or more numbers (with one unit, such as %, or none) evenly spaced down the screen whose
values fall by one step from each to the next (a calendar's column of dates or a number
picker's wheel rises downwards). The chart runs from half a step above its top label to
``BELOW`` steps under its bottom one, where the dates of its other axis lie, and from a
step before the axis to the screen's edge on its far side (a home screen's widget
beside it is not the chart's). :func:`on_chart` says whether a detected button,
spinner, field or picture is one of the chart's bands: its centre in a chart, holding
at least one text and only short ones (``SHORT`` characters at most). Such a detection
is left out and its labels stay texts.

    >>> charts = chart_areas(texts, width)        # doctest: +SKIP
    >>> kept = [e for e in widgets if not on_chart(e, charts, texts)]  # doctest: +SKIP
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from statistics import median
from typing import TypeVar

from screenpilot.model import Box, Element, ElementKind

#: A label's value, as an axis reads it.
V = TypeVar("V")

#: An axis label: a number (a sign, a decimal part), with an optional currency before
#: it and a unit of at most three letters, "%" or "°" after it.
TICK = re.compile(r"^[$€£¥]?([-+−]?\d{1,7}(?:[.,]\d{1,3})?)\s?(%|°|[A-Za-z]{1,3})?$")
#: At least this many labels make an axis...
MIN_TICKS = 3
#: ... their left (or right) ends within this share of the screen's width of each other...
ALIGN = 0.02
#: ... the gaps between their centres within this share of the median gap, which is at
#: least ``MIN_GAP`` line heights (lines of a paragraph are no axis)...
EVEN = 0.15
MIN_GAP = 1.5
#: ... and the steps between their values equal within this share of the step.
STEP = 0.01
#: The chart reaches this many steps under its bottom label (the other axis' labels).
BELOW = 1.5
#: A band of the chart holds no text longer than this ("Feb", "100%", "21").
SHORT = 5
#: The detections that a chart's band is taken for.
BANDS = frozenset(
    {
        ElementKind.BUTTON,
        ElementKind.SPINNER,
        ElementKind.EDIT_TEXT,
        ElementKind.IMAGE,
        ElementKind.ICON,
    }
)


def _tick(text: str) -> tuple[float, str] | None:
    """An axis label's value and unit, or ``None``."""
    m = TICK.match(text.strip())
    if m is None:
        return None
    return float(m.group(1).replace(",", ".").replace("−", "-")), (m.group(2) or "")


def _axis(column: list[tuple[Element, float]]) -> list[Element]:
    """The longest run of ``column`` (labels top to bottom, with their values) that is a
    value axis: evenly spaced, each value one step under the last."""
    best: list[Element] = []
    start = 0
    while start < len(column) - 1:
        end = start + 1
        gap = column[end][0].box.center[1] - column[start][0].box.center[1]
        step = column[end][1] - column[start][1]
        while end + 1 < len(column):
            (a, va), (b, vb) = column[end], column[end + 1]
            if abs(b.box.center[1] - a.box.center[1] - gap) > EVEN * gap:
                break
            if abs(vb - va - step) > STEP * abs(step):
                break
            end += 1
        run = [e for e, _ in column[start : end + 1]]
        height = median(e.box.height for e in run)
        if len(run) > len(best) and step < 0 and gap >= MIN_GAP * height:
            best = run
        start = end
    return best if len(best) >= MIN_TICKS else []


def aligned_axes(
    labels: Sequence[tuple[Element, V]],
    width: int,
    axis_of: Callable[[list[tuple[Element, V]]], list[Element]],
    same: Callable[[V, V], bool] | None = None,
) -> list[list[Element]]:
    """The axes among ``labels`` (texts, each with its value): for each label on no axis
    yet, the labels whose left ends (then, among those left, right ends) lie within
    ``ALIGN`` of the screen's ``width`` of its own, with a value ``same`` as its, top to
    bottom, handed to ``axis_of``, which gives the axis among them (its labels; none:
    ``[]``). A label is on one axis at most."""
    tol = ALIGN * width
    axes: list[list[Element]] = []
    used: set[int] = set()
    edges: tuple[Callable[[Box], int], ...] = (lambda b: b.x1, lambda b: b.x2)
    for edge in edges:
        for t, value in labels:
            if id(t) in used:
                continue
            column = sorted(
                (
                    (o, v)
                    for o, v in labels
                    if id(o) not in used
                    and abs(edge(o.box) - edge(t.box)) <= tol
                    and (same is None or same(value, v))
                ),
                key=lambda p: p[0].box.center[1],
            )
            axis = axis_of(column)
            if axis:
                used.update(id(e) for e in axis)
                axes.append(axis)
    return axes


def chart_areas(texts: Sequence[Element], width: int) -> list[Box]:
    """The charts a value axis among ``texts`` (OCR lines) marks, on a screen ``width``
    across; see the module docstring."""
    ticks = [(t, parsed) for t in texts if t.text and (parsed := _tick(t.text)) is not None]
    areas: list[Box] = []
    for axis in aligned_axes(
        ticks,
        width,
        lambda column: _axis([(o, value) for o, (value, _) in column]),
        lambda a, b: a[1] == b[1],  # one unit
    ):
        gap = (axis[-1].box.center[1] - axis[0].box.center[1]) / (len(axis) - 1)
        top = max(0, round(axis[0].box.y1 - gap / 2))
        bottom = round(axis[-1].box.y2 + BELOW * gap)
        left, right = min(e.box.x1 for e in axis), max(e.box.x2 for e in axis)
        if left + right < width:  # an axis at the left: the chart lies right of it
            areas.append(Box(max(0, round(left - gap)), top, width, bottom))
        else:
            areas.append(Box(0, top, min(width, round(right + gap)), bottom))
    return areas


def on_chart(widget: Element, charts: Sequence[Box], texts: Sequence[Element]) -> bool:
    """Whether ``widget`` is a band of one of ``charts``: a button, spinner, field or
    picture centred in it that holds at least one text and only short ones."""
    if widget.kind not in BANDS:
        return False
    if not any(c.contains(*widget.box.center) for c in charts):
        return False
    inside = [t.text.strip() for t in texts if widget.box.contains(*t.box.center)]
    return bool(inside) and all(len(s) <= SHORT for s in inside)
