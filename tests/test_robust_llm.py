"""The LLM client against hostile endpoints (issue 20): HTTP 200 answers that are not a
chat completion (HTML, binary, JSON of another shape), endpoints that hang or trickle,
and settings checked before anything starts."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from screenpilot.errors import ConfigError, LLMError, LLMResponseError, PlannerError
from screenpilot.planner.llm import OpenAIChat, check_settings
from screenpilot.planner.llm.client import MIN_TRY

MESSAGES = [{"role": "user", "content": "hi"}]


@dataclass
class Answer:
    """One raw HTTP answer: status, content type, body; ``hang`` never answers,
    ``trickle`` sends the body one byte at a time."""

    body: bytes = b""
    ctype: str = "application/json"
    status: int = 200
    hang: bool = False
    trickle: float = 0.0


class RawEndpoint:
    """An HTTP server on a raw socket: it answers exactly the bytes it is told to."""

    def __init__(self, answer: Answer) -> None:
        self.answer = answer
        self.requests = 0
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/v1"
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            threading.Thread(target=self._one, args=(conn,), daemon=True).start()

    def _one(self, conn: socket.socket) -> None:
        a = self.answer
        with conn:
            conn.settimeout(5)
            data = b""
            try:
                while b"\r\n\r\n" not in data:
                    data += conn.recv(65536)
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
                self.requests += 1
                if a.hang:
                    self.stop.wait(30)
                    return
                conn.sendall(
                    f"HTTP/1.1 {a.status} X\r\ncontent-type: {a.ctype}\r\n"
                    # it closes after one answer: said, so the client never reuses the
                    # connection (a retry on a closed one read as "unreachable")
                    f"content-length: {len(a.body)}\r\nconnection: close\r\n\r\n".encode()
                )
                if a.trickle:
                    for i in range(len(a.body)):
                        if self.stop.wait(a.trickle):
                            return
                        conn.sendall(a.body[i : i + 1])
                else:
                    conn.sendall(a.body)
            except OSError:
                return

    def close(self) -> None:
        self.stop.set()
        self.sock.close()


@pytest.fixture()
def serve() -> Iterator[list[RawEndpoint]]:
    made: list[RawEndpoint] = []
    yield made
    for endpoint in made:
        endpoint.close()


def ask(made: list[RawEndpoint], answer: Answer, **kw: float) -> BaseException:
    endpoint = RawEndpoint(answer)
    made.append(endpoint)
    options: dict[str, float] = {"timeout": 5.0, "deadline": 10.0, "backoff": 0.01} | kw
    llm = OpenAIChat(base_url=endpoint.url, model="m", api_key="k", max_retries=2, **options)  # type: ignore[arg-type]
    with pytest.raises(PlannerError) as info:
        llm.complete(MESSAGES)
    return info.value


def completion(content: object) -> bytes:
    return json.dumps(
        {
            "id": "1",
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
        }
    ).encode()


def test_an_html_page_is_not_a_chat_answer(serve: list[RawEndpoint]) -> None:
    """The issue's case: a `text/html` answer was 'the model may not support chat'."""
    err = ask(serve, Answer(b"<html><body>Please sign in</body></html>", "text/html"))
    assert isinstance(err, LLMError) and not isinstance(err, LLMResponseError)
    assert err.kind == "not a chat answer"
    assert "text/html" in err.message and "Please sign in" in err.message
    assert "llm.base_url" in err.hint and "/v1" in err.hint
    assert serve[0].requests == 1  # a wrong URL is not retried


@pytest.mark.parametrize(
    "body",
    [
        b"<!DOCTYPE html><html>gateway</html>",  # HTML that says it is JSON
        b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe\x00" * 20,  # binary (UnicodeDecodeError)
        b'{"choices": [',  # truncated
        b"",  # empty
    ],
)
def test_a_json_content_type_with_a_body_that_is_not_json(
    serve: list[RawEndpoint], body: bytes
) -> None:
    """The issue's case: JSONDecodeError / UnicodeDecodeError tracebacks."""
    err = ask(serve, Answer(body))
    assert isinstance(err, LLMError) and err.kind == "not a chat answer", err
    assert "not a chat completion" in err.message


@pytest.mark.parametrize(
    "body",
    [
        b"[1, 2, 3]",
        b'"just a string"',
        b"42",
        b"null",
        b'{"choices": "none"}',
        b'{"choices": [{}]}',
        b'{"choices": [{"message": {"content": 5}}]}',
        b'{"error": "nope"}',
    ],
)
def test_json_of_another_shape_ends_cleanly(serve: list[RawEndpoint], body: bytes) -> None:
    err = ask(serve, Answer(body))
    assert isinstance(err, LLMError | LLMResponseError), repr(err)


def test_a_good_answer_still_works(serve: list[RawEndpoint]) -> None:
    endpoint = RawEndpoint(Answer(completion("fine")))
    serve.append(endpoint)
    llm = OpenAIChat(base_url=endpoint.url, model="m", api_key="k")
    assert llm.complete(MESSAGES).text == "fine"


def test_a_hung_endpoint_gives_up_at_the_deadline(serve: list[RawEndpoint]) -> None:
    """The issue's case: 4 tries x 60 s. The whole call is bounded by llm.deadline."""
    err = ask(serve, Answer(hang=True), timeout=60.0, deadline=1.0)
    assert isinstance(err, LLMError) and err.kind == "timed out"
    assert "did not answer within" in err.message and "llm.deadline" in err.hint


def test_a_trickling_endpoint_is_abandoned_at_the_deadline(serve: list[RawEndpoint]) -> None:
    """A body sent a byte every 0.3 s never times out a single read (timeout 5 s); the
    deadline still ends the call."""
    err = ask(serve, Answer(completion("x" * 500), trickle=0.3), timeout=5.0, deadline=1.0)
    assert isinstance(err, LLMError) and err.kind == "timed out"


def _busy(serve: list[RawEndpoint], deadline: float) -> tuple[OpenAIChat, RawEndpoint]:
    """A client of an endpoint that answers 503 every time, retrying every 4 s on a fake
    clock that only its sleeps advance, within ``deadline``."""
    clock = [0.0]
    endpoint = RawEndpoint(Answer(b'{"error": {"message": "busy"}}', status=503))
    serve.append(endpoint)
    llm = OpenAIChat(
        base_url=endpoint.url,
        model="m",
        api_key="k",
        max_retries=10,
        backoff=4.0,
        max_backoff=4.0,
        deadline=deadline,
        jitter=lambda: 1.0,
        clock=lambda: clock[0],
        sleep=lambda s: clock.__setitem__(0, clock[0] + s),
    )
    return llm, endpoint


def test_retries_stop_before_the_deadline(serve: list[RawEndpoint]) -> None:
    """5xx answers are retried only while a retry still fits in the deadline."""
    llm, endpoint = _busy(serve, 10.0)
    with pytest.raises(LLMError) as info:
        llm.complete(MESSAGES)
    assert info.value.kind == "server error"
    assert endpoint.requests == 3  # tries at t=0, 4, 8; 12 > 10
    assert "gave up after 3 tries within llm.deadline (10s)" in info.value.message


def test_no_retry_starts_with_too_little_of_the_deadline_left(serve: list[RawEndpoint]) -> None:
    """A retry that would start 0.05 s before the deadline is not made (it would be
    abandoned, and the error would name the timeout, not why the tries failed)."""
    llm, endpoint = _busy(serve, 8.0 + MIN_TRY / 2)
    with pytest.raises(LLMError) as info:
        llm.complete(MESSAGES)
    assert info.value.kind == "server error"
    assert endpoint.requests == 2  # tries at t=0 and 4; one at 8 would have 0.05 s


def test_unreachable_names_its_kind() -> None:
    llm = OpenAIChat(
        base_url="http://127.0.0.1:9/v1",
        model="m",
        api_key="k",
        timeout=2,
        deadline=5,
        max_retries=1,
        backoff=0.01,
    )
    with pytest.raises(LLMError) as info:
        llm.complete(MESSAGES)
    assert info.value.kind == "unreachable"


# --- settings, checked before a run touches the phone -------------------------------------
@pytest.mark.parametrize(
    "url, key, model, message",
    [
        ("https://api.openai.com/v1", "", "gpt-4o-mini", "llm.api_key is empty"),
        (
            "https://dashscope.aliyuncs.com/compatible-mode/v1",
            " ",
            "qwen-max",
            "llm.api_key is empty",
        ),
        ("api.openai.com/v1", "k", "m", "not an http(s) URL"),
        ("ftp://example.com/v1", "k", "m", "not an http(s) URL"),
        ("http://", "k", "m", "not an http(s) URL"),
        ("http://[::1/v1", "k", "m", "not a URL"),
        ("http://127.0.0.1:8000/v1", "", "", "llm.model is empty"),
    ],
)
def test_bad_settings_are_config_errors(url: str, key: str, model: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        check_settings(url, key, model)


def test_local_servers_need_no_key() -> None:
    check_settings("http://127.0.0.1:8000/v1", "", "qwen2.5")
    check_settings("http://localhost:11434/v1", "", "llama3")
    with pytest.raises(ConfigError, match=r"llm\.deadline"):
        check_settings("http://localhost:11434/v1", "", "llama3", deadline=0)


def test_a_missing_key_is_found_before_the_phone_starts(tmp_path: object) -> None:
    """The issue's case: found only after starting the phone (26 s). Now exit 2 at once:
    the virtual phone is never started (no adbd, no `adb connect`)."""
    import os
    import subprocess
    import sys

    env = {
        **os.environ,
        "SCREENPILOT_CONFIG": str(tmp_path) + "/none.toml",
        "SCREENPILOT_LLM_API_KEY": "",
    }
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "screenpilot",
            "run",
            "turn on wifi",
            "--virtual",
            "--planner",
            "llm",
            "--yes",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 2, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert lines[0] == "error: llm.api_key is empty, and api.openai.com needs one"
    assert lines[1].startswith("  hint: ") and len(lines) == 2
    assert "virtual phone" not in proc.stdout and "task:" not in proc.stdout
