"""``VirtualPhone``: the state machine behind the virtual phone's screen.

It implements ``backend.PhoneBackend`` (what adbd and the shell need) on top of
the apps in ``apps/`` and the renderer in ``render/``:

- a task (back stack of page entries) per launched app, the launcher always
  underneath; BACK closes the keyboard, a menu, a dialog, then the page, and
  leaves the app from its root page; HOME shows the home screen;
- touches are hit-tested against the current frame's targets (topmost wins; a
  dialog or menu is modal and a tap outside closes it); a vertical drag in the
  page body scrolls it by the finger distance; a press held >= 500 ms without
  moving is a long press; seek bars follow the finger; taps on the drawn keyboard
  type; in gesture navigation, a swipe up from the bottom edge goes home and a
  swipe in from a side edge goes back;
- the settings provider (``global``/``system``/``secure``) is the single source
  of Wi-Fi, Bluetooth, airplane mode, brightness, dark theme (``ui_night_mode``),
  language (``system_locales``), navigation mode and font scale;
- ``state`` is a JSON-serialisable dict; ``snapshot``/``restore``/``reset``
  round-trip it; ``frame()`` renders it (cached until the state changes).

Every public method takes the phone's lock; touch listeners are called after it
is released, in event order.
"""

from __future__ import annotations

from screenpilot.simulator.handset.android import AndroidServices


class VirtualPhone(AndroidServices):
    """A phone made of rendered apps; see the module docstring.

    Its layers live in ``simulator/handset/``: state and rendering (``core``), text and
    keys (``keys``), touches (``touch``) and what Android's tools ask of it (``android``).
    """

    def tap_text(self, text: str) -> bool:
        """Tap the centre of the first visible element showing ``text``."""
        element = self.frame().find(text)
        if element is None:
            return False
        self.tap(*element.box.center)
        return True
