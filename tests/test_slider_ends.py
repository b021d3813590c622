"""0 % and 100 % on a slider: a drag from inside it to past its end, whatever padding
its box holds (a tap past the box's end would land outside the widget)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from screenpilot.model import ActionKind, Box, Element, ElementKind, Screen, Step
from screenpilot.planner.offline import HeuristicPlanner, acted_on


def _encode(texts: Sequence[str]) -> np.ndarray:
    """Bag-of-letters vectors: enough for a screen where one slider is named."""
    out = np.zeros((len(texts), 26), np.float32)
    for i, t in enumerate(texts):
        for c in t.lower():
            if "a" <= c <= "z":
                out[i, ord(c) - 97] += 1
    out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-6)
    return out


SCREEN = Screen(
    1080,
    2400,
    elements=(
        Element(1, ElementKind.TEXT, Box(40, 300, 400, 360), text="Brightness level"),
        Element(2, ElementKind.SEEK_BAR, Box(20, 380, 1060, 440), caption="Brightness level"),
    ),
)


def test_the_ends_are_dragged_to_and_then_done() -> None:
    planner = HeuristicPlanner(_encode)
    d = planner.next("Make the screen as bright as possible", SCREEN, [])
    a = d.action
    assert a.kind is ActionKind.SWIPE and a.start is not None and a.end is not None
    assert SCREEN.elements[1].box.contains(*a.start) and a.end[0] > 1060
    step = Step(0, SCREEN, a)
    assert acted_on(step) == SCREEN.elements[1]  # a drag acts where it starts
    done = planner.next("Make the screen as bright as possible", SCREEN, [step])
    assert done.action.kind is ActionKind.STOP and done.action.done
    low = planner.next("turn the brightness all the way down", SCREEN, []).action
    assert low.kind is ActionKind.SWIPE and low.end is not None and low.end[0] < 20


def test_a_level_between_is_still_a_tap_on_the_track() -> None:
    d = HeuristicPlanner(_encode).next("set brightness to 50%", SCREEN, [])
    assert d.action.kind is ActionKind.TAP and d.action.point == (540, 410)
