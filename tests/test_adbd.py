"""adbd against the real adb binary (adbutils' bundled platform-tools) and raw sockets."""

from __future__ import annotations

import io
import shlex
import socket
import struct
import subprocess
import threading
import time
from pathlib import Path

import adbutils
import pytest
from phone_fixtures import PhoneSession, wait_until
from PIL import Image

from screenpilot.simulator.adbd import (
    A_CLSE,
    A_CNXN,
    A_OKAY,
    A_OPEN,
    A_WRTE,
    HEADER,
    MAX_PAYLOAD,
    Message,
    pack_message,
    unpack_header,
)


# --- a minimal raw client, to misbehave in ways adb never would ---------------------------
def raw_connect(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.sendall(
        pack_message(Message(A_CNXN, 0x01000001, MAX_PAYLOAD, b"host::\0"), checksum=False)
    )
    assert read_message(sock).command == A_CNXN
    return sock


def read_message(sock: socket.socket) -> Message:
    header = recv_exact(sock, HEADER.size)
    command, arg0, arg1, length = unpack_header(header, MAX_PAYLOAD)
    return Message(command, arg0, arg1, recv_exact(sock, length))


def recv_exact(sock: socket.socket, n: int) -> bytes:
    buf = b""
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise ConnectionError("closed")
        buf += chunk
    return buf


def wait_threads(phone: PhoneSession, at_most: int, timeout: float = 5.0) -> int:
    wait_until(lambda: phone.adbd.active_threads() <= at_most, timeout, interval=0.05)
    return phone.adbd.active_threads()


# --- connecting -----------------------------------------------------------------------------
def test_connected_with_features(phone: PhoneSession) -> None:
    assert phone.device.get_state() == "device"
    features = phone.device.get_features().split(",")
    assert {"shell_v2", "cmd", "stat_v2", "ls_v2"} <= set(features)
    assert phone.device.prop.model == phone.backend.getprop("ro.product.model")


def test_echo(phone: PhoneSession) -> None:
    assert phone.device.shell("echo hi") == "hi"


def test_shell_v2_exit_codes_and_stderr(phone: PhoneSession) -> None:
    ok = phone.device.shell2("echo out; echo err >&2", v2=True)
    assert (ok.returncode, ok.stdout, ok.stderr) == (0, "out\n", "err\n")
    assert phone.device.shell2("false", v2=True).returncode == 1
    assert phone.device.shell2("exit 42", v2=True).returncode == 42
    assert phone.device.shell2("true; false", v2=False).returncode == 1  # the v1 $? trick


def test_unknown_command(phone: PhoneSession) -> None:
    result = phone.device.shell2("frobnicate", v2=True)
    assert result.returncode == 127
    assert result.stderr == "/system/bin/sh: frobnicate: inaccessible or not found\n"


def test_adb_cli_shell_and_exec_out(phone: PhoneSession) -> None:
    adb = [adbutils.adb_path(), "-s", phone.serial]
    shell = subprocess.run(
        [*adb, "shell", "echo", "a;", "exit", "9"], capture_output=True, timeout=30
    )
    assert (shell.returncode, shell.stdout) == (9, b"a\n")
    png = subprocess.run([*adb, "exec-out", "screencap", "-p"], capture_output=True, timeout=30)
    assert png.stdout.startswith(b"\x89PNG\r\n\x1a\n")


# --- the screen ---------------------------------------------------------------------------------
def test_screenshot_size(phone: PhoneSession) -> None:
    assert phone.device.screenshot().size == phone.backend.size()


def test_screencap_png_is_intact(phone: PhoneSession) -> None:
    data = phone.device.shell("screencap -p", encoding=None)
    image = Image.open(io.BytesIO(data))
    image.verify()
    direct = Image.open(io.BytesIO(phone.backend.screencap_png())).convert("RGB")
    assert Image.open(io.BytesIO(data)).convert("RGB").tobytes() == direct.tobytes()


def test_raw_screencap_spans_many_packets(phone: PhoneSession) -> None:
    data = phone.device.shell("screencap", encoding=None)
    w, h, fmt, _ = struct.unpack_from("<4I", data)
    assert (w, h, fmt) == (*phone.backend.size(), 1)
    assert len(data) == 16 + w * h * 4 > 4 * MAX_PAYLOAD


# --- input ----------------------------------------------------------------------------------------
def test_tap_reaches_the_phone(phone: PhoneSession) -> None:
    phone.device.click(123, 456)
    assert (123, 456) in phone.backend.named("tap")


def test_unescaped_text_is_mangled(phone: PhoneSession) -> None:
    before = len(phone.backend.named("input_text"))
    result = phone.device.shell2("input text a b;c$X", v2=True)
    assert phone.backend.named("input_text")[before:] == [("a",)]
    assert result.returncode == 127 and "c: inaccessible or not found" in result.stderr


def test_quoted_hostile_text_arrives_intact(phone: PhoneSession) -> None:
    text = "a b;c$X&d'e\"f\\g|h(i)`id`*<>~#!"
    before = len(phone.backend.named("input_text"))
    cmd = "input text " + shlex.quote(text.replace(" ", "%s"))
    assert phone.device.shell2(cmd, v2=True).returncode == 0
    assert phone.backend.named("input_text")[before:] == [(text,)]


def test_enormous_text_does_not_hang(phone: PhoneSession) -> None:
    start = time.monotonic()
    with pytest.raises(adbutils.AdbError):  # adb itself refuses a 1 MB service name
        phone.device.shell("input text " + "a" * (1 << 20), timeout=20)
    big = phone.device.shell2("input text " + "a" * 60000, v2=True, timeout=20)
    assert big.returncode == 0
    assert time.monotonic() - start < 10
    assert phone.device.shell("echo alive") == "alive"


def test_getevent_reports_an_injected_tap(phone: PhoneSession) -> None:
    stream = phone.device.shell("getevent -lt", stream=True)
    try:
        stream.conn.settimeout(10)
        received = b""
        while b"fts_ts" not in received:  # the header: getevent is listening
            received += stream.conn.recv(4096)
        phone.device.shell("input tap 300 700")
        while b"ffffffff" not in received or not received.endswith(b"\n"):
            received += stream.conn.recv(4096)
    finally:
        stream.close()
    lines = received.decode().splitlines()
    events = [
        line.split("/dev/input/event2: ")[1].split()
        for line in lines
        if "/dev/input/event2: " in line
    ]
    assert ["EV_ABS", "ABS_MT_POSITION_X", f"{300:08x}"] in events
    assert ["EV_ABS", "ABS_MT_POSITION_Y", f"{700:08x}"] in events
    assert ["EV_KEY", "BTN_TOUCH", "DOWN"] in events
    assert events[-1] == ["EV_SYN", "SYN_REPORT", "00000000"]


# --- files ----------------------------------------------------------------------------------------
def test_push_and_pull_a_vcf(phone: PhoneSession, tmp_path: Path) -> None:
    vcf = b"BEGIN:VCARD\nVERSION:3.0\nFN:Alice\nTEL:2122000000\nEND:VCARD\n" * 3000
    src, back = tmp_path / "contacts.vcf", tmp_path / "back.vcf"
    src.write_bytes(vcf)
    adb = [adbutils.adb_path(), "-s", phone.serial]
    subprocess.run(
        [*adb, "push", str(src), "/sdcard/Download/"], check=True, capture_output=True, timeout=30
    )
    assert phone.device.shell("ls /sdcard/Download") == "contacts.vcf"
    subprocess.run(
        [*adb, "pull", "/sdcard/Download/contacts.vcf", str(back)],
        check=True,
        capture_output=True,
        timeout=30,
    )
    assert back.read_bytes() == vcf
    assert phone.device.sync.read_bytes("/sdcard/Download/contacts.vcf") == vcf
    assert phone.device.sync.stat("/sdcard/Download/contacts.vcf").size == len(vcf)
    phone.device.sync.push(b"x", "/data/local/tmp/x.txt")
    assert phone.device.shell("cat /data/local/tmp/x.txt; rm /data/local/tmp/x.txt") == "x"


def test_push_to_read_only_storage_fails(phone: PhoneSession, tmp_path: Path) -> None:
    src = tmp_path / "a.txt"
    src.write_bytes(b"a")
    result = subprocess.run(
        [adbutils.adb_path(), "-s", phone.serial, "push", str(src), "/system/a.txt"],
        capture_output=True,
        timeout=30,
    )
    assert result.returncode == 1 and b"Read-only file system" in result.stderr


# --- robustness -----------------------------------------------------------------------------------
def test_disconnect_and_reconnect(phone: PhoneSession) -> None:
    phone.reconnect()
    assert phone.device.shell("echo back") == "back"


def test_unknown_service_is_refused(phone: PhoneSession) -> None:
    with pytest.raises(adbutils.AdbError):
        phone.device.open_transport("frobnicate:now").close()
    with raw_connect(phone.adbd.port) as sock:
        sock.sendall(pack_message(Message(A_OPEN, 7, 0, b"frobnicate:\0"), checksum=False))
        reply = read_message(sock)
        assert (reply.command, reply.arg0, reply.arg1) == (A_CLSE, 0, 7)
    assert phone.device.shell("echo ok") == "ok"


def test_reboot_is_refused_with_text(phone: PhoneSession) -> None:
    with raw_connect(phone.adbd.port) as sock:
        sock.sendall(pack_message(Message(A_OPEN, 3, 0, b"reboot:\0"), checksum=False))
        okay = read_message(sock)
        assert okay.command == A_OKAY
        text = read_message(sock)
        assert text.command == A_WRTE and b"cannot reboot" in text.data


def test_malformed_packet_closes_only_that_connection(phone: PhoneSession) -> None:
    with raw_connect(phone.adbd.port) as sock:
        sock.sendall(b"\xde\xad\xbe\xef" * 6)
        sock.settimeout(5)
        assert sock.recv(1) == b""  # the server hung up
    with socket.create_connection(("127.0.0.1", phone.adbd.port), timeout=5) as sock:
        bad_magic = HEADER.pack(A_CNXN, 0x01000001, 4096, 0, 0, 0)
        sock.sendall(bad_magic)
        assert sock.recv(1) == b""
    assert phone.device.shell("echo still serving") == "still serving"


def test_client_vanishing_mid_stream(phone: PhoneSession) -> None:
    baseline = wait_threads(phone, 1)
    sock = raw_connect(phone.adbd.port)
    sock.sendall(pack_message(Message(A_OPEN, 5, 0, b"shell:getevent -lt\0"), checksum=False))
    assert read_message(sock).command == A_OKAY
    sock.close()  # no CLSE, no goodbye
    sock2 = raw_connect(phone.adbd.port)
    sock2.sendall(pack_message(Message(A_OPEN, 9, 0, b"shell:screencap\0"), checksum=False))
    read_message(sock2)
    sock2.shutdown(socket.SHUT_RDWR)  # mid-transfer: the rest never gets an OKAY
    sock2.close()
    assert phone.device.shell("echo others still served") == "others still served"
    assert wait_threads(phone, baseline) <= baseline


def test_concurrent_streams(phone: PhoneSession) -> None:
    results: dict[int, str] = {}

    def worker(i: int) -> None:
        results[i] = phone.device.shell(f"sleep 0.2; echo {i}")

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert results == {i: str(i) for i in range(8)}
    assert time.monotonic() - start < 0.2 * 8


def test_sequential_streams_do_not_leak_threads(phone: PhoneSession) -> None:
    phone.device.shell("true")
    wait_threads(phone, 1)
    before = threading.active_count()
    for i in range(60):
        assert phone.device.shell(f"echo {i}") == str(i)
    wait_until(lambda: threading.active_count() <= before, 5, interval=0.05)
    assert threading.active_count() <= before


# --- the virtual phone, read the way a check from outside reads a real phone -------------------
def test_virtual_phone_state_through_adb(phone: PhoneSession) -> None:
    if phone.kind != "VirtualPhone":
        pytest.skip("simulator/phone.py's VirtualPhone is not available")
    d = phone.device
    out = d.shell("monkey -p com.android.settings -c android.intent.category.LAUNCHER 1")
    assert "Events injected: 1" in out
    assert "com.android.settings" in d.shell("dumpsys window | grep mCurrentFocus")
    d.shell("input keyevent HOME")
    assert "com.android.settings" not in d.shell("dumpsys window | grep mCurrentFocus")
    old = d.shell("settings get global wifi_on")
    d.shell("settings put global wifi_on 0")
    assert d.shell("settings get global wifi_on") == "0"
    d.shell(f"settings put global wifi_on {old}")
    assert d.shell("monkey -p com.nope 1").endswith("monkey aborted.")
