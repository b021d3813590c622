"""A search that found nothing is tried once with its last word, then given up honestly."""

from __future__ import annotations

from screenpilot.language.taskparse import parse_task
from screenpilot.model import Action, ActionKind, Box, Element, ElementKind, Screen, Step
from screenpilot.planner.offline.narrow import (
    narrow_search,
    no_results,
    open_result,
    shorter_query,
)


def _screen(*texts: str, field_text: str = "concert tickets") -> Screen:
    field = Element(
        id=1,
        kind=ElementKind.EDIT_TEXT,
        box=Box(40, 200, 1040, 300),
        text=field_text,
        caption="Search",
        editable=True,
    )
    rows = [
        Element(
            id=2 + i, kind=ElementKind.TEXT, box=Box(40, 400 + 100 * i, 600, 460 + 100 * i), text=t
        )
        for i, t in enumerate(texts)
    ]
    return Screen(width=1080, height=2400, elements=(field, *rows))


def _typed(text: str, screen: Screen) -> Step:
    return Step(
        index=0,
        before=screen,
        action=Action(ActionKind.TYPE, element=1, text=text + "\n"),
    )


def test_the_last_content_word_is_the_narrower_query() -> None:
    assert shorter_query("concert tickets") == "tickets"
    assert shorter_query("the red running shoes") == "shoes"
    assert shorter_query("tickets") is None
    assert shorter_query("about tickets") is None


def test_no_results_is_read_in_its_usual_forms() -> None:
    assert no_results(_screen("No results"))
    assert no_results(_screen("No results found for 'x'"))
    assert no_results(_screen("没有结果"))
    assert not no_results(_screen("Bob Lee", "Got the tickets"))


def test_a_search_that_found_nothing_is_narrowed_once_then_given_up() -> None:
    intent = parse_task("Find the message about concert tickets and open that conversation")
    assert intent.queries, intent
    empty = _screen("No results")
    first = narrow_search(intent, empty, [_typed("concert tickets", empty)])
    assert first is not None
    assert first.action.kind is ActionKind.TYPE
    assert first.action.text == "tickets\n"
    again = narrow_search(
        intent,
        empty,
        [_typed("concert tickets", empty), _typed("tickets", empty)],
    )
    assert again is not None
    assert again.action.kind is ActionKind.STOP
    assert not again.action.done


def test_results_on_screen_leave_the_search_alone() -> None:
    intent = parse_task("Find the message about concert tickets and open that conversation")
    found = _screen("Bob Lee", "Got the tickets")
    assert narrow_search(intent, found, [_typed("concert tickets", found)]) is None


def test_the_first_result_naming_the_query_is_opened_then_done() -> None:
    intent = parse_task("Find the message about concert tickets and open that conversation")
    found = _screen("Bob Lee", "Got the concert tickets for Saturday!", "Mom")
    history = [_typed("concert tickets", found)]
    first = open_result(intent, found, history)
    assert first is not None
    assert first.action.kind is ActionKind.TAP
    assert first.action.element == 3  # the snippet that names the query, not 'Bob Lee'
    tapped = Step(index=1, before=found, action=first.action, reason=first.reason)
    done = open_result(intent, found, [*history, tapped])
    assert done is not None and done.action.done


def test_a_plain_search_command_is_left_to_the_confirm_rule() -> None:
    intent = parse_task("Search contacts for Smith")
    found = _screen("Hannah Smith", field_text="Smith")
    assert open_result(intent, found, [_typed("Smith", found)]) is None
