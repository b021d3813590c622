"""OpenAIChat against a real HTTP server on 127.0.0.1 speaking chat completions; ScriptedLLM."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from screenpilot.errors import LLMError, LLMResponseError
from screenpilot.planner.base import Usage
from screenpilot.planner.llm import ChatModel, OpenAIChat, ScriptedLLM

KEY = "sk-test-SECRET-0123456789abcdef"
MESSAGES = [{"role": "system", "content": "be brief"}, {"role": "user", "content": "hi"}]


@dataclass
class Reply:
    """One scripted HTTP answer of the fake endpoint."""

    status: int = 200
    text: str = "hello"
    body: dict[str, Any] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    usage: dict[str, int] | None = field(
        default_factory=lambda: {"prompt_tokens": 11, "completion_tokens": 3, "total_tokens": 14}
    )

    def payload(self) -> dict[str, Any]:
        if self.body is not None:
            return self.body
        if self.status != 200:
            return {"error": {"message": f"scripted {self.status}", "type": "err", "code": None}}
        out: dict[str, Any] = {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 1,
            "model": "m",
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {"role": "assistant", "content": self.text},
                }
            ],
        }
        if self.usage is not None:
            out["usage"] = self.usage
        return out


class FakeEndpoint:
    """A chat-completions server in a thread; replays ``replies`` (the last one repeats)."""

    def __init__(self) -> None:
        self.replies: list[Reply] = []
        self.requests: list[dict[str, Any]] = []
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", 0))
                headers = {k.lower(): v for k, v in self.headers.items()}
                endpoint.requests.append(
                    {
                        "path": self.path,
                        "headers": headers,
                        "json": json.loads(self.rfile.read(length)),
                    }
                )
                reply = endpoint.next_reply()
                time.sleep(reply.delay)
                data = json.dumps(reply.payload()).encode()
                try:
                    self.send_response(reply.status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    for k, v in reply.headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True)
        self.thread.start()

    def next_reply(self) -> Reply:
        index = min(len(self.requests), len(self.replies)) - 1
        return self.replies[index] if self.replies else Reply()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def endpoint() -> Iterator[FakeEndpoint]:
    server = FakeEndpoint()
    yield server
    server.close()


def chat(endpoint: FakeEndpoint, **kwargs: Any) -> OpenAIChat:
    options: dict[str, Any] = {
        "base_url": endpoint.url,
        "api_key": KEY,
        "model": "test-model",
        "timeout": 5.0,
        "max_retries": 3,
        "backoff": 0.01,
    }
    return OpenAIChat(**(options | kwargs))


def test_success_counts_tokens_per_call_and_in_total(endpoint: FakeEndpoint) -> None:
    endpoint.replies = [Reply(text='{"action": "back", "reason": "x"}')]
    llm = chat(endpoint)
    first = llm.complete(MESSAGES, temperature=0.2)
    second = llm.complete(MESSAGES)
    assert first.text == '{"action": "back", "reason": "x"}'
    assert first.usage == Usage(11, 3, 14) and first.retries == 0
    assert second.finish_reason == "stop"
    assert llm.usage == Usage(22, 6, 28) and llm.calls == 2 and llm.retries == 0
    request = endpoint.requests[0]
    assert request["path"] == "/v1/chat/completions"
    assert request["json"]["model"] == "test-model"
    assert request["json"]["messages"] == MESSAGES
    assert request["json"]["temperature"] == 0.2
    assert "response_format" not in request["json"]
    assert request["headers"]["authorization"] == f"Bearer {KEY}"


def test_missing_usage_counts_zero(endpoint: FakeEndpoint) -> None:
    endpoint.replies = [Reply(usage=None)]
    result = chat(endpoint).complete(MESSAGES)
    assert result.text == "hello" and result.usage == Usage()


def test_no_key_still_works_for_local_servers(endpoint: FakeEndpoint) -> None:
    assert chat(endpoint, api_key="").complete(MESSAGES).text == "hello"


def test_429_then_success_is_retried_and_counted(endpoint: FakeEndpoint) -> None:
    endpoint.replies = [Reply(429, headers={"retry-after": "0"}), Reply(text="ok")]
    waits: list[float] = []
    llm = chat(endpoint, sleep=waits.append)
    result = llm.complete(MESSAGES)
    assert result.text == "ok" and result.retries == 1
    assert llm.retries == 1 and llm.calls == 1 and len(endpoint.requests) == 2
    assert len(waits) == 1 and 0 <= waits[0] <= 0.01


def test_backoff_grows_exponentially_with_jitter(endpoint: FakeEndpoint) -> None:
    endpoint.replies = [Reply(503)]
    waits: list[float] = []
    llm = chat(
        endpoint,
        max_retries=3,
        backoff=1.0,
        max_backoff=3.0,
        sleep=waits.append,
        jitter=lambda: 1.0,
    )
    with pytest.raises(LLMError):
        llm.complete(MESSAGES)
    assert waits == [1.0, 2.0, 3.0]  # 1, 2, 4 capped at 3; jitter factor 0.5 + 1.0 / 2


def test_500_every_time_is_an_llm_error_after_retries(endpoint: FakeEndpoint) -> None:
    endpoint.replies = [Reply(500)]
    llm = chat(endpoint, max_retries=2)
    with pytest.raises(LLMError) as info:
        llm.complete(MESSAGES)
    assert len(endpoint.requests) == 3 and llm.retries == 2
    assert "HTTP 500" in str(info.value)
    assert not isinstance(info.value, LLMResponseError)


def test_401_says_check_the_api_key(endpoint: FakeEndpoint) -> None:
    endpoint.replies = [Reply(401, body={"error": {"message": f"Incorrect API key {KEY}"}})]
    with pytest.raises(LLMError) as info:
        chat(endpoint).complete(MESSAGES)
    assert "llm.api_key" in info.value.hint and "401" in info.value.message
    assert len(endpoint.requests) == 1  # never retried
    assert KEY not in str(info.value) and info.value.__cause__ is None


def test_404_says_check_the_model(endpoint: FakeEndpoint) -> None:
    endpoint.replies = [Reply(404, body={"error": {"message": "model gpt-9 does not exist"}})]
    with pytest.raises(LLMError) as info:
        chat(endpoint, model="gpt-9").complete(MESSAGES)
    assert "llm.model" in info.value.hint and "gpt-9" in info.value.message


def test_insufficient_quota_is_not_retried(endpoint: FakeEndpoint) -> None:
    endpoint.replies = [
        Reply(
            429,
            body={
                "error": {
                    "message": "quota",
                    "code": "insufficient_quota",
                    "type": "insufficient_quota",
                }
            },
        )
    ]
    with pytest.raises(LLMError, match="out of quota"):
        chat(endpoint).complete(MESSAGES)
    assert len(endpoint.requests) == 1


def test_temperature_rejected_is_dropped(endpoint: FakeEndpoint) -> None:
    endpoint.replies = [
        Reply(400, body={"error": {"message": "Unsupported value: 'temperature'"}}),
        Reply(text="ok"),
    ]
    llm = chat(endpoint)
    assert llm.complete(MESSAGES).text == "ok"
    assert "temperature" in endpoint.requests[0]["json"]
    assert "temperature" not in endpoint.requests[1]["json"]


def test_timeout_is_an_llm_error(endpoint: FakeEndpoint) -> None:
    endpoint.replies = [Reply(delay=1.0)]
    llm = chat(endpoint, timeout=0.2, max_retries=1)
    started = time.monotonic()
    with pytest.raises(LLMError) as info:
        llm.complete(MESSAGES)
    assert "did not answer within 0.2s" in info.value.message
    assert "llm.timeout" in info.value.hint
    assert len(endpoint.requests) == 2 and time.monotonic() - started < 3


def test_unreachable_endpoint_says_check_base_url() -> None:
    llm = OpenAIChat(
        base_url="http://127.0.0.1:9/v1",
        api_key=KEY,
        model="m",
        timeout=2,
        max_retries=1,
        backoff=0.01,
    )
    with pytest.raises(LLMError) as info:
        llm.complete(MESSAGES)
    assert "cannot reach" in info.value.message and "llm.base_url" in info.value.hint


def test_empty_answer_is_a_response_error(endpoint: FakeEndpoint) -> None:
    endpoint.replies = [Reply(text="")]
    with pytest.raises(LLMResponseError):
        chat(endpoint).complete(MESSAGES)


def test_api_key_never_in_logs_messages_or_repr(
    endpoint: FakeEndpoint, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    endpoint.replies = [Reply(429), Reply(text="ok"), Reply(401), Reply(500)]
    llm = chat(endpoint, max_retries=1)
    llm.complete(MESSAGES)
    errors = []
    for _ in range(2):
        with pytest.raises(LLMError) as info:
            llm.complete(MESSAGES)
        errors.append(info.value)
    assert caplog.records  # retries were logged
    assert KEY not in caplog.text
    assert all(KEY not in str(e) and KEY not in repr(e) for e in errors)
    assert KEY not in repr(llm)


def test_both_models_satisfy_the_protocol(endpoint: FakeEndpoint) -> None:
    models: list[ChatModel] = [chat(endpoint), ScriptedLLM(["a"])]
    assert [m.complete(MESSAGES).text for m in models] == ["hello", "a"]


def test_scripted_llm_replays_records_and_runs_out() -> None:
    seen: list[int] = []

    def answer(messages: list[dict[str, str]]) -> str:
        seen.append(len(messages))
        return "from callable"

    llm = ScriptedLLM(["first", answer, LLMError("boom")])
    assert llm.complete(MESSAGES, temperature=0.5).text == "first"
    assert llm.complete(MESSAGES[:1]).text == "from callable" and seen == [1]
    with pytest.raises(LLMError, match="boom"):
        llm.complete(MESSAGES)
    with pytest.raises(LLMError, match="ran out of answers") as info:
        llm.complete(MESSAGES)
    assert "add answers" in info.value.hint
    assert llm.calls == 4 and llm.prompts[0] == MESSAGES and llm.temperatures[0] == 0.5
    assert llm.usage.total_tokens > 0


@pytest.mark.live_llm
@pytest.mark.skipif(
    not os.environ.get("SCREENPILOT_LLM_BASE_URL"),
    reason="set SCREENPILOT_LLM_BASE_URL (and _API_KEY, _MODEL) to run",
)
def test_live_endpoint_answers() -> None:
    llm = OpenAIChat(
        base_url=os.environ["SCREENPILOT_LLM_BASE_URL"],
        api_key=os.environ.get("SCREENPILOT_LLM_API_KEY", ""),
        model=os.environ.get("SCREENPILOT_LLM_MODEL", "gpt-4o-mini"),
        timeout=60,
        max_retries=2,
    )
    result = llm.complete([{"role": "user", "content": "Answer with the single word: pong"}])
    assert "pong" in result.text.lower()


def test_importing_the_planner_does_not_import_openai() -> None:
    code = (
        "import sys, screenpilot.planner.chain, screenpilot.planner.llm; "
        "assert 'openai' not in sys.modules, 'openai imported eagerly'; "
        "assert not any(m.startswith('screenpilot.simulator') for m in sys.modules)"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_bad_settings_are_refused() -> None:
    with pytest.raises(LLMError, match=r"llm\.max_retries"):
        OpenAIChat(base_url="http://127.0.0.1:9/v1", model="m", max_retries=-1)
