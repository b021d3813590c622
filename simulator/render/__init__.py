"""Page -> pixels + ground truth: the virtual phone's window manager and System UI.

``render_page(page, env, ui)`` draws one frame the way Android composes it:

- the page body (a widget tree from ``widgets/``) in the viewport between the
  toolbar and the bottom bars, shifted up by the scroll offset and clipped;
- the app bar (back arrow, title, action icons, overflow menu), an optional
  bottom tab bar and floating action button, fixed while the body scrolls;
- System UI: the status bar (time, Bluetooth, Wi-Fi, signal, battery) and the
  navigation bar (3-button or gesture handle);
- the on-screen QWERTY keyboard while a field has focus, an open overflow menu,
  a dialog over a dim scrim, and a toast.

It returns a ``Frame``: the RGB image, every visible ``TruthElement`` and
``TruthBlock`` (boxes clipped to what is visible, hidden ones dropped) and the
hit ``Target`` list the phone uses to route touches. ``frame_to_screen`` turns a
frame into a ground-truth ``screenpilot.model.Screen``.

Sizes follow Android: px = dp * dpi / 160, at real phone resolutions (see
``SIZES``). The same inputs always give the same pixels.

One module per part: ``spec`` (sizes, densities, bar heights), ``page`` (the inputs
and the ``Frame``), ``compose`` (drawing a frame) and ``screen`` (frame -> ``Screen``).
"""

from screenpilot.simulator.render.compose import keyboard_rows, render_page
from screenpilot.simulator.render.page import (
    Frame,
    KeyboardMode,
    MenuItem,
    Page,
    RenderEnv,
    StatusInfo,
    ToolbarAction,
    UiState,
)
from screenpilot.simulator.render.screen import frame_to_screen, icon_label
from screenpilot.simulator.render.spec import (
    SIZES,
    NavMode,
    ScreenSpec,
    default_density,
    keyboard_height,
    nav_bar_height,
    status_bar_height,
)

__all__ = [
    "SIZES",
    "Frame",
    "KeyboardMode",
    "MenuItem",
    "NavMode",
    "Page",
    "RenderEnv",
    "ScreenSpec",
    "StatusInfo",
    "ToolbarAction",
    "UiState",
    "default_density",
    "frame_to_screen",
    "icon_label",
    "keyboard_height",
    "keyboard_rows",
    "nav_bar_height",
    "render_page",
    "status_bar_height",
]
