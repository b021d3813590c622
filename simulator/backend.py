"""The contract between the virtual phone's state machine and its adbd.

``simulator/adbd/`` speaks the ADB transport protocol and ``simulator/shell/``
interprets the shell commands a real phone understands; both talk to the phone
only through ``PhoneBackend``. ``simulator/phone.py``'s ``VirtualPhone`` is the
real implementation. Every method is called from adbd's stream threads, so an
implementation must be thread-safe.

Coordinates are screen pixels in the current orientation. Touches go through
``touch_down`` / ``touch_move`` / ``touch_up`` so that ``getevent`` listeners
see exactly what a finger would do; ``tap`` and ``swipe`` are conveniences
built from them by the backend.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

TouchPhase = Literal["down", "move", "up"]


@dataclass(frozen=True, slots=True)
class TouchEvent:
    """One finger event as the touchscreen reports it (time in seconds since boot)."""

    phase: TouchPhase
    x: int
    y: int
    time: float
    pointer: int = 0


TouchListener = Callable[[TouchEvent], None]


@runtime_checkable
class PhoneBackend(Protocol):
    """What adbd needs from a phone."""

    # --- identity and geometry ------------------------------------------------------
    def size(self) -> tuple[int, int]:
        """Physical screen size (width, height) in pixels, portrait."""

    def density(self) -> int:
        """Screen density in dpi (``wm density``)."""

    def rotation(self) -> int:
        """0, 1, 2 or 3 (quarter turns), as ``dumpsys input`` SurfaceOrientation."""

    def getprop(self, name: str) -> str:
        """A system property (``ro.product.model`` ...); '' when unknown."""

    def uptime(self) -> float:
        """Seconds since the phone booted (the clock of touch events)."""

    # --- the screen -------------------------------------------------------------------
    def screencap_png(self) -> bytes:
        """The current frame as PNG (all black on a FLAG_SECURE screen)."""

    def screencap_raw(self) -> tuple[int, int, bytes]:
        """The current frame as (width, height, RGBA bytes) for ``screencap`` without -p."""

    # --- input ------------------------------------------------------------------------
    def touch_down(self, x: int, y: int) -> None: ...
    def touch_move(self, x: int, y: int) -> None: ...
    def touch_up(self, x: int, y: int) -> None: ...
    def tap(self, x: int, y: int) -> None: ...
    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int) -> None:
        """A drag; the same start and end held >= 500 ms is a long press."""

    def input_text(self, text: str) -> None:
        """Type into the focused field (no-op when none has focus, as on Android)."""

    def keyevent(self, keycode: int, *, longpress: bool = False) -> None:
        """An Android key code (4 BACK, 3 HOME, 66 ENTER, 67 DEL, 187 APP_SWITCH...)."""

    def add_touch_listener(self, listener: TouchListener) -> Callable[[], None]:
        """Call ``listener`` for every touch event from now on; returns the unsubscribe."""

    # --- apps ---------------------------------------------------------------------------
    def packages(self) -> list[str]:
        """Installed package names (``pm list packages``)."""

    def launch(self, package: str, activity: str | None = None) -> bool:
        """Bring the app to the front; False when no such package is installed."""

    def current_focus(self) -> tuple[str, str]:
        """(package, activity) of the focused window."""

    def broadcast(self, action: str, extras: dict[str, str]) -> str:
        """``am broadcast``; ADB Keyboard's ADB_INPUT_TEXT / ADB_INPUT_B64 type text."""

    def ime_list(self) -> list[str]:
        """Enabled input methods (``ime list -s``)."""

    # --- state, read the way a real phone exposes it -----------------------------------
    def settings_get(self, namespace: str, key: str) -> str | None: ...
    def settings_put(self, namespace: str, key: str, value: str) -> None: ...
    def settings_list(self, namespace: str) -> dict[str, str]: ...
    def content_query(self, uri: str) -> list[dict[str, str]] | None:
        """Rows of a content provider; None when the URI is unknown."""

    def dumpsys(self, service: str, args: list[str]) -> str | None:
        """Text of ``dumpsys SERVICE ARGS`` (window, alarm, input, display...); None if
        the service is unknown."""
