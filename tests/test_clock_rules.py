"""The Clock app's rules of the offline planner (a timer keypad, the world clock, a new
alarm) and the durations and cities the language layer reads for them."""

from __future__ import annotations

import pytest

from screenpilot.language import parse_command
from screenpilot.language.taskparse import parse_task
from screenpilot.language.times import duration_seconds, write_duration
from screenpilot.model import Action, ActionKind, Box, Element, ElementKind, Screen, Step
from screenpilot.planner.offline.alarm import new_alarm
from screenpilot.planner.offline.timer import set_timer, wished_digits
from screenpilot.planner.offline.world import add_city


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("5 minutes", 300),
        ("a 10-minute timer", 600),
        ("1h30", 5400),
        ("1 hour 30 minutes", 5400),
        ("90 seconds", 90),
        ("half an hour", 1800),
        ("an hour and a half", 5400),
        ("1.5 hours", 5400),
        ("2 minutes and 30 seconds", 150),
        ("at 7:30 am", None),
    ],
)
def test_durations_as_people_say_them(text: str, seconds: int | None) -> None:
    assert duration_seconds(text) == seconds


def test_durations_written_back_and_as_keypad_digits() -> None:
    assert write_duration(5400) == "1 hour 30 minutes"
    assert write_duration(300) == "5 minutes"
    assert wished_digits(300) == "500"
    assert wished_digits(90) == "130"
    assert wished_digits(5400) == "13000"


def test_timer_commands_carry_their_duration() -> None:
    assert parse_command("count down five minutes").value == "5 minutes"
    c = parse_command("set a timer for 1h30")
    assert (c.target, c.value) == ("timer", "1 hour 30 minutes")
    assert parse_command("start a timer for half an hour").value == "30 minutes"


@pytest.mark.parametrize(
    "text",
    ["Add Paris time in clock", "add the city Paris to my clocks", "what's the time in Paris"],
)
def test_a_place_whose_time_is_wanted_is_a_world_clock_add(text: str) -> None:
    c = parse_command(text)
    assert (c.act, c.target, c.value, c.app) == ("add", "world clock", "Paris", "clock")


def test_two_word_cities_and_words_that_name_no_place() -> None:
    assert parse_command("Show New York in the world clock").value == "New York"
    assert parse_command("Check Screen time").target != "world clock"
    assert parse_command("Set the time in Settings").target != "world clock"
    assert parse_command("set an alarm at 7 am").target == "alarm"


def el(i: int, kind: ElementKind, x: int, y: int, text: str = "", **kw: object) -> Element:
    return Element(i, kind, Box(x, y, x + 160, y + 120), text=text, **kw)  # type: ignore[arg-type]


def keypad(display: str, start: bool) -> Screen:
    keys = [
        el(10 + d, ElementKind.TEXT, 100 + 300 * ((d - 1) % 3), 600 + 200 * ((d - 1) // 3), str(d))
        for d in range(1, 10)
        if d != 1  # vision missed the '1'
    ]
    keys.append(el(10, ElementKind.BUTTON, 400, 1200, "0"))
    extra = [el(30, ElementKind.BUTTON, 400, 1500, "Start")] if start else []
    return Screen(
        1080,
        2400,
        elements=(el(1, ElementKind.TEXT, 300, 300, display), *keys, *extra),
    )


def tap(screen: Screen, element: int) -> Step:
    return Step(0, screen, Action(ActionKind.TAP, element=element))


def test_the_timer_keypad_fills_from_the_right() -> None:
    intent = parse_task(parse_command("Start a 5 minute timer.").canonical)
    empty = keypad("00h 00m 00s", start=False)
    d = set_timer(intent, empty, [])
    assert d is not None and d.action.element == 15  # '5'
    five = keypad("00h 00m 05s", start=True)
    d = set_timer(intent, five, [tap(empty, 15)])
    assert d is not None and d.action.element == 10  # '0'
    fifty = keypad("00h 00m 50s", start=True)
    d = set_timer(intent, fifty, [tap(empty, 15), tap(five, 10)])
    assert d is not None and d.action.element == 10
    ready = keypad("00h 05m 00s", start=True)
    history = [tap(empty, 15), tap(five, 10), tap(fifty, 10)]
    d = set_timer(intent, ready, history)
    assert d is not None and d.action.element == 30  # Start only now
    running = Screen(1080, 2400, elements=(el(1, ElementKind.TEXT, 300, 300, "00:05:00"),))
    d = set_timer(intent, running, [*history, tap(ready, 30)])
    assert d is not None and d.action.kind is ActionKind.STOP and d.action.done


def test_a_wrong_display_is_not_started_and_an_unread_key_is_found() -> None:
    intent = parse_task(parse_command("Start a 5 minute timer.").canonical)
    wrong = keypad("00h 00m 07s", start=True)
    d = set_timer(intent, wrong, [])
    assert d is not None and d.action.kind is ActionKind.STOP and not d.action.done
    ten = parse_task(parse_command("set a timer for 10 minutes").canonical)
    d = set_timer(ten, keypad("00h 00m 00s", start=False), [])
    assert d is not None and d.action.point == (180, 660)  # the '1' from its row and column


TABS = (
    el(40, ElementKind.IMAGE, 50, 2200, caption="Alarm"),
    el(41, ElementKind.IMAGE, 300, 2200, caption="Clock"),
)


def test_a_city_is_added_from_the_world_clock_tab() -> None:
    intent = parse_task(parse_command("add the city Paris to my clocks").canonical)
    alarms = Screen(
        1080,
        2400,
        elements=(
            el(1, ElementKind.SWITCH, 800, 400, caption="6:30", checked=True),
            el(2, ElementKind.BUTTON, 880, 1880),  # the alarm list's "+"
            el(40, ElementKind.IMAGE, 50, 2200, caption="Alarm", selected=True),
            TABS[1],
        ),
    )
    d = add_city(intent, alarms, [])
    assert d is not None and d.action.element == 41  # not the alarm's "+"
    home = Screen(
        1080,
        2400,
        elements=tuple(
            el(i, ElementKind.TEXT, 100 + 250 * i, 500, name)
            for i, name in enumerate(("Settings", "Contacts", "Clock", "Messages"))
        ),
    )
    d = add_city(intent, alarms, [tap(home, 2)])  # the app 'Clock' is not the tab
    assert d is not None and d.action.element == 41
    world = Screen(
        1080,
        2400,
        elements=(
            el(1, ElementKind.EDIT_TEXT, 100, 400, "London 8:30 PM"),  # a card read as a field
            el(2, ElementKind.BUTTON, 880, 1880, icon_label="earth"),
            TABS[0],
            el(41, ElementKind.IMAGE, 300, 2200, caption="Clock", selected=True),
        ),
    )
    d = add_city(intent, world, [tap(alarms, 41)])
    assert d is not None and d.action.element == 2
    picker = Screen(
        1080,
        2400,
        elements=(
            el(1, ElementKind.TEXT, 100, 400, "Paris"),
            el(2, ElementKind.CHECK_BOX, 850, 400, checked=False),
        ),
    )
    d = add_city(intent, picker, [tap(alarms, 41), tap(world, 2)])
    assert d is not None and d.action.element == 1
    ticked = Screen(
        1080,
        2400,
        elements=(picker.elements[0], el(2, ElementKind.CHECK_BOX, 850, 400, checked=True)),
    )
    d = add_city(intent, ticked, [tap(alarms, 41), tap(world, 2), tap(picker, 1)])
    assert d is not None and d.action.kind is ActionKind.STOP and d.action.done


def test_a_new_alarm_uses_the_add_button_not_a_row_alike() -> None:
    intent = parse_task(parse_command("set a 10:30PM alarm every weekend").canonical)
    alarms = Screen(
        1080,
        2400,
        elements=(
            el(1, ElementKind.SWITCH, 800, 400, caption="9:00", checked=False),
            el(2, ElementKind.TEXT, 100, 500, "Weekends"),
            el(3, ElementKind.TEXT, 100, 400, "AM"),
            el(4, ElementKind.BUTTON, 880, 1880),
        ),
    )
    d = new_alarm(intent, alarms, [])
    assert d is not None and d.action.element == 4
    assert new_alarm(intent, alarms, [tap(alarms, 4)]) is None  # once a run
    off = parse_task(parse_command("turn off the 9:00 am alarm").canonical)
    assert new_alarm(off, alarms, []) is None
