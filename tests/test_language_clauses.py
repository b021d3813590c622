"""Questions read as "open", acts said on a pronoun, favourites, search queries and the
sentence's punctuation around values."""

from __future__ import annotations

import pytest

from screenpilot.language import parse_command
from screenpilot.language.pronouns import resolve
from screenpilot.language.questions import as_open
from screenpilot.language.starring import star_part
from screenpilot.language.taskparse import parse_task
from screenpilot.model import Action, ActionKind, Box, Element, ElementKind, Screen, Step
from screenpilot.planner.base import Decision
from screenpilot.planner.offline.fill import confirm_values, type_value


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("Where can I see what I ordered? Open it", "Open order history"),
        ("Where are my Shop receipts?", "Open my Shop payment history"),
        ("where do I find my downloads", "Open my downloads"),
        ("I want to see my past orders", "Open my order history"),
        ("What did I order?", "Open order history"),
    ],
)
def test_questions_that_ask_where_or_to_see_open_the_page(text: str, canonical: str) -> None:
    assert parse_command(text).canonical == canonical
    intent = parse_task(text)
    assert intent.open_only
    assert intent.verb == "open"


def test_other_questions_stay_questions() -> None:
    assert as_open("What is the Android version?") == "What is the Android version?"
    assert as_open("Where can I change the ringtone?") == "Where can I change the ringtone?"


def test_the_act_of_a_pronoun_clause_acts_on_what_the_first_clause_names() -> None:
    c = parse_command("I don't need Frank Miller's contact any more, delete it")
    assert (c.act, c.canonical) == ("delete", "Delete Frank Miller's contact")
    assert parse_task("I don't need Frank Miller's contact any more, delete it").targets == (
        "Frank Miller",
    )
    assert resolve("the hallway lamp, turn it off") == "turn the hallway lamp off"
    assert resolve("I haven't talked to Dana Lee in ages, call her") == "call Dana Lee"


@pytest.mark.parametrize(
    "text",
    [
        "delete it",
        "Set an alarm for 7, and label it Gym",
        "I need the report, I like it",
        "it is too loud, turn it down",
    ],
)
def test_pronoun_clauses_without_a_named_thing_are_left(text: str) -> None:
    assert resolve(text) == text


@pytest.mark.parametrize(
    "text",
    [
        "make Grace Park a favorite contact",
        "mark Grace Park as a favourite",
        "favourite Grace Park",
        "Add Grace Park to my favorites.",
    ],
)
def test_making_a_favourite_stars_the_existing_one(text: str) -> None:
    intent = parse_task(text)
    assert intent.values == ()
    assert intent.targets == ("Grace Park",)
    c = parse_command(text)
    if c.act == "star":
        assert c.target == "Grace Park"


def test_a_new_contact_for_favourites_is_no_star() -> None:
    assert star_part("add a new contact to favorites") is None


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("Find yoga mats in the Shop app", ("yoga mats",)),
        ("Search for yoga mats in the Shop app", ("yoga mats",)),
        ("look for running shoes", ("running shoes",)),
        ("search Messages for tickets", ("tickets",)),
        ("Search my contacts for Smith.", ("Smith",)),
        ("search the Shop for a yoga mat", ("yoga mat",)),
        ("Look up Smith in Contacts", ("Smith",)),
        ("find contacts named Smith", ("Smith",)),
        ("Find the message about concert tickets and open it", ("concert tickets",)),
        ("Find the Android version", ()),
        ("Find the store nearest to me", ()),
    ],
)
def test_find_and_look_for_read_like_search(text: str, values: tuple[str, ...]) -> None:
    assert parse_task(text).values == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("New contact: John, 12345678", ("John", "12345678")),
        ("Save Alice, 2122000000 to contacts", ("Alice", "2122000000")),
        ("Change David Kim's phone number to 408-555-0100.", ("4085550100",)),
        ("Add Bo Li, email bo.li@example.com.", ("Bo Li", "bo.li@example.com")),
        ('Text Ann saying "Late, sorry."', ("Late, sorry.",)),
    ],
)
def test_values_carry_no_list_punctuation(text: str, values: tuple[str, ...]) -> None:
    assert parse_task(text).values == values


def test_a_search_with_a_result_to_open_is_not_done_once_submitted() -> None:
    field = Element(
        0, ElementKind.EDIT_TEXT, Box(40, 300, 1040, 390), text="Search", hint=True, editable=True
    )
    page = Screen(1080, 2400, elements=(field,))
    results = Screen(
        1080, 2400, elements=(Element(1, ElementKind.TEXT, Box(40, 500, 1040, 590), text="Ann"),)
    )

    def after_search(task: str) -> Decision | None:
        intent = parse_task(task)
        typed = Action(ActionKind.TYPE, element=0, text=intent.values[0] + "\n")
        return confirm_values(intent, results, [Step(0, page, typed)])

    done = after_search("Find yoga mats in the Shop app")
    assert done is not None and done.done
    assert after_search("Find the message about concert tickets and open that conversation") is None


def test_search_words_go_into_a_search_box_only() -> None:
    chat = Screen(
        1080,
        2400,
        elements=(
            Element(1, ElementKind.ICON, Box(900, 60, 980, 140), icon_label="search"),
            Element(
                2,
                ElementKind.EDIT_TEXT,
                Box(40, 2100, 900, 2200),
                text="Text message",
                hint=True,
                editable=True,
            ),
        ),
    )
    intent = parse_task("Find the message about concert tickets and open that conversation")
    assert intent.queries == ("concert tickets",)
    d = type_value(intent, chat, [])
    assert d is not None and d.action == Action(ActionKind.TAP, element=1)
    box = Element(
        3, ElementKind.EDIT_TEXT, Box(40, 60, 1040, 140), text="Search", hint=True, editable=True
    )
    d = type_value(intent, Screen(1080, 2400, elements=(box, chat.elements[1])), [])
    assert d is not None and d.action.element == 3 and d.action.text == "concert tickets\n"
    assert parse_task("New contact: John, 12345678").queries == ()
    # quoted words after a search verb are a search's too, never a message's body
    quoted = parse_task("look for 'tickets' in my sms and show me that thread")
    assert quoted.queries == ("tickets",)
    d = type_value(quoted, chat, [])
    assert d is not None and d.action == Action(ActionKind.TAP, element=1)
    assert parse_task("Send 'see you at 7' to Bob").queries == ()
    assert parse_task("Type 'find me' in the note").queries == ()


def test_who_texted_me_about_x_is_a_search_whose_result_is_opened() -> None:
    c = parse_command("Who texted me about the party? Open that thread")
    assert c.canonical == "Find the message about party and open that conversation"
    assert parse_task(c.canonical).queries == ("party",)
    assert parse_command("Who texted me last?").canonical == "Who texted me last?"


def test_a_phone_number_a_delete_acts_on_is_found_not_typed() -> None:
    gone = parse_task(parse_command("Delete the thread from 650-555-0177 in Messages").canonical)
    assert gone.values == () and gone.targets == ("6505550177",)
    # a number to call, text or save is still typed
    assert parse_task(parse_command("Call 650-555-0177").canonical).values == ("6505550177",)
    saved = parse_task(parse_command("Add a contact with number 650-555-0177").canonical)
    assert saved.values == ("6505550177",)


def test_taking_a_thing_out_of_the_cart_removes_it() -> None:
    assert parse_command("Take the Coffee Mug out of my cart").canonical == (
        "Remove the Coffee Mug from my cart"
    )
