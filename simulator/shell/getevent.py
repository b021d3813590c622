"""``getevent``: the phone's touches as the lines a type-B multitouch screen prints.

``-p``/``-lp`` describe the devices (raw axes in pixels), ``-l`` labels events,
``-t`` stamps them, ``-c N`` stops after N lines; otherwise it streams until the
client leaves. The agent's touch recorder reads exactly this output.
"""

from __future__ import annotations

import itertools
import queue
from typing import TYPE_CHECKING

from screenpilot.simulator.backend import TouchEvent
from screenpilot.simulator.shell.call import POLL_S, Builtin, Call

if TYPE_CHECKING:
    from screenpilot.simulator.shell.interpreter import Shell

EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
SYN_REPORT, BTN_TOUCH = 0, 0x14A
ABS_MT_SLOT, ABS_MT_TOUCH_MAJOR, ABS_MT_POSITION_X = 0x2F, 0x30, 0x35
ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID, ABS_MT_PRESSURE = 0x36, 0x39, 0x3A
EV_LABELS = {EV_SYN: "EV_SYN", EV_KEY: "EV_KEY", EV_ABS: "EV_ABS"}
CODE_LABELS = {
    EV_SYN: {SYN_REPORT: "SYN_REPORT"},
    EV_KEY: {BTN_TOUCH: "BTN_TOUCH", 114: "KEY_VOLUMEDOWN", 115: "KEY_VOLUMEUP", 116: "KEY_POWER"},
    EV_ABS: {
        ABS_MT_SLOT: "ABS_MT_SLOT",
        ABS_MT_TOUCH_MAJOR: "ABS_MT_TOUCH_MAJOR",
        ABS_MT_POSITION_X: "ABS_MT_POSITION_X",
        ABS_MT_POSITION_Y: "ABS_MT_POSITION_Y",
        ABS_MT_TRACKING_ID: "ABS_MT_TRACKING_ID",
        ABS_MT_PRESSURE: "ABS_MT_PRESSURE",
    },
}
KEYS_DEVICE = ("/dev/input/event0", "gpio-keys")
TOUCH_DEVICE = ("/dev/input/event2", "fts_ts")


class GeteventCommand:
    """``getevent`` streaming the backend's touch events."""

    def __init__(self, shell: Shell) -> None:
        self.backend = shell.backend

    def table(self) -> dict[str, Builtin]:
        return {"getevent": self.getevent}

    def getevent(self, call: Call) -> int:
        flags = "".join(a[1:] for a in call.args if a.startswith("-"))
        count = 0
        if "c" in flags:
            values = [a for a in call.args if a.isdigit()]
            count = int(values[0]) if values else 0
        w, h = self.backend.size()
        if "p" in flags:
            call.print(getevent_devices(w, h, labels="l" in flags), end="")
            return 0
        if "q" not in flags:
            for index, (path, name) in enumerate((KEYS_DEVICE, TOUCH_DEVICE), start=1):
                call.print(f'add device {index}: {path}\n  name:     "{name}"')
        writer = GeteventWriter(call, labels="l" in flags, timestamps="t" in flags)
        events: queue.Queue[TouchEvent] = queue.Queue()
        unsubscribe = self.backend.add_touch_listener(events.put)
        try:
            while not call.io.closed and not (count and writer.lines >= count):
                try:
                    event = events.get(timeout=POLL_S)
                except queue.Empty:
                    continue
                writer.write(event)
        finally:
            unsubscribe()
        return 0


def getevent_devices(width: int, height: int, *, labels: bool) -> str:
    """``getevent -p`` / ``-lp``: the devices and their axis ranges (raw axis = pixels)."""

    def code(kind: int, value: int) -> str:
        return f"{CODE_LABELS[kind][value]:<20.20}" if labels else f"{value:04x}"

    axes = (
        (ABS_MT_SLOT, 9),
        (ABS_MT_TOUCH_MAJOR, 255),
        (ABS_MT_POSITION_X, width - 1),
        (ABS_MT_POSITION_Y, height - 1),
        (ABS_MT_TRACKING_ID, 65535),
        (ABS_MT_PRESSURE, 255),
    )
    abs_lines = [
        f" {code(EV_ABS, c)} : value 0, min 0, max {m}, fuzz 0, flat 0, resolution 0"
        for c, m in axes
    ]
    keys = " ".join(code(EV_KEY, k) for k in (114, 115, 116))
    return (
        f'add device 1: {KEYS_DEVICE[0]}\n  name:     "{KEYS_DEVICE[1]}"\n'
        f"  events:\n    KEY (0001): {keys}\n  input props:\n    <none>\n"
        f'add device 2: {TOUCH_DEVICE[0]}\n  name:     "{TOUCH_DEVICE[1]}"\n'
        f"  events:\n    KEY (0001): {code(EV_KEY, BTN_TOUCH)}\n"
        f"    ABS (0003):{abs_lines[0]}\n"
        + "".join(f"               {line}\n" for line in abs_lines[1:])
        + "  input props:\n    INPUT_PROP_DIRECT\n"
    )


class GeteventWriter:
    """Turns touch events into the lines a type-B multitouch screen produces."""

    _tracking = itertools.count(1)

    def __init__(self, call: Call, *, labels: bool, timestamps: bool) -> None:
        self.call = call
        self.labels = labels
        self.timestamps = timestamps
        self.lines = 0
        self.slot = 0
        self.last: dict[int, tuple[int, int]] = {}

    def write(self, event: TouchEvent) -> None:
        records: list[tuple[int, int, int]] = []
        if event.pointer != self.slot:
            self.slot = event.pointer
            records.append((EV_ABS, ABS_MT_SLOT, event.pointer))
        if event.phase == "down":
            records.append((EV_ABS, ABS_MT_TRACKING_ID, next(self._tracking)))
            records += [
                (EV_ABS, ABS_MT_POSITION_X, event.x),
                (EV_ABS, ABS_MT_POSITION_Y, event.y),
                (EV_ABS, ABS_MT_TOUCH_MAJOR, 6),
                (EV_ABS, ABS_MT_PRESSURE, 50),
            ]
            if not self.last:
                records.append((EV_KEY, BTN_TOUCH, 1))
            self.last[event.pointer] = (event.x, event.y)
        elif event.phase == "move":
            old = self.last.get(event.pointer, (-1, -1))
            if event.x != old[0]:
                records.append((EV_ABS, ABS_MT_POSITION_X, event.x))
            if event.y != old[1]:
                records.append((EV_ABS, ABS_MT_POSITION_Y, event.y))
            self.last[event.pointer] = (event.x, event.y)
        else:
            records.append((EV_ABS, ABS_MT_TRACKING_ID, 0xFFFFFFFF))
            self.last.pop(event.pointer, None)
            if not self.last:
                records.append((EV_KEY, BTN_TOUCH, 0))
        records.append((EV_SYN, SYN_REPORT, 0))
        self.call.print("".join(self._line(event.time, *r) for r in records), end="")

    def _line(self, at: float, kind: int, code: int, value: int) -> str:
        self.lines += 1
        stamp = ""
        if self.timestamps:
            sec = int(at)
            stamp = f"[{sec:8d}.{min(int((at - sec) * 1e6), 999999):06d}] "
        prefix = f"{stamp}{TOUCH_DEVICE[0]}: "
        if not self.labels:
            return f"{prefix}{kind:04x} {code:04x} {value:08x}\n"
        text = f"{EV_LABELS[kind]:<12.12} {CODE_LABELS[kind][code]:<20.20}"
        if kind == EV_KEY:
            return f"{prefix}{text} {'DOWN' if value else 'UP':<20.20}\n"
        return f"{prefix}{text} {value:08x}\n"
