"""Reading LLM answers into Actions: tolerant of JSON's usual damage, strict on meaning."""

from __future__ import annotations

import pytest

from screenpilot.errors import LLMResponseError
from screenpilot.model import Action, ActionKind, Box, Direction, Element, ElementKind, Screen
from screenpilot.planner.parse import extract_json, parse_action

SCREEN = Screen(
    1080,
    2400,
    elements=(
        Element(3, ElementKind.SWITCH, Box(900, 200, 1000, 260), caption="Wi-Fi", checked=False),
        Element(7, ElementKind.EDIT_TEXT, Box(0, 400, 1080, 500), editable=True),
    ),
)


@pytest.mark.parametrize(
    "answer",
    [
        '{"action": "tap", "element": 3, "reason": "on"}',
        '```json\n{"action": "tap", "element": 3, "reason": "on"}\n```',
        '```\n{"action": "tap", "element": 3, "reason": "on"}\n```',
        'Sure! The switch is off, so:\n{"action": "tap", "element": 3, "reason": "on"}\nDone.',
        '<think>maybe {"action": "back"}? no.</think>'
        '{"action": "tap", "element": 3, "reason": "on"}',
        '{"action": "tap", "element": 3, "reason": "on",}',
        "{'action': 'tap', 'element': 3, 'reason': 'on'}",
        '{"action": "TAP", "element": "[3]", "reason": "on"}',
        '{"action": "tap", "element": 3, "text": "", "direction": null, "app": "", '
        '"done": false, "reason": "on"}',
    ],
)
def test_tolerant_reading(answer: str) -> None:
    assert parse_action(answer, SCREEN) == Action(ActionKind.TAP, element=3, reason="on")


def test_repair_keeps_apostrophes_and_braces_inside_strings() -> None:
    data = extract_json('Here\'s it: {"reason": "it\'s {on}", "done": True, "x": [1, 2,],}')
    assert data == {"reason": "it's {on}", "done": True, "x": [1, 2]}


def test_first_object_wins_after_an_unparsable_one() -> None:
    assert extract_json('{not json} then {"action": "back", "reason": "r"}') == {
        "action": "back",
        "reason": "r",
    }


@pytest.mark.parametrize(
    "answer", ["I would tap the Wi-Fi switch.", '{"action": "tap", ', "[1, 2]", ""]
)
def test_not_json_is_a_response_error(answer: str) -> None:
    with pytest.raises(LLMResponseError, match="not a JSON object") as info:
        parse_action(answer, SCREEN)
    assert "JSON object" in info.value.hint


def test_each_kind_builds_its_action() -> None:
    def parse(text: str) -> Action:
        return parse_action(text, SCREEN)

    assert parse('{"action": "type", "element": 7, "text": "Alice", "reason": "r"}') == Action(
        ActionKind.TYPE, element=7, text="Alice", reason="r"
    )
    assert parse('{"action": "scroll", "direction": "Down", "reason": "r"}').direction is (
        Direction.DOWN
    )
    assert parse('{"action": "launch", "app": "Settings", "reason": "r"}').app == "Settings"
    assert parse('{"action": "long-press", "element": 3, "reason": "r"}').kind is (
        ActionKind.LONG_PRESS
    )
    assert parse('{"action": "stop", "done": true, "reason": "r"}').done
    assert not parse('{"action": "stop", "done": "false", "reason": "r"}').done
    assert parse('{"action": "back", "element": 3, "text": "x", "reason": "r"}') == Action(
        ActionKind.BACK, reason="r"
    )
    assert parse('{"action": "handover", "reason": "enter your PIN"}').kind is ActionKind.HANDOVER


@pytest.mark.parametrize(
    ("answer", "message", "hint"),
    [
        ('{"action": "fly", "reason": "r"}', "unknown action 'fly'", "one of tap, long_press"),
        ('{"action": "swipe", "reason": "r"}', "swipe is not available", "use scroll"),
        (
            '{"action": "tap", "element": 3, "confidence": 0.9}',
            "unknown key(s) 'confidence'",
            "use only the keys action, element",
        ),
        (
            '{"action": "tap", "element": 42, "reason": "r"}',
            "no element 42 on the screen",
            "the elements on the screen are 3, 7",
        ),
        ('{"action": "tap", "reason": "r"}', "tap needs the id", "the elements on the screen are"),
        ('{"action": "tap", "element": "the switch"}', "must be an element id", "are 3, 7"),
        (
            '{"action": "tap", "element": 3, "done": true}',
            "done is true but the action is tap",
            '"action": "stop"',
        ),
        ('{"action": "type", "element": 7, "reason": "r"}', "type needs the text", ""),
        ('{"action": "scroll", "direction": "sideways"}', "unknown direction", "up, down"),
        ('{"action": "handover"}', "handover needs a reason", ""),
    ],
)
def test_refusals_say_how_to_answer_again(answer: str, message: str, hint: str) -> None:
    with pytest.raises(LLMResponseError) as info:
        parse_action(answer, SCREEN)
    assert message in info.value.message
    assert hint in info.value.hint


def test_without_a_screen_ids_are_not_checked() -> None:
    assert parse_action('{"action": "tap", "element": 42, "reason": "r"}').element == 42
