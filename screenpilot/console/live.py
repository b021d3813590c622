"""The live view: the phone's screen captured a few times a second, as small JPEGs.

While at least one page watches (or ``keep`` is set, for the benchmark), a thread
captures the screen through the ``Device`` (the same capture a run uses), keeps the
full image for the reading and for taps, and a JPEG scaled to ``width`` pixels for
the page, and publishes a ``frame`` event; the page then fetches ``/api/frame.jpg``.
"""

from __future__ import annotations

import io
import logging
import threading
import time
from collections import deque
from dataclasses import dataclass

from PIL import Image

from screenpilot.console.hub import Hub
from screenpilot.errors import DeviceError
from screenpilot.executor.device import Device

log = logging.getLogger(__name__)

#: Seconds to wait after a failed capture before the next try.
RETRY_S = 1.0


@dataclass(frozen=True)
class Frame:
    """One capture: its number, the full image, the page's JPEG, when it landed."""

    seq: int
    image: Image.Image
    jpeg: bytes
    at: float

    @property
    def size(self) -> tuple[int, int]:
        return self.image.size


def to_jpeg(image: Image.Image, width: int, quality: int = 70) -> bytes:
    """``image`` scaled down to ``width`` pixels wide (never up), as JPEG bytes."""
    if image.width > width:
        image = image.resize(
            (width, max(1, round(image.height * width / image.width))), Image.Resampling.BILINEAR
        )
    buf = io.BytesIO()
    image.convert("RGB").save(buf, format="JPEG", quality=quality)
    return buf.getvalue()


class LiveView:
    """Captures frames while someone watches; ``latest`` is the newest."""

    def __init__(self, device: Device, hub: Hub, *, fps: float = 4.0, width: int = 540) -> None:
        self.device = device
        self.hub = hub
        self.interval = 1.0 / max(0.1, fps)
        self.width = width
        #: Capture even with no page open (the benchmark measures the rate).
        self.keep = False
        self.error = ""
        self._latest: Frame | None = None
        self._times: deque[float] = deque(maxlen=20)
        self._lock = threading.Lock()
        self._halt = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> LiveView:
        self._thread = threading.Thread(target=self._run, daemon=True, name="console-live")
        self._thread.start()
        return self

    def close(self) -> None:
        self._halt.set()
        if self._thread is not None:
            self._thread.join(5)

    def latest(self) -> Frame | None:
        return self._latest

    @property
    def running(self) -> bool:
        """Whether frames are being captured now (someone watches, or ``keep``)."""
        return self.keep or self.hub.watchers > 0

    @property
    def fps(self) -> float:
        """Frames per second over the last few captures."""
        times = list(self._times)
        if len(times) < 2 or times[-1] <= times[0]:
            return 0.0
        return (len(times) - 1) / (times[-1] - times[0])

    def capture_now(self) -> Frame:
        """Capture a frame at once (a tap needs the screen as it is now)."""
        image = self.device.capture()
        return self._keep_frame(image)

    def _keep_frame(self, image: Image.Image) -> Frame:
        jpeg = to_jpeg(image, self.width)
        with self._lock:
            seq = (self._latest.seq + 1) if self._latest is not None else 1
            frame = Frame(seq, image, jpeg, time.monotonic())
            self._latest = frame
            self._times.append(frame.at)
        w, h = frame.size
        self.hub.publish(
            {"type": "frame", "seq": frame.seq, "width": w, "height": h, "fps": round(self.fps, 2)}
        )
        return frame

    def _run(self) -> None:
        while not self._halt.is_set():
            if not self.running:
                self._halt.wait(0.2)
                continue
            began = time.monotonic()
            try:
                self._keep_frame(self.device.capture())
                self.error = ""
            except DeviceError as exc:
                if exc.message != self.error:
                    log.warning("live view: %s", exc.message)
                    self.hub.publish({"type": "notice", "text": f"capture failed: {exc.message}"})
                self.error = exc.message
                self._halt.wait(RETRY_S)
                continue
            self._halt.wait(max(0.0, self.interval - (time.monotonic() - began)))
