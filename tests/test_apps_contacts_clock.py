"""Contacts and Clock on the virtual phone: state changes are real and checkable."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from screenpilot.model import BlockKind, ElementKind
from screenpilot.simulator.apps.clock import alarm_time, days_bits, days_summary
from screenpilot.simulator.apps.contacts import (
    CONTACTS_VCF,
    TEAM_VCF,
    display_name,
    parse_vcards,
)
from screenpilot.simulator.phone import VirtualPhone

RENDERS = Path(os.environ.get("SP_RENDERS", "/tmp/sp_apps"))
CONTACTS_URI = "content://com.android.contacts/contacts"
ALARMS_URI = "content://com.android.deskclock/alarms"


@pytest.fixture
def phone() -> VirtualPhone:
    return VirtualPhone()


def _type(phone: VirtualPhone, caption: str, text: str) -> None:
    field = next(e for e in phone.frame().elements if e.editable and caption in (e.caption, e.text))
    phone.tap(*field.box.center)
    phone.input_text(text)


def _tap(phone: VirtualPhone, text: str) -> None:
    assert phone.tap_text(text), f"{text!r} not on screen"


def _names(phone: VirtualPhone) -> list[str]:
    return [r["display_name"] for r in phone.content_query(CONTACTS_URI) or []]


def _save(phone: VirtualPhone, name: str) -> None:
    RENDERS.mkdir(parents=True, exist_ok=True)
    phone.frame().image.save(RENDERS / f"{name}.png")


def _has_colour(image: Image.Image, rgb: tuple[int, int, int]) -> bool:
    """Whether some pixel of ``image`` is within a small distance of ``rgb``."""
    pixels = np.asarray(image, dtype=np.int32).reshape(-1, 3)
    return bool((np.abs(pixels - np.array(rgb)).sum(axis=1) < 40).any())


# --- vCards ---------------------------------------------------------------------------------
def test_parse_vcards_versions_folding_and_params() -> None:
    people = parse_vcards(CONTACTS_VCF)
    assert [p["name"] for p in people] == ["Ivy Nguyen", "Jack Brown", "Karen O'Neil"]
    assert people[1]["phone"] == "+1 503-555-0165" and people[0]["email"].startswith("ivy")
    team = parse_vcards(TEAM_VCF)
    assert team[0]["phone"] == "+86-10-5555-0101"  # 4.0 tel: URI
    assert team[1]["name"] == "Mia Rossi" and team[1]["first"] == "Mia"  # folded FN
    escaped = "BEGIN:VCARD\nN:Doe\\, Jr;Jane\nTEL:1\nEND:VCARD\nBEGIN:VCARD\nEND:VCARD\n"
    assert parse_vcards(escaped) == [
        {"first": "Jane", "last": "Doe, Jr", "name": "Jane Doe, Jr", "phone": "1", "email": ""}
    ]
    assert parse_vcards("not a vcard") == []


# --- Contacts ---------------------------------------------------------------------------------
def test_contacts_list_sorted_with_letters_and_tabs(phone: VirtualPhone) -> None:
    _tap(phone, "Contacts")
    assert phone.current_focus() == (
        "com.android.contacts",
        "com.android.contacts.activities.PeopleActivity",
    )
    names = _names(phone)
    assert names == sorted(names, key=str.lower) and len(names) == 9
    frame = phone.frame()
    assert frame.find("B") is not None and frame.find("Bob Lee") is not None
    avatars = [e for e in frame.elements if e.kind is ElementKind.IMAGE]
    assert len(avatars) >= 5
    tabs = next(b for b in frame.blocks if b.kind is BlockKind.TAB_BAR)
    assert tabs.active is not None and frame.elements[tabs.active].text == "Contacts"
    _save(phone, "contacts_main")


def test_add_contact_persists_in_provider(phone: VirtualPhone) -> None:
    _tap(phone, "Contacts")
    _tap(phone, "Create contact")
    hints = {e.text for e in phone.frame().elements if e.editable and e.hint}
    assert {"First name", "Last name", "Phone", "Email"} <= hints
    _type(phone, "First name", "Alice")
    _type(phone, "Phone", "2122000000")
    _type(phone, "Email", "alice@example.com")
    _save(phone, "contacts_add")
    _tap(phone, "Save")
    assert phone.frame().find("Alice") is not None  # the new contact's card
    row = next(r for r in phone.content_query(CONTACTS_URI) or [] if r["display_name"] == "Alice")
    assert row["number"] == "2122000000" and row["email"] == "alice@example.com"
    assert row["_id"].isdigit()


def test_empty_contact_is_not_saved(phone: VirtualPhone) -> None:
    _tap(phone, "Contacts")
    _tap(phone, "Create contact")
    _tap(phone, "Save")
    assert len(_names(phone)) == 9


def test_delete_needs_confirmation(phone: VirtualPhone) -> None:
    _tap(phone, "Contacts")
    _tap(phone, "Bob Lee")
    _save(phone, "contacts_detail")
    _tap(phone, "dots_vertical")
    _tap(phone, "Delete")
    assert phone.frame().dialog_box is not None
    _save(phone, "contacts_delete_dialog")
    _tap(phone, "Cancel")
    assert "Bob Lee" in _names(phone)
    _tap(phone, "dots_vertical")
    _tap(phone, "Delete")
    _tap(phone, "Delete")
    assert "Bob Lee" not in _names(phone)
    assert phone.state["tasks"]["com.android.contacts"][-1]["page"] == "main"


def test_edit_contact_changes_number(phone: VirtualPhone) -> None:
    _tap(phone, "Contacts")
    _tap(phone, "David Kim")
    _tap(phone, "pencil_outline")
    field = next(e for e in phone.frame().elements if e.editable and e.caption == "Phone")
    assert field.text == "+1 408-555-0199"
    phone.tap(*field.box.center)
    for _ in range(len(field.text)):
        phone.keyevent(67)
    phone.input_text("5550100")
    _tap(phone, "Save")
    row = next(
        r for r in phone.content_query(CONTACTS_URI) or [] if r["display_name"] == "David Kim"
    )
    assert row["number"] == "5550100"


def test_import_vcf_via_fix_and_manage(phone: VirtualPhone) -> None:
    _tap(phone, "Contacts")
    _tap(phone, "Fix & manage")
    _save(phone, "contacts_manage")
    _tap(phone, "Import from file")
    assert phone.current_focus()[1] == "com.android.documentsui.picker.PickActivity"
    _save(phone, "contacts_files")
    _tap(phone, "boarding_pass.pdf")  # greyed out: not a vCard
    assert len(_names(phone)) == 9
    _tap(phone, "contacts.vcf")
    assert {"Ivy Nguyen", "Jack Brown", "Karen O'Neil"} <= set(_names(phone))
    assert len(_names(phone)) == 12
    assert phone.state["tasks"]["com.android.contacts"][-1]["page"] == "main"


def test_search_filters_by_name_and_number(phone: VirtualPhone) -> None:
    _tap(phone, "Contacts")
    _tap(phone, "Search contacts")
    phone.input_text("smi")
    assert phone.frame().find("Hannah Smith") is not None
    assert phone.frame().find("Bob Lee") is None
    phone.keyevent(4)
    phone.keyevent(4)
    _tap(phone, "Search contacts")
    phone.input_text("415")
    assert phone.frame().find("Bob Lee") is not None


def test_call_and_star(phone: VirtualPhone) -> None:
    _tap(phone, "Contacts")
    _tap(phone, "Grace Park")
    _tap(phone, "Call")
    _tap(phone, "star_outline")
    state = phone.app_state("com.android.contacts")
    assert state["calls"] == ["+1 310-555-0111"]
    grace = next(c for c in state["contacts"] if display_name(c) == "Grace Park")
    assert grace["starred"]
    phone.keyevent(4)
    _tap(phone, "Highlights")
    assert phone.frame().find("Grace Park") is not None


def test_contacts_in_chinese() -> None:
    phone = VirtualPhone(locale="zh")
    _tap(phone, "通讯录")
    assert phone.frame().find("搜索联系人") is not None
    assert phone.frame().find("整理和管理") is not None


# --- Clock ------------------------------------------------------------------------------------
def test_time_helpers() -> None:
    assert alarm_time(0, 5) == "12:05 AM" and alarm_time(13, 0) == "1:00 PM"
    assert alarm_time(7, 30, h24=True) == "07:30"
    assert days_summary([0, 1, 2, 3, 4]) == "Weekdays" and days_summary([]) == "Not scheduled"
    assert days_summary([5, 6]) == "Weekends" and days_summary([0, 2]) == "Mon, Wed"
    assert days_bits([0, 6]) == 65


def test_tab_bar_active_tab_in_accent(phone: VirtualPhone) -> None:
    _tap(phone, "Clock")
    assert phone.current_focus() == ("com.android.deskclock", "com.android.deskclock.DeskClock")
    for label in ("Timer", "Stopwatch", "Clock", "Alarm"):
        tab = next(
            e
            for e in phone.frame().elements
            if e.text == label
            and e.block is not None
            and phone.frame().blocks[e.block].kind is BlockKind.TAB_BAR
        )
        phone.tap(*tab.box.center)
        frame = phone.frame()
        tabs = next(b for b in frame.blocks if b.kind is BlockKind.TAB_BAR)
        assert tabs.active is not None and frame.elements[tabs.active].text == label
        ink = frame.elements[tabs.active].box
        label_pixels = frame.image.convert("RGB").crop((ink.x1, ink.y1, ink.x2, ink.y2))
        assert _has_colour(label_pixels, (0x1A, 0x73, 0xE8)), label
        _save(phone, f"clock_{label.lower()}")


def test_add_alarm_appears_in_dumpsys_and_provider(phone: VirtualPhone) -> None:
    _tap(phone, "Clock")
    _tap(phone, "plus")
    _tap(phone, "Save")  # empty time: refused
    assert phone.state["tasks"]["com.android.deskclock"][-1]["page"] == "add"
    _type(phone, "Hour", "7")
    _type(phone, "Minute", "45")
    phone.keyevent(4)
    _tap(phone, "PM")
    _tap(phone, "Mon")
    _tap(phone, "Wed")
    _type(phone, "Label", "Gym")
    phone.keyevent(4)
    assert phone.frame().find("7:45 PM") is not None  # the picker's preview
    _save(phone, "clock_add")
    _tap(phone, "Save")
    rows = phone.content_query(ALARMS_URI) or []
    row = next(r for r in rows if r["hour"] == "19" and r["minutes"] == "45")
    assert row["enabled"] == "1" and row["daysofweek"] == "5" and row["label"] == "Gym"
    dump = phone.dumpsys("alarm", []) or ""
    assert "2024-06-03 19:45:00" in dump and "label='Gym'" in dump
    assert "RTC_WAKEUP" in dump and "com.android.deskclock.ALARM_ALERT" in dump
    _save(phone, "clock_alarms")


def test_spinner_buttons_and_24h(phone: VirtualPhone) -> None:
    phone.settings_put("system", "time_12_24", "24")
    _tap(phone, "Clock")
    _tap(phone, "plus")
    assert phone.frame().find("AM") is None
    _type(phone, "Hour", "23")
    phone.keyevent(4)
    plus = [e for e in phone.frame().elements if e.icon == "plus"]
    phone.tap(*plus[0].box.center)  # hour +1 wraps to 0
    phone.tap(*plus[1].box.center)  # minute 0 -> 1
    _tap(phone, "Save")
    assert any(
        r["hour"] == "0" and r["minutes"] == "1" for r in phone.content_query(ALARMS_URI) or []
    )


def test_switch_toggles_alarm_and_dumpsys(phone: VirtualPhone) -> None:
    _tap(phone, "Clock")
    assert "id=2 " not in (phone.dumpsys("alarm", []) or "")
    switch = next(
        e for e in phone.frame().elements if e.kind is ElementKind.SWITCH and e.caption == "9:00 AM"
    )
    assert switch.checked is False
    phone.tap(*switch.box.center)
    assert "id=2 " in (phone.dumpsys("alarm", []) or "")
    row = next(r for r in phone.content_query(ALARMS_URI) or [] if r["_id"] == "2")
    assert row["enabled"] == "1" and row["daysofweek"] == str(32 + 64)


def test_delete_alarm(phone: VirtualPhone) -> None:
    _tap(phone, "Clock")
    _tap(phone, "10:15")
    assert phone.frame().find("Take medicine") is not None
    _tap(phone, "Delete")
    ids = [r["_id"] for r in phone.content_query(ALARMS_URI) or []]
    assert ids == ["1", "2"]


def test_timer_and_stopwatch(phone: VirtualPhone) -> None:
    _tap(phone, "Clock")
    _tap(phone, "Timer")
    for key in ("1", "3", "0"):
        _tap(phone, key)
    assert phone.frame().find("00h 01m 30s") is not None
    _tap(phone, "Start")
    timer = phone.app_state("com.android.deskclock")["timer"]
    assert timer["running"] and timer["seconds"] == 90
    _tap(phone, "Stopwatch")
    _tap(phone, "Start")
    _tap(phone, "Lap")
    state = phone.app_state("com.android.deskclock")["stopwatch"]
    assert state == {"running": True, "laps": 1}


def test_state_round_trips(phone: VirtualPhone) -> None:
    snap = phone.snapshot()
    _tap(phone, "Clock")
    _tap(phone, "9:00")
    _tap(phone, "Delete")
    phone.restore(snap)
    assert len(phone.content_query(ALARMS_URI) or []) == 3
