"""The task suite: every task's minimal solution replays to success on a fresh phone.

A solution is a list of semantic steps; ``replay`` performs each through the
phone's public API, finding elements by what the screen shows (as an agent
would), never by widget keys:

- ``tap 'X'`` (optionally ``the 'X' switch|check box|icon|button|tab``): tap the
  first element showing text X (or the icon named/labelled X; a switch or check
  box with caption X);
- ``long press 'X'``; ``type 'V' into 'F'``: tap the edit text whose hint,
  caption or text is F, then type V; ``clear 'F'``: tap it and delete its text;
- ``tap 'X' next to 'Y'``: the first X level with or below the element showing Y;
- ``drag the 'X' slider to N%``; ``scroll down|up``; ``press back|home|enter``.
"""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from screenpilot.cli import app as cli_app
from screenpilot.model import ElementKind
from screenpilot.simulator.phone import VirtualPhone
from screenpilot.simulator.render import icon_label
from screenpilot.simulator.tasks import Task, all_tasks
from screenpilot.simulator.widgets import TruthElement

_TAP = re.compile(
    r"^(tap|long press) (?:the )?'(.+?)'(?: (switch|check box|icon|button|tab))?"
    r"(?: next to '(.+)')?$"
)
_TYPE = re.compile(r"^type '(.*)' into (?:the )?'(.+)'(?: field)?$")
_CLEAR = re.compile(r"^clear (?:the )?'(.+)'(?: field)?$")
_DRAG = re.compile(r"^drag the '(.+)' slider to (\d+)%$")
_KINDS = {"switch": ElementKind.SWITCH, "check box": ElementKind.CHECK_BOX}
MY_APPS = ("com.android.settings", "com.android.contacts", "com.android.deskclock")


def _find(
    phone: VirtualPhone, label: str, qualifier: str | None = None, near: str | None = None
) -> TruthElement:
    elements = phone.frame().elements
    if qualifier in _KINDS:
        hits = [e for e in elements if e.kind is _KINDS[qualifier] and e.caption == label]
    else:
        hits = [e for e in elements if e.text == label]
        hits += [e for e in elements if e.icon and label in (e.icon, icon_label(e.icon))]
    if not hits:
        shown = sorted({e.text for e in elements if e.text})
        raise AssertionError(f"nothing shows {label!r} ({qualifier or 'any'}); on screen: {shown}")
    if near is not None:
        top = _find(phone, near).box.y1
        below = [e for e in hits if e.box.center[1] >= top]
        return min(below or hits, key=lambda e: abs(e.box.center[1] - top))
    return hits[0]


def _field(phone: VirtualPhone, label: str) -> TruthElement:
    for e in phone.frame().elements:
        if e.editable and label in (e.caption, e.text, e.field):
            return e
    raise AssertionError(f"no field {label!r} on screen")


def _scroll(phone: VirtualPhone, down: bool) -> None:
    view = phone.frame().viewport
    x = (view.x1 + view.x2) // 2
    top, bottom = view.y1 + view.height // 4, view.y2 - view.height // 4
    phone.swipe(x, bottom if down else top, x, top if down else bottom, 300)


def _drag(phone: VirtualPhone, caption: str, percent: int) -> None:
    """Touch the slider ``caption`` at ``percent`` of its track."""
    frame = phone.frame()
    bar = next(
        (e for e in frame.elements if e.kind is ElementKind.SEEK_BAR and e.caption == caption), None
    )
    assert bar is not None, f"no slider {caption!r}"
    target = next(t for t in frame.targets if t.role == "seek" and t.box.contains(*bar.box.center))
    assert target.track is not None
    x1, x2 = target.track
    phone.tap(round(x1 + (x2 - x1) * percent / 100), bar.box.center[1])


def step(phone: VirtualPhone, text: str) -> None:
    """Perform one semantic step."""
    if m := _TAP.match(text):
        e = _find(phone, m.group(2), m.group(3), m.group(4))
        x, y = e.box.center
        if m.group(1) == "tap":
            phone.tap(x, y)
        else:
            phone.swipe(x, y, x, y, 700)
    elif m := _TYPE.match(text):
        phone.tap(*_field(phone, m.group(2)).box.center)
        phone.input_text(m.group(1))
    elif m := _CLEAR.match(text):
        e = _field(phone, m.group(1))
        phone.tap(*e.box.center)
        for _ in range(len(e.text) + 1):
            phone.keyevent(67)
    elif m := _DRAG.match(text):
        _drag(phone, m.group(1), int(m.group(2)))
    elif text in ("scroll down", "scroll up"):
        _scroll(phone, text == "scroll down")
    elif text == "press back":
        phone.keyevent(4)
    elif text == "press enter":
        phone.keyevent(66)
    elif text == "press home":
        phone.keyevent(3)
    else:
        raise AssertionError(f"unknown step {text!r}")


def replay(phone: VirtualPhone, task: Task) -> None:
    for i, text in enumerate(task.solution):
        try:
            step(phone, text)
        except AssertionError as exc:
            raise AssertionError(f"{task.id} step {i + 1} ({text}): {exc}") from exc


TASKS = all_tasks()


def test_suite_shape() -> None:
    mine = [t for t in TASKS if t.app in MY_APPS]
    assert len(mine) >= 30
    for package in MY_APPS:
        assert sum(t.app == package for t in mine) >= 8, package
    assert len({t.id for t in TASKS}) == len(TASKS)
    for t in mine:
        assert t.solution and len(t.solution) == t.min_steps, t.id
        assert 2 <= len(t.paraphrases) <= 4, t.id
        assert t.command not in t.paraphrases
    assert any(t.sensitive == "authentication" for t in mine)


@pytest.mark.parametrize("task", TASKS, ids=[t.id for t in TASKS])
def test_solution_replays_to_success(task: Task) -> None:
    phone = VirtualPhone()
    task.setup(phone)
    assert not task.check(phone), f"{task.id} is already done after setup"
    replay(phone, task)
    assert task.check(phone), f"{task.id}: check is False after its solution"


def test_tasks_cli_json() -> None:
    result = CliRunner().invoke(cli_app, ["tasks", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert [r["id"] for r in rows] == [t.id for t in TASKS]
    first = rows[0]
    assert {"id", "app", "command", "min_steps", "paraphrases", "solution"} <= set(first)
    clock = CliRunner().invoke(cli_app, ["tasks", "--json", "--app", "com.android.deskclock"])
    assert {r["app"] for r in json.loads(clock.output)} == {"com.android.deskclock"}


def test_tasks_cli_table_and_unknown_app() -> None:
    result = CliRunner().invoke(cli_app, ["tasks", "--app", "contacts"])
    assert result.exit_code == 0, result.output
    assert "contacts_import_vcf" in result.output and "settings_wifi_on" not in result.output
    bad = CliRunner().invoke(cli_app, ["tasks", "--app", "nosuchapp"])
    assert bad.exit_code != 0
