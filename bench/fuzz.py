"""Hostile-input fuzz (figures, not a test): every failure must end cleanly and truly.

Replays the cases of issue 20 and generated ones, and counts how each ended:

- ``ok``: a result; ``clean``: one of our errors (one line, a hint, its exit code);
- ``traceback``: any other exception (in-process), or a traceback / an exit code that
  is not ours (CLI), or an ``Exception in thread`` printed by the phone's adbd;
- ``hang``: no end within the case's limit (its deadline plus a margin);
- ``untrue``: ended, but the record is wrong (a trajectory whose outcome does not
  name the failure, a batch that lost files, a phone that stopped answering).

Families (``--cases N`` generated cases in all, split among them):

- ``describe``: images of generated sizes and contents (1x1 to 1080x3000, strips a
  few pixels wide) and generated broken files, through ``vision.pipeline.analyse``;
  then the CLI on /dev/zero, a FIFO, a huge sparse file, a folder, a batch, and
  (``--full``) a 1080x60000 long screenshot;
- ``llm``: an HTTP server that answers generated statuses, content types, bodies
  (HTML, binary, truncated or deep JSON, other shapes) and behaviours (hang, trickle,
  early close), through ``OpenAIChat``, one in five also through a whole ``Agent``
  run; generated LLM settings through ``check_settings``; the CLI ``run`` against
  a closed port, 5xx, HTML and a hung endpoint, and with no key; and the time a
  hung endpoint takes to give up with the default settings;
- ``adbd``: the virtual phone as its own process (``screenpilot phone``), abused:
  400 MB written to a ``shell:sleep 60`` stream, 1,000 shells from one client,
  connections past the cap, silent and half-sent connections, then generated
  packet sequences; its peak memory (VmHWM) and whether it still answers;
- ``record``: the phone driven by ``input tap`` / ``input text`` while ``record``-ing.

    .venv/bin/python bench/fuzz.py [--cases 1200] [--seed 0] [--full] [--skip record,...]

Writes bench/results/fuzz.json.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import json
import os
import random
import re
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

OUT = Path(__file__).resolve().parent / "results" / "fuzz.json"
PY = sys.executable
OUR_EXIT_CODES = {0, 1, 2, 3, 4, 5, 6, 7, 8, 130}
KINDS = ("ok", "clean", "traceback", "hang", "untrue")


@dataclass
class Tally:
    """How the cases of one family ended, with a few examples of each bad end."""

    counts: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)

    def add(self, kind: str, what: str = "") -> None:
        self.counts[kind] += 1
        if kind in ("traceback", "hang", "untrue") and what:
            self.examples.setdefault(kind, [])
            if len(self.examples[kind]) < 5:
                self.examples[kind].append(what[:300])

    def as_dict(self) -> dict[str, Any]:
        return {
            "cases": sum(self.counts.values()),
            **{k: self.counts[k] for k in KINDS},
            "examples": self.examples,
        }


def in_thread(fn: Callable[[], Any], limit: float) -> tuple[str, Any]:
    """``fn()`` under a watchdog: ("ok", value) | ("raised", exc) | ("hang", None)."""
    box: list[tuple[str, Any]] = []

    def run() -> None:
        try:
            box.append(("ok", fn()))
        except BaseException as exc:
            box.append(("raised", exc))

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(limit)
    return box[0] if box else ("hang", None)


def classify(status: str, value: Any) -> str:
    from screenpilot.errors import ScreenpilotError

    if status == "hang":
        return "hang"
    if status == "ok":
        return "ok"
    return "clean" if isinstance(value, ScreenpilotError) else "traceback"


def cli(
    args: list[str], *, timeout: float, env: dict[str, str] | None = None, cwd: str | None = None
) -> tuple[int | None, str, str]:
    """Run ``screenpilot ARGS``: (exit code or None on a hang, stdout, stderr)."""
    full = {
        **os.environ,
        "SCREENPILOT_CONFIG": "/nonexistent/screenpilot.toml",
        "SCREENPILOT_LLM_API_KEY": "",
        **(env or {}),
    }
    try:
        proc = subprocess.run(
            [PY, "-m", "screenpilot", *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=full,
            cwd=cwd,
        )
    except subprocess.TimeoutExpired as exc:
        return None, str(exc.stdout or ""), str(exc.stderr or "")
    return proc.returncode, proc.stdout, proc.stderr


def cli_kind(rc: int | None, err: str, *, want_rc: int | None = None) -> tuple[str, str]:
    """A CLI run's end: hang, traceback (or a foreign exit code), untrue (not one error
    line and a hint, or the wrong code), clean, ok."""
    if rc is None:
        return "hang", "no exit"
    if "Traceback" in err or rc not in OUR_EXIT_CODES:
        return "traceback", err.strip().splitlines()[-1] if err.strip() else f"rc {rc}"
    if want_rc is not None and rc != want_rc:
        return "untrue", f"exit {rc}, wanted {want_rc}: {err.strip()[:200]}"
    if rc == 0:
        return "ok", ""
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    hints = [line for line in err.splitlines() if line.startswith("  hint:")]
    if len(errors) != 1 or not hints:
        return "untrue", f"{len(errors)} error lines, {len(hints)} hints: {err.strip()[:200]}"
    return "clean", ""


# ======================================================================================
# describe
# ======================================================================================
def gen_image(rng: random.Random) -> tuple[str, np.ndarray]:
    shape = rng.choice(["tiny", "strip", "wide", "small", "phone"])
    if shape == "tiny":
        w, h = rng.randint(1, 20), rng.randint(1, 40)
    elif shape == "strip":
        w, h = rng.randint(1, 24), rng.randint(60, 4000)
    elif shape == "wide":
        w, h = rng.randint(60, 3000), rng.randint(1, 24)
    elif shape == "small":
        w, h = rng.randint(8, 400), rng.randint(8, 900)
    else:
        w, h = rng.choice([(360, 800), (540, 1200), (1080, 2400), (720, 3000), (1080, 1080)])
    seed = rng.randrange(1 << 30)
    gen = np.random.default_rng(seed)
    fill = rng.choice(["noise", "flat", "stripes", "blocks", "text"])
    if fill == "noise":
        pixels = (gen.random((h, w, 3)) * 255).astype(np.uint8)
    elif fill == "flat":
        pixels = np.full((h, w, 3), rng.randrange(256), np.uint8)
    elif fill == "stripes":
        pixels = np.zeros((h, w, 3), np.uint8)
        pixels[:: max(1, h // rng.randint(1, 40))] = 255
    elif fill == "blocks":
        pixels = np.full((h, w, 3), 245, np.uint8)
        for _ in range(rng.randint(1, 12)):
            y, x = rng.randrange(h), rng.randrange(w)
            pixels[y : y + rng.randint(1, 200), x : x + rng.randint(1, 400)] = gen.integers(
                0, 255, 3, dtype=np.uint8
            )
    else:
        from PIL import Image, ImageDraw

        image = Image.new("RGB", (w, h), "white")
        draw = ImageDraw.Draw(image)
        for y in range(0, h, max(12, h // 12)):
            draw.text(
                (rng.randint(0, max(0, w // 4)), y),
                rng.choice(["Wi-Fi", "Settings", "Network & internet", "OK", "设置", "Cancel"]),
                fill="black",
                font_size=rng.randint(8, 60),
            )
        pixels = np.asarray(image)
    return f"{w}x{h} {fill}", pixels


def gen_broken_file(rng: random.Random, folder: Path, n: int) -> tuple[str, Path]:
    from PIL import Image

    path = folder / f"broken-{n}.{rng.choice(['png', 'jpg', 'webp', 'bmp', 'gif'])}"
    kind = rng.choice(["random", "truncated", "flipped", "html", "empty", "json", "header"])
    good = io.BytesIO()
    Image.new("RGB", (rng.randint(8, 300), rng.randint(8, 300)), "white").save(
        good, format=rng.choice(["PNG", "JPEG", "WEBP", "BMP", "GIF"])
    )
    data = good.getvalue()
    if kind == "random":
        blob = rng.randbytes(rng.randint(1, 5000))
    elif kind == "truncated":
        blob = data[: rng.randint(1, max(1, len(data) - 1))]
    elif kind == "flipped":
        raw = bytearray(data)
        for _ in range(rng.randint(1, 20)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
        blob = bytes(raw)
    elif kind == "html":
        blob = b"<!DOCTYPE html><html><body>" + b"x" * rng.randint(0, 500) + b"</body></html>"
    elif kind == "empty":
        blob = b""
    elif kind == "json":
        blob = json.dumps({"image": "nope"}).encode()
    else:  # a PNG header announcing an absurd size
        blob = (
            b"\x89PNG\r\n\x1a\n"
            + struct.pack(">I", 13)
            + b"IHDR"
            + struct.pack(">II", rng.choice([0, 1, 70000, 2**31 - 1]), rng.choice([0, 1, 70000]))
            + bytes(9)
        )
    path.write_bytes(blob)
    return f"{kind} {path.suffix}", path


def fuzz_describe(rng: random.Random, n: int, work: Path, full: bool) -> dict[str, Any]:
    from screenpilot.vision.pipeline import analyse

    tally = Tally()
    stages_all = ["ocr", "detect", "icons", "blocks"]
    for i in range(n):
        if i % 4 == 3:
            what, path = gen_broken_file(rng, work, i)
            status, value = in_thread(functools.partial(analyse, path, stages=stages_all), 120)
        else:
            what, pixels = gen_image(rng)
            stages = (
                stages_all
                if pixels.shape[0] * pixels.shape[1] <= 400_000 or rng.random() < 0.2
                else ["blocks", "detect"]
            )
            status, value = in_thread(
                functools.partial(analyse, pixels, stages=stages, ocr_threshold=0.9), 180
            )
        kind = classify(status, value)
        tally.add(kind, f"{what}: {type(value).__name__}: {value}")
    special = describe_cli_cases(work, full)
    return {"generated": tally.as_dict(), "cli": special}


def describe_cli_cases(work: Path, full: bool) -> dict[str, Any]:
    """The issue's describe cases through the real CLI."""
    from PIL import Image, ImageDraw

    tally = Tally()
    results: dict[str, Any] = {}
    fifo = work / "x.png"
    if not fifo.exists():
        os.mkfifo(fifo)
    huge = work / "huge.png"
    with huge.open("wb") as f:
        f.truncate(300 * 1024 * 1024)  # sparse
    narrow = []
    for w, h in ((8, 100), (12, 300), (16, 120)):
        p = work / f"narrow-{w}x{h}.png"
        Image.fromarray((np.random.default_rng(w).random((h, w, 3)) * 255).astype(np.uint8)).save(p)
        narrow.append(p)
    good = work / "good.png"
    Image.new("RGB", (540, 1200), "white").save(good)
    folder = work / "folder"
    folder.mkdir(exist_ok=True)
    Image.new("RGB", (200, 400), "white").save(folder / "a.png")
    if not (folder / "pipe.png").exists():
        os.mkfifo(folder / "pipe.png")
    link = work / "zero.png"
    if not link.is_symlink():
        link.symlink_to("/dev/zero")
    cases: list[tuple[str, list[str], int, Callable[[str, str], str]]] = [
        ("/dev/zero", ["/dev/zero"], 4, lambda o, e: "" if "character device" in e else e),
        ("FIFO x.png", [str(fifo)], 4, lambda o, e: "" if "FIFO" in e else e),
        ("symlink to /dev/zero", [str(link)], 4, lambda o, e: "" if "device" in e else e),
        ("300 MB sparse file", [str(huge)], 4, lambda o, e: "" if "too large" in e else e),
        (
            "a folder with a FIFO in it",
            [str(folder)],
            4,
            lambda o, e: "" if "== " in o and "pipe.png" in e else "lost a file",
        ),
        ("missing file", [str(work / "none.png")], 4, lambda o, e: ""),
        *[(f"narrow {p.stem}", [str(p)], 0, lambda o, e: "") for p in narrow],
        (
            "batch: good, FIFO, zero, huge, narrow, missing",
            [str(good), str(fifo), "/dev/zero", str(huge), str(narrow[0]), str(work / "no.png")],
            4,
            lambda o, e: (
                ""
                if (o.count("== ") == 2 and "4 of 6 images" in e)
                else f"batch record: {o.count('== ')} described; {e[-200:]}"
            ),
        ),
    ]
    if full:
        tall = work / "tall-1080x60000.png"
        image = Image.new("RGB", (1080, 60000), "white")
        draw = ImageDraw.Draw(image)
        for y in range(100, 60000, 400):
            draw.text((60, y), f"Row {y} settings item", fill="black", font_size=40)
        image.save(tall)
        cases.append(("1080x60000 long screenshot", [str(tall)], 0, lambda o, e: ""))
    for name, files, want, check in cases:
        started = time.monotonic()
        rc, out, err = cli(["describe", *files], timeout=900 if "60000" in name else 120)
        kind, why = cli_kind(rc, err, want_rc=want)
        wrong = check(out, err) if kind in ("ok", "clean") else ""
        if wrong:
            kind, why = "untrue", wrong
        tally.add(kind, f"{name}: {why}")
        results[name] = {
            "end": kind,
            "exit": rc,
            "seconds": round(time.monotonic() - started, 1),
            "stderr": err.strip().splitlines()[-2:] if err.strip() else [],
        }
    return {**tally.as_dict(), "cases_seen": results}


# ======================================================================================
# the LLM endpoint
# ======================================================================================
@dataclass
class Reply:
    status: int = 200
    ctype: str = "application/json"
    body: bytes = b""
    behave: str = "normal"  # normal | hang | trickle | close | short | long


class Endpoint:
    """An HTTP server on a raw socket that answers whatever ``reply`` says."""

    def __init__(self) -> None:
        self.reply = Reply()
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/v1"
        self.stop = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            threading.Thread(target=self._one, args=(conn, self.reply), daemon=True).start()

    def _one(self, conn: socket.socket, r: Reply) -> None:
        with conn:
            conn.settimeout(10)
            try:
                data = b""
                while b"\r\n\r\n" not in data:
                    chunk = conn.recv(65536)
                    if not chunk:
                        return
                    data += chunk
                head, _, rest = data.partition(b"\r\n\r\n")
                length = next(
                    (
                        int(line.split(b":")[1])
                        for line in head.split(b"\r\n")
                        if line.lower().startswith(b"content-length")
                    ),
                    0,
                )
                while len(rest) < length:
                    rest += conn.recv(65536)
                if r.behave == "hang":
                    self.stop.wait(120)
                    return
                declared = (
                    len(r.body)
                    + (50 if r.behave == "short" else 0)
                    - (min(len(r.body), 5) if r.behave == "long" else 0)
                )
                head_out = (
                    f"HTTP/1.1 {r.status} X\r\ncontent-type: {r.ctype}\r\n"
                    f"content-length: {declared}\r\nconnection: close\r\n\r\n"
                ).encode()
                if r.behave == "close":
                    conn.sendall(head_out[: len(head_out) // 2])
                    return
                conn.sendall(head_out)
                if r.behave == "trickle":
                    for i in range(len(r.body)):
                        if self.stop.wait(0.25):
                            return
                        conn.sendall(r.body[i : i + 1])
                else:
                    conn.sendall(r.body)
            except OSError:
                return

    def close(self) -> None:
        self.stop.set()
        self.sock.close()


def completion(content: Any) -> bytes:
    return json.dumps(
        {
            "id": "c",
            "object": "chat.completion",
            "created": 1,
            "model": "m",
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {"role": "assistant", "content": content},
                }
            ],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }
    ).encode()


def gen_reply(rng: random.Random) -> Reply:
    status = rng.choice(
        [200] * 8
        + [201, 204, 301, 400, 401, 403, 404, 408, 413, 418, 422, 429, 500, 502, 503, 504, 529, 599]
    )
    ctype = rng.choice(
        ["application/json"] * 4
        + [
            "text/html",
            "text/plain",
            "application/octet-stream",
            "",
            "text/event-stream",
            "application/json; charset=latin-1",
            "application/problem+json",
        ]
    )
    kind = rng.choice(
        [
            "ok",
            "content-odd",
            "html",
            "binary",
            "truncated",
            "shape",
            "deep",
            "empty",
            "error",
            "huge",
            "unicode",
        ]
    )
    action = json.dumps({"action": "tap", "element": 1, "reason": "go"})
    if kind == "ok":
        body = completion(rng.choice([action, "hello", '{"action": "back"}']))
    elif kind == "content-odd":
        body = completion(rng.choice([None, 5, [], {"a": 1}, "", " " * 10, "\x00" * 5]))
    elif kind == "html":
        body = (
            b"<!DOCTYPE html><html><head><title>Login</title></head><body>"
            + b"proxy" * rng.randint(0, 200)
            + b"</body></html>"
        )
    elif kind == "binary":
        body = rng.randbytes(rng.randint(1, 4000))
    elif kind == "truncated":
        full = completion(action)
        body = full[: rng.randint(0, len(full) - 1)]
    elif kind == "shape":
        body = rng.choice(
            [
                b"[1,2,3]",
                b'"str"',
                b"42",
                b"null",
                b"true",
                b'{"choices": "x"}',
                b'{"choices": [{}]}',
                b'{"choices": [null]}',
                b'{"choices": {}}',
                b'{"choices": [{"message": "hi"}]}',
                b'{"choices": [1, 2]}',
                b'{"usage": "lots", "choices": [{"message": {"content": "x"}}]}',
            ]
        )
    elif kind == "deep":
        depth = rng.choice([100, 5000, 100000])
        body = b"[" * depth + b"]" * depth
    elif kind == "empty":
        body = b""
    elif kind == "error":
        body = json.dumps(
            {"error": rng.choice(["nope", {"message": "bad key", "code": 1}, None, ["x"]])}
        ).encode()
    elif kind == "huge":
        body = completion("x" * rng.choice([100_000, 2_000_000]))
    else:
        body = completion("".join(chr(rng.randint(0x80, 0x2FFF)) for _ in range(200)))
    behave = rng.choice(["normal"] * 12 + ["hang", "trickle", "close", "short", "long"])
    return Reply(status, ctype, body, behave)


class FakePhone:
    serial = "fuzz-phone"

    def capture(self) -> Any:
        from PIL import Image

        return Image.new("RGB", (1080, 2400), "white")


class FakeDescriber:
    def describe(self, image: Any) -> Any:
        from screenpilot.model import Box, Element, ElementKind, Screen

        return Screen(
            1080, 2400, (Element(1, ElementKind.TEXT, Box(40, 200, 400, 260), "Settings"),)
        )


def agent_run(llm: Any, out: Path) -> tuple[BaseException | None, dict[str, Any]]:
    from screenpilot.agent import Agent, RunOptions
    from screenpilot.planner.chain import ChainPlanner

    agent = Agent(
        FakePhone(),  # type: ignore[arg-type]
        FakeDescriber(),
        ChainPlanner(llm),
        options=RunOptions(out=out, max_steps=2, settle_timeout=0.05),
    )
    raised: BaseException | None = None
    try:
        agent.run("turn on wifi")
    except BaseException as exc:
        raised = exc
    return raised, json.loads((out / "trajectory.json").read_text())


def true_record(raised: BaseException | None, saved: dict[str, Any]) -> str:
    """'' when the trajectory tells the truth about how the run ended."""
    from screenpilot.errors import LLMError, LLMResponseError

    note = str(saved.get("note", ""))
    if isinstance(raised, LLMError):
        ok = saved["outcome"] == "error" and note.startswith(f"llm {raised.kind}: ")
    elif isinstance(raised, LLMResponseError):
        ok = saved["outcome"] == "error" and note.startswith("llm answer unusable: ")
    elif raised is not None:
        ok = saved["outcome"] == "error" and bool(note)
    else:
        ok = saved["outcome"] in ("success", "gave_up")
    return "" if ok else f"outcome {saved['outcome']} note {note[:120]!r} for {raised!r}"[:300]


def fuzz_llm(rng: random.Random, n: int, work: Path) -> dict[str, Any]:
    from screenpilot.errors import ScreenpilotError
    from screenpilot.planner.llm import OpenAIChat

    endpoint = Endpoint()
    tally = Tally()
    deadline = 1.5
    ends: Counter[str] = Counter()
    try:
        for i in range(n):
            endpoint.reply = gen_reply(rng)
            llm = OpenAIChat(
                base_url=endpoint.url,
                model="m",
                api_key="k",
                timeout=1.0,
                deadline=deadline,
                max_retries=2,
                backoff=0.01,
                max_backoff=0.05,
            )
            through_agent = i % 5 == 0
            if through_agent:
                out = work / f"llm-run-{i}"
                status, value = in_thread(
                    functools.partial(agent_run, llm, out), 3 * (deadline + 3)
                )
            else:
                status, value = in_thread(
                    functools.partial(llm.complete, [{"role": "user", "content": "hi"}]),
                    deadline + 3,
                )
            r = endpoint.reply
            what = f"{r.status} {r.ctype!r} {r.behave} {r.body[:40]!r}"
            if status == "ok" and through_agent:
                raised, saved = value
                wrong = true_record(raised, saved)
                if wrong:
                    tally.add("untrue", f"{what}: {wrong}")
                elif raised is not None and not isinstance(raised, ScreenpilotError):
                    tally.add("traceback", f"{what}: {raised!r}")
                else:
                    tally.add("clean" if raised is not None else "ok")
                ends[str(saved.get("note", "")).split(":")[0] or saved["outcome"]] += 1
            else:
                kind = classify(status, value)
                tally.add(kind, f"{what}: {type(value).__name__}: {value}")
                if status == "raised":
                    ends[f"llm {getattr(value, 'kind', type(value).__name__)}"] += 1
            with contextlib.suppress(Exception):
                if llm._client is not None:
                    llm._client.close()
    finally:
        endpoint.close()
    return {**tally.as_dict(), "deadline_s": deadline, "how_they_ended": dict(ends.most_common())}


def fuzz_settings(rng: random.Random, n: int) -> dict[str, Any]:
    from screenpilot.planner.llm import check_settings

    tally = Tally()
    hosts = [
        "api.openai.com",
        "127.0.0.1:8000",
        "localhost",
        "dashscope.aliyuncs.com",
        "[::1]:8080",
        "é.example",
        "a b",
        "",
        "h:99999",
        "h:x",
        "[::1",
        "..",
        "h",
    ]
    for _ in range(n):
        scheme = rng.choice(["http://", "https://", "ftp://", "", "http:/", "HTTP://"])
        url = scheme + rng.choice(hosts) + rng.choice(["/v1", "", "/", "/v1?x=1", "\n", " "])
        if rng.random() < 0.2:
            url = "".join(chr(rng.randint(0, 0x3000)) for _ in range(rng.randint(0, 30)))
        key = rng.choice(["", " ", "sk-x", "\x00"])
        model = rng.choice(["", "gpt-4o-mini", " ", "m"])
        status, value = in_thread(
            functools.partial(
                check_settings,
                url,
                key,
                model,
                timeout=rng.choice([60.0, 0.0, -1.0]),
                deadline=rng.choice([60.0, 0.0]),
                max_retries=rng.choice([3, -1]),
            ),
            5,
        )
        tally.add(classify(status, value), f"{url!r}: {type(value).__name__}: {value}")
    return tally.as_dict()


def hung_with_defaults(result: dict[str, Any]) -> None:
    """A hung endpoint with every LLM setting at its default: how long until it gives up."""
    from screenpilot.config import DEFAULTS
    from screenpilot.errors import LLMError
    from screenpilot.planner.llm import OpenAIChat

    endpoint = Endpoint()
    endpoint.reply = Reply(behave="hang")
    llm = OpenAIChat(
        base_url=endpoint.url,
        model="m",
        api_key="k",
        timeout=DEFAULTS["llm.timeout"].default,
        deadline=DEFAULTS["llm.deadline"].default,
        max_retries=DEFAULTS["llm.max_retries"].default,
    )
    started = time.monotonic()
    try:
        llm.complete([{"role": "user", "content": "hi"}])
        result["end"] = "answered?"
    except LLMError as exc:
        result["end"] = f"llm {exc.kind}: {exc.message}"
    except BaseException as exc:
        result["end"] = f"traceback: {exc!r}"
    result["gave_up_after_s"] = round(time.monotonic() - started, 1)
    result["llm.deadline"] = DEFAULTS["llm.deadline"].default
    endpoint.close()


def llm_cli_cases(work: Path) -> dict[str, Any]:
    """The issue's run cases through the real CLI and the virtual phone."""
    tally = Tally()
    seen: dict[str, Any] = {}
    endpoint = Endpoint()
    base = ["--set", "safety.exemplars=false", "--set", f"store.path={work / 'store'}"]
    cases = [
        ("no API key for api.openai.com", [], None, 2, ""),
        (
            "unreachable (closed port)",
            ["--set", "llm.base_url=http://127.0.0.1:9/v1"],
            None,
            5,
            "llm unreachable",
        ),
        (
            "HTTP 503 every time",
            ["--set", f"llm.base_url={endpoint.url}"],
            Reply(503, body=b'{"error": {"message": "overloaded"}}'),
            5,
            "llm server error",
        ),
        (
            "HTML page with HTTP 200",
            ["--set", f"llm.base_url={endpoint.url}"],
            Reply(200, "text/html", b"<html><body>Sign in</body></html>"),
            5,
            "llm not a chat answer",
        ),
        (
            "binary body as JSON",
            ["--set", f"llm.base_url={endpoint.url}"],
            Reply(200, "application/json", bytes(range(256)) * 4),
            5,
            "llm not a chat answer",
        ),
        (
            "hung endpoint, llm.deadline=5",
            ["--set", f"llm.base_url={endpoint.url}", "--set", "llm.deadline=5"],
            Reply(behave="hang"),
            5,
            "llm timed out",
        ),
    ]
    try:
        for name, sets, reply, want, note in cases:
            if reply is not None:
                endpoint.reply = reply
            out = work / f"cli-{len(seen)}"
            key = {"SCREENPILOT_LLM_API_KEY": "sk-fuzz"} if want == 5 else {}
            started = time.monotonic()
            rc, stdout, err = cli(
                [
                    *base,
                    *sets,
                    "run",
                    "turn on wifi",
                    "--virtual",
                    "--planner",
                    "llm",
                    "--yes",
                    "--no-demos",
                    "--out",
                    str(out),
                ],
                timeout=240,
                env=key,
            )
            seconds = round(time.monotonic() - started, 1)
            kind, why = cli_kind(rc, err, want_rc=want)
            record = ""
            if want == 5 and kind == "clean":
                found = list(out.glob("*/trajectory.json"))
                saved = json.loads(found[0].read_text()) if found else {}
                record = f"{saved.get('outcome')}: {str(saved.get('note', ''))[:80]}"
                if not (
                    saved.get("outcome") == "error" and str(saved.get("note", "")).startswith(note)
                ):
                    kind, why = "untrue", f"trajectory says {record!r}"
            if want == 2 and kind == "clean" and "task:" in stdout:
                kind, why = "untrue", "the phone was started before the settings were checked"
            tally.add(kind, f"{name}: {why}")
            seen[name] = {
                "end": kind,
                "exit": rc,
                "seconds": seconds,
                "trajectory": record,
                "stderr": [
                    line for line in err.splitlines() if line.startswith(("error:", "  hint:"))
                ],
            }
    finally:
        endpoint.close()
    return {**tally.as_dict(), "cases_seen": seen}


# ======================================================================================
# adbd
# ======================================================================================
A_SYNC, A_CNXN, A_OPEN, A_OKAY, A_CLSE, A_WRTE = (
    0x434E5953,
    0x4E584E43,
    0x4E45504F,
    0x59414B4F,
    0x45534C43,
    0x45545257,
)


def packet(
    command: int, arg0: int, arg1: int, data: bytes = b"", magic: int | None = None
) -> bytes:
    return (
        struct.pack(
            "<6I",
            command,
            arg0,
            arg1,
            len(data),
            0,
            command ^ 0xFFFFFFFF if magic is None else magic,
        )
        + data
    )


def read_packet(sock: socket.socket) -> tuple[int, int, int, bytes] | None:
    def exact(n: int) -> bytes | None:
        buf = b""
        while len(buf) < n:
            chunk = sock.recv(n - len(buf))
            if not chunk:
                return None
            buf += chunk
        return buf

    head = exact(24)
    if head is None:
        return None
    command, a0, a1, length, _, _ = struct.unpack("<6I", head)
    data = exact(length) if length else b""
    return None if data is None else (command, a0, a1, data)


def hello(port: int, timeout: float = 10.0) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    sock.sendall(packet(A_CNXN, 0x01000001, 1024 * 1024, b"host::\0"))
    got = read_packet(sock)
    if got is None or got[0] != A_CNXN:
        raise ConnectionError("no CNXN")
    return sock


def answers(port: int) -> bool:
    """Whether the phone still runs `shell:echo ok` for a new client."""
    try:
        with hello(port) as sock:
            sock.sendall(packet(A_OPEN, 1, 0, b"shell:echo ok\0"))
            got = b""
            while True:
                msg = read_packet(sock)
                if msg is None:
                    return False
                if msg[0] == A_WRTE:
                    got += msg[3]
                    sock.sendall(packet(A_OKAY, 1, msg[1]))
                if msg[0] == A_CLSE or b"ok" in got:
                    return b"ok" in got
    except OSError:
        return False


@contextlib.contextmanager
def phone_process() -> Iterator[tuple[subprocess.Popen[str], int, list[str]]]:
    proc = subprocess.Popen(
        [PY, "-m", "screenpilot", "phone", "--no-connect"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "SCREENPILOT_CONFIG": "/nonexistent.toml"},
    )
    assert proc.stdout is not None and proc.stderr is not None
    errors: list[str] = []
    threading.Thread(target=lambda: errors.extend(proc.stderr), daemon=True).start()  # type: ignore[arg-type]
    port = 0
    for line in proc.stdout:
        m = re.search(r"serial (?:\S*?):(\d+)", line)
        if m:
            port = int(m.group(1))
            break
    threading.Thread(target=proc.stdout.read, daemon=True).start()
    try:
        yield proc, port, errors
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()


def memory_mb(pid: int, key: str = "VmRSS") -> float:
    text = Path(f"/proc/{pid}/status").read_text()
    m = re.search(rf"^{key}:\s+(\d+) kB", text, re.M)
    return round(int(m.group(1)) / 1024, 1) if m else -1.0


def flood(port: int, total: int, *, wait_okay: bool) -> dict[str, Any]:
    """Write ``total`` bytes to a `shell:sleep 60` stream (waiting for OKAY or not)."""
    sent, okays, closed_by_phone = 0, 0, False
    with hello(port, timeout=3) as sock:
        sock.sendall(packet(A_OPEN, 7, 0, b"shell:sleep 60\0"))
        msg = read_packet(sock)
        if msg is None or msg[0] != A_OKAY:
            return {"error": "not opened"}
        remote = msg[1]
        chunk = b"z" * (64 * 1024)
        replies: Counter[int] = Counter()
        drain = threading.Thread(target=lambda: _count_replies(sock, replies), daemon=True)
        if not wait_okay:
            drain.start()
        try:
            while sent < total:
                sock.sendall(packet(A_WRTE, 7, remote, chunk))
                sent += len(chunk)
                if wait_okay:
                    got = read_packet(sock)
                    if got is None or got[0] == A_CLSE:
                        closed_by_phone = True
                        break
                    okays += 1
        except TimeoutError:
            pass  # held back: no OKAY comes
        except OSError:
            closed_by_phone = True
        if not wait_okay:
            time.sleep(0.5)
            okays = replies[A_OKAY]
            closed_by_phone = replies[A_CLSE] > 0
    return {
        "bytes_offered": total,
        "bytes_sent": sent,
        "okays": okays,
        "stream_closed_by_phone": closed_by_phone,
    }


def _count_replies(sock: socket.socket, replies: Counter[int]) -> None:
    with contextlib.suppress(OSError):
        while True:
            msg = read_packet(sock)
            if msg is None:
                return
            replies[msg[0]] += 1


def _drain(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        while sock.recv(1 << 16):
            pass


def fuzz_adbd(rng: random.Random, n: int) -> dict[str, Any]:
    tally = Tally()
    figures: dict[str, Any] = {}
    with phone_process() as (proc, port, errors):
        time.sleep(1.0)
        figures["rss_start_mb"] = memory_mb(proc.pid)
        # 1. the 400 MB to a `shell:sleep 60` stream, without and with waiting
        figures["flood_no_wait"] = flood(port, 400 * 1024 * 1024, wait_okay=False)
        figures["flood_waiting_for_okay"] = flood(port, 400 * 1024 * 1024, wait_okay=True)
        figures["rss_after_floods_mb"] = memory_mb(proc.pid)
        # 2. 1,000 shells from one client, then connections past the cap
        opened = refused = 0
        with hello(port) as sock:
            for i in range(1, 1001):
                sock.sendall(packet(A_OPEN, i, 0, b"shell:sleep 60\0"))
            sock.settimeout(10)
            while opened + refused < 1000:
                msg = read_packet(sock)
                if msg is None:
                    break
                if msg[0] == A_OKAY and msg[2] <= 1000:
                    opened += 1
                elif msg[0] == A_CLSE and msg[1] == 0:
                    refused += 1
            figures["shells_1000"] = {
                "opened": opened,
                "refused": refused,
                "rss_mb": memory_mb(proc.pid),
                "threads": _threads(proc.pid),
            }
        extra = []
        for _ in range(20):
            with contextlib.suppress(OSError):
                extra.append(hello(port, timeout=3))
        figures["connections_20_asked"] = {"accepted": len(extra)}
        for s in extra:
            s.close()
        # 3. silent and half-sent connections: closed after the timeouts
        silent = [socket.create_connection(("127.0.0.1", port), timeout=30) for _ in range(5)]
        half = []
        for _ in range(3):
            s = socket.create_connection(("127.0.0.1", port), timeout=30)
            s.sendall(packet(A_CNXN, 0x01000001, 4096, b"host::\0")[:10])
            half.append(s)
        closed = sum(_closed_within(s, 25) for s in silent + half)
        figures["silent_or_half_sent_closed"] = f"{closed} of {len(silent) + len(half)}"
        if closed < len(silent) + len(half):
            tally.add("untrue", "a silent or half-sent connection stayed open")
        # 3b. eight connections that shook hands and then say nothing hog the cap: a new
        # client gets in once they have been quiet past the handshake timeout (10 s)
        hogs = [hello(port) for _ in range(8)]
        time.sleep(11)
        figures["after_8_quiet_connections_a_new_client_answers"] = answers(port)
        if not figures["after_8_quiet_connections_a_new_client_answers"]:
            tally.add("untrue", "8 quiet connections locked new clients out")
        for s in hogs:
            s.close()
        # 4. generated packet sequences
        for i in range(n):
            seq = _random_sequence(rng)
            status, _ = in_thread(functools.partial(_play, port, seq), 30)
            if status == "hang":
                tally.add("hang", f"sequence {i}")
                continue
            if i % 10 == 9 or i == n - 1:
                alive = in_thread(lambda: answers(port), 30)
                if alive != ("ok", True):
                    tally.add("untrue", f"after sequence {i} the phone no longer answers")
                    continue
            tally.add("ok" if status == "ok" else "clean")
        figures["rss_end_mb"] = memory_mb(proc.pid)
        figures["peak_rss_mb"] = memory_mb(proc.pid, "VmHWM")
        figures["threads_end"] = _threads(proc.pid)
        figures["still_answers"] = answers(port)
        tracebacks = [
            line for line in errors if "Traceback" in line or line.startswith("Exception in thread")
        ]
        for line in tracebacks:
            tally.add("traceback", line)
    return {**tally.as_dict(), **figures}


def _threads(pid: int) -> int:
    m = re.search(r"^Threads:\s+(\d+)", Path(f"/proc/{pid}/status").read_text(), re.M)
    return int(m.group(1)) if m else -1


def _closed_within(sock: socket.socket, seconds: float) -> bool:
    sock.settimeout(seconds)
    try:
        while sock.recv(4096):
            pass
        return True
    except TimeoutError:
        return False
    except OSError:
        return True
    finally:
        sock.close()


def _random_sequence(rng: random.Random) -> list[bytes]:
    seq = []
    if rng.random() < 0.9:
        seq.append(
            packet(
                A_CNXN,
                rng.choice([0x01000000, 0x01000001, 0, 0xFFFFFFFF]),
                rng.choice([0, 1, 4096, 1 << 20, 0xFFFFFFFF]),
                b"host::\0",
            )
        )
    services = [
        b"shell:echo hi",
        b"shell:",
        b"shell,v2,raw:id",
        b"exec:cat",
        b"sync:",
        b"reboot:",
        b"nope:",
        b"shell:sleep 2",
        b"shell:" + b"x" * 4000,
        b"",
        b"shell:cat /dev/zero | head -c 100000",
        b"tcp:5555",
        b"\xff\xfe",
    ]
    for _ in range(rng.randint(1, 12)):
        command = rng.choice(
            [A_OPEN, A_OPEN, A_WRTE, A_WRTE, A_OKAY, A_CLSE, A_CNXN, A_SYNC, 0x12345678]
        )
        a0, a1 = rng.randint(0, 40), rng.choice([0, 1, 2, 3, rng.randint(0, 1 << 32 - 1)])
        if command == A_OPEN:
            data = rng.choice(services) + rng.choice([b"\0", b""])
        elif command == A_WRTE:
            data = rng.choice(
                [
                    b"",
                    b"ls\n",
                    b"exit\n",
                    b"STAT\x05\0\0\0/sdcard",
                    b"SEND" + struct.pack("<I", 8) + b"/x,33188",
                    rng.randbytes(rng.randint(1, 4096)),
                ]
            )
        else:
            data = rng.randbytes(rng.randint(0, 64)) if rng.random() < 0.3 else b""
        raw = packet(
            command, a0, a1, data, magic=None if rng.random() < 0.9 else rng.randint(0, 1 << 32 - 1)
        )
        if rng.random() < 0.05:
            raw = raw[: rng.randint(1, len(raw))]
        seq.append(raw)
    return seq


def _play(port: int, seq: list[bytes]) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        threading.Thread(target=lambda: _drain(sock), daemon=True).start()
        try:
            for raw in seq:
                sock.sendall(raw)
        except OSError:
            pass
        finally:  # a FIN, as a client that exits sends
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)


# ======================================================================================
# record, driven by `input text`
# ======================================================================================
def record_case() -> dict[str, Any]:
    """The issue's case: the phone driven by `input tap`/`input text` while recording."""
    import adbutils

    from screenpilot.executor.adb import AdbDevice
    from screenpilot.pbd.recorder import Recorder
    from screenpilot.simulator.phone import VirtualPhone
    from screenpilot.simulator.serve import serve_phone
    from screenpilot.vision.incremental import IncrementalDescriber

    vp = VirtualPhone()
    with serve_phone(vp) as serial:
        dev = adbutils.AdbClient().device(serial)
        recorder = Recorder(AdbDevice(serial), IncrementalDescriber(), idle_s=60)
        stop = threading.Event()
        done: list[Any] = []
        thread = threading.Thread(
            target=lambda: done.append(
                recorder.record("add Alice Walker to my contacts", stop=stop)
            ),
            daemon=True,
        )
        thread.start()
        recorder.ready.wait(30)

        def at(text: str) -> str:
            found = vp.frame().find(text)
            if found is None:
                return "1 1"
            x, y = found.box.center
            return f"{x} {y}"

        def field(caption: str) -> str:
            x, y = next(
                e.box.center for e in vp.frame().elements if e.editable and e.caption == caption
            )
            return f"{x} {y}"

        commands: list[Callable[[], str]] = [
            lambda: f"input tap {at('Contacts')}",
            lambda: "input swipe 540 1800 540 900 300",
            lambda: f"input tap {at('Create contact')}",
            lambda: f"input tap {field('First name')}",
            lambda: "input text Alice",
            lambda: f"input tap {field('Last name')}",
            lambda: "input text Walker",
        ]
        for command in commands:
            dev.shell(command())
            time.sleep(0.8)  # a person's pace, faster than captures
        time.sleep(1.5)
        stop.set()
        thread.join(180)
    steps = list(done[0].steps) if done else []
    typed = [s for s in steps if s.startswith("type ")]
    return {
        "steps": steps,
        "type_steps": len(typed),
        "end": "ok"
        if typed
        == ["type 'Alice' into the 'First name' field", "type 'Walker' into the 'Last name' field"]
        else "untrue",
    }


# ======================================================================================
def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--cases",
        type=int,
        default=1200,
        help="generated cases in all (split: 25%% describe, 40%% llm, 10%% settings, 25%% adbd)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--full", action="store_true", help="also describe a 1080x60000 image")
    parser.add_argument(
        "--skip",
        default="",
        help="families to skip, comma-separated: "
        "describe, llm, llm-cli, hung-default, settings, adbd, record",
    )
    args = parser.parse_args()
    import logging

    logging.basicConfig(level=logging.ERROR)  # retries and rejected answers are expected
    os.environ.setdefault("YOLO_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    skip = set(filter(None, args.skip.split(",")))
    rng = random.Random(args.seed)
    n = args.cases
    split = {"describe": n * 25 // 100, "llm": n * 40 // 100, "settings": n * 10 // 100}
    split["adbd"] = n - sum(split.values())
    results: dict[str, Any] = {"seed": args.seed, "generated_cases": n}
    started = time.monotonic()
    hung: dict[str, Any] = {}
    hung_thread = threading.Thread(target=hung_with_defaults, args=(hung,), daemon=True)
    if "hung-default" not in skip:
        hung_thread.start()
    with tempfile.TemporaryDirectory(prefix="screenpilot-fuzz-") as tmp:
        work = Path(tmp)
        steps: list[tuple[str, Callable[[], Any]]] = [
            ("settings", lambda: fuzz_settings(rng, split["settings"])),
            ("llm", lambda: fuzz_llm(rng, split["llm"], work)),
            ("adbd", lambda: fuzz_adbd(rng, split["adbd"])),
            ("describe", lambda: fuzz_describe(rng, split["describe"], work, args.full)),
            ("llm-cli", lambda: llm_cli_cases(work)),
            ("record", record_case),
        ]
        for name, step in steps:
            if name in skip:
                continue
            t0 = time.monotonic()
            print(f"== {name}", flush=True)
            results[name] = step()
            results[name]["seconds"] = round(time.monotonic() - t0, 1)
            print(json.dumps(results[name], indent=1, default=str)[:3000], flush=True)
    if hung_thread.is_alive() or hung:
        hung_thread.join(120)
        results["hung-default"] = hung
    results["seconds"] = round(time.monotonic() - started, 1)
    totals: Counter[str] = Counter()
    for part in results.values():
        if not isinstance(part, dict):
            continue
        for sub in (part, part.get("generated"), part.get("cli")):
            if isinstance(sub, dict) and "cases" in sub:
                for k in KINDS:
                    totals[k] += int(sub.get(k, 0))
                totals["cases"] += int(sub["cases"])
    if "record" in results:
        totals["cases"] += 1
        totals["untrue" if results["record"]["end"] != "ok" else "ok"] += 1
    results["totals"] = dict(totals)
    print("\n== totals")
    print(
        f"cases {totals['cases']}: ok {totals['ok']}, clean errors {totals['clean']}, "
        f"tracebacks {totals['traceback']}, hangs {totals['hang']}, "
        f"untrue records {totals['untrue']}"
    )
    if hung:
        print(
            f"hung endpoint, default settings: gave up after {hung.get('gave_up_after_s')} s "
            f"(llm.deadline {hung.get('llm.deadline')} s): {hung.get('end', '')[:100]}"
        )
    if "adbd" in results:
        a = results["adbd"]
        print(
            f"adbd under abuse: RSS {a.get('rss_start_mb')} -> {a.get('rss_end_mb')} MB, "
            f"peak {a.get('peak_rss_mb')} MB; 1,000 shells: {a.get('shells_1000')}"
        )
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(results, indent=1, default=str) + "\n")
    print(f"wrote {OUT}")
    return 0 if totals["traceback"] == totals["hang"] == totals["untrue"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
