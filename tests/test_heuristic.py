"""The offline planner on crafted screens, with the real packaged embedding model."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from screenpilot.model import (
    Action,
    ActionKind,
    Block,
    BlockKind,
    Box,
    Element,
    ElementKind,
    Screen,
    Step,
)
from screenpilot.pbd.embed import load_embedder
from screenpilot.planner.heuristic import HeuristicPlanner
from screenpilot.planner.taskparse import parse_task


@pytest.fixture(scope="module")
def planner() -> HeuristicPlanner:
    embedder = load_embedder("all-MiniLM-L6-v2")

    def encode(texts: Sequence[str]) -> np.ndarray:
        return embedder.encode(texts)

    return HeuristicPlanner(encode)


def el(i: int, kind: ElementKind, y: int, text: str = "", **kw: object) -> Element:
    return Element(i, kind, Box(40, y, 1040, y + 90), text=text, **kw)  # type: ignore[arg-type]


HOME = Screen(1080, 2400, elements=(
    el(0, ElementKind.ICON, 600, "Contacts"), el(1, ElementKind.ICON, 800, "Clock"),
    el(2, ElementKind.ICON, 1000, "Settings"), el(3, ElementKind.ICON, 1200, "Messages")))
SETTINGS = Screen(1080, 2400, elements=(
    el(0, ElementKind.TEXT, 200, "Settings"),
    el(1, ElementKind.TEXT, 400, "Network & internet"), el(2, ElementKind.TEXT, 600, "Display"),
    el(3, ElementKind.TEXT, 800, "Sound & vibration"), el(4, ElementKind.TEXT, 1000, "Apps")))


def wifi_page(on: bool) -> Screen:
    return Screen(1080, 2400, elements=(
        el(0, ElementKind.TEXT, 200, "Network & internet"),
        el(1, ElementKind.SWITCH, 400, caption="Wi-Fi", checked=on, clickable=True, block_id=0),
        el(2, ElementKind.SWITCH, 600, caption="Airplane mode", checked=False, block_id=0)),
        blocks=(Block(0, Box(0, 300, 1080, 800), BlockKind.LIST),))


def step(screen: Screen, action: Action, i: int = 0) -> Step:
    return Step(i, screen, action)


def test_task_parsing() -> None:
    assert parse_task("turn on wifi").switch_to is True
    assert parse_task("Disable airplane mode").switch_to is False
    assert parse_task("Add a contact named Bob Smith with number 555-123-4567").values == (
        "Bob Smith", "5551234567")
    assert parse_task("Set brightness to 30%").level == pytest.approx(0.3)
    assert parse_task("Open Display settings").open_only


def test_turn_on_wifi_path(planner: HeuristicPlanner) -> None:
    d = planner.next("turn on wifi", HOME, [])
    assert d.action == Action(ActionKind.TAP, element=2)
    d = planner.next("turn on wifi", SETTINGS, [step(HOME, d.action)])
    assert d.action == Action(ActionKind.TAP, element=1)
    d = planner.next("turn on wifi", wifi_page(False), [])
    assert d.action == Action(ActionKind.TAP, element=1)
    d = planner.next("turn on wifi", wifi_page(True), [])
    assert d.action.kind is ActionKind.STOP and d.done


def test_types_values_then_confirms(planner: HeuristicPlanner) -> None:
    form = Screen(1080, 2400, elements=(
        el(0, ElementKind.EDIT_TEXT, 300, "Name", hint=True, editable=True),
        el(1, ElementKind.EDIT_TEXT, 500, "Phone", hint=True, editable=True),
        el(2, ElementKind.BUTTON, 900, "Save", clickable=True)))
    task = "Save Bob Smith, 2122000000 to contacts"
    d1 = planner.next(task, form, [])
    assert d1.action == Action(ActionKind.TYPE, element=0, text="Bob Smith")
    d2 = planner.next(task, form, [step(form, d1.action)])
    assert d2.action == Action(ActionKind.TYPE, element=1, text="2122000000")
    history = [step(form, d1.action), step(form, d2.action, 1)]
    d3 = planner.next(task, form, history)
    assert d3.action == Action(ActionKind.TAP, element=2)
    d4 = planner.next(task, form, [*history, step(form, d3.action, 2)])
    assert d4.done


def test_never_taps_the_same_label_twice_then_scrolls(planner: HeuristicPlanner) -> None:
    d = planner.next("open display settings", SETTINGS, [])
    assert d.action == Action(ActionKind.TAP, element=2)
    d2 = planner.next("open display settings", SETTINGS, [step(SETTINGS, d.action)])
    assert d2.action != d.action
    unrelated = Screen(1080, 2400)
    d3 = planner.next("open display settings", unrelated, [])
    assert d3.action.kind is ActionKind.SCROLL


def test_toggle_without_a_visible_switch_stops_without_claiming(planner: HeuristicPlanner) -> None:
    rows = Screen(1080, 2400, elements=(
        el(0, ElementKind.TEXT, 200, "Network & internet"), el(1, ElementKind.TEXT, 400, "Wi-Fi"),
        el(2, ElementKind.TEXT, 600, "Airplane mode")))
    d = planner.next("turn on wifi", rows, [step(rows, Action(ActionKind.TAP, element=1))])
    assert d.action.kind is ActionKind.STOP and not d.done
    assert "no switch is visible" in d.reason


def test_task_values_from_searches_bodies_and_times() -> None:
    assert parse_task("Search for yoga mats in the Shop app").values == ("yoga mats",)
    assert parse_task("Search my contacts for Smith.").values == ("Smith",)
    assert parse_task("Send a text message to 650-555-0199 with message: Hi, this is Sam"
                      ).values == ("6505550199", "Hi, this is Sam")
    assert parse_task("给 Bob Lee 发短信：明天见").values == ("Bob Lee", "明天见")
    assert parse_task("set a 10:30PM clock").values == ("10", "30")
    assert parse_task("Set an alarm for 3PM using Clock").values == ("3", "00")
    assert parse_task("Delete my Shop account").values == ()
    assert parse_task("Open the details of my Yoga Mat order").values == ("Yoga Mat",)


def test_search_fields_submit_and_then_the_task_is_done(planner: HeuristicPlanner) -> None:
    page = Screen(1080, 2400, elements=(
        el(0, ElementKind.EDIT_TEXT, 300, "Search products", hint=True, editable=True),))
    task = "Search for yoga mats in the Shop app"
    d = planner.next(task, page, [])
    assert d.action == Action(ActionKind.TYPE, element=0, text="yoga mats\n")
    d2 = planner.next(task, Screen(1080, 2400), [step(page, d.action)])
    assert d2.done


def test_unlabelled_send_button_at_the_end_of_the_typed_row(planner: HeuristicPlanner) -> None:
    chat = Screen(1080, 2400, elements=(
        Element(0, ElementKind.EDIT_TEXT, Box(100, 2100, 990, 2250), text="Text message",
                hint=True, editable=True),
        Element(1, ElementKind.BUTTON, Box(1000, 2120, 1070, 2230), clickable=True)))
    typing = Screen(1080, 2400, elements=(   # the keyboard moved the field up
        Element(0, ElementKind.TEXT, Box(180, 1440, 560, 1500), text="Here are the slides"),
        Element(1, ElementKind.BUTTON, Box(950, 1430, 1040, 1510), clickable=True),
        Element(2, ElementKind.BUTTON, Box(900, 1900, 1000, 2000), text="m", clickable=True)))
    task = "Send a text message to Carol saying 'Here are the slides'"
    d = planner.next(task, chat, [])
    assert d.action == Action(ActionKind.TYPE, element=0, text="Here are the slides")
    history = [step(chat, d.action)]
    d2 = planner.next(task, typing, history)
    assert d2.action == Action(ActionKind.TAP, element=1)
    d3 = planner.next(task, typing, [*history, step(typing, d2.action, 1)])
    assert d3.done


def test_an_app_title_alone_does_not_finish_an_open_task(planner: HeuristicPlanner) -> None:
    def page(title: str) -> Screen:
        return Screen(1080, 2400, elements=(
            el(0, ElementKind.TEXT, 120, title), el(1, ElementKind.TEXT, 900, "Orders")))

    task = "Open my order history in the Shop app"
    tapped = [step(HOME, Action(ActionKind.TAP, element=0))]
    assert not planner.next(task, page("Shop"), tapped).done
    assert planner.next(task, page("Order history"), tapped).done
    assert planner.next("Open Display settings", page("Display"), tapped).done
