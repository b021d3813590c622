"""The command language: what a command asks for, from the words people use."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from screenpilot.language import parse_command
from screenpilot.language.taskparse import parse_task
from screenpilot.language.times import normalise_times, parse_clock, parse_days


# --- synonyms and everyday names of Android concepts --------------------------------------
@pytest.mark.parametrize(
    "text, act, target",
    [
        ("put the phone into flight mode", "turn_on", "airplane mode"),
        ("switch to aeroplane mode", "turn_on", "airplane mode"),
        ("kill the wifi", "turn_off", "wifi"),
        ("turn off gps", "turn_off", "location"),
        ("enable night mode", "turn_on", "dark theme"),
        ("go back to the light theme", "turn_off", "dark theme"),
        ("dnd on", "turn_on", "do not disturb"),
        ("don't vibrate when somebody calls me", "turn_off", "vibrate for calls"),
        ("show the battery in percent", "turn_on", "battery percentage"),
        ("enable screen pinning", "turn_on", "app pinning"),
    ],
)
def test_everyday_names_of_settings(text: str, act: str, target: str) -> None:
    c = parse_command(text)
    assert (c.act, c.target, c.app) == (act, target, "settings")


def test_wake_me_up_is_an_alarm_and_text_is_a_message() -> None:
    alarm = parse_command("wake me up at 6:45 am")
    assert (alarm.act, alarm.target, alarm.time) == ("create", "alarm", (6, 45))
    assert alarm.canonical == "Create alarm at 6:45 am"
    text = parse_command("text Carol that I am running late")
    assert (text.act, text.recipient, text.body) == ("send", "Carol", "I am running late")
    assert text.canonical == "Send a text message to Carol saying 'I am running late'"


def test_a_message_body_is_never_rewritten() -> None:
    c = parse_command("tell Dan Miller: turn off the wifi at 6 pm please")
    assert c.body == "turn off the wifi at 6 pm please"
    assert c.act == "send" and c.recipient == "Dan Miller"


def test_misspelt_words_are_read_as_the_word_meant() -> None:
    assert parse_command("turn on blutooth").target == "bluetooth"
    assert parse_command("which andriod version is this").target == "android version"
    # known words are not "corrected"
    assert parse_command("add Grace to my contacts").canonical == "Add Grace to my contacts"


# --- levels and extremes ------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, target, level",
    [
        ("make the screen as bright as possible", "brightness", 1.0),
        ("turn the brightness all the way down", "brightness", 0.0),
        ("max out the media volume", "media volume", 1.0),
        ("brightness to half", "brightness", 0.5),
        ("set brightness to 50 %", "brightness", 0.5),
        ("mute the alarm volume", "alarm volume", 0.0),
        ("screen as dim as it goes", "brightness", 0.0),
        ("music volume 30 percent", "media volume", 0.3),
    ],
)
def test_levels_and_extremes(text: str, target: str, level: float) -> None:
    c = parse_command(text)
    assert (c.target, c.level) == (target, level)
    assert c.canonical == f"Set the {target} to {round(level * 100)}%"
    assert parse_task(text).level == level


# --- positions and ordinals ---------------------------------------------------------------
@pytest.mark.parametrize(
    "text, ordinal",
    [
        ("buy the first product in the shop", 1),
        ("open the last message", -1),
        ("tap the top result", 1),
        ("call the second contact", 2),
        ("add the third item to my cart", 3),
        ("打开第二个联系人", 2),
    ],
)
def test_positions(text: str, ordinal: int) -> None:
    assert parse_command(text).ordinal == ordinal
    assert parse_task(text).ordinal == ordinal


def test_the_most_recent_message_is_the_first_row() -> None:
    c = parse_command("reply 'on my way' to whoever texted me last")
    assert (c.act, c.body, c.ordinal) == ("reply", "on my way", 1)


# --- parts --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, parts",
    [
        ("turn off both wifi and bluetooth", [("turn_off", "wifi"), ("turn_off", "bluetooth")]),
        ("wifi and bluetooth on", [("turn_on", "wifi"), ("turn_on", "bluetooth")]),
        ("Turn off WiFi, then enable bluetooth", [("turn_off", "wifi"), ("turn_on", "bluetooth")]),
        (
            "first kill the wifi and after that bluetooth on",
            [("turn_off", "wifi"), ("turn_on", "bluetooth")],
        ),
        ("bluetooth on but wifi off", [("turn_on", "bluetooth"), ("turn_off", "wifi")]),
        ("switch bluetooth on and wifi off", [("turn_on", "bluetooth"), ("turn_off", "wifi")]),
    ],
)
def test_parts(text: str, parts: list[tuple[str, str]]) -> None:
    c = parse_command(text)
    assert [(p.act, p.target) for p in c.parts] == parts
    assert c.canonical.count(", then ") == len(parts) - 1


def test_but_not_leaves_the_other_setting_alone() -> None:
    c = parse_command("turn on wifi but not bluetooth")
    assert (c.act, c.target, c.parts, c.canonical) == ("turn_on", "wifi", (), "Turn on wifi")


# --- times and dates ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, hm",
    [
        ("6:45 am", (6, 45)),
        ("22:10", (22, 10)),
        ("quarter past seven in the evening", (19, 15)),
        ("noon", (12, 0)),
        ("midnight", (0, 0)),
        ("half past ten am", (10, 30)),
        ("quarter to seven in the morning", (6, 45)),
        ("3 in the afternoon", (15, 0)),
        ("nine o'clock", (9, 0)),
        ("6.45 in the morning", (6, 45)),
        ("早上七点半", (7, 30)),
        ("下午 3 点", (15, 0)),
        ("晚上 10:30", (22, 30)),
    ],
)
def test_times_as_people_write_them(text: str, hm: tuple[int, int]) -> None:
    assert parse_clock(normalise_times(text)) == hm


@pytest.mark.parametrize(
    "text, days",
    [
        ("every weekday", (0, 1, 2, 3, 4)),
        ("mon-fri", (0, 1, 2, 3, 4)),
        ("every workday", (0, 1, 2, 3, 4)),
        ("Monday to Friday", (0, 1, 2, 3, 4)),
        ("saturday and sunday", (5, 6)),
        ("weekends", (5, 6)),
        ("每天", tuple(range(7))),
        ("工作日", (0, 1, 2, 3, 4)),
        ("周末", (5, 6)),
        ("tomorrow", ()),
    ],
)
def test_days(text: str, days: tuple[int, ...]) -> None:
    assert parse_days(text) == days


def test_alarm_commands_in_one_written_form() -> None:
    c = parse_command("wake me at 7am every workday")
    assert c.canonical == "Create alarm at 7:00 am on every weekday"
    assert (c.time, c.days) == ((7, 0), (0, 1, 2, 3, 4))
    c = parse_command("alarm at 22:30 on weekends called Late Show")
    assert (c.time, c.days, c.label) == ((22, 30), (5, 6), "Late Show")
    assert parse_command("add an alarm for 22:10").time == (22, 10)
    assert parse_command("tomorrow at noon wake me up").time == (12, 0)
    off = parse_command("turn my half past six alarm off")
    assert (off.act, off.time) == ("turn_off", (6, 30))
    assert parse_command("get rid of my 9am alarm").act == "delete"


# --- Chinese ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, canonical",
    [
        ("打开飞行模式", "Turn on airplane mode"),
        ("把亮度调到最大", "Set the brightness to 100%"),
        ("明天早上七点叫我", "Create alarm at 7:00 am"),
        ("关闭蓝牙", "Turn off bluetooth"),
        ("把媒体音量调到最小", "Set the media volume to 0%"),
        ("给 Bob 发短信：明天见", "Send a text message to Bob saying '明天见'"),
    ],
)
def test_chinese(text: str, canonical: str) -> None:
    c = parse_command(text)
    assert c.canonical == canonical
    assert c.language == "zh"


# --- refusals -----------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["turn it off", "switch that on", "delete it", "do it"])
def test_it_with_nothing_named_is_a_question(text: str) -> None:
    c = parse_command(text)
    assert c.question.startswith("What should I")
    assert c.act == "ask"


def test_the_offline_planner_asks_instead_of_tapping() -> None:
    from screenpilot.model import ActionKind, Screen
    from screenpilot.planner.offline import HeuristicPlanner

    def never(texts: object) -> object:
        raise AssertionError("no embedding for a command it cannot read")

    decision = HeuristicPlanner(never).next("turn it off", Screen(width=100, height=200), [])  # type: ignore[arg-type]
    assert decision.action.kind is ActionKind.STOP and not decision.action.done
    assert "What should I turn off?" in decision.reason


def test_the_llm_prompt_reads_the_same_command() -> None:
    from screenpilot.planner.chain import task_part

    assert task_part("Turn off wifi.") == "Turn off wifi."
    part = task_part("put the phone in flight mode")
    assert "Read as: Turn on airplane mode" in part and "target='airplane mode'" in part
    assert "Unclear: What should I turn off?" in task_part("turn it off")


# --- the suite's own words stay as they are read today ------------------------------------
def test_canonical_words_read_the_same_again() -> None:
    for text in (
        "kill the wifi",
        "wake me up at 6:45 am",
        "把亮度调到最大",
        "text Carol that I am running late",
        "turn off both wifi and bluetooth",
    ):
        once = parse_command(text).canonical
        assert parse_command(once).canonical == once


# --- the lexicons -------------------------------------------------------------------------
def _lexicons() -> dict[str, object]:
    files = resources.files("screenpilot.language").joinpath("data")
    return {
        name: json.loads(files.joinpath(name).read_text("utf-8"))
        for name in ("concepts.json", "phrases.json")
    }


def test_every_lexicon_entry_says_why() -> None:
    data = _lexicons()
    concepts = data["concepts.json"]["concepts"]  # type: ignore[index]
    assert concepts and all(c["why"].strip() for c in concepts)
    phrases = data["phrases.json"]
    for language in ("en", "zh"):
        entries = phrases[language]  # type: ignore[index]
        assert entries and all(e["why"].strip() and e["from"] for e in entries)


def test_no_lexicon_entry_names_an_item_of_the_suite() -> None:
    from screenpilot.simulator.tasks import all_tasks

    text = json.dumps(_lexicons(), ensure_ascii=False).lower()
    names = set()
    for task in all_tasks():
        for key in ("name", "product", "city", "label", "first", "last", "network"):
            value = task.params.get(key)
            if isinstance(value, str) and len(value) > 2:
                names.add(value.lower())
    assert names and not {n for n in names if n in text}


def test_a_hint_naming_a_number_and_an_address_is_a_recipient_field() -> None:
    from screenpilot.language.fields import field_kind, fits, value_kind
    from screenpilot.model import Box, Element, ElementKind

    def field(text: str) -> Element:
        return Element(1, ElementKind.EDIT_TEXT, Box(0, 0, 900, 140), text=text, hint=True)

    to = field("Type a name, phone number or email")
    assert field_kind(to) == "recipient"
    assert fits(value_kind("650-555-0199"), field_kind(to))
    assert fits(value_kind("sam@example.com"), field_kind(to))
    assert not fits(value_kind("Hi, this is Sam"), field_kind(to))
    assert field_kind(field("Email")) == "email"
    assert field_kind(field("Phone")) == "number"
