"""What screenpilot reads on the screen: the overlay (vision/overlay.py) and its text.

When the page turns the reading on, a thread describes the newest live frame with
the console's describer (the project's describe pipeline) whenever it changed, draws
the overlay (boxes, kinds, ids, blocks and the legend) and publishes a ``reading``
event with the description text the planner would read. While a run or a tap is
describing screens itself, those screens are ``offer``-ed instead, so nothing is
described twice.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image

from screenpilot.agent import Describer
from screenpilot.console.hub import Hub
from screenpilot.console.live import LiveView, to_jpeg
from screenpilot.errors import ScreenpilotError
from screenpilot.model import Screen

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Read:
    """One reading: the overlay as JPEG, the description text, the screen's size."""

    seq: int
    jpeg: bytes
    text: str
    elements: int
    size: tuple[int, int]
    source: str


class Reading:
    """Describes live frames while the page wants it; keeps the newest reading."""

    def __init__(
        self,
        describer: Describer,
        live: LiveView,
        hub: Hub,
        *,
        busy: Callable[[], bool] = lambda: False,
        width: int = 720,
    ) -> None:
        self.describer = describer
        self.live = live
        self.hub = hub
        self.busy = busy
        self.width = width
        self.on = False
        self._latest: Read | None = None
        #: The last ``reading`` event, for a page that opens later.
        self.event: dict[str, object] | None = None
        self._lock = threading.Lock()
        self._described = b""  # the JPEG of the frame last described
        self._wake = threading.Event()
        self._halt = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> Reading:
        self._thread = threading.Thread(target=self._run, daemon=True, name="console-reading")
        self._thread.start()
        return self

    def close(self) -> None:
        self._halt.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(5)

    def turn(self, on: bool) -> None:
        """Read (again: a page that just turned it on waits for a reading) or stop."""
        self.on = on
        self._described = b""
        self._wake.set()

    def latest(self) -> Read | None:
        return self._latest

    def offer(self, image: Image.Image, screen: Screen, source: str) -> None:
        """A screen described elsewhere (a run's step, a tap): show it when the reading is on."""
        if self.on:
            self._show(image, screen, source)

    def _show(self, image: Image.Image, screen: Screen, source: str) -> None:
        from screenpilot.vision.overlay import render

        try:
            drawn = render(image, screen)
        except ScreenpilotError as exc:  # a long page, or a size that changed
            log.info("no overlay: %s", exc.message)
            return
        with self._lock:
            seq = (self._latest.seq + 1) if self._latest is not None else 1
            read = Read(
                seq,
                to_jpeg(drawn, self.width),
                screen.describe(),
                len(screen.elements),
                image.size,
                source,
            )
            self._latest = read
            self.event = {
                "type": "reading",
                "seq": read.seq,
                "text": read.text,
                "elements": read.elements,
                "width": read.size[0],
                "height": read.size[1],
                "source": source,
            }
            self.hub.publish(self.event)

    def _run(self) -> None:
        while not self._halt.is_set():
            self._wake.wait(0.5)
            self._wake.clear()
            frame = self.live.latest()
            if not self.on or self.busy() or frame is None or frame.jpeg == self._described:
                continue
            self._described = frame.jpeg
            try:
                began = time.perf_counter()
                screen = self.describer.describe(frame.image)
                log.debug("reading took %.2f s", time.perf_counter() - began)
            except ScreenpilotError as exc:
                self.hub.publish({"type": "notice", "text": f"cannot read: {exc.message}"})
                continue
            self._show(frame.image, screen, "live")
            self._wake.set()  # look again at once: the screen may have moved
