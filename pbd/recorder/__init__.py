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

The parts: ``reading`` (one touch on one described screen -> a step in words),
``frames`` (the screen captured on a thread), ``steps`` (typed texts revised, secrets
blanked, the app) and ``session`` (``Recorder``: touches and frames side by side). Saving
a recording is the report's (``screenpilot.report.save_run``).
"""

from screenpilot.language.keyboard import keyboard_top
from screenpilot.pbd.recorder.frames import Frame
from screenpilot.pbd.recorder.reading import (
    PendingField,
    Reading,
    dp,
    element_at,
    interpret,
    typed_text,
)
from screenpilot.pbd.recorder.session import Describer, Recorder, Recording, Touch

__all__ = [
    "Describer",
    "Frame",
    "PendingField",
    "Reading",
    "Recorder",
    "Recording",
    "Touch",
    "dp",
    "element_at",
    "interpret",
    "keyboard_top",
    "typed_text",
]
