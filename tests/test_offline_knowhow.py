"""The offline planner's know-how rules: unlocking by repeated taps (unlock.py), file
pickers (files.py) and pictured list rows for questions (pages.py)."""

from __future__ import annotations

from screenpilot.language.taskparse import parse_task
from screenpilot.model import Action, ActionKind, Box, Element, ElementKind, Screen, Step
from screenpilot.planner.offline.acts import finish_act
from screenpilot.planner.offline.files import pick_file, showing_files, wanted_file
from screenpilot.planner.offline.pages import pictured, title_matches
from screenpilot.planner.offline.unlock import unlock, wanted_unlock


def text(i: int, y: int, s: str, x: int = 40, h: int = 50) -> Element:
    return Element(i, ElementKind.TEXT, Box(x, y, x + 20 * len(s) + 20, y + h), text=s)


def screen(*els: Element) -> Screen:
    return Screen(1080, 2400, elements=els)


def tap(before: Screen, e: Element, i: int = 0) -> Step:
    return Step(i, before, Action(ActionKind.TAP, element=e.id))


ABOUT = screen(
    text(0, 140, "About phone"),
    text(1, 400, "Android version"),
    text(2, 460, "14"),
    text(3, 600, "Build number"),
    text(4, 660, "UP1A.231005.007"),
)
SETTINGS = screen(text(0, 140, "Settings"), text(1, 1800, "System"), text(2, 2000, "About phone"))


def test_unlock_names_developer_options_not_their_switch_off() -> None:
    assert wanted_unlock(parse_task("Turn on developer options")) is not None
    assert wanted_unlock(parse_task("Make me a developer by tapping the build number")) is not None
    assert wanted_unlock(parse_task("Turn off developer options")) is None
    assert wanted_unlock(parse_task("Turn on wifi")) is None


def test_unlock_opens_about_phone_then_taps_build_number_seven_times() -> None:
    intent = parse_task("Turn on developer options")
    d = unlock(intent, SETTINGS, [])
    assert d is not None and d.action.element == 2
    history = [tap(SETTINGS, SETTINGS.elements[2])]
    for n in range(7):
        d = unlock(intent, ABOUT, history)
        assert d is not None and d.action.kind is ActionKind.TAP and d.action.element == 3, n
        history.append(tap(ABOUT, ABOUT.elements[3], n + 1))
    d = unlock(intent, ABOUT, history)
    assert d is not None and d.action.kind is ActionKind.STOP and d.action.done


def test_unlock_stops_when_the_phone_says_so() -> None:
    intent = parse_task("Unlock developer options")
    said = screen(*ABOUT.elements, text(9, 2000, "You are now a developer!"))
    history = [tap(ABOUT, ABOUT.elements[3])]
    d = unlock(intent, said, history)
    assert d is not None and d.action.kind is ActionKind.STOP and d.action.done
    counting = screen(
        *ABOUT.elements, text(9, 2000, "You are now 3 steps away from being a developer.")
    )
    d = unlock(intent, counting, history)
    assert d is not None and d.action.kind is ActionKind.TAP and d.action.element == 3


PICKER = screen(
    text(0, 140, "Downloads"),
    text(1, 540, "contacts.vcf", x=180),
    text(2, 700, "team.vcf", x=180),
    text(3, 860, "IMG_20240601_101512.jpg", x=180),
    text(4, 1020, "boarding_pass.pdf", x=180),
)
LIST = screen(
    text(0, 140, "Contacts"), text(1, 400, "Bob Lee"), text(2, 2000, "Imported 3 contacts")
)


def test_a_picker_is_two_file_names() -> None:
    assert showing_files(PICKER)
    assert not showing_files(ABOUT)  # a build number is no file name
    assert not showing_files(LIST)


def test_the_file_the_command_names_by_name_or_kind() -> None:
    rows = [e for e in PICKER.elements if e.id]
    by_kind = wanted_file(parse_task("import contacts from the vcf file in my downloads"), rows)
    assert by_kind is not None and by_kind.text == "contacts.vcf"
    by_name = wanted_file(parse_task("Import team.vcf"), rows)
    assert by_name is not None and by_name.text == "team.vcf"
    photo = wanted_file(parse_task("attach the photo"), rows)
    assert photo is not None and photo.text.endswith(".jpg")
    assert wanted_file(parse_task("import other.vcf"), rows) is None


def test_import_waits_for_the_file_then_is_done() -> None:
    intent = parse_task("import contacts from the vcf file in my downloads")
    manage = screen(text(0, 140, "Fix & manage"), text(1, 600, "Import from file"))
    history = [tap(manage, manage.elements[1])]
    assert finish_act(intent, PICKER, history) is None  # not done on the picker
    d = pick_file(intent, PICKER, history)
    assert d is not None and d.action.element == 1
    history.append(tap(PICKER, PICKER.elements[1], 1))
    d = pick_file(intent, LIST, history)
    assert d is not None and d.action.kind is ActionKind.STOP and d.action.done


def test_a_confirmation_after_the_pick_is_tapped_once() -> None:
    intent = parse_task("Import team.vcf")
    ask = screen(
        text(0, 900, "Import 2 contacts?"),
        Element(1, ElementKind.BUTTON, Box(700, 1100, 900, 1200), text="Import"),
    )
    history = [tap(PICKER, PICKER.elements[2])]
    d = pick_file(intent, ask, history)
    assert d is not None and d.action.element == 1
    history.append(tap(ask, ask.elements[1], 1))
    d = pick_file(intent, LIST, history)
    assert d is not None and d.action.kind is ActionKind.STOP and d.action.done


ORDERS = screen(
    text(0, 140, "Your orders"),
    Element(1, ElementKind.IMAGE, Box(45, 280, 220, 460)),
    text(2, 284, "Backpack", x=244),
    text(3, 346, "Delivered - Jun 1", x=244),
    Element(4, ElementKind.IMAGE, Box(45, 520, 220, 700)),
    text(5, 524, "Garden Hose", x=244),
    text(6, 588, "Shipped - May 18", x=244),
)


def test_a_pictured_row_is_opened_before_a_question_is_answered() -> None:
    intent = parse_task("Check the status of the garden hose I ordered")
    shop = screen(text(0, 140, "Shop"), text(1, 2100, "Orders"))
    history = [tap(shop, shop.elements[1])]
    assert pictured(ORDERS.elements[5], ORDERS)
    assert not title_matches(intent, ORDERS, history)
    # a line without a picture answers ("Android version 14")
    about = parse_task("What is the android version")
    assert title_matches(about, ABOUT, [tap(SETTINGS, SETTINGS.elements[2])])


def test_know_how_data_says_why_and_names_nothing_of_the_suite() -> None:
    import json
    from importlib import resources

    from screenpilot.simulator.tasks import all_tasks

    files = resources.files("screenpilot.language").joinpath("data")
    data = {
        n: json.loads(files.joinpath(n).read_text("utf-8")) for n in ("unlocks.json", "files.json")
    }
    entries = data["unlocks.json"]["unlocks"] + data["files.json"]["kinds"]
    assert entries and all(e["why"].strip() for e in entries)
    text = json.dumps(data, ensure_ascii=False).lower()
    names = {
        v.lower()
        for task in all_tasks()
        for k in ("name", "product", "city", "label", "first", "last", "network", "file")
        if isinstance(v := task.params.get(k), str) and len(v) > 2
    }
    assert names and not {n for n in names if n in text}
