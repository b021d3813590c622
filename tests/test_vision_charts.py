"""A chart's value axis and the detections on it that are no widgets (vision/charts.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.charts import chart_areas, on_chart

REAL = Path(__file__).resolve().parents[2] / "shared" / "data" / "real-screens"
W = 1080


def _text(text: str, x: int, y: int, width: int = 60) -> Element:
    return Element(0, ElementKind.TEXT, Box(x, y, x + width, y + 28), text=text)


def _column(values: list[str], x: int = 60, top: int = 860, gap: int = 92) -> list[Element]:
    return [_text(v, x, top + i * gap) for i, v in enumerate(values)]


def test_a_falling_evenly_spaced_column_is_a_value_axis() -> None:
    """LoopHabits' score chart: 100 % to 20 % down its grid lines, 92 px apart."""
    axis = _column(["100%", "80%", "60%", "40%", "20%"])
    areas = chart_areas([*axis, _text("Score", 40, 700, 120)], W)
    assert len(areas) == 1
    area = areas[0]
    assert area.x1 == 0 and area.x2 == W  # a step before the axis, to the far edge
    assert area.y1 < axis[0].box.y1 and area.y2 > axis[-1].box.y2 + 92  # the dates under it


@pytest.mark.parametrize(
    "values",
    [
        ["1", "8", "15", "22", "29"],  # a calendar's column of dates rises downwards
        ["29", "30", "31"],  # a number picker's wheel
        ["100%", "80%"],  # two labels are no axis
        ["100", "80", "50", "40"],  # uneven steps
        ["Level 3", "Level 2", "Level 1"],  # words before the numbers
    ],
)
def test_columns_that_are_no_axis(values: list[str]) -> None:
    assert chart_areas(_column(values), W) == []


def test_lines_of_a_paragraph_are_no_axis() -> None:
    assert chart_areas(_column(["3", "2", "1"], gap=30), W) == []


def test_uneven_spacing_is_no_axis() -> None:
    axis = [_text("30", 60, 500), _text("20", 60, 600), _text("10", 60, 900)]
    assert chart_areas(axis, W) == []


def test_a_right_aligned_axis_with_a_unit() -> None:
    axis = [
        _text(v, 1000 - len(v) * 15, 400 + i * 60, len(v) * 15)
        for i, v in enumerate(["1.5k", "1.0k", "0.5k", "0k"])
    ]
    areas = chart_areas(axis, W)
    assert len(areas) == 1 and areas[0].x1 == 0 and 1000 < areas[0].x2 < W  # left of it


def test_bands_on_a_chart_give_way_but_not_what_holds_words() -> None:
    axis = _column(["100%", "80%", "60%", "40%", "20%"])
    area = chart_areas(axis, W)
    band = Element(0, ElementKind.SPINNER, Box(40, 850, 1060, 900))
    dates = [_text("Feb", 200, 1320), Element(0, ElementKind.BUTTON, Box(190, 1300, 270, 1360))]
    menu = [
        _text("Settings", 600, 1050, 200),
        Element(0, ElementKind.BUTTON, Box(580, 1030, 820, 1090)),
    ]
    switch = Element(0, ElementKind.SWITCH, Box(900, 1030, 1000, 1090))
    empty = Element(0, ElementKind.IMAGE, Box(500, 1000, 560, 1060))
    below = Element(0, ElementKind.BUTTON, Box(190, 1700, 270, 1760))
    texts = [*axis, dates[0], menu[0], _text("7", 210, 1715)]
    assert on_chart(band, area, texts)
    assert on_chart(dates[1], area, texts)
    assert not on_chart(menu[1], area, texts)  # a word longer than a label
    assert not on_chart(switch, area, texts)  # a control keeps its place
    assert not on_chart(empty, area, texts)  # a picture with no text in it
    assert not on_chart(below, area, texts)  # off the chart


@pytest.mark.skipif(not (REAL / "LoopHabits" / "2.png").exists(), reason="../shared/data absent")
def test_loophabits_score_chart_has_no_fields_or_spinner() -> None:
    from screenpilot.vision.pipeline import analyse

    screen = analyse(REAL / "LoopHabits" / "2.png").screen
    by_text = {e.text: e.kind for e in screen.elements if e.text}
    for label in ("100%", "80%", "60%", "40%", "20%", "Feb", "Mar", "Apr"):
        assert by_text[label] is ElementKind.TEXT, label
    assert by_text["History"] is ElementKind.BUTTON  # the chart below has no value axis
