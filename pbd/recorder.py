"""Record a person doing a task on the phone and turn it into semantic steps.

::

    recorder = Recorder(device, describer)
    recording = recorder.record("turn on wifi")      # until Ctrl-C, ``stop`` or idle
    recording.steps   # ("tap 'Settings'", "tap 'Network & internet'",
                      #  "tap the 'Wi-Fi' switch")

While the person works, three things run side by side:

- the touches: ``device.touch_events()`` (``getevent -lt`` on the phone, real or
  virtual) yields each finished gesture; the moment the finger went down is its
  arrival time less its duration;
- the frames: the screen is captured every ``interval`` seconds, and once more
  just after each touch (beside the periodic capture), and kept when it changed; a
  frame shows the screen as it was when its capture began, so the frame *before* a
  touch is the last one whose capture began (``CAPTURE_LAG_S``) before the finger
  went down, once every capture begun by then has landed: it never shows the
  touch's effect, and it shows the previous touch's even when captures are slower
  than the person (a loaded machine, a phone driven by ``input tap``/``input text``);
- the interpretation: each touch's frame is described by vision (the same
  ``Describer`` the run loop uses) and the touch becomes a step: the element under
  the finger (or the nearest labelled one in its row) names the step ("tap
  'Network & internet' in 'Settings'", "tap the 'Wi-Fi' switch", "long press 'Bob
  Lee'"); a swipe is a scroll ("scroll down the 'Contacts' list") or a slider
  drag; the navigation bar and edge swipes are back/home; taps on the on-screen
  keyboard are typing, not steps.

Typing is read from the screen, not from the keys: when a field was tapped, the
field's text on a later frame (the next touch's, or the last one) is what was
typed: "type 'Alice' into the 'First name' field". Text typed with ``input text``
(or a hardware keyboard) leaves no touch at all, so when the next touch's frame
does not show it, the frames captured between the two touches are read too. A
password field (flagged by
vision, masked, or named password/PIN/CVV...) gives "type <secret> into the
'Password' field" and its value is never read, kept or stored.

Recording ends on ``stop``, on Ctrl-C, or when neither a touch nor a change of the
screen happened for ``idle_s`` seconds (before the first touch: at least a minute).
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import queue
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

import numpy as np
from PIL import Image

from screenpilot.errors import DeviceError
from screenpilot.executor.device import Device, Gesture
from screenpilot.language.keyboard import keyboard_top
from screenpilot.model import (
    SECRET_PLACEHOLDER,
    Action,
    ActionKind,
    BlockKind,
    Direction,
    Element,
    ElementKind,
    Outcome,
    Screen,
    Step,
    Trajectory,
)
from screenpilot.pbd.store import DemoRecord, language_of

log = logging.getLogger(__name__)

#: Seconds a recording waits for its first touch (``idle_s`` counts after that).
FIRST_TOUCH_S = 60.0
#: A capture shows the screen as it was at most this long after the capture began.
CAPTURE_LAG_S = 0.05
#: Frames between a field's tap and the next touch read for the text typed into it.
TYPED_LOOKBACK = 3
#: A capture starts this long after each touch (the screen has reacted by then) ...
POST_TOUCH_S = 0.1
#: ... unless this many captures are in flight already.
MAX_IN_FLIGHT = 2
#: The longest a touch waits for the captures begun before it to land.
LANDING_S = 15.0
LAUNCHERS = ("launcher", "nexuslauncher", "trebuchet", "home")
#: Words that make a field a secret (its value is never read or stored).
SECRET_WORDS = ("password", "passcode", "pin", "cvv", "cvc", "card number", "security code",
                "密码", "验证码")
_MASKED = re.compile(r"^\s*[•●*·∙⋅◦]{2,}\s*$")
_BARS = {ElementKind.STATUS_BAR, ElementKind.NAVIGATION_BAR}
_LABELLED_KINDS = {ElementKind.TEXT, ElementKind.BUTTON, ElementKind.ICON, ElementKind.IMAGE,
                   ElementKind.SWITCH, ElementKind.CHECK_BOX, ElementKind.EDIT_TEXT,
                   ElementKind.RADIO_GROUP, ElementKind.SPINNER, ElementKind.SEEK_BAR,
                   ElementKind.RATING_BAR}


class Describer(Protocol):
    """Screenshot -> ``Screen`` (vision/'s pipeline or its incremental describer)."""

    def describe(self, image: Image.Image) -> Screen: ...


# ======================================================================================
# interpreting one touch on one described screen (pure functions)
# ======================================================================================
@dataclass(frozen=True, slots=True)
class PendingField:
    """A field the person tapped: what was typed is read from a later frame."""

    element: Element
    label: str
    text_before: str
    secret: bool


@dataclass(frozen=True, slots=True)
class Reading:
    """What one touch was: a step (action + words), a field tap, or a keyboard key."""

    kind: str                    # "step" | "field" | "keyboard"
    action: Action | None = None
    words: str = ""
    field: PendingField | None = None


def dp(density: int, value: float) -> int:
    return round(value * density / 160)


def _label(e: Element) -> str:
    return e.text or e.caption or e.icon_label


def element_at(screen: Screen, x: int, y: int, *, reach: int) -> Element | None:
    """The element a finger at (x, y) meant: the smallest labelled one under it, else
    the labelled one nearest in its row, else the nearest within ``reach`` px."""
    els = [e for e in screen.elements if e.kind not in _BARS]
    bars = [b for b in screen.blocks if b.box.contains(x, y)
            and b.kind in (BlockKind.TOOLBAR, BlockKind.TAB_BAR)]
    if bars:     # a tap in a toolbar means something in that toolbar, not the list below
        els = [e for e in els if e.block_id == bars[0].id or bars[0].box.contains(*e.box.center)]
    under = [e for e in els if e.box.contains(x, y)]
    labelled = [e for e in under if _label(e) or e.kind in (ElementKind.SWITCH,
                                                            ElementKind.CHECK_BOX)]
    if labelled:
        return min(labelled, key=lambda e: (e.kind not in (ElementKind.SWITCH,
                                                           ElementKind.CHECK_BOX,
                                                           ElementKind.EDIT_TEXT),
                                            e.box.area))
    row = [e for e in els if _label(e) and e.box.y1 - reach / 3 <= y <= e.box.y2 + reach / 3
           and _distance(e, x, y) <= (reach if _in_bar(screen, e) else 0.4 * screen.width)]
    if row:
        return min(row, key=lambda e: _distance(e, x, y))
    if under:
        return min(under, key=lambda e: e.box.area)
    near = [e for e in els if _distance(e, x, y) <= reach]
    if near:
        best = min(near, key=lambda e: (not _label(e), _distance(e, x, y)))
        return best
    return None


def _in_bar(screen: Screen, e: Element) -> bool:
    """In a toolbar or tab bar (near the top or bottom), where each icon is its own
    button: a tap away from a text there is not a tap on it."""
    if e.block_id is not None and screen.block(e.block_id).kind in (BlockKind.TOOLBAR,
                                                                   BlockKind.TAB_BAR):
        return True
    return e.box.y2 <= screen.height * 0.12


def _distance(e: Element, x: int, y: int) -> float:
    dx = max(e.box.x1 - x, 0, x - e.box.x2 + 1)
    dy = max(e.box.y1 - y, 0, y - e.box.y2 + 1)
    return float(np.hypot(dx, dy))


def _caption_below(screen: Screen, e: Element, reach: int) -> str:
    """An unlabelled icon's name: the text just below it (launcher icons) or beside it."""
    cx = e.box.center[0]
    below = [t for t in screen.elements if t.kind is ElementKind.TEXT and t.text
             and 0 <= t.box.y1 - e.box.y2 <= reach and t.box.x1 - reach / 2 <= cx
             <= t.box.x2 + reach / 2]
    if below:
        return min(below, key=lambda t: t.box.y1 - e.box.y2).text
    return ""


def row_label(screen: Screen, e: Element) -> str:
    """A switch's or check box's name: its caption, else the text at the left of its row."""
    if e.caption:
        return e.caption
    cy = e.box.center[1]
    row = [t for t in screen.elements if t.kind is ElementKind.TEXT and t.text
           and t.box.y1 - e.box.height <= cy <= t.box.y2 + e.box.height and t.box.x2 <= e.box.x1]
    return min(row, key=lambda t: (abs(t.box.center[1] - cy), t.box.x1)).text if row else ""


def is_field(e: Element) -> bool:
    return e.kind is ElementKind.EDIT_TEXT or e.editable or e.hint


def is_secret(e: Element, label: str) -> bool:
    words = label.lower()
    return e.password or bool(_MASKED.match(e.text)) or any(
        re.search(rf"(?<![a-z]){re.escape(w)}(?![a-z])", words) if w.isascii() else w in words
        for w in SECRET_WORDS)


def block_caption(screen: Screen, e: Element) -> str:
    if e.block_id is None:
        return ""
    return screen.block(e.block_id).caption


def target_words(screen: Screen, e: Element, *, reach: int) -> str:
    """How a step names its element: "'Network & internet' in 'Settings'", "the 'Wi-Fi'
    switch", "the 'magnify' icon", "the 'First name' field"."""
    if e.kind in (ElementKind.SWITCH, ElementKind.CHECK_BOX):
        kind = "switch" if e.kind is ElementKind.SWITCH else "check box"
        name = row_label(screen, e)
        return f"the '{name}' {kind}" if name else f"the {kind}"
    if is_field(e):
        return f"the '{field_label(e)}' field"
    label = e.text or e.caption
    if not label and e.icon_label:
        return f"the '{e.icon_label}' icon"
    if not label:
        label = _caption_below(screen, e, reach)
    if not label:
        return ""
    caption = block_caption(screen, e)
    suffix = f" in '{caption}'" if caption and caption.lower() != label.lower() else ""
    return f"'{label}'{suffix}"


def field_label(e: Element) -> str:
    """A field's name: its caption, else its hint text (the search icon's 'Q' dropped)."""
    label = e.caption or (e.text if e.hint else "") or e.icon_label or e.text
    return re.sub(r"^[Qq]\s+(?=[A-Z])", "", label).strip() or "text"


def interpret(gesture: Gesture, screen: Screen, *, density: int = 420) -> Reading:
    """What one gesture on ``screen`` was (see the module docstring)."""
    x, y = gesture.x, gesture.y
    w, h = screen.width, screen.height
    nav_top = h - dp(density, 48)
    reach = dp(density, 48)
    if gesture.kind == "swipe":
        return _swipe(gesture, screen, density)
    if y >= nav_top and not _content_at(screen, x, y, nav_top):
        slot = min(w / 3, dp(density, 140))
        if x < w / 2 - slot / 2:
            return Reading("step", Action(ActionKind.BACK), "press back")
        if x <= w / 2 + slot / 2:
            return Reading("step", Action(ActionKind.HOME), "press home")
        return Reading("step", Action(ActionKind.TAP, point=(x, y)), "open recent apps")
    kbd = keyboard_top(screen, nav_top)
    if kbd is not None and y >= kbd:
        if x >= w * 0.8 and y >= nav_top - (nav_top - kbd) / 4:
            return Reading("step", Action(ActionKind.TAP, point=(x, y)), "press enter")
        return Reading("keyboard")
    e = element_at(screen, x, y, reach=reach)
    long = gesture.kind == "long_press"
    if e is None:
        return _at_point(gesture, screen)
    if e.kind is ElementKind.SEEK_BAR and not long:
        return Reading("step", Action(ActionKind.TAP, point=(x, y)),
                       _slider_words(screen, e, x))
    if is_field(e) and not long:
        label = field_label(e)
        before = "" if e.hint else e.text
        return Reading("field", Action(ActionKind.TAP, element=e.id),
                       f"tap the '{label}' field",
                       PendingField(e, label, before, is_secret(e, label)))
    target = target_words(screen, e, reach=reach)
    if not target:
        return _at_point(gesture, screen)
    if long:
        return Reading("step", Action(ActionKind.LONG_PRESS, element=e.id),
                       f"long press {target}")
    return Reading("step", Action(ActionKind.TAP, element=e.id), f"tap {target}")


def _at_point(gesture: Gesture, screen: Screen) -> Reading:
    """Nothing readable under the finger: the step names the point as a share of the
    screen ("tap at 81% 7% of the screen"), which carries over to other screen sizes."""
    x, y = gesture.x, gesture.y
    long = gesture.kind == "long_press"
    kind = ActionKind.LONG_PRESS if long else ActionKind.TAP
    where = f"{round(100 * x / screen.width)}% {round(100 * y / screen.height)}%"
    return Reading("step", Action(kind, point=(x, y)),
                   f"{'long press' if long else 'tap'} at {where} of the screen")


def _content_at(screen: Screen, x: int, y: int, nav_top: int) -> bool:
    """True when the app draws a labelled element there (not the navigation bar)."""
    return any(e.box.contains(x, y) and e.kind not in _BARS and _label(e)
               and e.box.y1 < nav_top - 2 for e in screen.elements)


def _slider_words(screen: Screen, e: Element, x: int) -> str:
    level = (x - e.box.x1) / max(1, e.box.width - 1)
    pct = round(min(1.0, max(0.0, level)) * 100)
    pct = 0 if pct <= 5 else 100 if pct >= 95 else pct
    name = e.caption or row_label(screen, e) or "slider"
    return f"drag the '{name}' slider to {pct}%"


def _swipe(g: Gesture, screen: Screen, density: int) -> Reading:
    dx, dy = g.end_x - g.x, g.end_y - g.y
    w, h = screen.width, screen.height
    edge = dp(density, 24)
    start, end = (g.x, g.y), (max(0, g.end_x), max(0, g.end_y))
    if abs(dx) > abs(dy) and (g.x <= edge or g.x >= w - edge):
        return Reading("step", Action(ActionKind.BACK), "press back")
    if dy < 0 and abs(dy) > abs(dx) and g.y >= h - edge:
        return Reading("step", Action(ActionKind.HOME), "press home")
    on = element_at(screen, g.x, g.y, reach=dp(density, 16))
    if on is not None and on.kind is ElementKind.SEEK_BAR:
        return Reading("step", Action(ActionKind.SWIPE, start=start, end=end),
                       _slider_words(screen, on, g.end_x))
    if abs(dy) >= abs(dx):
        direction = Direction.DOWN if dy < 0 else Direction.UP
    else:
        direction = Direction.RIGHT if dx < 0 else Direction.LEFT
    caption = ""
    lists = [b for b in screen.blocks if b.kind in (BlockKind.LIST, BlockKind.GRID)
             and b.caption and b.box.contains(g.x, g.y)]
    if lists:
        caption = f" the '{min(lists, key=lambda b: b.box.area).caption}' list"
    return Reading("step", Action(ActionKind.SCROLL, direction=direction),
                   f"scroll {direction.value}{caption}")


def typed_text(pending: PendingField, later: Screen) -> str | None:
    """What the field shows on a later screen, when it differs from before (None: the
    field is gone, or nothing was typed)."""
    box = pending.element.box
    cands = [e for e in later.elements if e.kind not in _BARS and e.text and not e.hint
             and box.contains(*e.box.center)]
    if not cands:
        return None
    e = max(cands, key=lambda c: (c.kind is ElementKind.EDIT_TEXT, c.box.intersection(box)))
    text = e.text.rstrip("|").strip()
    if is_secret(e, pending.label):
        text = text or SECRET_PLACEHOLDER
    if not text or text == pending.text_before or text == pending.label or (
            text == pending.element.text and pending.element.hint):
        return None
    return text


# ======================================================================================
# the recording session
# ======================================================================================
@dataclass
class Frame:
    """A distinct screen image, when its capture had finished (host clock) and when the
    capture that first showed it began (``begun``: when the screen looked like this)."""

    seen: float
    image: Image.Image
    small: np.ndarray
    screen: Screen | None = None
    path: str = ""
    begun: float = -1.0


@dataclass(frozen=True, slots=True)
class Touch:
    gesture: Gesture
    down: float
    up: float
    app: str = ""


@dataclass(frozen=True)
class Recording:
    """What a recording produced: the semantic steps and the full trajectory."""

    task: str
    steps: tuple[str, ...]
    trajectory: Trajectory
    app: str = ""
    size: tuple[int, int] = (0, 0)
    ended: str = ""

    def demo(self, *, trajectory_path: str = "", source: str = "recorded") -> DemoRecord:
        """The instruction-solution pair for the demonstration store."""
        w, h = self.size
        return DemoRecord(self.task, self.steps, app=self.app,
                          screen=f"{w}x{h}" if w else "", language=language_of(self.task),
                          source=source, trajectory=trajectory_path)


def _small(image: Image.Image) -> np.ndarray:
    return np.asarray(image.convert("L").resize((max(1, image.width // 8),
                                                 max(1, image.height // 8))), dtype=np.int16)


def _changed(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape != b.shape or float(np.mean(np.abs(a - b) > 12)) > 0.0005


@dataclass
class _Frames:
    """Captures the screen every ``interval`` s on a thread; keeps the distinct frames."""

    device: Device
    interval: float
    stop: threading.Event
    clock: Callable[[], float]
    frames: list[Frame] = field(default_factory=list)
    last_change: float = 0.0
    error: BaseException | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)
    first: threading.Event = field(default_factory=threading.Event)
    grabbed: threading.Condition = field(default_factory=threading.Condition)
    #: When the capture that finished last had started.
    last_start: float = -1.0
    #: Set after a touch: capture again at once instead of after ``interval``.
    wake: threading.Event = field(default_factory=threading.Event)
    #: When each capture still in flight began.
    in_flight: list[float] = field(default_factory=list)

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                self.grab()
                if self.wake.wait(self.interval):
                    self.wake.clear()
        except DeviceError as exc:
            self.error = exc
            self.stop.set()
        finally:
            self.stop.set()

    def after_touch(self) -> None:
        """A capture of the screen as the touch left it, started now beside the periodic
        one (when captures are slow, the next touch may come before the periodic one)."""
        with self.grabbed:
            if len(self.in_flight) >= MAX_IN_FLIGHT:
                self.wake.set()
                return

        def grab() -> None:
            if self.stop.wait(POST_TOUCH_S):
                return
            with contextlib.suppress(DeviceError):
                self.grab()
        threading.Thread(target=grab, daemon=True, name="record-after-touch").start()

    def grab(self) -> Frame:
        begun = self.clock()
        with self.grabbed:
            self.in_flight.append(begun)
        try:
            image = self.device.capture()
            seen = self.clock()
            small = _small(image)
            with self.lock:
                older = [f for f in self.frames if f.begun <= begun]
                newer = [f for f in self.frames if f.begun > begun]
                if older and not _changed(older[-1].small, small):
                    frame = older[-1]
                elif newer and not _changed(newer[0].small, small):
                    frame = newer[0]                 # the same screen, seen earlier
                    frame.begun = begun
                else:
                    frame = Frame(seen, image, small, begun=begun)
                    self.frames = [*older, frame, *newer]
                    self.last_change = max(self.last_change, seen)
        finally:
            with self.grabbed:
                self.in_flight.remove(begun)
                self.last_start = max(self.last_start, begun)
                self.grabbed.notify_all()
        self.first.set()
        return frame

    def landed(self, moment: float, timeout: float) -> bool:
        """Wait until every capture begun before ``moment`` has finished (its frame kept)."""
        with self.grabbed:
            return self.grabbed.wait_for(
                lambda: all(b + CAPTURE_LAG_S >= moment for b in self.in_flight), timeout)

    def wait_after(self, moment: float, timeout: float) -> bool:
        """Wait until a capture that started after ``moment`` has finished."""
        with self.grabbed:
            return self.grabbed.wait_for(lambda: self.last_start > moment or self.stop.is_set(),
                                         timeout)

    def before(self, moment: float) -> Frame | None:
        """The last frame whose capture began before ``moment`` (else the oldest kept)."""
        with self.lock:
            found = [f for f in self.frames if f.begun + CAPTURE_LAG_S < moment]
            return found[-1] if found else (self.frames[0] if self.frames else None)

    def between(self, start: float, end: float) -> list[Frame]:
        """Frames whose capture began after ``start`` and before ``end``, newest first."""
        with self.lock:
            return [f for f in reversed(self.frames)
                    if start < f.begun and f.begun + CAPTURE_LAG_S < end]

    def prune(self, keep_from: Frame) -> None:
        with self.lock:
            self.frames = [f for f in self.frames if f.begun >= keep_from.begun]


class Recorder:
    """Records a demonstration on ``device``; ``describer`` reads each screen."""

    def __init__(self, device: Device, describer: Describer, *, idle_s: float = 20.0,
                 interval: float = 0.25, density: int | None = None,
                 on_step: Callable[[int, str], None] | None = None,
                 out: Path | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.device = device
        self.describer = describer
        self.idle_s = idle_s
        self.interval = interval
        self.density = density
        self.on_step = on_step
        self.out = out
        self.clock = clock
        #: Set once the phone is being listened to and a first frame is captured.
        self.ready = threading.Event()
        self._frames: _Frames | None = None

    def wait_captured(self, timeout: float = 10.0) -> bool:
        """Wait until the screen as it is now has been captured (for scripted
        demonstrations, which act faster than a person); False on timeout."""
        frames, moment = self._frames, self.clock()
        return frames.wait_after(moment, timeout) if frames is not None else False

    def _describe(self, frame: Frame) -> Screen:
        if frame.screen is None:
            screen = self.describer.describe(frame.image)
            if self.out is not None:
                self.out.mkdir(parents=True, exist_ok=True)
                path = self.out / f"frame_{frame.seen:.3f}.png"
                frame.image.save(path)
                frame.path = str(path)
                screen = dataclasses.replace(screen, image_path=str(path))
            frame.screen = screen
        return frame.screen

    def record(self, task: str, *, stop: threading.Event | None = None,
               max_s: float | None = None) -> Recording:
        """Record until ``stop`` is set, Ctrl-C, ``idle_s`` without activity, or ``max_s``."""
        stop = stop or threading.Event()
        halt = threading.Event()
        started_at = datetime.now(UTC).isoformat(timespec="seconds")
        size = self.device.size()
        density = self.density or self.device.density()
        frames = self._frames = _Frames(self.device, self.interval, halt, self.clock)
        touches: queue.Queue[Touch] = queue.Queue()
        listening = threading.Event()
        touch_error: list[BaseException] = []

        def listen() -> None:
            try:
                for g in self.device.touch_events(stop=halt, started=listening):
                    up = self.clock()
                    frames.after_touch()
                    app = ""
                    try:
                        app = self.device.current_app()
                    except DeviceError:
                        app = ""
                    touches.put(Touch(g, up - g.duration_ms / 1000, up, app))
            except DeviceError as exc:
                touch_error.append(exc)
                halt.set()

        threads = [threading.Thread(target=frames.run, daemon=True, name="record-frames"),
                   threading.Thread(target=listen, daemon=True, name="record-touches")]
        state = _State()
        ended = "stopped"
        try:
            for t in threads:
                t.start()
            listening.wait(15)
            frames.first.wait(15)
            self.ready.set()
            start = self.clock()
            while True:
                if stop.is_set() or halt.is_set():
                    ended = "stopped" if stop.is_set() else "error"
                    break
                try:
                    touch = touches.get(timeout=0.2)
                except queue.Empty:
                    now = self.clock()
                    quiet_since = max(start, frames.last_change, state.last_up)
                    # Before the first touch, give the person time to begin.
                    limit = self.idle_s if state.last_up else max(self.idle_s, FIRST_TOUCH_S)
                    if now - quiet_since >= limit:
                        ended = f"idle for {limit:.0f} s"
                        break
                    if max_s is not None and now - start >= max_s:
                        ended = "time limit"
                        break
                    continue
                self._handle(touch, frames, state, density)
        except KeyboardInterrupt:
            ended = "Ctrl-C"
        finally:
            halt.set()
            for t in threads:
                t.join(5)
        while not touches.empty():
            self._handle(touches.get(), frames, state, density)
        errors = [e for e in (*touch_error, frames.error) if e is not None]
        if errors and not state.steps and state.pending is None:
            raise errors[0]
        for err in errors:
            log.warning("recording ended early: %s", err)
        try:
            last: Frame | None = frames.grab()
        except DeviceError:
            last = frames.frames[-1] if frames.frames else None
        final = self._describe(last) if last is not None else None
        if final is not None:
            self._flush_field(state, self._typed_on(state, frames, last, final, self.clock()))
        else:
            self._flush_field(state, final)
        if final is not None:
            _revise(state, final)
        steps = _redact(_attach_after(state.steps, final), state.secrets)
        app = _main_app(state.apps)
        traj = Trajectory(task=task, steps=tuple(steps), outcome=Outcome.SUCCESS, app=app,
                          device=self.device.serial, planner="demonstration",
                          started_at=started_at,
                          finished_at=datetime.now(UTC).isoformat(timespec="seconds"),
                          note=f"recorded demonstration ({ended})")
        return Recording(task, tuple(state.words), traj, app, size, ended)

    # --- one touch ----------------------------------------------------------------------------
    def _handle(self, touch: Touch, frames: _Frames, state: _State, density: int) -> None:
        frames.landed(touch.down, LANDING_S)
        frame = frames.before(touch.down) or frames.grab()
        log.debug("touch %s at (%d, %d) down %.3f up %.3f; frame seen %.3f of %s",
                  touch.gesture.kind, touch.gesture.x, touch.gesture.y, touch.down, touch.up,
                  frame.seen, [round(f.seen, 3) for f in frames.frames])
        screen = self._describe(frame)
        _revise(state, screen)
        if touch.app:
            state.apps.append(touch.app)
        state.last_up = touch.up
        reading = interpret(touch.gesture, screen, density=density)
        if reading.kind == "keyboard":
            return
        self._flush_field(state, self._typed_on(state, frames, frame, screen, touch.down))
        if reading.kind == "field" and reading.field is not None:
            state.pending = (reading, screen)
            state.pending_up = touch.up
        elif reading.action is not None:
            self._emit(state, screen, reading.action, reading.words)
        frames.prune(frame)

    def _typed_on(self, state: _State, frames: _Frames, frame: Frame | None, screen: Screen,
                  until: float) -> Screen:
        """The screen to read the pending field's text on: the touch's own, unless that
        shows nothing typed and a frame captured since the field's tap does (typing that
        left no touch: ``input text``, a hardware keyboard)."""
        if state.pending is None:
            return screen
        pending = state.pending[0].field
        if pending is None or typed_text(pending, screen) is not None:
            return screen
        looked = 0
        for other in frames.between(state.pending_up, until):
            if other is frame or looked >= TYPED_LOOKBACK:
                continue
            looked += 1
            seen = self._describe(other)
            if typed_text(pending, seen) is not None:
                return seen
        return screen

    def _flush_field(self, state: _State, later: Screen | None) -> None:
        """Turn the field tapped last into a type step (or a plain tap when nothing was
        typed into it)."""
        if state.pending is None:
            return
        reading, screen = state.pending
        state.pending = None
        assert reading.field is not None and reading.action is not None
        pending = reading.field
        text = typed_text(pending, later) if later is not None else None
        if text is None:
            self._emit(state, screen, reading.action, reading.words)
            return
        if pending.secret or text == SECRET_PLACEHOLDER:
            action = Action(ActionKind.TYPE, element=pending.element.id,
                            text=SECRET_PLACEHOLDER, secret=True)
            words = f"type {SECRET_PLACEHOLDER} into the '{pending.label}' field"
            state.secrets.append((len(state.steps), pending.element))
        else:
            action = Action(ActionKind.TYPE, element=pending.element.id, text=text)
            words = f"type '{text}' into the '{pending.label}' field"
            state.typed.append((len(state.steps), pending, text))
        self._emit(state, screen, action, words)

    def _emit(self, state: _State, screen: Screen, action: Action, words: str) -> None:
        action = dataclasses.replace(action, reason=words)
        state.steps.append(Step(len(state.steps), screen, action, reason=words))
        state.words.append(words)
        if self.on_step is not None:
            self.on_step(len(state.words), words)


@dataclass
class _State:
    steps: list[Step] = field(default_factory=list)
    words: list[str] = field(default_factory=list)
    pending: tuple[Reading, Screen] | None = None
    #: When the finger left the pending field.
    pending_up: float = 0.0
    apps: list[str] = field(default_factory=list)
    last_up: float = 0.0
    #: (step index, field, text read) of type steps, for ``_revise``.
    typed: list[tuple[int, PendingField, str]] = field(default_factory=list)
    #: Fields a secret was typed into: their text is blanked in every screen kept.
    secrets: list[tuple[int, Element]] = field(default_factory=list)


#: What OCR makes of a text cursor at the end of a focused field.
_CURSOR_CHARS = "|lI!1i"


def _revise(state: _State, screen: Screen) -> None:
    """Read typed texts again once their field has lost focus: a focused field shows a
    cursor, which OCR may read as one more letter ('Alice|' -> 'Alicel')."""
    for n, (index, pending, text) in enumerate(state.typed):
        again = typed_text(pending, screen)
        if again is None or again == text or len(text) != len(again) + 1 or \
                not text.startswith(again) or text[-1] not in _CURSOR_CHARS:
            continue
        step = state.steps[index]
        words = step.reason.replace(f"'{text}'", f"'{again}'", 1)
        action = dataclasses.replace(step.action, text=again, reason=words)
        state.steps[index] = dataclasses.replace(step, action=action, reason=words)
        state.words[index] = words
        state.typed[n] = (index, pending, again)


def _attach_after(steps: Sequence[Step], final: Screen | None) -> list[Step]:
    out = []
    for i, s in enumerate(steps):
        after = steps[i + 1].before if i + 1 < len(steps) else final
        out.append(dataclasses.replace(s, after=after))
    return out


def _redact(steps: Sequence[Step], secrets: Sequence[tuple[int, Element]]) -> list[Step]:
    """Blank what vision read inside the fields a secret was typed into, on the screens
    from that step on (a field that shows its text in the clear must not leave it in
    the trajectory)."""
    def clean(screen: Screen | None, fields: list[Element]) -> Screen | None:
        if screen is None or not fields:
            return screen
        hidden = {e.text for e in screen.elements if e.text and not e.hint
                  and e.text != SECRET_PLACEHOLDER
                  and any(f.box.contains(*e.box.center) for f in fields)}
        if not hidden:
            return screen
        elements = tuple(
            dataclasses.replace(e, text=SECRET_PLACEHOLDER if e.text in hidden else e.text,
                                caption="" if e.caption in hidden else e.caption)
            for e in screen.elements)
        blocks = tuple(dataclasses.replace(b, caption="") if b.caption in hidden else b
                       for b in screen.blocks)
        return dataclasses.replace(screen, elements=elements, blocks=blocks)

    out = []
    for i, s in enumerate(steps):
        fields = [f for at, f in secrets if at <= i]
        before = clean(s.before, fields)
        assert before is not None
        out.append(dataclasses.replace(s, before=before, after=clean(s.after, fields)))
    return out


def _main_app(apps: Sequence[str]) -> str:
    """The app the demonstration happened in: the most frequent one that is not a launcher."""
    real = [a for a in apps if a and not any(w in a.lower() for w in LAUNCHERS)]
    if not real:
        return ""
    return max(dict.fromkeys(real), key=real.count)


__all__ = ["PendingField", "Reading", "Recorder", "Recording", "element_at", "interpret",
           "keyboard_top", "typed_text"]
