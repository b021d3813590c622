"""``screenpilot doctor`` against virtual phones through the real adb binary and adbd.

Every phone here is served on a free port and ``adb connect``ed (then disconnected):
the default phone, one without ADB Keyboard, one showing a FLAG_SECURE screen, one
that never accepts the computer's key, and two at once. The LLM endpoint is a tiny
OpenAI-compatible server on 127.0.0.1. Other phones may be connected to the same adb
server by other test runs, so every check of one phone names it with ``--device``.
"""

from __future__ import annotations

import json
import socket
import struct
import threading
import time
from collections.abc import Iterator, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import adbutils
import numpy as np
import pytest
from typer.testing import CliRunner, Result

from screenpilot.cli import app
from screenpilot.config import load_config
from screenpilot.doctor.llm import check_llm, mask
from screenpilot.doctor.models import models_md, parse_scores
from screenpilot.doctor.report import Status
from screenpilot.simulator.adbd import A_AUTH, A_CNXN, A_OPEN, AdbDaemon, Message, pack_message
from screenpilot.simulator.phone import VirtualPhone
from screenpilot.simulator.serve import serve_phone

KEY = "sk-doctor-secret-4242"
MODEL = "tiny-chat"
CHECK_NAMES = (
    "adb",
    "devices",
    "system",
    "screen",
    "animations",
    "screenshot",
    "ADB Keyboard",
    "detector",
    "icons",
    "ocr",
    "embedder",
    "store",
    "LLM endpoint",
)
runner = CliRunner()


# --- a tiny OpenAI-compatible endpoint --------------------------------------------------
class Endpoint(BaseHTTPRequestHandler):
    """GET /v1/models and POST /v1/chat/completions, for the key ``KEY`` only."""

    chats: ClassVar[list[dict[str, Any]]] = []

    def log_message(self, *args: Any) -> None:
        return

    def _send(self, status: int, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _authorised(self) -> bool:
        if self.headers.get("Authorization") == f"Bearer {KEY}":
            return True
        self._send(401, {"error": {"message": "invalid api key"}})
        return False

    def do_GET(self) -> None:
        if self._authorised():
            self._send(
                200,
                {
                    "object": "list",
                    "data": [{"id": MODEL, "object": "model"}, {"id": "other", "object": "model"}],
                },
            )

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        if not self._authorised():
            return
        type(self).chats.append(body)
        self._send(
            200,
            {
                "id": "c1",
                "object": "chat.completion",
                "created": 0,
                "model": body["model"],
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": "stop",
                        "message": {"role": "assistant", "content": "OK"},
                    }
                ],
                "usage": {"prompt_tokens": 9, "completion_tokens": 1, "total_tokens": 10},
            },
        )


@pytest.fixture(scope="module")
def endpoint() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Endpoint)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()


# --- helpers -----------------------------------------------------------------------------
def doctor(tmp_path: Path, *args: str, sets: tuple[str, ...] = ()) -> Result:
    """``screenpilot [--set ...] doctor ARGS`` with a fresh store and no user config."""
    options = ["--set", f"store.path={tmp_path / 'store'}", "--set", "embed.model=all-MiniLM-L6-v2"]
    for item in sets:
        options += ["--set", item]
    return runner.invoke(
        app, [*options, "doctor", *args], env={"SCREENPILOT_CONFIG": str(tmp_path / "none.toml")}
    )


def lines(result: Result) -> dict[str, str]:
    """Each check's line (symbol + detail) by check name, from the text report."""
    out: dict[str, str] = {}
    for line in result.stdout.splitlines():
        for name in CHECK_NAMES:
            if line[2:].startswith(f"{name}: "):
                out[name] = line
    return out


def shell(serial: str, command: str) -> str:
    return str(adbutils.AdbClient().device(serial).shell(command))


# --- the default phone: everything holds -----------------------------------------------
def test_default_phone_all_checks_pass_and_the_phone_is_left_as_found(
    tmp_path: Path, endpoint: str
) -> None:
    phone = VirtualPhone()
    with serve_phone(phone) as serial:
        for key in (
            "window_animation_scale",
            "transition_animation_scale",
            "animator_duration_scale",
        ):
            shell(serial, f"settings put global {key} 0")
        own = next(i for i in shell(serial, "ime list -s").split() if "adbkeyboard" not in i)
        shell(serial, f"ime set {own}")  # the person's own keyboard, not ADB Keyboard
        contacts = len(phone.app_state("com.android.contacts")["contacts"])
        before = phone.current_focus()
        result = doctor(
            tmp_path,
            "--device",
            serial,
            sets=(f"llm.base_url={endpoint}", f"llm.model={MODEL}", f"llm.api_key={KEY}"),
        )
        after = phone.current_focus()
        keyboard = shell(serial, "settings get secure default_input_method").strip()
        contacts_after = len(phone.app_state("com.android.contacts")["contacts"])
    assert result.exit_code == 0, result.output
    found = lines(result)
    assert set(found) == set(CHECK_NAMES), result.stdout
    assert all(line.startswith("✓ ") for line in found.values()), result.stdout
    assert "ready: `screenpilot run` can start" in result.stdout
    assert "typed '中文 ok'" in found["ADB Keyboard"] and "read it back" in found["ADB Keyboard"]
    assert "1080x2400, 420 dpi, 411 dp across, rotation 0" in found["screen"]
    assert "tablet" not in found["screen"]
    from screenpilot.doctor.models import models_md, parse_scores

    icon_scores = parse_scores(models_md(), "icons.onnx")  # the figures MODELS.md gives
    assert icon_scores is not None and icon_scores.measure == "top-1"
    assert "detector_int8.onnx" in found["detector"] and str(icon_scores) in found["icons"]
    assert "MODELS.md: int8 (default) 0.9" in found["detector"]
    assert "ocr_det_int8.onnx" in found["ocr"] and "MODELS.md: int8" in found["ocr"]
    assert f"{MODEL} listed" in found["LLM endpoint"] and "answered 'OK'" in found["LLM endpoint"]
    assert mask(KEY) in found["LLM endpoint"] and KEY not in result.output
    assert Endpoint.chats and Endpoint.chats[-1]["model"] == MODEL
    assert "..." in result.stderr  # progress went to stderr
    # the person's keyboard is back, the home screen is in front, no contact was saved
    assert keyboard == own
    assert after == before
    assert contacts_after == contacts


# --- what goes wrong ---------------------------------------------------------------------
def test_phone_without_adb_keyboard_fails_with_the_fix(tmp_path: Path) -> None:
    with serve_phone(VirtualPhone(adb_keyboard=False)) as serial:
        result = doctor(tmp_path, "--device", serial)
    assert result.exit_code == 1, result.output
    found = lines(result)
    assert found["ADB Keyboard"].startswith("✗ ADB Keyboard: not installed")
    assert f"adb -s {serial} install ADBKeyboard.apk" in result.stdout
    assert f"adb -s {serial} shell ime enable com.android.adbkeyboard/.AdbIME" in result.stdout
    # animations are on by default: a warning with the three commands that turn them off
    assert found["animations"].startswith("! animations: on")
    for key in ("window_animation_scale", "transition_animation_scale", "animator_duration_scale"):
        assert f"adb -s {serial} shell settings put global {key} 0" in result.stdout
    assert "not ready: 1 problem to fix" in result.stdout


class SilentKeyboardPhone(VirtualPhone):
    """ADB Keyboard installed, enabled and selectable, but its broadcasts type nothing (what
    a phone does when the IME is not really active: Chinese silently does not type)."""

    def broadcast(self, action: str, extras: dict[str, str]) -> str:
        return super().broadcast(action if action.startswith("android.") else "NONE", extras)


def test_text_that_silently_does_not_type_fails(tmp_path: Path) -> None:
    phone = SilentKeyboardPhone()
    with serve_phone(phone) as serial:
        result = doctor(tmp_path, "--device", serial)
        after = phone.current_focus()[0]
    assert result.exit_code == 1, result.output
    line = lines(result)["ADB Keyboard"]
    assert line.startswith("✗ ADB Keyboard: installed, enabled and selectable, but typing")
    assert "'中文 ok'" in line and "First name" in line
    assert "ADB_INPUT_TEXT" in result.stdout  # how to try it by hand
    assert after == "com.android.launcher3"  # backed out of the editor


def test_secure_screen_is_reported_black_in_json(tmp_path: Path) -> None:
    phone = VirtualPhone(adb_keyboard=False)
    phone.open_page("settings", "pin")
    with serve_phone(phone) as serial:
        result = doctor(tmp_path, "--device", serial, "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["ok"] is False and report["serial"] == serial
    checks = {c["name"]: c for c in report["checks"]}
    assert all(set(c) == {"name", "status", "detail", "fix"} for c in report["checks"])
    shot = checks["screenshot"]
    assert shot["status"] == "warn"
    assert "all black" in shot["detail"] and "forbids screenshots" in shot["detail"]
    assert "cannot see it" in shot["detail"] and shot["fix"]
    assert checks["ADB Keyboard"]["status"] == "fail"
    assert checks["detector"]["status"] == "ok"


def test_a_dark_screen_is_reported_off_not_secure(tmp_path: Path) -> None:
    from screenpilot.doctor.phone import check_screenshot
    from screenpilot.executor.adb import AdbDevice

    phone = VirtualPhone()
    phone.keyevent(223)  # the screen timed out
    with serve_phone(phone) as serial:
        shot = check_screenshot(AdbDevice(serial))
    assert shot.status == "warn", shot
    assert "the screen is off" in shot.detail and "forbids" not in shot.detail
    assert "power button" in shot.fix


def test_a_tablet_is_named_with_its_width_in_dp() -> None:
    from screenpilot.doctor.phone import check_screen
    from screenpilot.executor.adb import AdbDevice

    with serve_phone(VirtualPhone(size=(1600, 2560), density=320)) as serial:
        screen = check_screen(AdbDevice(serial))
    assert screen.status == "ok", screen
    assert "1600x2560, 320 dpi, 800 dp across (a tablet: described at a phone's scale)" in (
        screen.detail
    )


def test_unauthorized_phone_says_to_accept_the_prompt(tmp_path: Path) -> None:
    with serve_phone(VirtualPhone(), auth="refuse") as serial:
        states = {d.serial: d.state for d in adbutils.AdbClient().list()}
        result = doctor(tmp_path, "--device", serial)
    assert states[serial] == "unauthorized"
    assert result.exit_code == 1
    found = lines(result)
    assert found["devices"].startswith(f"✗ devices: phone {serial} has not authorised")
    assert "accept the prompt on the phone" in result.stdout
    assert "screen" not in found and "ADB Keyboard" not in found  # nothing to look at


def test_two_phones_ask_which_one(tmp_path: Path) -> None:
    with serve_phone(VirtualPhone()) as first, serve_phone(VirtualPhone()) as second:
        result = doctor(tmp_path, sets=("device.serial=",))
    assert result.exit_code == 1
    found = lines(result)
    assert found["devices"].startswith("✗ devices:")
    assert "phones connected" in found["devices"] and "which one" in found["devices"]
    assert first in found["devices"] and second in found["devices"]
    assert "--device" in result.stdout and "--set device.serial=" in result.stdout


def test_refusing_adbd_asks_for_a_key_and_never_lets_the_client_in() -> None:
    with (
        AdbDaemon(VirtualPhone(), auth="refuse") as daemon,
        socket.create_connection(("127.0.0.1", daemon.port), timeout=5) as sock,
    ):

        def send(msg: Message) -> None:
            sock.sendall(pack_message(msg, checksum=False))

        def receive() -> tuple[int, int, bytes]:
            command, arg0, _arg1, length, _check, _magic = struct.unpack("<6I", _recv(sock, 24))
            return command, arg0, _recv(sock, length)

        send(Message(A_CNXN, 0x01000001, 256 * 1024, b"host::\0"))
        command, kind, token = receive()
        assert (command, kind, len(token)) == (A_AUTH, 1, 20)
        send(Message(A_AUTH, 2, 0, b"\x01" * 256))  # a signature: refused
        command, kind, again = receive()
        assert (command, kind) == (A_AUTH, 1) and again != token
        send(Message(A_AUTH, 3, 0, b"QAAAA... user@host\0"))  # the public key: no answer
        send(Message(A_OPEN, 1, 0, b"shell:echo hi\0"))  # ignored: not authorised
        sock.settimeout(1.0)
        with pytest.raises(TimeoutError):
            sock.recv(24)
        assert daemon.stats()["auth: keys offered, never accepted"] == 1


def _recv(sock: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        assert chunk, "adbd closed the connection"
        data += chunk
    return data


# --- the demonstration store --------------------------------------------------------------
class Hashing:
    """A tiny deterministic encoder standing in for the embedder (no torch needed)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        out = np.array(
            [[float((hash(t) >> s) & 0xFF) + 1.0 for s in range(0, 64, 8)] for t in texts],
            dtype=np.float32,
        )
        normed: np.ndarray = out / np.linalg.norm(out, axis=1, keepdims=True)
        return normed


def test_store_health_lock_and_embedder_mismatch(tmp_path: Path) -> None:
    import filelock

    from screenpilot.doctor.store import check_store
    from screenpilot.pbd.store import LOCK_FILE, DemoRecord, DemoStore

    root = tmp_path / "store"
    cfg = load_config(
        {"store.path": str(root), "embed.model": "all-MiniLM-L6-v2"},
        env={},
        path=Path("/nonexistent.toml"),
    )
    empty = check_store(cfg)
    assert empty.status is Status.OK and "no demonstrations yet" in empty.detail
    with DemoStore.open(root, embedder=Hashing("all-MiniLM-L6-v2")) as demos:
        demos.add(DemoRecord("Turn wifi on.", ("tap 'Settings'", "tap 'Wi-Fi'")))
    healthy = check_store(cfg)
    assert healthy.status is Status.OK, healthy
    assert "demonstrations 1 by all-MiniLM-L6-v2" in healthy.detail
    assert "not locked" in healthy.detail
    lock = filelock.FileLock(root / LOCK_FILE, timeout=1, is_singleton=False)
    held = threading.Event()
    holder = threading.Thread(target=lambda: _hold(lock, held, seconds=8.0))
    holder.start()
    assert held.wait(10)
    try:
        busy = check_store(cfg)
    finally:
        holder.join()
    assert busy.status is Status.WARN and "busy" in busy.detail, busy
    other = load_config(
        {"store.path": str(root), "embed.model": str(tmp_path / "bge-local")},
        env={},
        path=Path("/nonexistent.toml"),
    )
    (tmp_path / "bge-local").mkdir()
    stale = check_store(other)
    assert stale.status is Status.WARN and "not searched until re-embedded" in stale.detail
    assert stale.fix == "screenpilot demos reembed"


def _hold(lock: Any, held: threading.Event, *, seconds: float) -> None:
    """Another process's command holding the store (``seconds``, longer than doctor waits)."""
    with lock:
        held.set()
        time.sleep(seconds)


# --- the LLM check on its own ------------------------------------------------------------
def test_llm_unknown_model_wrong_key_and_unreachable(endpoint: str) -> None:
    def check(**sets: str) -> Any:
        return check_llm(
            load_config(
                {
                    "planner.kind": "llm",
                    "llm.base_url": endpoint,
                    "llm.model": MODEL,
                    "llm.api_key": KEY,
                    **sets,
                },
                env={},
                path=Path("/nonexistent.toml"),
            )
        )

    assert check().status is Status.OK
    unknown = check(**{"llm.model": "gpt-9"})
    assert unknown.status is Status.FAIL
    assert "does not serve gpt-9" in unknown.detail and MODEL in unknown.detail
    assert f"--set llm.model={MODEL}" in unknown.fix
    wrong = check(**{"llm.api_key": "sk-wrong-key-123456"})
    assert wrong.status is Status.FAIL and "refused the key" in wrong.detail
    assert "sk-wrong-key-123456" not in wrong.detail
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    down = check(**{"llm.base_url": f"http://127.0.0.1:{port}/v1"})
    assert down.status is Status.FAIL and "cannot reach it" in down.detail
    assert "ollama serve" in down.fix
    # configured but not used by the planner: a warning, not a failure
    unused = check(**{"planner.kind": "heuristic", "llm.base_url": f"http://127.0.0.1:{port}/v1"})
    assert unused.status is Status.WARN


def test_llm_not_configured_passes() -> None:
    cfg = load_config({}, env={}, path=Path("/nonexistent.toml"))
    result = check_llm(cfg)
    assert result.status is Status.OK and "none configured" in result.detail


def test_mask_shows_at_most_three_and_two_characters() -> None:
    assert mask("sk-abcdefghijklmnop42") == "sk-…42"
    assert mask("") == "no key"
    for key in ("abcd", "abcdefgh", "0123456789ab"):
        shown = mask(key).replace("…", "")
        assert len(shown) <= 5 and key not in mask(key)


def test_scores_are_read_from_models_md() -> None:
    text = (
        "# Models\n\n## Widget detector\nStatus: `models/det.onnx`.\n\n"
        "| set | mAP@0.5 | other |\n|---|---|---|\n| synthetic (9 screens) | **0.5** | x |\n"
        "| real | 0.25 | y |\n\n## Icons\n`models/ico.onnx`\n\n| set | crops | top-1 |\n"
        "|---|---|---|\n| gmi | 2010 | 79.8 % |\n"
    )
    det = parse_scores(text, "det.onnx")
    assert det is not None and str(det) == "mAP@0.5 0.5 (synthetic), 0.25 (real)"
    ico = parse_scores(text, "ico.onnx")
    assert ico is not None and str(ico) == "top-1 79.8 % (gmi)"
    assert parse_scores(text, "missing.onnx") is None
    shipped = parse_scores(models_md(), "detector.onnx")
    assert shipped is not None and shipped.measure == "mAP@0.5"
