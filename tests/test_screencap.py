"""Screenshots as raw pixels or PNG: decoding, the timed choice, and both through the
real adb binary from the virtual phone."""

from __future__ import annotations

import io
import struct
from typing import Any

import numpy as np
import pytest
from phone_fixtures import PhoneSession
from PIL import Image

from screenpilot.errors import DeviceError
from screenpilot.executor import screencap
from screenpilot.executor.adb import AdbDevice
from screenpilot.executor.screencap import FormatChooser, decode_raw
from screenpilot.simulator.phone import VirtualPhone

PIXELS = np.array(
    [[[10, 20, 30], [40, 50, 60], [70, 80, 90]], [[1, 2, 3], [4, 5, 6], [7, 8, 9]]],
    dtype=np.uint8,
)  # 2 rows of 3 pixels


def raw_bytes(code: int, *, header: int = 16) -> bytes:
    h, w, _ = PIXELS.shape
    if code in (1, 2):
        body = np.concatenate([PIXELS, np.full((h, w, 1), 255, np.uint8)], axis=2)
    elif code == 5:
        body = np.concatenate([PIXELS[:, :, ::-1], np.full((h, w, 1), 255, np.uint8)], axis=2)
    else:
        body = PIXELS
    head = struct.pack("<3I", w, h, code) + (struct.pack("<I", 1) if header == 16 else b"")
    return head + body.tobytes()


@pytest.mark.parametrize("code", [1, 2, 3, 5])
@pytest.mark.parametrize("header", [12, 16])
def test_raw_pixel_formats_decode_to_rgb(code: int, header: int) -> None:
    image = decode_raw(raw_bytes(code, header=header))
    assert image.mode == "RGB" and image.size == (3, 2)
    assert np.array_equal(np.asarray(image), PIXELS)


def test_raw_output_that_does_not_fit_is_refused() -> None:
    with pytest.raises(ValueError, match="pixel format 4"):
        decode_raw(struct.pack("<4I", 3, 2, 4, 1) + bytes(12))  # RGB_565
    with pytest.raises(ValueError, match="does not hold 3x2"):
        decode_raw(raw_bytes(1)[:-5])
    with pytest.raises(ValueError, match="no header"):
        decode_raw(b"\x89PNG")
    with pytest.raises(OSError):
        screencap.decode("png", b"not a png")


def test_auto_times_both_formats_and_keeps_the_faster() -> None:
    said: list[str] = []
    chooser = FormatChooser("auto", say=said.append)
    order = []
    times = {"raw": iter([0.5, 0.4]), "png": iter([0.7, 0.75])}
    for _ in range(4):
        fmt = chooser.next()
        order.append(fmt)
        chooser.record(fmt, next(times[fmt]))
    assert order == ["raw", "png", "raw", "png"]
    assert chooser.chosen == "raw" and chooser.next() == "raw"
    assert said == ["screenshots: raw 0.40 s, PNG 0.70 s; using raw"]
    chooser.record("png", 0.01)  # timings after the choice change nothing
    assert chooser.next() == "raw"

    usb = FormatChooser("auto", say=said.append)  # raw clearly ahead: chosen at once
    usb.record(usb.next(), 0.6)
    usb.record(usb.next(), 2.1)
    assert usb.chosen == "raw"
    close = FormatChooser("auto", say=said.append)  # PNG ahead: a second look first
    close.record(close.next(), 2.0)
    close.record(close.next(), 0.9)
    assert close.chosen is None and close.next() == "raw"

    slow_link = FormatChooser("auto", samples=1, say=said.append)
    slow_link.record(slow_link.next(), 2.5)
    slow_link.record(slow_link.next(), 0.8)
    assert slow_link.next() == "png"


def test_forced_modes_and_unreadable_raw() -> None:
    assert FormatChooser("png").next() == "png"
    forced = FormatChooser("raw")
    assert forced.next() == "raw" and not forced.unreadable("raw", "format 4")
    said: list[str] = []
    auto = FormatChooser("auto", say=said.append)
    assert auto.unreadable("raw", "pixel format 4")
    assert auto.next() == "png" and "unreadable (pixel format 4)" in said[0]
    with pytest.raises(ValueError, match="auto, raw, png"):
        FormatChooser("jpeg")


@pytest.mark.parametrize("mode", ["raw", "png", "auto"])
def test_every_mode_captures_the_phone_frame(
    phone: PhoneSession, vp: VirtualPhone, mode: str
) -> None:
    device = AdbDevice(phone.serial, capture=mode)
    expected = np.asarray(vp.frame().image.convert("RGB"))
    for _ in range(5):  # auto: two of each, then its choice
        assert np.array_equal(np.asarray(device.capture()), expected)
    chosen = device.formats.chosen
    assert chosen in ("raw", "png") and (mode == "auto" or chosen == mode)


def test_unreadable_raw_turns_auto_to_png_and_fails_forced_raw(
    phone: PhoneSession, vp: VirtualPhone, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(data: bytes) -> Any:
        raise ValueError("raw screenshot in pixel format 22, which is not read here")

    monkeypatch.setattr(screencap, "decode_raw", refuse)
    expected = np.asarray(vp.frame().image.convert("RGB"))
    auto = AdbDevice(phone.serial)
    assert np.array_equal(np.asarray(auto.capture()), expected)
    assert auto.formats.chosen == "png"
    forced = AdbDevice(phone.serial, capture="raw")
    with pytest.raises(DeviceError, match="screencap failed") as info:
        forced.capture()
    assert "device.capture to png" in info.value.hint


WARNING = (
    b"[Warning] Multiple displays were found, but no display id was specified! "
    b"Defaulting to the first display found, however this default is not guaranteed "
    b"to be consistent across captures. A display id should be specified.\n"
)


def test_a_foldables_warning_before_the_image_is_skipped() -> None:
    image = screencap.decode("raw", WARNING + raw_bytes(5))
    assert np.array_equal(np.asarray(image), PIXELS)
    png = io.BytesIO()
    Image.fromarray(PIXELS).save(png, format="PNG")
    image = screencap.decode("png", WARNING + png.getvalue())
    assert np.array_equal(np.asarray(image), PIXELS)
    with pytest.raises(ValueError, match="pixel format 22"):  # still refused, still said why
        screencap.decode("raw", WARNING + struct.pack("<4I", 3, 2, 22, 1) + b"\n" * 48)


def test_a_foldable_through_adb(
    phone: PhoneSession, vp: VirtualPhone, monkeypatch: pytest.MonkeyPatch
) -> None:
    from screenpilot.simulator.shell import screen

    raw = screen.screencap_raw_bytes
    monkeypatch.setattr(screen, "screencap_raw_bytes", lambda *a: WARNING + raw(*a))
    png = vp.screencap_png
    monkeypatch.setattr(vp, "screencap_png", lambda: WARNING + png())
    expected = np.asarray(vp.frame().image.convert("RGB"))
    for mode in ("raw", "png"):
        device = AdbDevice(phone.serial, capture=mode)
        assert np.array_equal(np.asarray(device.capture()), expected)
