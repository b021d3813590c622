"""The recorder when the phone is driven faster than it is captured (issue 20: `record`
with the phone driven by `input text` saved 5 taps and no typing step).

Frames and touches are laid out on a made-up clock and handed to the recorder's
touch handling directly: no threads, no sleeps, the same answer every time."""

from __future__ import annotations

from phone_fixtures import wait_until
from PIL import Image

from screenpilot.executor.device import Gesture
from screenpilot.model import Box, Element, ElementKind, Screen
from screenpilot.pbd.recorder import Frame, Recorder, Touch
from screenpilot.pbd.recorder.frames import Frames as _Frames
from screenpilot.pbd.recorder.steps import RecordingState as _State

W, H, DPI = 1080, 2400, 420


def el(
    i: int, kind: ElementKind, box: tuple[int, int, int, int], text: str = "", **kw: object
) -> Element:
    return Element(i, kind, Box(*box), text, **kw)  # type: ignore[arg-type]


def tap(x: int, y: int) -> Gesture:
    return Gesture("tap", x, y, x, y, 0.0, 50)


FIRST = (178, 656, 1038, 803)
LAST = (178, 856, 1038, 1003)
LIST = Screen(
    W,
    H,
    (
        el(1, ElementKind.TEXT, (60, 700, 500, 760), "David Kim"),
        el(2, ElementKind.BUTTON, (700, 1900, 1000, 2000), "Create contact"),
    ),
)
FORM = Screen(
    W,
    H,
    (
        el(1, ElementKind.EDIT_TEXT, FIRST, "First name", hint=True, editable=True),
        el(2, ElementKind.EDIT_TEXT, LAST, "Last name", hint=True, editable=True),
    ),
)
TYPED_FIRST = Screen(
    W, H, (el(1, ElementKind.EDIT_TEXT, FIRST, "Alice", editable=True), FORM.elements[1])
)
TYPED_BOTH = Screen(
    W, H, (TYPED_FIRST.elements[0], el(2, ElementKind.EDIT_TEXT, LAST, "Walker", editable=True))
)
SAVED = Screen(
    W,
    H,
    (
        el(1, ElementKind.TEXT, (60, 300, 700, 380), "Alice Walker"),
        el(2, ElementKind.BUTTON, (60, 1900, 400, 2000), "Call"),
    ),
)


class Describer:
    """Frames are tiny images whose first pixel says which screen they show."""

    def __init__(self, screens: list[Screen]) -> None:
        self.screens = screens
        self.described: list[int] = []

    def describe(self, image: Image.Image) -> Screen:
        level = image.getpixel((0, 0))
        assert isinstance(level, tuple)
        self.described.append(level[0])
        return self.screens[level[0]]


def frames_of(timeline: list[tuple[float, float, int]]) -> _Frames:
    """``(began, seen, screen index)`` frames, as the capture thread would have kept them."""
    import threading

    frames = _Frames(
        device=None,  # type: ignore[arg-type]
        interval=0.25,
        stop=threading.Event(),
        clock=lambda: 0.0,
    )
    for began, seen, index in timeline:
        image = Image.new("RGB", (8, 8), (index, 0, 0))
        frames.frames.append(Frame(seen, image, small=None, begun=began))  # type: ignore[arg-type]
    return frames


def recorder(describer: Describer) -> Recorder:
    return Recorder(device=None, describer=describer, density=DPI)  # type: ignore[arg-type]


def touch(down: float, x: int, y: int) -> Touch:
    return Touch(tap(x, y), down, down + 0.05, "com.android.contacts")


def test_the_frame_before_a_touch_is_the_last_whose_capture_began_before_it() -> None:
    """Captures take 0.6 s here. A capture that began after the typing but finished after
    the next touch went down is the one that shows the typing: it is chosen, not the
    older one that merely finished first."""
    frames = frames_of([(0.0, 0.6, 0), (1.0, 1.6, 1), (2.05, 2.65, 2)])
    chosen = frames.before(2.3)
    assert chosen is not None and chosen.begun == 2.05
    first = frames.before(0.9)
    assert first is not None and first.begun == 0.0
    assert [f.begun for f in frames.between(1.0, 2.3)] == [2.05]
    assert frames.between(2.1, 2.3) == []


def test_text_typed_with_input_text_between_slow_captures_is_a_type_step() -> None:
    """The issue's sequence: tap Create contact, tap First name, `input text Alice`, tap
    Last name, `input text Walker`, then Enter (a key, no touch) saves and leaves the
    form before the last tap. Every field gets its type step."""
    screens = [LIST, FORM, TYPED_FIRST, TYPED_BOTH, SAVED]
    describer = Describer(screens)
    rec = recorder(describer)
    frames = frames_of(
        [(0.0, 0.6, 0), (1.0, 1.6, 1), (2.05, 2.65, 2), (3.1, 3.7, 3), (3.8, 4.4, 4)]
    )
    state = _State()
    for t in (
        touch(0.9, 850, 1950),  # Create contact, on the list
        touch(1.7, 600, 720),  # First name, on the form
        touch(2.3, 600, 920),  # Last name: Alice was typed at 2.0
        touch(4.5, 200, 1950),
    ):  # Call, on the saved contact: Walker was
        rec._handle(t, frames, state, DPI)  # typed at 3.0, Enter pressed at 3.5
    assert state.words == [
        "tap 'Create contact'",
        "type 'Alice' into the 'First name' field",
        "type 'Walker' into the 'Last name' field",
        "tap 'Call'",
    ]
    assert [s.action.kind.value for s in state.steps] == ["tap", "type", "type", "tap"]


def test_no_frame_shows_the_typing_gives_the_plain_tap() -> None:
    """When no capture at all began between the typing and the next touch, the field's
    tap is recorded as a tap (nothing is made up)."""
    describer = Describer([FORM, SAVED])
    rec = recorder(describer)
    frames = frames_of([(0.0, 0.6, 0), (2.0, 2.6, 1)])
    state = _State()
    rec._handle(touch(0.9, 600, 720), frames, state, DPI)
    rec._handle(touch(2.5, 200, 1950), frames, state, DPI)
    assert state.words == ["tap the 'First name' field", "tap 'Call'"]


def test_a_touch_waits_for_the_captures_begun_before_it() -> None:
    """A capture begun before a touch but still in flight is waited for, and kept in
    order of when it began even if a later one lands first."""
    import threading

    release = {1.0: threading.Event(), 2.0: threading.Event()}
    now = [1.0]

    class SlowPhone:
        def capture(self) -> Image.Image:
            begun = now[0]
            release[begun].wait(10)
            return Image.new("RGB", (80, 160), (int(begun * 100), 0, 0))

    frames = _Frames(
        device=SlowPhone(),  # type: ignore[arg-type]
        interval=0.25,
        stop=threading.Event(),
        clock=lambda: now[0],
    )
    first = threading.Thread(target=frames.grab)
    first.start()
    wait_until(lambda: frames.in_flight, 5, interval=0.005)
    now[0] = 2.0
    second = threading.Thread(target=frames.grab)
    second.start()
    wait_until(lambda: len(frames.in_flight) >= 2, 5, interval=0.005)
    assert not frames.landed(1.5, timeout=0.05)  # the one begun at 1.0 is in flight
    release[2.0].set()
    second.join(10)
    assert not frames.landed(1.5, timeout=0.05)
    assert frames.landed(0.5, timeout=0.05)  # nothing begun before 0.5 is pending
    release[1.0].set()
    first.join(10)
    assert frames.landed(1.5, timeout=1.0)
    assert [f.begun for f in frames.frames] == [1.0, 2.0]
    chosen = frames.before(1.5)
    assert chosen is not None and chosen.begun == 1.0
