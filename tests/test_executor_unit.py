"""Executor pieces that need no phone: text escaping, touch parsing, stitching maths."""

from __future__ import annotations

import itertools
import shlex

import numpy as np
import pytest
from PIL import Image

from screenpilot.executor.longshot import _stitch, estimate_shift, fixed_regions, moving_band
from screenpilot.executor.recording import AxisRanges, gestures, parse_ranges
from screenpilot.executor.textinput import (
    adb_keyboard_command,
    input_text_commands,
    is_plain_ascii,
)
from screenpilot.model import Box


def typed_by_android(cmds: list[str]) -> str:
    """What Android's `input text` would type for these commands (sh quoting, then %s)."""
    out = []
    for cmd in cmds:
        args = shlex.split(cmd)
        if args[:2] == ["input", "keyevent"]:
            out.append({"KEYCODE_ENTER": "\n", "KEYCODE_TAB": "\t"}[args[2]])
        else:
            assert args[:2] == ["input", "text"] and len(args) == 3, cmd
            out.append(args[2].replace("%s", " "))
    return "".join(out)


@pytest.mark.parametrize(
    "text",
    [
        "hello world",
        'it\'s "quoted"',
        "a&b;c|d",
        "$HOME `id` $(reboot)",
        "back\\slash",
        "100%s sure",
        "%%s",
        "50% off",
        "line1\nline2\tend",
        "x" * 450,
        "  lead and trail  ",
    ],
)
def test_input_text_round_trips_through_sh(text: str) -> None:
    assert is_plain_ascii(text)
    assert typed_by_android(input_text_commands(text)) == text


def test_non_ascii_goes_through_adb_keyboard() -> None:
    assert not is_plain_ascii("你好") and not is_plain_ascii("café 😀")
    cmd = adb_keyboard_command("你好")
    assert cmd.startswith("am broadcast -a ADB_INPUT_B64 --es msg ")
    import base64

    assert base64.b64decode(cmd.split()[-1]).decode() == "你好"


GETEVENT = """\
[   100.000000] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   00000001
[   100.000000] /dev/input/event2: EV_KEY       BTN_TOUCH            DOWN
[   100.000000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_X    0000021c
[   100.000000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_Y    000004b0
[   100.000000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000
[   100.080000] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   ffffffff
[   100.080000] /dev/input/event2: EV_KEY       BTN_TOUCH            UP
[   100.080000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000
[   101.000000] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   00000002
[   101.000000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_X    00000064
[   101.000000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_Y    00000064
[   101.000000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000
[   101.700000] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   ffffffff
[   101.700000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000
[   102.000000] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   00000003
[   102.000000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_X    000001f4
[   102.000000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_Y    000005dc
[   102.000000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000
[   102.100000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_Y    000003e8
[   102.100000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000
[   102.200000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_Y    000001f4
[   102.200000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000
[   102.250000] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   ffffffff
[   102.250000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000
"""


def test_getevent_lines_become_gestures() -> None:
    found = list(gestures(GETEVENT.splitlines(), size=(1080, 2400)))
    assert [g.kind for g in found] == ["tap", "long_press", "swipe"]
    tap, press, swipe = found
    assert (tap.x, tap.y, tap.duration_ms) == (540, 1200, 80)
    assert (press.x, press.y, press.duration_ms) == (100, 100, 700)
    assert (swipe.x, swipe.y, swipe.end_x, swipe.end_y) == (500, 1500, 500, 500)


def test_raw_axis_ranges_scale_to_pixels() -> None:
    text = """add device 1: /dev/input/event2
  name:     "touchscreen"
  events:
    ABS (0003): ABS_MT_POSITION_X     : value 0, min 0, max 4095, fuzz 0, flat 0, resolution 0
                ABS_MT_POSITION_Y     : value 0, min 0, max 4095, fuzz 0, flat 0, resolution 0
"""
    ranges = parse_ranges(text)
    assert ranges == AxisRanges(0, 4095, 0, 4095)
    assert ranges.scale(4095, 2048, (1080, 2400)) == (1079, 1200)


def _page(height: int, width: int = 200) -> np.ndarray:
    rng = np.random.default_rng(0)
    return rng.integers(0, 255, size=(height, width, 3), dtype=np.uint8)


def _frame(
    page: np.ndarray, offset: int, h: int = 400, header: int = 60, footer: int = 50
) -> Image.Image:
    view = h - header - footer
    frame = np.zeros((h, page.shape[1], 3), dtype=np.uint8)
    frame[:header] = 200
    frame[20:40, 30:90] = 10  # a title in the toolbar
    frame[h - footer :] = 90
    frame[header : h - footer] = page[offset : offset + view]
    return Image.fromarray(frame)


def test_fixed_regions_and_shift_on_scrolled_frames() -> None:
    page = _page(1200)
    a, b = _frame(page, 0), _frame(page, 137)
    top, bottom = fixed_regions(a, b)
    assert (top, bottom) == (60, 350)
    assert estimate_shift(a, b, top, bottom, expected=140) == 137


def test_moving_band_ignores_a_toolbar_that_changes_tint() -> None:
    page = _page(1200)
    a = _frame(page, 0)
    tinted = np.asarray(_frame(page, 137)).copy()
    tinted[:60] = tinted[:60] - 12  # Material toolbars tint once content scrolls under
    top, bottom, shift = moving_band(a, Image.fromarray(tinted), expected=140)
    assert shift == 137
    assert top == 60 and bottom == 350


def test_stitch_rebuilds_the_page_and_locates_boxes() -> None:
    page = _page(1000)
    offsets = [0, 200, 400, 600, 710]
    frames = [_frame(page, o) for o in offsets]
    shifts = [b - a for a, b in itertools.pairwise(offsets)]
    long = _stitch(frames, shifts, 60, 350)
    tall = np.asarray(long.image)
    assert tall.shape[0] == 60 + 1000 + 50
    assert np.array_equal(tall[60:1060], page)
    offset, box = long.locate(Box(0, 60 + 900, 10, 60 + 950))
    assert long.offsets[0] <= offset <= long.max_offset
    assert box.y1 >= 60 and box.y2 <= 350
    assert box.y1 == 60 + 900 - offset
