"""A chart of marks by weekday and the detections on it that are no widgets
(vision/markcharts.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.markcharts import is_mark_read, mark_charts, on_marks, weekday

REAL = Path(__file__).resolve().parents[2] / "shared" / "data" / "real-screens"
W = 1080
DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]


def _text(text: str, x: int, y: int, width: int = 55) -> Element:
    return Element(0, ElementKind.TEXT, Box(x, y, x + width, y + 28), text=text)


def _axis(names: list[str], x: int = 956, top: int = 1240, step: int = 65) -> list[Element]:
    """LoopHabits' frequency chart: the weekdays down its right end, 65 px apart."""
    first = weekday(names[0]) or 0
    return [_text(n, x, top + ((weekday(n) or 0) - first) % 7 * step) for n in names]


def _dots(top: int = 1240, step: int = 65, rows: int = 7, left: int = 60) -> list[Element]:
    """A dot a month, a row a weekday, found as buttons and icons."""
    kinds = (ElementKind.BUTTON, ElementKind.ICON, ElementKind.IMAGE)
    dots = []
    for r in range(rows):
        for c in range(13):
            x, y = left + c * 65, top - 10 + r * step
            dots.append(Element(0, kinds[(r + c) % 3], Box(x, y, x + 50, y + 50)))
    return dots


def test_weekday_names_and_mark_reads() -> None:
    assert [weekday(n) for n in ("Sun", "mon.", "TUESDAY", "We", "thurs", "Fri", "sa")] == [
        0,
        1,
        2,
        3,
        4,
        5,
        6,
    ]
    assert weekday("Sunny") is None and weekday("Month") is None and weekday("") is None
    assert is_mark_read("●") and is_mark_read("O") and is_mark_read("• •")
    assert not is_mark_read("") and not is_mark_read("OK") and not is_mark_read("000")


def test_a_column_of_weekdays_over_dots_is_a_chart_whose_dots_give_way() -> None:
    axis = _axis(DAYS)
    dots = _dots()
    reads = [_text("●", 202, 1311, 20), _text("O", 75, 1314, 15)]
    charts = mark_charts([*axis, *reads, _text("Frequency", 42, 1140, 200)], dots, W)
    assert len(charts) == 1
    chart = charts[0]
    assert chart.area.x1 == 0 and chart.area.x2 < W and chart.area.x2 > axis[0].box.x2
    assert chart.area.y1 < axis[0].box.y1 and chart.area.y2 > axis[-1].box.y2
    assert all(on_marks(d, charts) for d in dots)
    assert all(on_marks(r, charts) for r in reads)
    assert not any(on_marks(a, charts) for a in axis)  # the names stay texts
    card = Element(0, ElementKind.IMAGE, Box(20, 1200, 1060, 1700))
    switch = Element(0, ElementKind.SWITCH, Box(100, 1300, 160, 1340))
    under = Element(0, ElementKind.BUTTON, Box(60, 1800, 110, 1850))
    assert not on_marks(card, charts)  # larger than a mark
    assert not on_marks(switch, charts)  # a control keeps its place
    assert not on_marks(under, charts)  # off the chart


def test_a_left_axis_and_one_naming_every_other_day() -> None:
    """GitHub's contribution map names Mon, Wed and Fri at its left."""
    axis = _axis(["Mon", "Wed", "Fri"], x=20, top=1305)
    dots = _dots(top=1240, left=120)
    charts = mark_charts(axis, dots, W)
    assert len(charts) == 1 and charts[0].area.x2 == W and charts[0].area.x1 < 20
    assert charts[0].step == pytest.approx(65)


def test_a_calendar_with_numbered_days_is_no_chart_of_marks() -> None:
    """LoopHabits' calendar has the same axis, but its days are numbered (and tapped)."""
    axis = _axis(DAYS)
    days = [_text(str(1 + k), 80 + (k % 12) * 65, 1250 + (k // 12) * 65, 30) for k in range(40)]
    assert mark_charts([*axis, *days], _dots(), W) == []


@pytest.mark.parametrize(
    "names, step",
    [
        (["Mon", "Tue"], 65),  # two names are no axis
        (["Mon", "Tue", "Wed"], 65),  # three days running are too few
        (DAYS, 30),  # closer than the names are tall: no rows
    ],
)
def test_too_short_or_too_close_is_no_axis(names: list[str], step: int) -> None:
    assert mark_charts(_axis(names, step=step), _dots(step=step), W) == []


def test_out_of_order_or_uneven_names_are_no_axis() -> None:
    shuffled = [_text(n, 956, 1240 + k * 65) for k, n in enumerate(["Mon", "Wed", "Tue", "Thu"])]
    assert mark_charts(shuffled, _dots(), W) == []
    names, tops = ["Mon", "Tue", "Wed", "Thu"], [1240, 1305, 1400, 1430]
    uneven = [_text(n, 956, y) for n, y in zip(names, tops, strict=True)]
    assert mark_charts(uneven, _dots(), W) == []


def test_a_list_of_weekdays_with_a_check_box_each_is_no_chart() -> None:
    """An alarm's repeat dialog: a weekday a row, a check box beside it, no marks."""
    axis = _axis(DAYS, x=200, step=120)
    boxes = [
        Element(0, ElementKind.CHECK_BOX, Box(60, 1230 + k * 120, 120, 1290 + k * 120))
        for k in range(7)
    ]
    assert mark_charts(axis, boxes, W) == []


@pytest.mark.skipif(not (REAL / "LoopHabits" / "4.png").exists(), reason="../shared/data absent")
def test_loophabits_frequency_chart_holds_no_widgets() -> None:
    from screenpilot.vision.pipeline import analyse

    screen = analyse(REAL / "LoopHabits" / "4.png").screen
    top = next(e.box.y1 for e in screen.elements if e.text == "Sun")
    bottom = max(e.box.y2 for e in screen.elements if e.text == "Sat")  # not the toolbar's
    inside = [e for e in screen.elements if top - 30 <= e.box.center[1] <= bottom + 10]
    assert sorted(e.text for e in inside) == sorted(DAYS)  # the names, no dot
    assert all(e.kind is ElementKind.TEXT for e in inside)
