"""The LLM endpoint bench/fuzz.py talks to: an HTTP server on a raw socket that answers
whatever it is told (status, content type, body, behaviour: hang, trickle, early close),
and the generator of such replies.

A part of bench/fuzz.py (run that), not a benchmark of its own.
"""

from __future__ import annotations

import json
import random
import socket
import threading
from dataclasses import dataclass
from typing import Any

from fuzz_common import part_of_fuzz


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


if __name__ == "__main__":
    part_of_fuzz(__file__)
