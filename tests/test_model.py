"""The data model: validation at construction and a lossless JSON round trip."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from screenpilot.errors import DataError
from screenpilot.model import (
    SCHEMA_VERSION,
    SECRET_PLACEHOLDER,
    Action,
    ActionKind,
    Block,
    BlockKind,
    Box,
    Direction,
    Element,
    ElementKind,
    Outcome,
    Screen,
    SensitiveCategory,
    Sensitivity,
    Step,
    Trajectory,
    describe_element,
)

texts = st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=20)
coords = st.integers(min_value=0, max_value=3000)


@st.composite
def boxes(draw: st.DrawFn) -> Box:
    x1, y1 = draw(coords), draw(coords)
    return Box(x1, y1, x1 + draw(st.integers(1, 500)), y1 + draw(st.integers(1, 500)))


@st.composite
def elements(draw: st.DrawFn, eid: int, block_ids: list[int]) -> Element:
    text = draw(texts)
    return Element(
        id=eid,
        kind=draw(st.sampled_from(ElementKind)),
        box=draw(boxes()),
        text=text,
        icon_label=draw(texts),
        caption=draw(texts),
        clickable=draw(st.booleans()),
        editable=draw(st.booleans()),
        scrollable=draw(st.booleans()),
        checked=draw(st.none() | st.booleans()),
        selected=draw(st.booleans()),
        hint=bool(text) and draw(st.booleans()),
        password=draw(st.booleans()),
        block_id=draw(st.none() | st.sampled_from(block_ids)) if block_ids else None,
        confidence=draw(st.floats(0, 1)),
    )


@st.composite
def screens(draw: st.DrawFn) -> Screen:
    n_blocks = draw(st.integers(0, 3))
    block_ids = list(range(n_blocks))
    n = draw(st.integers(0, 6))
    els = tuple(draw(elements(i, block_ids)) for i in range(n))
    blocks = tuple(
        Block(
            id=b,
            box=draw(boxes()),
            kind=draw(st.sampled_from(BlockKind)),
            caption=draw(texts),
            scrollable=draw(st.booleans()),
            active_element=draw(st.none() | st.sampled_from(range(n))) if n else None,
        )
        for b in block_ids
    )
    sens = Sensitivity(
        category=draw(st.sampled_from(SensitiveCategory)),
        evidence=tuple(draw(st.lists(texts, max_size=3))),
        score=draw(st.floats(0, 1)),
    )
    return Screen(
        width=draw(st.integers(1, 4000)),
        height=draw(st.integers(1, 4000)),
        elements=els,
        blocks=blocks,
        sensitivity=sens,
        app=draw(texts),
        secure=draw(st.booleans()),
        image_path=draw(texts),
    )


points = st.tuples(coords, coords)


@st.composite
def actions(draw: st.DrawFn, element_ids: list[int]) -> Action:
    kind = draw(st.sampled_from(ActionKind))
    target: dict[str, object] = (
        {"element": draw(st.sampled_from(element_ids))}
        if bool(element_ids) and draw(st.booleans())
        else {"point": draw(points)}
    )
    reason = draw(texts)
    if kind in (ActionKind.TAP, ActionKind.LONG_PRESS):
        return Action(kind, reason=reason, **target)  # type: ignore[arg-type]
    if kind is ActionKind.TYPE:
        return Action(kind, text=draw(st.text(min_size=1, max_size=20)), reason=reason)
    if kind is ActionKind.SWIPE:
        return Action(kind, start=draw(points), end=draw(points), duration_ms=draw(coords))
    if kind is ActionKind.SCROLL:
        return Action(kind, direction=draw(st.sampled_from(Direction)))
    if kind is ActionKind.LAUNCH:
        return Action(kind, app=draw(st.text(min_size=1, max_size=20)))
    if kind is ActionKind.WAIT:
        return Action(kind, duration_ms=draw(coords))
    if kind is ActionKind.STOP:
        return Action(kind, done=draw(st.booleans()), reason=reason)
    if kind is ActionKind.HANDOVER:
        return Action(kind, reason=draw(st.text(min_size=1, max_size=20)))
    return Action(kind, reason=reason)


@st.composite
def steps(draw: st.DrawFn, index: int = 0) -> Step:
    before = draw(screens())
    return Step(
        index=index,
        before=before,
        action=draw(actions([e.id for e in before.elements])),
        after=draw(st.none() | screens()),
        reason=draw(texts),
        timings=tuple((draw(texts), draw(st.floats(0, 100))) for _ in range(2)),
        error=draw(texts),
        undone=draw(st.booleans()),
    )


@st.composite
def trajectories(draw: st.DrawFn) -> Trajectory:
    n = draw(st.integers(0, 3))
    return Trajectory(
        task=draw(st.text(min_size=1, max_size=30).filter(str.strip)),
        steps=tuple(draw(steps(i)) for i in range(n)),
        outcome=draw(st.sampled_from(Outcome)),
        app=draw(texts),
        device=draw(texts),
        planner=draw(texts),
        started_at=draw(texts),
        finished_at=draw(texts),
        note=draw(texts),
    )


@given(boxes())
def test_box_round_trip(box: Box) -> None:
    assert Box.from_json(box.to_json()) == box


@given(screens())
@settings(max_examples=60)
def test_screen_round_trip(screen: Screen) -> None:
    text = screen.to_json()
    assert json.loads(text)["schema"] == SCHEMA_VERSION
    assert Screen.from_json(text) == screen


@given(st.data())
def test_action_round_trip(data: st.DataObject) -> None:
    action = data.draw(actions([0, 1, 2]))
    assert Action.from_json(action.to_json()) == action


@given(steps())
@settings(max_examples=40)
def test_step_round_trip(step: Step) -> None:
    assert Step.from_json(step.to_json()) == step


@given(trajectories())
@settings(max_examples=25)
def test_trajectory_round_trip(traj: Trajectory) -> None:
    assert Trajectory.from_dict(json.loads(traj.to_json())) == traj


@given(screens())
@settings(max_examples=30)
def test_describe_lists_every_element_once(screen: Screen) -> None:
    """Once each, but an on-screen keyboard's keys: its block is one line."""
    lines = [line.strip() for line in screen.describe().splitlines()]
    boards = {b.id for b in screen.blocks if b.kind is BlockKind.KEYBOARD}
    for e in screen.elements:
        listed = sum(line.startswith(f"[{e.id}] ") for line in lines)
        assert listed == (0 if e.block_id in boards else 1)
    used = {e.block_id for e in screen.elements if e.block_id in boards}
    assert sum(line.startswith("[keyboard] open (") for line in lines) == len(used)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"kind": ActionKind.TAP}, "exactly one of an element id or a point"),
        ({"kind": ActionKind.TAP, "element": 1, "point": (1, 2)}, "exactly one"),
        ({"kind": ActionKind.TYPE}, "type needs the text"),
        ({"kind": ActionKind.TYPE, "text": ""}, "type needs the text"),
        ({"kind": ActionKind.SCROLL}, "scroll needs a direction"),
        ({"kind": ActionKind.SCROLL, "direction": "sideways"}, "scroll needs a direction"),
        ({"kind": ActionKind.SWIPE, "start": (0, 0)}, "swipe needs a start and an end"),
        ({"kind": ActionKind.LAUNCH}, "launch needs"),
        ({"kind": ActionKind.HANDOVER}, "handover needs a reason"),
        ({"kind": ActionKind.BACK, "text": "x"}, "back takes no text"),
        ({"kind": ActionKind.TAP, "element": 1, "text": "x"}, "tap takes no text"),
        ({"kind": ActionKind.TAP, "point": (-1, 5)}, "two non-negative ints"),
        ({"kind": ActionKind.TAP, "element": -3}, "non-negative int"),
        ({"kind": ActionKind.BACK, "secret": True}, "only a type action can be secret"),
        ({"kind": ActionKind.TAP, "element": 1, "done": True}, "only a stop action"),
        ({"kind": "fly"}, "unknown kind"),
    ],
)
def test_action_validation(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(DataError, match=message):
        Action(**kwargs)  # type: ignore[arg-type]


def test_element_and_screen_validation() -> None:
    box = Box(0, 0, 10, 10)
    with pytest.raises(DataError, match="empty box"):
        Box(5, 5, 5, 9)
    with pytest.raises(DataError, match="confidence"):
        Element(id=0, kind=ElementKind.BUTTON, box=box, confidence=1.5)
    with pytest.raises(DataError, match="unknown kind"):
        Element(id=0, kind="widget", box=box)  # type: ignore[arg-type]
    e = Element(id=0, kind=ElementKind.BUTTON, box=box)
    with pytest.raises(DataError, match="not unique"):
        Screen(width=10, height=10, elements=(e, e))
    with pytest.raises(DataError, match="names block 3"):
        Screen(width=10, height=10, elements=(Element(0, ElementKind.TEXT, box, block_id=3),))
    with pytest.raises(DataError, match="empty screen"):
        Screen(width=0, height=10)


def test_step_rejects_action_on_missing_element() -> None:
    screen = Screen(
        width=100, height=100, elements=(Element(0, ElementKind.BUTTON, Box(0, 0, 10, 10)),)
    )
    with pytest.raises(DataError, match="no element 7 on screen"):
        Step(index=0, before=screen, action=Action(ActionKind.TAP, element=7))


def test_secret_text_never_serialised() -> None:
    action = Action(ActionKind.TYPE, text="hunter2", secret=True)
    assert "hunter2" not in action.to_json()
    assert "hunter2" not in repr(action)
    assert "hunter2" not in action.describe()
    loaded = Action.from_json(action.to_json())
    assert loaded.text == SECRET_PLACEHOLDER and loaded.secret


def test_from_json_rejects_bad_documents() -> None:
    with pytest.raises(DataError, match="newer"):
        Box.from_dict({"schema": SCHEMA_VERSION + 1, "x1": 0, "y1": 0, "x2": 1, "y2": 1})
    with pytest.raises(DataError, match="not a Screen"):
        Screen.from_json(Box(0, 0, 1, 1).to_json())
    with pytest.raises(DataError, match="JSON"):
        Screen.from_json("{not json")
    with pytest.raises(DataError, match="unknown field"):
        Box.from_dict({"x1": 0, "y1": 0, "x2": 1, "y2": 1, "z": 3})
    with pytest.raises(DataError, match="expected int"):
        Box.from_dict({"x1": "0", "y1": 0, "x2": 1, "y2": 1})


def test_describe_and_action_words() -> None:
    wifi = Element(
        3,
        ElementKind.SWITCH,
        Box(900, 300, 1000, 360),
        caption="Wi-Fi",
        clickable=True,
        checked=False,
        block_id=0,
    )
    name = Element(
        4,
        ElementKind.EDIT_TEXT,
        Box(50, 500, 1000, 600),
        text="Name",
        hint=True,
        editable=True,
        block_id=0,
    )
    screen = Screen(
        width=1080,
        height=2400,
        elements=(name, wifi),
        blocks=(Block(0, Box(0, 200, 1080, 800), BlockKind.LIST, caption="Network & internet"),),
    )
    text = screen.describe()
    assert text.splitlines()[0] == "[list 'Network & internet']"
    assert "[3] switch labelled 'Wi-Fi' (off)" in text
    assert "[4] edit text (empty, hint 'Name')" in text
    assert text.index("[3]") < text.index("[4]")
    assert Action(ActionKind.TAP, element=3).describe(screen) == "Tap the 'Wi-Fi' switch"


def test_trajectory_add_and_pop() -> None:
    screen = Screen(width=10, height=10)
    traj = Trajectory(task="turn on wifi")
    traj = traj.add(Step(index=9, before=screen, action=Action(ActionKind.BACK)))
    traj = traj.add(Step(index=9, before=screen, action=Action(ActionKind.HOME)))
    assert [s.index for s in traj.steps] == [0, 1]
    shorter, last = traj.pop()
    assert last.action.kind is ActionKind.HOME and len(shorter.steps) == 1
    assert traj.to_messages()[0]["content"] == "Task: turn on wifi"
    with pytest.raises(DataError, match="task must not be empty"):
        Trajectory(task="  ")


def test_a_radio_option_is_named_a_radio_button() -> None:
    """One ``radio_group`` element is one option (the detector's class name): describe,
    actions and the overlay's legend call it a radio button, the JSON keeps the value."""
    option = Element(
        5,
        ElementKind.RADIO_GROUP,
        Box(40, 300, 1000, 380),
        caption="Sort by name",
        clickable=True,
        selected=True,
    )
    screen = Screen(width=1080, height=2400, elements=(option,))
    assert "[5] radio button labelled 'Sort by name' (selected)" in screen.describe()
    assert Action(ActionKind.TAP, element=5).describe(screen) == (
        "Tap the 'Sort by name' radio button"
    )
    assert Screen.from_json(screen.to_json()).elements[0].kind is ElementKind.RADIO_GROUP
    assert '"radio_group"' in screen.to_json()
    assert ElementKind.CHECK_BOX.words == "check box"


def test_an_icon_says_icon_once() -> None:
    back = Element(1, ElementKind.ICON, Box(0, 2300, 100, 2400), icon_label="back")
    gear = Element(2, ElementKind.ICON, Box(0, 200, 100, 300), icon_label="settings")
    gear = dataclasses.replace(gear, caption="Settings")
    add = Element(3, ElementKind.BUTTON, Box(900, 2000, 1040, 2140), icon_label="add")
    lines = [describe_element(e) for e in (back, gear, add)]
    assert lines == [
        "[1] icon 'back'",
        "[2] icon labelled 'Settings' icon 'settings'",
        "[3] button icon 'add'",
    ]


def test_describe_reads_elements_in_no_block_where_they_lie() -> None:
    """NetGuard's traffic log: a list block ends before the screen's last rows, which
    make no block. They are read after the list, not first, above the status bar; what
    lies behind a dialog still comes last."""
    blocks = (
        Block(0, Box(0, 0, 1080, 60), BlockKind.STATUS_BAR),
        Block(1, Box(0, 200, 1080, 1400), BlockKind.LIST),
        Block(2, Box(0, 1900, 1080, 2028), BlockKind.NAVIGATION_BAR),
    )
    elements = (
        Element(1, ElementKind.TEXT, Box(900, 10, 1000, 50), text="09:50", block_id=0),
        Element(2, ElementKind.TEXT, Box(20, 100, 400, 150), text="Show log"),
        Element(3, ElementKind.TEXT, Box(20, 300, 400, 350), text="38834 vpn", block_id=1),
        Element(4, ElementKind.TEXT, Box(20, 1500, 400, 1550), text="57323 vpn"),
        Element(5, ElementKind.TEXT, Box(20, 1700, 400, 1750), text="59071 vpn"),
        Element(6, ElementKind.ICON, Box(500, 1930, 560, 1990), icon_label="home", block_id=2),
    )
    lines = Screen(1080, 2028, elements, blocks).describe().splitlines()
    assert lines == [
        "[status bar]",
        "  [1] text '09:50'",
        "[2] text 'Show log'",
        "[list]",
        "  [3] text '38834 vpn'",
        "[4] text '57323 vpn'",
        "[5] text '59071 vpn'",
        "[navigation bar]",
        "  [6] icon 'home'",
    ]
