"""OCR's read of a glyph gives way to the icon model's label (vision/glyphrules.py
``glyph_read``, vision/pipeline.py ``_label_icons``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision import pipeline
from screenpilot.vision.glyphrules import glyph_read

REAL = Path(__file__).resolve().parents[2] / "shared" / "data" / "real-screens"


@pytest.mark.parametrize(
    "text", ["☆", "+", "X", "x", "• •", "⋮", "...", "三", "←", "★", "à", "é", "ñ"]
)
def test_signs_crosses_and_dots_are_glyph_reads(text: str) -> None:
    assert glyph_read(text)


@pytest.mark.parametrize(
    "text", ["", "<>", "L", "A", "16", "OK", "CANCEL", "三三", "ß", "中", "Ø", "àà"]
)
def test_words_letters_and_numbers_are_not(text: str) -> None:
    assert not glyph_read(text)


@dataclass
class _Answer:
    label: str


class _Labeller:
    """The icon model's interface, answering from a list; records how many crops it saw."""

    def __init__(self, answers: list[str]) -> None:
        self.answers = answers
        self.seen = 0

    def label(self, crops: list[Any]) -> list[_Answer]:
        self.seen += len(crops)
        return [_Answer(self.answers[k]) for k in range(len(crops))]


def _button(i: int, box: Box, text: str) -> Element:
    return Element(id=i, kind=ElementKind.BUTTON, box=box, text=text, clickable=True)


def test_the_models_label_replaces_a_glyph_read() -> None:
    px = np.full((2400, 1080, 3), 250, np.uint8)
    px[2100:2180, 900:980] = 30  # a floating button's disc (its drawing does not matter here)
    els = [
        _button(1, Box(880, 2080, 1000, 2200), "X"),  # a "+" read as a cross
        _button(2, Box(40, 80, 160, 200), "☆"),  # the model is unsure: the read stays
        _button(3, Box(200, 80, 320, 200), "<>"),  # a read that is text: not looked at
        _button(4, Box(0, 600, 1080, 1400), "+"),  # a photo, not a glyph's button
        _button(5, Box(600, 350, 680, 430), "à"),  # ActivityDiary's floating camera button
    ]
    labeller = _Labeller(["add", "unknown", "camera"])
    out = pipeline._label_icons(px, els, labeller, {})  # type: ignore[arg-type]
    assert labeller.seen == 3
    assert [(e.text, e.icon_label) for e in out] == [
        ("", "add"),
        ("☆", ""),
        ("<>", ""),
        ("+", ""),
        ("", "camera"),
    ]


@pytest.mark.skipif(
    not (REAL / "NetGuard" / "36-settings-ports.png").exists(), reason="../shared/data absent"
)
def test_real_toolbar_plus_is_add() -> None:
    screen = pipeline.analyse(REAL / "NetGuard" / "36-settings-ports.png").screen
    plus = [e for e in screen.elements if e.kind is ElementKind.BUTTON and e.box.x1 > 900]
    assert [(e.text, e.icon_label) for e in plus] == [("", "add")]  # read "+" before
    assert "button '+'" not in screen.describe()


def test_a_picture_larger_than_an_icon_is_not_given_to_the_model() -> None:
    """The model learnt icons up to 80 dp: a thumbnail or a photo keeps no icon label."""
    px = np.full((2400, 1080, 3), 250, np.uint8)
    els = [
        Element(id=1, kind=ElementKind.IMAGE, box=Box(40, 300, 500, 560)),  # 260 px tall
        Element(id=2, kind=ElementKind.ICON, box=Box(900, 300, 1000, 400)),  # 100 px
        Element(id=3, kind=ElementKind.IMAGE, box=Box(40, 700, 256, 916)),  # 216 = 0.2 x 1080
    ]
    labeller = _Labeller(["group", "share"])
    out = pipeline._label_icons(px, els, labeller, {})  # type: ignore[arg-type]
    assert labeller.seen == 2
    assert [e.icon_label for e in out] == ["", "group", "share"]


def test_a_check_mark_read_as_a_letter_gives_way_only_to_check() -> None:
    """OCR reads a check mark as "L" (LoopHabits' day cells): the model's `check`
    replaces the read; any other answer leaves the letter as read."""
    px = np.full((2400, 1080, 3), 250, np.uint8)
    els = [
        _button(1, Box(560, 460, 690, 590), "L"),
        _button(2, Box(760, 460, 890, 590), "L"),  # a size picker's "L": the model says add
        _button(3, Box(960, 460, 1070, 590), "V"),
    ]
    labeller = _Labeller(["check", "add", "unknown"])
    out = pipeline._label_icons(px, els, labeller, {})  # type: ignore[arg-type]
    assert labeller.seen == 3
    assert [(e.text, e.icon_label) for e in out] == [("", "check"), ("L", ""), ("V", "")]


def test_a_lone_c_gives_way_to_round_arrows_else_is_a_text_again() -> None:
    """A refresh glyph read "C" alone became an icon (``monograms.lone_marks``): the
    model's `refresh` replaces the read; any other answer makes it the letter it was."""
    px = np.full((2400, 1080, 3), 250, np.uint8)

    def lone(i: int, x: int) -> Element:
        return Element(i, ElementKind.ICON, Box(x, 406, x + 60, 464), text="C", clickable=True)

    els = [lone(1, 977), lone(2, 600), _button(3, Box(40, 400, 170, 470), "C")]
    labeller = _Labeller(["refresh", "copyright", "share"])
    out = pipeline._label_icons(px, els, labeller, {})  # type: ignore[arg-type]
    assert labeller.seen == 3
    assert [(e.kind, e.text, e.icon_label, e.clickable) for e in out] == [
        (ElementKind.ICON, "", "refresh", True),
        (ElementKind.TEXT, "C", "", False),
        (ElementKind.BUTTON, "C", "", True),  # a detected button keeps its kind
    ]


@pytest.mark.skipif(not (REAL / "NewPipe" / "00.png").exists(), reason="../shared/data absent")
def test_newpipes_feed_refresh_and_mini_player_close() -> None:
    screen = pipeline.analyse(REAL / "NewPipe" / "00.png").screen
    labels = {e.icon_label for e in screen.elements if e.kind is ElementKind.ICON}
    assert {"refresh", "close", "play"} <= labels
    assert not [e for e in screen.elements if e.text in ("C", "X")]
