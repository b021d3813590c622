"""Text and keys on the virtual phone: typing into the focused field, the drawn keyboard,
``input keyevent`` key codes (POWER, SLEEP and WAKEUP switch the display), Ctrl+A
selection and submitting a field with ENTER."""

from __future__ import annotations

from screenpilot.simulator.apps.base import Entry, Event
from screenpilot.simulator.handset.core import PhoneCore

MAX_FIELD_CHARS = 10_000

KEYCODE_CHARS: dict[int, str] = {
    **{7 + i: str(i) for i in range(10)},
    **{29 + i: chr(ord("a") + i) for i in range(26)},
    17: "*",
    18: "#",
    55: ",",
    56: ".",
    62: " ",
    69: "-",
    70: "=",
    74: ";",
    75: "'",
    76: "/",
    77: "@",
    81: "+",
}


#: POWER toggles the display, SLEEP turns it off, WAKEUP on (``None``: toggle).
POWER_KEYS: dict[int, bool | None] = {26: None, 223: False, 224: True}


class TextInput(PhoneCore):
    """Key events and text, typed into the focused field of the foreground page."""

    def _type(self, text: str) -> None:
        entry = self._stack()[-1]
        field = entry["focus"]
        if field is None:
            return
        clean = "".join(c for c in text if c >= " " or c == "\t")
        kept = "" if self._take_selection(entry) else entry["fields"].get(field, "")
        value = (kept + clean)[:MAX_FIELD_CHARS]
        entry["fields"][field] = value
        self._changed()

    def _delete(self) -> None:
        entry = self._stack()[-1]
        field = entry["focus"]
        if field is not None and entry["fields"].get(field):
            whole = self._take_selection(entry)
            entry["fields"][field] = "" if whole else entry["fields"][field][:-1]
            self._changed()

    def _take_selection(self, entry: Entry) -> bool:
        """True (once) when the focused field's text was selected with Ctrl+A."""
        selected = entry["selected"] == entry["focus"] and entry["focus"] is not None
        entry["selected"] = None
        return selected

    def key_combination(self, codes: list[int]) -> None:
        """``input keycombination``: Ctrl+A (113/114 + 29) selects the focused field's text."""
        with self._lock:
            entry = self._stack()[-1]
            if {113, 29} <= set(codes) or {114, 29} <= set(codes):
                entry["selected"] = entry["focus"]

    def _submit(self) -> None:
        entry = self._stack()[-1]
        field = entry["focus"]
        if field is None:
            return
        key = next(
            (t.key for t in self._frame().targets if t.role == "field" and t.field == field), ""
        )
        entry["focus"] = None
        self._changed()
        if key:
            self._dispatch(self._ctx(), Event(key, "submit"))

    def _keyboard_key(self, name: str) -> None:
        mode: str = self._state["kbd"]
        if name == "shift":
            self._state["kbd"] = "abc" if mode == "ABC" else "ABC"
        elif name == "mode":
            self._state["kbd"] = "abc" if mode == "123" else "123"
        elif name == "del":
            self._delete()
        elif name == "enter":
            self._submit()
        else:
            self._type(" " if name == "space" else name)
            if mode == "ABC":
                self._state["kbd"] = "abc"
        self._changed()

    def input_text(self, text: str) -> None:
        with self._lock:
            self._type(text)

    def keyevent(self, keycode: int, *, longpress: bool = False) -> None:
        with self._lock:
            if keycode in POWER_KEYS:
                switch = POWER_KEYS[keycode]
                self._set_screen(not self._lit() if switch is None else switch)
            elif not self._lit() and keycode not in (24, 25):
                return  # a dark screen takes only the power and volume keys
            elif keycode in (4, 111):
                self._back()
            elif keycode == 3:
                self._home()
            elif keycode == 187:
                self._recents()
            elif keycode in (66, 160):
                self._submit()
            elif keycode == 67:
                self._delete()
            elif keycode == 82:
                self._stack()[-1]["menu"] = True
                self._changed()
            elif keycode in (24, 25):
                self._volume(1 if keycode == 24 else -1)
            elif keycode in KEYCODE_CHARS:
                self._type(KEYCODE_CHARS[keycode])

    def _volume(self, step: int) -> None:
        try:
            current = int(self.get_setting("system", "volume_music") or 0)
        except ValueError:
            current = 0
        self.put_setting("system", "volume_music", str(min(15, max(0, current + step))))
