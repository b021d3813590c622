"""What a render takes and gives: the device (``RenderEnv``), the page and its UI state,
and the rendered ``Frame`` with its ground truth and hit targets."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from PIL import Image

from screenpilot.model import Box
from screenpilot.simulator.render.spec import NavMode, ScreenSpec
from screenpilot.simulator.theme import Theme, make_theme
from screenpilot.simulator.widgets import Fab, TabBar, Target, TruthBlock, TruthElement, Widget

KeyboardMode = Literal["abc", "ABC", "123"]


@dataclass(frozen=True, slots=True)
class StatusInfo:
    """What the status bar shows."""

    time: str = "12:30"
    battery: int = 85
    wifi: bool = True
    bluetooth: bool = False
    airplane: bool = False
    show_percent: bool = False
    dnd: bool = False


@dataclass(frozen=True, slots=True)
class RenderEnv:
    """Everything about the device that is not the app: screen, theme, system bars."""

    spec: ScreenSpec = field(default_factory=ScreenSpec)
    theme: Theme = field(default_factory=make_theme)
    status: StatusInfo = field(default_factory=StatusInfo)
    nav_mode: NavMode = "3button"
    font_scale: float = 1.0


@dataclass(frozen=True, slots=True)
class UiState:
    """The transient UI state of the top page: scroll, fields, focus, overlays."""

    scroll: int = 0
    fields: Mapping[str, str] = field(default_factory=dict)
    focus: str | None = None
    keyboard: bool = False
    kbd_mode: KeyboardMode = "abc"
    menu_open: bool = False
    toast: str = ""


@dataclass(frozen=True, slots=True)
class ToolbarAction:
    """An icon button in the app bar."""

    icon: str
    key: str


@dataclass(frozen=True, slots=True)
class MenuItem:
    """An entry of the app bar's overflow menu."""

    label: str
    key: str


@dataclass(frozen=True, eq=False)
class Page:
    """One screen of an app: a body widget and its chrome.

    ``secure`` marks FLAG_SECURE (screencap is black). ``wallpaper`` draws the
    home-screen wallpaper behind a transparent status bar. ``activity`` is the
    Android activity name ``dumpsys window`` reports (the app's main one when empty).
    """

    body: Widget
    title: str = ""
    back: bool = True
    toolbar: bool = True
    actions: Sequence[ToolbarAction] = ()
    menu: Sequence[MenuItem] = ()
    tabs: TabBar | None = None
    fab: Fab | None = None
    secure: bool = False
    wallpaper: bool = False
    background: str = "background"
    activity: str = ""


@dataclass(frozen=True, eq=False)
class Frame:
    """A rendered frame: the image and the truth about every visible element."""

    image: Image.Image
    elements: tuple[TruthElement, ...]
    blocks: tuple[TruthBlock, ...]
    targets: tuple[Target, ...]
    viewport: Box
    scroll: int = 0
    max_scroll: int = 0
    secure: bool = False
    app: str = ""
    dialog_box: Box | None = None
    menu_box: Box | None = None
    keyboard_box: Box | None = None

    @property
    def size(self) -> tuple[int, int]:
        return self.image.size

    def captured(self) -> Image.Image:
        """What ``screencap`` returns: the image, or black for a secure page."""
        if self.secure:
            return Image.new("RGB", self.image.size, (0, 0, 0))
        return self.image

    def png(self) -> bytes:
        buf = io.BytesIO()
        self.captured().save(buf, format="PNG", compress_level=1)
        return buf.getvalue()

    def hit(self, x: float, y: float) -> Target | None:
        """The topmost target under (x, y); only the dialog's while a dialog is open."""
        layer = 2 if self.menu_box is not None else 1 if self.dialog_box is not None else 0
        for t in reversed(self.targets):
            if t.layer >= layer and t.box.contains(x, y):
                return t
        return None

    def find(self, text: str) -> TruthElement | None:
        """The first element whose text (or icon name) is ``text``."""
        for e in self.elements:
            if text in (e.text, e.icon):
                return e
        return None
