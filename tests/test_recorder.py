"""The recorder: touches read as semantic steps (on described screens made here, on a
scripted fake phone, and on the virtual phone through real adb and vision); typed
secrets never kept."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from pbd_helpers import WordEmbedder
from phone_fixtures import PhoneSession
from PIL import Image

from screenpilot.executor.device import Gesture
from screenpilot.language.keyboard import keyboard_top
from screenpilot.model import (
    SECRET_PLACEHOLDER,
    ActionKind,
    Block,
    BlockKind,
    Box,
    Direction,
    Element,
    ElementKind,
    Screen,
    Trajectory,
)
from screenpilot.pbd.recorder import (
    Recorder,
    element_at,
    interpret,
    typed_text,
)
from screenpilot.pbd.store import DemoStore
from screenpilot.report import save_run

W, H, DPI = 1080, 2400, 420


def el(
    i: int, kind: ElementKind, box: tuple[int, int, int, int], text: str = "", **kw: object
) -> Element:
    return Element(i, kind, Box(*box), text, **kw)  # type: ignore[arg-type]


def tap(x: int, y: int, kind: str = "tap") -> Gesture:
    return Gesture(kind, x, y, x, y, 0.0, 50 if kind == "tap" else 700)  # type: ignore[arg-type]


SETTINGS = Screen(
    W,
    H,
    (
        el(1, ElementKind.TEXT, (32, 135, 261, 206), "Settings", block_id=1),
        el(2, ElementKind.TEXT, (183, 459, 542, 508), "Network & internet", block_id=2),
        el(3, ElementKind.TEXT, (183, 650, 548, 699), "Connected devices", block_id=2),
        el(
            4, ElementKind.SWITCH, (886, 496, 1006, 575), caption="Wi-Fi", checked=False, block_id=2
        ),
        el(5, ElementKind.IMAGE, (40, 1900, 140, 2000)),
    ),
    (
        Block(1, Box(0, 63, 1080, 273), BlockKind.TOOLBAR, "Settings"),
        Block(2, Box(0, 400, 1080, 1800), BlockKind.LIST, "Network options"),
    ),
)

FORM = Screen(
    W,
    H,
    (
        el(1, ElementKind.EDIT_TEXT, (178, 656, 1038, 803), "First name", hint=True, editable=True),
        el(2, ElementKind.EDIT_TEXT, (178, 856, 1038, 1003), "Password", hint=True, editable=True),
    ),
)


def keyboard(rows: int = 3, per_row: int = 10, top: int = 1600) -> tuple[Element, ...]:
    keys = []
    for r in range(rows):
        for c in range(per_row):
            x, y = 20 + c * 104, top + r * 150
            keys.append(
                el(
                    100 + r * per_row + c,
                    ElementKind.BUTTON,
                    (x, y, x + 90, y + 120),
                    "qwertyuiop"[c],
                )
            )
    return tuple(keys)


# --- one touch on one screen ------------------------------------------------------------------
def test_tap_on_text_names_it_and_its_block() -> None:
    r = interpret(tap(300, 480), SETTINGS, density=DPI)
    assert r.kind == "step" and r.words == "tap 'Network & internet' in 'Network options'"
    assert r.action is not None and r.action.element == 2


def test_tap_beside_a_row_text_takes_the_row() -> None:
    assert element_at(SETTINGS, 700, 680, reach=126) == SETTINGS.element(3)
    r = interpret(tap(700, 680), SETTINGS, density=DPI)
    assert r.words.startswith("tap 'Connected devices'")


def test_tap_on_switch() -> None:
    r = interpret(tap(940, 530), SETTINGS, density=DPI)
    assert r.words == "tap the 'Wi-Fi' switch" and r.action is not None


def test_long_press_and_unreadable_point() -> None:
    assert interpret(tap(300, 480, "long_press"), SETTINGS, density=DPI).words.startswith(
        "long press 'Network & internet'"
    )
    r = interpret(tap(600, 1300), SETTINGS, density=DPI)
    assert r.words == "tap at 56% 54% of the screen"
    assert r.action is not None and r.action.point == (600, 1300)


def test_tap_in_a_toolbar_stays_in_the_toolbar() -> None:
    inbox = Screen(
        W,
        H,
        (
            el(1, ElementKind.TEXT, (182, 134, 500, 198), "Messages", block_id=1),
            el(2, ElementKind.TEXT, (880, 285, 1040, 330), "12:05 PM", block_id=2),
            el(3, ElementKind.TEXT, (182, 285, 500, 330), "Alice Chen", block_id=2),
        ),
        (
            Block(1, Box(0, 63, 1080, 273), BlockKind.TOOLBAR, "Messages"),
            Block(2, Box(0, 273, 1080, 2200), BlockKind.LIST),
        ),
    )
    r = interpret(tap(1000, 250), inbox, density=DPI)  # an icon vision did not see
    assert r.words == "tap at 93% 10% of the screen"
    assert interpret(tap(700, 300), inbox, density=DPI).words.startswith("tap '")


def test_swipes_are_scrolls_back_and_home() -> None:
    up = Gesture("swipe", 540, 1500, 540, 700, 0.0, 300)
    r = interpret(up, SETTINGS, density=DPI)
    assert r.action is not None and r.action.kind is ActionKind.SCROLL
    assert r.action.direction is Direction.DOWN
    assert r.words == "scroll down the 'Network options' list"
    assert interpret(
        Gesture("swipe", 540, 700, 540, 1500, 0.0, 300), SETTINGS, density=DPI
    ).words.startswith("scroll up")
    assert (
        interpret(Gesture("swipe", 5, 1200, 500, 1200, 0.0, 200), SETTINGS, density=DPI).words
        == "press back"
    )
    assert (
        interpret(Gesture("swipe", 540, 2395, 540, 1800, 0.0, 200), SETTINGS, density=DPI).words
        == "press home"
    )


def test_navigation_bar_taps() -> None:
    nav_y = H - 60
    assert interpret(tap(540 - 368, nav_y), SETTINGS, density=DPI).words == "press back"
    assert interpret(tap(540, nav_y), SETTINGS, density=DPI).words == "press home"
    assert interpret(tap(540 + 368, nav_y), SETTINGS, density=DPI).words == "open recent apps"


def test_keyboard_taps_are_typing_not_steps() -> None:
    with_kbd = Screen(W, H, FORM.elements + keyboard())
    assert keyboard_top(with_kbd, H - 126) is not None
    assert interpret(tap(120, 1700), with_kbd, density=DPI).kind == "keyboard"
    # A contacts list's section letters are single characters too, one per row.
    letters = tuple(
        el(10 + i, ElementKind.TEXT, (40, 1250 + i * 110, 80, 1300 + i * 110), "ABCDEFGHIJ"[i])
        for i in range(10)
    )
    assert keyboard_top(Screen(W, H, letters), H - 126) is None


def test_field_then_typed_text() -> None:
    r = interpret(tap(600, 720), FORM, density=DPI)
    assert r.kind == "field" and r.field is not None and r.field.label == "First name"
    assert not r.field.secret
    later = Screen(
        W,
        H,
        (
            el(1, ElementKind.TEXT, (190, 690, 400, 770), "Alice"),
            el(
                2,
                ElementKind.EDIT_TEXT,
                (178, 856, 1038, 1003),
                "Password",
                hint=True,
                editable=True,
            ),
        ),
    )
    assert typed_text(r.field, later) == "Alice"
    assert typed_text(r.field, FORM) is None  # nothing typed
    pw = interpret(tap(600, 920), FORM, density=DPI)
    assert pw.field is not None and pw.field.secret


# --- a scripted fake phone: typing and secrets ------------------------------------------------
class FakePhone:
    """Screens (as solid-colour images the fake describer maps back) and timed touches."""

    serial = "fake-1"

    def __init__(self, script: list[tuple[float, Gesture | None, Screen]]) -> None:
        self.script = script  # (delay, gesture or None, screen after it)
        self.screen = FORM
        self.screens: dict[int, Screen] = {}
        self.colour = 0

    def show(self, screen: Screen) -> None:
        self.colour += 1
        self.screens[self.colour] = screen
        self.screen = screen

    def capture(self) -> Image.Image:
        if not self.screens:
            self.show(self.screen)
        level = 30 * self.colour  # far enough apart for the recorder to see a change
        return Image.new("RGB", (W, H), (level, level, level))

    def size(self) -> tuple[int, int]:
        return (W, H)

    def density(self) -> int:
        return DPI

    def current_app(self) -> str:
        return "com.example.shop"

    def touch_events(
        self, *, stop: threading.Event | None = None, started: threading.Event | None = None
    ) -> Iterator[Gesture]:
        if started is not None:
            started.set()
        time.sleep(0.5)
        for delay, gesture, after in self.script:
            time.sleep(delay)
            if gesture is not None:
                yield gesture
            time.sleep(0.05)
            self.show(after)
        while stop is not None and not stop.wait(0.05):
            pass


class FakeDescriber:
    def __init__(self, phone: FakePhone) -> None:
        self.phone = phone

    def describe(self, image: Image.Image) -> Screen:
        colour = image.getpixel((0, 0))
        assert isinstance(colour, tuple)
        return self.phone.screens[colour[0] // 30]


def test_typed_secret_is_never_kept(tmp_path: Path) -> None:
    typed_name = Screen(
        W, H, (el(1, ElementKind.TEXT, (190, 690, 400, 770), "Alice"), FORM.element(2), *keyboard())
    )
    # A field that shows the password in the clear (a "show password" eye, say).
    typed_pw = Screen(
        W,
        H,
        (
            el(1, ElementKind.TEXT, (190, 690, 400, 770), "Alice"),
            el(2, ElementKind.TEXT, (190, 890, 500, 970), "hunter22"),
        ),
        (Block(1, Box(150, 850, 1050, 1010), BlockKind.CARD, "hunter22"),),
    )
    script: list[tuple[float, Gesture | None, Screen]] = [
        (0.6, tap(600, 720), typed_name),  # the name field; "Alice" typed
        (0.6, tap(120, 1700), typed_name),  # a key of the keyboard: no step
        (0.6, tap(600, 920), typed_pw),  # the password field; typed in the clear
        (0.6, tap(120, 2340), typed_pw),  # back on the navigation bar
    ]
    phone = FakePhone(script)
    steps: list[str] = []
    recorder = Recorder(
        phone,  # type: ignore[arg-type]
        FakeDescriber(phone),
        idle_s=1.5,
        interval=0.05,
        on_step=lambda n, w: steps.append(w),
    )
    rec = recorder.record("sign in as Alice")
    assert rec.steps == (
        "type 'Alice' into the 'First name' field",
        f"type {SECRET_PLACEHOLDER} into the 'Password' field",
        "press back",
    )
    assert steps == list(rec.steps) and rec.ended.startswith("idle")
    assert rec.app == "com.example.shop" and rec.size == (W, H)
    secret_step = rec.trajectory.steps[1]
    assert secret_step.action.secret and secret_step.action.kind is ActionKind.TYPE
    path = save_run(rec.trajectory, tmp_path / "run")
    saved = path.read_text()
    assert "hunter22" not in saved and "Alice" in saved
    assert Trajectory.from_json(saved).steps[1].action.secret
    store = DemoStore.open(tmp_path / "store", embedder=WordEmbedder())
    demo_id = store.add(rec.demo(trajectory_path=str(path)))
    stored = store.get(demo_id)
    assert stored.steps == rec.steps and stored.source == "recorded"
    assert stored.screen == "1080x2400" and stored.trajectory == str(path)
    assert "hunter22" not in repr(store.list())


# --- the virtual phone, through adb and vision ------------------------------------------------
@pytest.mark.slow
def test_record_on_the_virtual_phone(phone: PhoneSession, tmp_path: Path) -> None:
    from screenpilot.executor.adb import AdbDevice
    from screenpilot.vision.incremental import IncrementalDescriber

    vp = phone.backend.inner
    vp.reset()
    recorder = Recorder(
        AdbDevice(phone.serial), IncrementalDescriber(), idle_s=60, out=tmp_path / "rec"
    )
    stop = threading.Event()
    done: list[object] = []
    thread = threading.Thread(
        target=lambda: done.append(recorder.record("add Alice Walker to my contacts", stop=stop)),
        daemon=True,
    )
    thread.start()
    assert recorder.ready.wait(30)

    def act(fn: object, *args: object) -> None:
        time.sleep(0.3)
        fn(*args)  # type: ignore[operator]
        time.sleep(0.15)
        assert recorder.wait_captured(20)

    def centre(text: str) -> tuple[int, int]:
        found = vp.frame().find(text)
        assert found is not None, text
        return found.box.center  # type: ignore[no-any-return]

    def field(caption: str) -> tuple[int, int]:
        return next(  # type: ignore[no-any-return]
            e.box.center for e in vp.frame().elements if e.editable and e.caption == caption
        )

    act(vp.tap, *centre("Contacts"))
    act(vp.swipe, 540, 1800, 540, 900, 300)
    act(vp.tap, *centre("Create contact"))
    act(vp.tap, *field("First name"))
    act(vp.input_text, "Alice")
    act(vp.tap, *field("Last name"))
    act(vp.input_text, "Walker")
    stop.set()
    thread.join(120)
    rec = done[0]
    steps = rec.steps  # type: ignore[attr-defined]
    assert steps[0] == "tap 'Contacts'" and steps[1].startswith("scroll down")
    assert steps[2:] == (
        "tap 'Create contact'",
        "type 'Alice' into the 'First name' field",
        "type 'Walker' into the 'Last name' field",
    )
    assert rec.app == "com.android.contacts"  # type: ignore[attr-defined]
    first = rec.trajectory.steps[0]  # type: ignore[attr-defined]
    assert first.action.kind is ActionKind.TAP and first.after is not None
    assert first.before.element(first.action.element).text == "Contacts"
