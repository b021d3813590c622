"""The recording session: ``Recorder`` listens to the phone's touches and captures its
frames side by side, reads each touch on the frame before it (``reading``), and ends
with the semantic steps and the trajectory (``Recording``); see the package docstring.
"""

from __future__ import annotations

import dataclasses
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

from PIL import Image

from screenpilot.errors import DeviceError
from screenpilot.executor.device import Device, Gesture
from screenpilot.model import (
    SECRET_PLACEHOLDER,
    Action,
    ActionKind,
    Outcome,
    Screen,
    Step,
    Trajectory,
)
from screenpilot.pbd.recorder.frames import Frame, Frames
from screenpilot.pbd.recorder.reading import interpret, typed_text
from screenpilot.pbd.recorder.steps import (
    RecordingState,
    attach_after,
    main_app,
    redact,
    revise,
)
from screenpilot.pbd.store import DemoRecord, language_of

log = logging.getLogger(__name__)

#: Seconds a recording waits for its first touch (``idle_s`` counts after that).
FIRST_TOUCH_S = 60.0
#: Frames between a field's tap and the next touch read for the text typed into it.
TYPED_LOOKBACK = 3
#: The longest a touch waits for the captures begun before it to land.
LANDING_S = 15.0


class Describer(Protocol):
    """Screenshot -> ``Screen`` (vision/'s pipeline or its incremental describer)."""

    def describe(self, image: Image.Image) -> Screen: ...


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
        return DemoRecord(
            self.task,
            self.steps,
            app=self.app,
            screen=f"{w}x{h}" if w else "",
            language=language_of(self.task),
            source=source,
            trajectory=trajectory_path,
        )


class Recorder:
    """Records a demonstration on ``device``; ``describer`` reads each screen."""

    def __init__(
        self,
        device: Device,
        describer: Describer,
        *,
        idle_s: float = 20.0,
        interval: float = 0.25,
        density: int | None = None,
        on_step: Callable[[int, str], None] | None = None,
        out: Path | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
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
        self._frames: Frames | None = None

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

    def record(
        self, task: str, *, stop: threading.Event | None = None, max_s: float | None = None
    ) -> Recording:
        """Record until ``stop`` is set, Ctrl-C, ``idle_s`` without activity, or ``max_s``."""
        stop = stop or threading.Event()
        halt = threading.Event()
        started_at = datetime.now(UTC).isoformat(timespec="seconds")
        size = self.device.size()
        density = self.density or self.device.density()
        frames = self._frames = Frames(self.device, self.interval, halt, self.clock)
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

        threads = [
            threading.Thread(target=frames.run, daemon=True, name="record-frames"),
            threading.Thread(target=listen, daemon=True, name="record-touches"),
        ]
        state = RecordingState()
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
            revise(state, final)
        steps = redact(attach_after(state.steps, final), state.secrets)
        app = main_app(state.apps)
        traj = Trajectory(
            task=task,
            steps=tuple(steps),
            outcome=Outcome.SUCCESS,
            app=app,
            device=self.device.serial,
            planner="demonstration",
            started_at=started_at,
            finished_at=datetime.now(UTC).isoformat(timespec="seconds"),
            note=f"recorded demonstration ({ended})",
        )
        return Recording(task, tuple(state.words), traj, app, size, ended)

    # --- one touch ----------------------------------------------------------------------------
    def _handle(self, touch: Touch, frames: Frames, state: RecordingState, density: int) -> None:
        frames.landed(touch.down, LANDING_S)
        frame = frames.before(touch.down) or frames.grab()
        log.debug(
            "touch %s at (%d, %d) down %.3f up %.3f; frame seen %.3f of %s",
            touch.gesture.kind,
            touch.gesture.x,
            touch.gesture.y,
            touch.down,
            touch.up,
            frame.seen,
            [round(f.seen, 3) for f in frames.frames],
        )
        screen = self._describe(frame)
        revise(state, screen)
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

    def _typed_on(
        self,
        state: RecordingState,
        frames: Frames,
        frame: Frame | None,
        screen: Screen,
        until: float,
    ) -> Screen:
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

    def _flush_field(self, state: RecordingState, later: Screen | None) -> None:
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
            action = Action(
                ActionKind.TYPE, element=pending.element.id, text=SECRET_PLACEHOLDER, secret=True
            )
            words = f"type {SECRET_PLACEHOLDER} into the '{pending.label}' field"
            state.secrets.append((len(state.steps), pending.element))
        else:
            action = Action(ActionKind.TYPE, element=pending.element.id, text=text)
            words = f"type '{text}' into the '{pending.label}' field"
            state.typed.append((len(state.steps), pending, text))
        self._emit(state, screen, action, words)

    def _emit(self, state: RecordingState, screen: Screen, action: Action, words: str) -> None:
        action = dataclasses.replace(action, reason=words)
        state.steps.append(Step(len(state.steps), screen, action, reason=words))
        state.words.append(words)
        if self.on_step is not None:
            self.on_step(len(state.words), words)
