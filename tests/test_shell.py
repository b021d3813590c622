"""The virtual phone's sh: POSIX quoting, Android's commands and their exact output.

Runs the interpreter directly (no adb) on ``StubPhone`` behind ``RecordingBackend``,
so every assertion about what reached the phone is exact.
"""

from __future__ import annotations

import io
import re
import shlex
import struct
import threading
import time

import pytest
from phone_fixtures import RecordingBackend, StubPhone, wait_until
from PIL import Image

from screenpilot.simulator.backend import PhoneBackend, TouchEvent
from screenpilot.simulator.shell import (
    ARG_MAX,
    BufferIO,
    Call,
    GeteventWriter,
    MemoryFileSystem,
    Shell,
    android_text,
    keycode_from_string,
    parse,
)


@pytest.fixture
def backend() -> RecordingBackend:
    return RecordingBackend(StubPhone())


@pytest.fixture
def sh(backend: RecordingBackend) -> Shell:
    return Shell(backend)


def run(sh: Shell, line: str) -> tuple[int, str, str]:
    out = BufferIO()
    status = sh.run(line, out)
    return status, out.stdout.decode(), out.stderr.decode()


# --- the stub itself -----------------------------------------------------------------------
def test_stub_phone_is_a_phone_backend() -> None:
    assert isinstance(StubPhone(), PhoneBackend)


# --- quoting, expansion, sequencing -----------------------------------------------------------
def test_quotes_and_escapes_follow_posix(sh: Shell) -> None:
    assert run(sh, "echo 'a  b' \"c  d\" e\\ \\ f g\\\\h")[1] == "a  b c  d e  f g\\h\n"
    assert run(sh, "echo 'it'\\''s' \"say \\\"hi\\\" \\$HOME\"")[1] == 'it\'s say "hi" $HOME\n'


def test_unset_variables_expand_to_nothing(sh: Shell) -> None:
    assert run(sh, 'echo a$X b${Y}c $Y "[$Z]"')[1] == "a bc []\n"
    assert run(sh, "X=hi; echo $X")[1] == "hi\n"


def test_status_and_sequencing(sh: Shell) -> None:
    assert run(sh, "false; echo $?")[1] == "1\n"
    assert run(sh, "false && echo no || echo yes")[1] == "yes\n"
    assert run(sh, "true && echo one; echo two")[1] == "one\ntwo\n"
    assert run(sh, "exit 3; echo never") == (3, "", "")


def test_command_substitution_and_comments(sh: Shell) -> None:
    line = "echo $(echo 'a   b') \"$(echo 'c   d')\" `echo e` # ignored"
    assert run(sh, line)[1] == "a b c   d e\n"


def test_pipes_and_redirections(sh: Shell) -> None:
    assert run(sh, "dumpsys window | grep mCurrentFocus | wc -l")[1] == "1\n"
    assert (
        run(sh, "echo hi > /sdcard/a.txt; echo there >> /sdcard/a.txt; cat /sdcard/a.txt")[1]
        == "hi\nthere\n"
    )
    assert run(sh, "nosuch 2>/dev/null") == (127, "", "")
    status, out, err = run(sh, "nosuch 2>&1")
    assert (status, err) == (127, "") and "inaccessible or not found" in out
    assert run(sh, "echo x > /system/x") == (
        1,
        "",
        "/system/bin/sh: can't create /system/x: Read-only file system\n",
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("echo (", "/system/bin/sh: syntax error: '(' unexpected\n"),
        ("echo 'abc", "/system/bin/sh: no closing quote\n"),
        ("&& echo", "/system/bin/sh: syntax error: '&&' unexpected\n"),
        ("echo |", "/system/bin/sh: syntax error: unexpected EOF\n"),
    ],
)
def test_syntax_errors(sh: Shell, line: str, message: str) -> None:
    status, out, err = run(sh, line)
    assert status != 0 and out == "" and err == message


def test_unknown_command_is_127_with_androids_text(sh: Shell) -> None:
    assert run(sh, "frobnicate --now") == (
        127,
        "",
        "/system/bin/sh: frobnicate: inaccessible or not found\n",
    )


def test_parse_keeps_operators_inside_quotes() -> None:
    program = parse("input text 'a;b&&c|d' ; echo x")
    assert len(program) == 2 and len(program[0].pipeline.commands) == 1


# --- hostile text through input text ---------------------------------------------------------
HOSTILE = "a b;c$X&d'e\"f\\g|h(i)%sj`k`*"


def test_unescaped_text_is_mangled_by_sh(sh: Shell, backend: RecordingBackend) -> None:
    status, _, err = run(sh, "input text a b;c$X")
    assert backend.named("input_text") == [("a",)]  # "b" dropped, ";" split
    assert (status, err) == (127, "/system/bin/sh: c: inaccessible or not found\n")
    status, _, _ = run(sh, "input text $X")  # expands to no argument
    assert status == 255 and backend.named("input_text") == [("a",)]


def test_quoted_text_with_percent_s_arrives_intact(sh: Shell, backend: RecordingBackend) -> None:
    text = "a b;c$X&d'e\"f\\g|h(i)j`k`*"
    assert run(sh, "input text " + shlex.quote(text.replace(" ", "%s")))[0] == 0
    assert backend.named("input_text") == [(text,)]


def test_percent_s_rule_matches_android() -> None:
    assert android_text("a%sb") == "a b"
    assert android_text("%%s") == "% "
    assert android_text("100%") == "100%"


def test_non_ascii_text_fails_like_android(sh: Shell, backend: RecordingBackend) -> None:
    status, _, err = run(sh, "input text '你好'")
    assert status == 255 and "java.lang.NullPointerException" in err
    assert backend.named("input_text") == []


def test_enormous_command_line_is_refused_quickly(sh: Shell) -> None:
    start = time.monotonic()
    status, _, err = run(sh, "input text " + "a" * (1 << 20))
    assert status == 126 and "Argument list too long" in err
    assert time.monotonic() - start < 1.0


def test_long_text_below_the_limit_is_typed(sh: Shell, backend: RecordingBackend) -> None:
    text = "x" * (ARG_MAX - 100)
    assert run(sh, f"input text {text}")[0] == 0
    assert backend.named("input_text") == [(text,)]


# --- input -----------------------------------------------------------------------------------
def test_tap_swipe_and_offscreen(sh: Shell, backend: RecordingBackend) -> None:
    assert run(sh, "input tap 540 1200; input tap 5000 10; input tap -1 4")[0] == 0
    assert backend.named("tap") == [(540, 1200)]
    assert run(sh, "input swipe 500 1800 500 600 250; input touchscreen swipe 1 2 3 4")[0] == 0
    assert backend.named("swipe") == [(500, 1800, 500, 600, 250), (1, 2, 3, 4, 300)]


def test_keyevents(sh: Shell, backend: RecordingBackend) -> None:
    assert (
        run(sh, "input keyevent BACK KEYCODE_HOME 66 back; input keyevent --longpress POWER")[0]
        == 0
    )
    assert backend.named("keyevent") == [(4,), (3,), (66,), (26,)]
    assert keycode_from_string("KEYCODE_DEL") == 67
    assert keycode_from_string("APP_SWITCH") == 187


class ComboPhone(StubPhone):
    def __init__(self) -> None:
        super().__init__()
        self.combos: list[list[int]] = []

    def key_combination(self, codes: list[int]) -> None:
        self.combos.append(codes)


def test_keycombination_reaches_a_phone_that_has_it() -> None:
    phone = ComboPhone()
    assert run(Shell(phone), "input keycombination CTRL_LEFT 29")[0] == 0
    assert phone.combos == [[113, 29]]


def test_keycombination_without_support_types_nothing(sh: Shell, backend: RecordingBackend) -> None:
    assert run(sh, "input keycombination 113 29") == (255, "Unknown command: keycombination\n", "")
    assert backend.named("keyevent") == []


@pytest.mark.parametrize(
    "line", ["input tap 1", "input tap x y", "input roll", "input text", "input keycombination 29"]
)
def test_bad_input_arguments_raise_like_android(sh: Shell, line: str) -> None:
    status, _, err = run(sh, line)
    assert status == 255
    assert err.startswith(
        "\nException occurred while executing 'input':\njava.lang.IllegalArgumentException: "
    )


def test_input_usage(sh: Shell) -> None:
    status, out, _ = run(sh, "input")
    assert status == 255 and out.startswith("Usage: input [<source>] [-d DISPLAY_ID]")


# --- screen and geometry ----------------------------------------------------------------------
def test_screencap_png_and_raw(sh: Shell) -> None:
    out = BufferIO()
    assert sh.run("screencap -p", out) == 0
    assert Image.open(io.BytesIO(bytes(out.stdout))).size == (1080, 2400)
    raw = BufferIO()
    assert sh.run("screencap", raw) == 0
    w, h, fmt, space = struct.unpack_from("<4I", raw.stdout)
    assert (w, h, fmt, space) == (1080, 2400, 1, 1) and len(raw.stdout) == 16 + w * h * 4


def test_screencap_to_a_file(sh: Shell) -> None:
    assert run(sh, "screencap -p /sdcard/s.png && ls /sdcard") == (
        0,
        "DCIM\nDocuments\nDownload\nMovies\nMusic\nPictures\ns.png\n",
        "",
    )
    data = sh.fs.read("/sdcard/s.png")
    assert data is not None and data.startswith(b"\x89PNG")


def test_wm_and_getprop(sh: Shell) -> None:
    assert run(sh, "wm size; wm density")[1] == "Physical size: 1080x2400\nPhysical density: 420\n"
    assert run(sh, "getprop ro.product.model")[1] == "Pixel 7\n"
    assert run(sh, "getprop no.such.prop fallback")[1] == "fallback\n"
    assert "[ro.build.version.sdk]: [34]" in run(sh, "getprop")[1]


# --- apps and state ---------------------------------------------------------------------------
def test_am_start(sh: Shell, backend: RecordingBackend) -> None:
    assert run(sh, "am start -n com.android.settings/.Settings") == (
        0,
        "Starting: Intent { cmp=com.android.settings/.Settings }\n",
        "",
    )
    assert backend.named("launch")[-1] == ("com.android.settings", "com.android.settings.Settings")
    status, out, err = run(sh, "am start -n com.nope/.Main")
    assert status == 1 and out == "Starting: Intent { cmp=com.nope/.Main }\n"
    assert err == "Error type 3\nError: Activity class {com.nope/com.nope.Main} does not exist.\n"
    assert (
        run(sh, "am start -a android.settings.WIFI_SETTINGS")[1]
        == "Starting: Intent { act=android.settings.WIFI_SETTINGS }\n"
    )


def test_am_broadcast_and_ime(sh: Shell, backend: RecordingBackend) -> None:
    assert run(sh, "am broadcast -a ADB_INPUT_TEXT --es msg hello") == (
        0,
        "Broadcasting: Intent { act=ADB_INPUT_TEXT flg=0x400000 (has extras) }\n"
        "Broadcast completed: result=0\n",
        "",
    )
    assert backend.named("broadcast") == [("ADB_INPUT_TEXT", {"msg": "hello"})]
    assert (
        run(sh, "ime list -s")[1]
        == "com.android.inputmethod.latin/.LatinIME\ncom.android.adbkeyboard/.AdbIME\n"
    )
    assert run(
        sh, "ime set com.android.adbkeyboard/.AdbIME; settings get secure default_input_method"
    )[1] == (
        "Input method com.android.adbkeyboard/.AdbIME selected for user #0\n"
        "com.android.adbkeyboard/.AdbIME\n"
    )


def test_monkey(sh: Shell, backend: RecordingBackend) -> None:
    status, out, _ = run(sh, "monkey -p com.android.contacts -c android.intent.category.LAUNCHER 1")
    assert status == 0 and "Events injected: 1\n" in out and "  bash arg: -p\n" in out
    assert backend.named("launch") == [("com.android.contacts", None)]
    status, out, _ = run(sh, "monkey -p com.nope -c android.intent.category.LAUNCHER 1")
    assert status == 252 and out.endswith("** No activities found to run, monkey aborted.\n")


def test_pm_and_cmd(sh: Shell) -> None:
    assert run(sh, "pm list packages contacts")[1] == "package:com.android.contacts\n"
    assert run(sh, "cmd package list packages settings")[1] == "package:com.android.settings\n"
    assert run(sh, "cmd nosuch") == (20, "", "cmd: Can't find service: nosuch\n")


def test_settings(sh: Shell) -> None:
    assert run(sh, "settings get global wifi_on")[1] == "1\n"
    assert run(sh, "settings get global nothing_here")[1] == "null\n"
    assert run(sh, "settings put global wifi_on 0; settings get global wifi_on")[1] == "0\n"
    assert run(sh, "settings list system")[1] == "screen_brightness=128\n"
    assert run(sh, "settings get bogus x") == (255, "", "Invalid namespace 'bogus'\n")


def test_content_query(sh: Shell) -> None:
    uri = "content://com.android.contacts/data/phones"
    assert (
        run(sh, f"content query --uri {uri} --projection display_name:number")[1]
        == "Row: 0 display_name=Alice, number=2122000000\n"
    )
    assert (
        run(sh, f"content query --uri {uri} --where \"display_name='Bob'\"")[1]
        == "No result found.\n"
    )
    status, _, err = run(sh, "content query --uri content://com.nope/x")
    assert status == 1 and err.startswith(
        "Error while accessing provider:com.nope\n"
        "java.lang.IllegalStateException: Could not find "
        "provider: com.nope\n"
    )


def test_dumpsys_and_uiautomator(sh: Shell) -> None:
    assert "mCurrentFocus=Window{" in run(sh, "dumpsys window")[1]
    assert run(sh, "dumpsys nosuch") == (0, "", "Can't find service: nosuch\n")
    assert "Display 4619827259835644672" in run(sh, "dumpsys SurfaceFlinger --display-id")[1]
    status, _, err = run(sh, "uiautomator dump")
    assert status == 1 and "not available" in err and "vision-only" in err


# --- files --------------------------------------------------------------------------------------
def test_files_and_globs(sh: Shell) -> None:
    sh.fs.write("/sdcard/Download/contacts.vcf", b"BEGIN:VCARD\n")
    assert run(sh, "ls /sdcard/Down*")[1] == "contacts.vcf\n"
    assert run(sh, "cat /storage/emulated/0/Download/*.vcf")[1] == "BEGIN:VCARD\n"
    assert run(sh, "rm /sdcard/Download/contacts.vcf; ls /sdcard/Download")[1] == ""
    assert run(sh, "cat /sdcard/none") == (1, "", "cat: /sdcard/none: No such file or directory\n")
    assert run(sh, "rm /system/bin") == (1, "", "rm: /system/bin: Permission denied\n")
    assert run(sh, "id")[1].startswith("uid=2000(shell) gid=2000(shell)")


def test_file_system_is_rooted_at_sdcard_and_tmp() -> None:
    fs = MemoryFileSystem()
    assert fs.write("/data/local/tmp/a/b.txt", b"x") is None
    assert fs.read("/data/local/tmp/a/b.txt") == b"x"
    assert fs.write("/data/data/x", b"x") == "Read-only file system"
    assert fs.normalize("/storage/self/primary/../primary/DCIM") == "/sdcard/DCIM"


def test_sleep_is_interruptible(sh: Shell) -> None:
    start = time.monotonic()
    assert run(sh, "sleep 0.2")[0] == 0
    assert 0.15 < time.monotonic() - start < 2


# --- getevent -------------------------------------------------------------------------------
def test_getevent_lines_look_like_a_real_touchscreen() -> None:
    out = BufferIO()
    writer = GeteventWriter(Call([], b"", out), labels=True, timestamps=True)
    writer.write(TouchEvent("down", 540, 1200, 12345.678901))
    writer.write(TouchEvent("up", 540, 1200, 12345.7))
    lines = out.stdout.decode().splitlines()
    assert re.fullmatch(
        r"\[   12345\.67890\d\] /dev/input/event2: EV_ABS       "
        r"ABS_MT_TRACKING_ID   [0-9a-f]{8}",
        lines[0],
    )
    assert lines[1].endswith("EV_ABS       ABS_MT_POSITION_X    0000021c")
    assert lines[2].endswith("EV_ABS       ABS_MT_POSITION_Y    000004b0")
    assert lines[5].endswith("EV_KEY       BTN_TOUCH            DOWN                ")
    assert lines[6].endswith("EV_SYN       SYN_REPORT           00000000")
    assert lines[7].endswith("ABS_MT_TRACKING_ID   ffffffff")
    assert lines[8].endswith("BTN_TOUCH            UP                  ")


def test_getevent_lp_reports_pixel_ranges(sh: Shell) -> None:
    text = run(sh, "getevent -lp")[1]
    ranges = dict(re.findall(r"(ABS_MT_POSITION_[XY])\s*: value 0, min 0, max (\d+)", text))
    assert ranges == {"ABS_MT_POSITION_X": "1079", "ABS_MT_POSITION_Y": "2399"}
    assert "0035 : value 0, min 0, max 1079" in run(sh, "getevent -p")[1]


def test_getevent_count_stops_the_stream(sh: Shell, backend: RecordingBackend) -> None:
    out = BufferIO()
    worker = threading.Thread(target=sh.run, args=("getevent -c 7", out))
    worker.start()
    assert wait_until(lambda: backend.listening > 0, 5)  # getevent is listening
    backend.tap(10, 20)
    worker.join(5)
    assert not worker.is_alive()
    lines = out.stdout.decode().splitlines()
    assert len(lines) == 4 + 7  # two "add device" headers, then one touch-down report
    assert lines[4].startswith("/dev/input/event2: 0003 0039 ")
    assert lines[5:7] == [
        "/dev/input/event2: 0003 0035 0000000a",
        "/dev/input/event2: 0003 0036 00000014",
    ]
    assert backend.inner.listener_count() == 0
