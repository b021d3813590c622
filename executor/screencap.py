"""Screenshots over adb: the phone's raw pixels or its PNG, whichever arrives sooner.

``screencap -p`` compresses the screen to PNG on the phone, which on a 1080x2400 or
larger screen takes most of a second or more; ``screencap`` without ``-p`` writes the
pixels as they are (a 12- or 16-byte header, then 4 bytes a pixel: ~10 MB), which costs
transfer time instead. Over USB the raw pixels usually win; over adb on Wi-Fi the PNG
may. :class:`FormatChooser` settles it per phone by timing: in ``auto`` the first
captures alternate raw and PNG, and once each has :data:`SAMPLES` timings the faster
(by its best time) is kept, or raw after one of each when PNG took at least
:data:`CLEAR_RATIO` times as long (one slow capture fewer). A raw screenshot that
cannot be decoded (an unknown pixel format, a length that does not fit its header)
makes ``auto`` keep PNG for good.

Both are read through adb's ``exec:`` service (``adb exec-out``: no terminal, so no
line-ending translation of the binary output) into a list of large chunks:
adbutils' own ``shell(encoding=None)`` grows one ``bytes`` object 4 KiB at a time,
which on 10 MB costs over a second of copying on the desktop. On a phone with several
displays (a foldable) ``screencap`` prints a warning line before the image on the same
output; it is skipped (:func:`after_notice`), where it used to make every capture fail.
"""

from __future__ import annotations

import io
import logging
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from PIL import Image

if TYPE_CHECKING:
    import adbutils

log = logging.getLogger(__name__)

#: How a screenshot is taken: ``auto`` (timed, see the module docstring), ``raw`` or ``png``.
CAPTURE_MODES = ("auto", "raw", "png")
#: Timed captures of each format before ``auto`` chooses...
SAMPLES = 2
#: ... unless after one of each PNG took at least this many times as long as raw.
CLEAR_RATIO = 2.0
#: Android's ``PixelFormat`` codes that ``screencap`` writes -> (PIL raw mode, bytes a pixel).
RAW_FORMATS: dict[int, tuple[str, int]] = {
    1: ("RGBX", 4),  # RGBA_8888 (alpha dropped)
    2: ("RGBX", 4),  # RGBX_8888
    3: ("RGB", 3),  # RGB_888
    5: ("BGRX", 4),  # BGRA_8888
}
#: Header sizes: width, height, format (up to Android 7), then a colour space (8 and later).
RAW_HEADERS = (12, 16)
READ_CHUNK = 1 << 20
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: Bytes of text ``screencap`` may print before the image (a warning is ~350).
NOTICE_LIMIT = 4096
NOTICE_LINES = 3


def command(fmt: str) -> str:
    """The shell command of a capture format."""
    return "screencap -p" if fmt == "png" else "screencap"


def decode(fmt: str, data: bytes) -> Image.Image:
    """The RGB image in ``data`` (``fmt`` ``png`` or ``raw``): ``ValueError`` for raw
    output this does not read, ``OSError`` for a PNG that is not one (perhaps cut short:
    worth another try). Text ``screencap`` printed before the image is skipped
    (:func:`after_notice`)."""
    if fmt == "raw":
        return after_notice(data, decode_raw)
    start = data.find(PNG_SIGNATURE, 0, NOTICE_LIMIT)
    image = Image.open(io.BytesIO(data[max(start, 0) :]))
    image.load()
    return image.convert("RGB")


def after_notice(data: bytes, read: Callable[[bytes], Image.Image]) -> Image.Image:
    """``read(data)``, or, when that fails and ``data`` starts with lines of printable
    text (up to :data:`NOTICE_LINES`), ``read`` of what follows them: on a phone with
    several displays (a foldable) ``screencap`` prints "[Warning] Multiple displays
    were found ..." on its output before the image."""
    error: ValueError | None = None
    for _ in range(NOTICE_LINES + 1):
        try:
            return read(data)
        except ValueError as exc:
            error = exc  # what the image after the text (if any) got wrong
            end = data.find(b"\n", 0, NOTICE_LIMIT)
            if end < 0 or not all(32 <= b < 127 or b in (9, 13) for b in data[:end]):
                break
            log.debug("screencap said: %s", data[:end].decode("ascii").strip())
            data = data[end + 1 :]
    assert error is not None
    raise error


def decode_raw(data: bytes) -> Image.Image:
    """The RGB image of ``screencap``'s raw output; ``ValueError`` when the header names a
    pixel format this does not read or the length does not fit it."""
    if len(data) < RAW_HEADERS[0]:
        raise ValueError(f"raw screenshot of {len(data)} bytes has no header")
    width, height, code = struct.unpack_from("<3I", data)
    if code not in RAW_FORMATS:
        raise ValueError(f"raw screenshot in pixel format {code}, which is not read here")
    mode, depth = RAW_FORMATS[code]
    header = len(data) - width * height * depth
    if width == 0 or height == 0 or header not in RAW_HEADERS:
        raise ValueError(
            f"raw screenshot of {len(data)} bytes does not hold {width}x{height} pixels "
            f"of {depth} bytes after a header"
        )
    return Image.frombytes("RGB", (width, height), data[header:], "raw", mode)


def read_exec(device: adbutils.AdbDevice, cmd: str, timeout: float) -> bytes:
    """Everything ``cmd`` writes, run through the ``exec:`` service."""
    conn = device.open_transport(timeout=timeout)
    try:
        conn.send_command("exec:" + cmd)
        conn.check_okay()
        parts: list[bytes] = []
        while chunk := conn.conn.recv(READ_CHUNK):
            parts.append(chunk)
        return b"".join(parts)
    finally:
        conn.close()


@dataclass
class FormatChooser:
    """Which format the next capture uses (see the module docstring)."""

    mode: str = "auto"
    samples: int = SAMPLES
    timings: dict[str, list[float]] = field(default_factory=lambda: {"raw": [], "png": []})
    chosen: str | None = None
    say: Callable[[str], None] = log.info

    def __post_init__(self) -> None:
        if self.mode not in CAPTURE_MODES:
            raise ValueError(
                f"capture mode {self.mode!r}: choose one of {', '.join(CAPTURE_MODES)}"
            )
        if self.mode != "auto":
            self.chosen = self.mode

    def next(self) -> str:
        """``raw`` or ``png``."""
        if self.chosen is not None:
            return self.chosen
        return "raw" if len(self.timings["raw"]) <= len(self.timings["png"]) else "png"

    def best(self) -> dict[str, float]:
        """The best time of each format timed so far."""
        return {f: min(t) for f, t in self.timings.items() if t}

    def record(self, fmt: str, seconds: float) -> None:
        """A capture in ``fmt`` took ``seconds`` (read and decoded)."""
        if self.chosen is not None:
            return
        self.timings[fmt].append(seconds)
        best = self.best()
        if len(best) < len(self.timings):
            return
        # raw clearly ahead after one of each (its first capture pays for the first
        # connection, so PNG ahead is checked with a second sample of each)
        clear = best["png"] >= CLEAR_RATIO * best["raw"]
        if min(len(t) for t in self.timings.values()) >= self.samples or clear:
            self.chosen = min(best, key=lambda f: (best[f], f != "raw"))
            self.say(
                f"screenshots: raw {best['raw']:.2f} s, PNG {best['png']:.2f} s; "
                f"using {self.chosen}"
            )

    def unreadable(self, fmt: str, why: str) -> bool:
        """A capture in ``fmt`` could not be decoded: True when ``auto`` turns to PNG
        for good (so the caller may try again at once), False when the mode was forced."""
        if self.mode != "auto" or fmt != "raw":
            return False
        self.chosen = "png"
        self.say(f"screenshots: raw output unreadable ({why}); using PNG")
        return True
