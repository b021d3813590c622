"""Chat models the planner talks to: an OpenAI-compatible client and a scripted fake.

Both satisfy ``ChatModel``: ``complete(messages, *, temperature) -> ChatResult``.

``OpenAIChat`` speaks the chat-completions API of OpenAI, Qwen/DashScope, ERNIE,
DeepSeek, vLLM, Ollama and llama.cpp's server. It asks for nothing some of them
lack (no ``response_format``, no ``max_tokens``), retries 429, 5xx, timeouts and
connection failures with exponential backoff and jitter, counts tokens per call
and in total, and translates every failure into our own errors at this boundary
(the ``openai`` package's, and answers that are not a chat completion at all: an
HTML page, a binary body, JSON of another shape)::

    PlannerError
    ├── LLMError           unreachable, timed out, 401/403 (check llm.api_key),
    │                      404 (check llm.model), 429 out of quota, 5xx, 400,
    │                      a body that is not JSON or not a chat completion
    └── LLMResponseError   the endpoint answered with no text

One ``complete`` call never takes longer than ``deadline`` seconds, every try and
every wait between tries included: each try's timeout is what is left of it, a
wait that would pass it is not started, and a request that still has not ended
when the deadline passes (a server that trickles bytes, so no single read ever
times out) is abandoned. :func:`check_settings` refuses settings that cannot work
(a base URL that is not http(s), a hosted service with no key) before anything
else starts.

The API key never appears in a message, a log line or a ``repr``.

``ScriptedLLM`` replays a list of answers (strings, callables of the messages,
or exceptions to raise) and records every prompt it is given: the fake the tests
and the benchmark harness run the planner with.
"""

from __future__ import annotations

import contextlib
import copy
import logging
import random
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from screenpilot.errors import ConfigError, LLMError, LLMResponseError
from screenpilot.planner.base import Usage

if TYPE_CHECKING:
    import openai

log = logging.getLogger(__name__)

#: One chat message: ``{"role": "system" | "user" | "assistant", "content": "..."}``.
Message: TypeAlias = Mapping[str, str]

#: A placeholder key for servers that want none (vLLM, Ollama, llama.cpp); the
#: ``openai`` package refuses to start without one.
NO_KEY = "not-needed"

KEY_HINT = "check llm.api_key (or SCREENPILOT_LLM_API_KEY)"
MODEL_HINT = "check llm.model and llm.base_url (most servers' base URL ends in /v1)"
URL_HINT = "check llm.base_url and that the server is running"
BODY_HINT = (
    "check llm.base_url: it must name the chat API itself (most end in /v1), "
    "not a web page or a proxy's login page"
)
#: Hosts of services that always need a key (a local server needs none).
HOSTED = (
    "openai.com",
    "dashscope",
    "aliyuncs.com",
    "deepseek.com",
    "baidubce.com",
    "anthropic.com",
    "mistral.ai",
    "groq.com",
    "together.xyz",
    "openrouter.ai",
    "moonshot.cn",
    "bigmodel.cn",
    "volces.com",
    "siliconflow.cn",
    "azure.com",
)


def check_settings(
    base_url: str,
    api_key: str,
    model: str,
    *,
    timeout: float = 60.0,
    deadline: float = 60.0,
    max_retries: int = 0,
) -> None:
    """Refuse LLM settings that cannot work, before a run touches the phone.

    ``ConfigError`` (exit 2) for a base URL that is not an http(s) URL with a host,
    an empty model, a hosted service (OpenAI, DashScope, DeepSeek...) with no key,
    and timeouts or retries out of range. Nothing is sent anywhere.
    """
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(base_url.strip())
        host = (parts.hostname or "").lower()
        _ = parts.port  # a port that is not a number, or out of range
    except ValueError as exc:
        raise ConfigError(
            f"llm.base_url {base_url!r} is not a URL: {exc}",
            hint="e.g. --set llm.base_url=http://127.0.0.1:8000/v1",
        ) from None
    if any(ch.isspace() or not ch.isprintable() for ch in base_url.strip()):
        raise ConfigError(
            f"llm.base_url {base_url!r} holds spaces or control characters",
            hint="e.g. --set llm.base_url=http://127.0.0.1:8000/v1",
        )
    if parts.scheme not in ("http", "https") or not host:
        raise ConfigError(
            f"llm.base_url {base_url!r} is not an http(s) URL with a host",
            hint="e.g. --set llm.base_url=http://127.0.0.1:8000/v1",
        )
    if not model.strip():
        raise ConfigError("llm.model is empty", hint="e.g. --set llm.model=qwen-max")
    if not api_key.strip() and any(
        host == h or host.endswith("." + h) or h in host for h in HOSTED
    ):
        raise ConfigError(
            f"llm.api_key is empty, and {host} needs one",
            hint="set SCREENPILOT_LLM_API_KEY, or --set llm.api_key=...",
        )
    if not timeout > 0 or not deadline > 0 or max_retries < 0:
        raise ConfigError(
            f"bad LLM limits: llm.timeout={timeout:g}, llm.deadline={deadline:g}"
            f", llm.max_retries={max_retries}",
            hint="llm.timeout and llm.deadline must be > 0, llm.max_retries >= 0",
        )


@dataclass(frozen=True, slots=True)
class ChatResult:
    """One answer of a chat model: its text and the tokens it cost."""

    text: str
    usage: Usage = field(default_factory=Usage)
    model: str = ""
    finish_reason: str = ""
    retries: int = 0


class ChatModel(Protocol):
    """Anything that answers chat messages with text."""

    def complete(self, messages: Sequence[Message], *, temperature: float = 0.0) -> ChatResult:
        """The model's answer to ``messages``; raises ``LLMError`` when it has none."""
        ...


class _Retry(Exception):
    """Internal: this attempt failed in a way worth trying again."""

    def __init__(self, error: LLMError, *, after: float | None = None) -> None:
        super().__init__(error.message)
        self.error = error
        self.after = after


@dataclass(kw_only=True)
class OpenAIChat:
    """An OpenAI-compatible chat endpoint, with retries, timeouts and token accounting.

    ``max_retries`` is how many times one call is tried again (so ``max_retries + 1``
    attempts at most); the wait before retry ``n`` is ``backoff * 2**n`` seconds
    (capped at ``max_backoff``, or the server's ``Retry-After``) times a random
    factor in [0.5, 1). ``timeout`` bounds one try, ``deadline`` the whole call.
    """

    base_url: str
    model: str
    api_key: str = field(default="", repr=False)
    timeout: float = 60.0
    deadline: float = 60.0
    max_retries: int = 3
    backoff: float = 0.5
    max_backoff: float = 20.0
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False)
    jitter: Callable[[], float] = field(default=random.random, repr=False)
    clock: Callable[[], float] = field(default=time.monotonic, repr=False)
    usage: Usage = field(default_factory=Usage, init=False)
    calls: int = field(default=0, init=False)
    retries: int = field(default=0, init=False)
    _client: Any = field(default=None, init=False, repr=False)
    _send_temperature: bool = field(default=True, init=False, repr=False)

    def __post_init__(self) -> None:
        if (
            self.max_retries < 0
            or not self.timeout > 0
            or self.backoff < 0
            or not self.deadline > 0
        ):
            raise LLMError(
                f"bad LLM client settings: max_retries={self.max_retries}, "
                f"timeout={self.timeout}, deadline={self.deadline}, "
                f"backoff={self.backoff}",
                hint="llm.max_retries must be >= 0, llm.timeout and llm.deadline > 0",
                kind="misconfigured",
            )

    def complete(self, messages: Sequence[Message], *, temperature: float = 0.0) -> ChatResult:
        """Ask the endpoint; retries transient failures within ``deadline`` seconds, raises
        ``LLMError`` on the rest."""
        ends = self.clock() + self.deadline
        for attempt in range(self.max_retries + 1):
            left = ends - self.clock()
            try:
                result = self._bounded(messages, temperature, left)
            except _Retry as retry:
                if attempt == self.max_retries:
                    raise retry.error from retry.__cause__
                if not self._wait(attempt, retry, ends):
                    raise self._gave_up(retry.error, attempt + 1) from retry.__cause__
                continue
            return self._account(result, attempt)
        raise AssertionError("unreachable")  # pragma: no cover

    def _gave_up(self, error: LLMError, tries: int) -> LLMError:
        return LLMError(
            f"{error.message}; gave up after {tries} "
            f"{'try' if tries == 1 else 'tries'} within llm.deadline "
            f"({self.deadline:g}s)",
            hint=error.hint,
            kind=error.kind,
        )

    def _wait(self, attempt: int, retry: _Retry, ends: float) -> bool:
        """Sleep before the next try; False when that would pass the deadline."""
        delay = min(self.max_backoff, self.backoff * 2**attempt)
        if retry.after is not None:
            delay = min(self.max_backoff, max(delay, retry.after))
        delay *= 0.5 + self.jitter() / 2
        if self.clock() + delay >= ends:
            return False
        self.retries += 1
        log.warning(
            "%s; retry %d/%d in %.2fs", retry.error.message, attempt + 1, self.max_retries, delay
        )
        self.sleep(delay)
        return True

    def _account(self, result: ChatResult, retries: int) -> ChatResult:
        self.calls += 1
        self.usage = self.usage + result.usage
        log.debug(
            "LLM call %d: %d prompt + %d completion tokens (%d retries)",
            self.calls,
            result.usage.prompt_tokens,
            result.usage.completion_tokens,
            retries,
        )
        return ChatResult(result.text, result.usage, result.model, result.finish_reason, retries)

    def _timed_out(self, seconds: float) -> _Retry:
        where = self._redact(f"the LLM endpoint at {self.base_url}")
        return _Retry(
            LLMError(
                f"{where} did not answer within {seconds:.3g}s",
                hint="raise llm.timeout / llm.deadline, or check the server",
                kind="timed out",
            )
        )

    def _bounded(self, messages: Sequence[Message], temperature: float, left: float) -> ChatResult:
        """One try, abandoned (its client closed) when it outlives what is left of the
        deadline: a server that trickles its answer never times out a single read."""
        if left <= 0:
            raise self._timed_out(self.deadline)
        limit = min(self.timeout, left)
        box: list[ChatResult | BaseException] = []

        def attempt() -> None:
            try:
                box.append(self._attempt(messages, temperature, limit))
            except BaseException as exc:  # handed to the caller's thread as it is
                box.append(exc)

        worker = threading.Thread(target=attempt, name="llm-request", daemon=True)
        worker.start()
        worker.join(left)  # never past the deadline
        if not box:
            client, self._client = self._client, None
            if client is not None:
                with contextlib.suppress(Exception):
                    client.close()
            raise self._timed_out(limit)
        outcome = box[0]
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome

    def _attempt(self, messages: Sequence[Message], temperature: float, limit: float) -> ChatResult:
        import openai

        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": [dict(m) for m in messages],
            "timeout": limit,
        }
        if self._send_temperature:
            kwargs["temperature"] = temperature
        try:
            raw = self._openai().chat.completions.with_raw_response.create(**kwargs)
        except openai.BadRequestError as exc:
            if self._send_temperature and "temperature" in _server_message(exc).lower():
                log.info("%s rejects temperature; asking without it", self.model)
                self._send_temperature = False
                return self._attempt(messages, temperature, limit)
            raise self._translate(exc) from self._cause(exc)
        except openai.APITimeoutError as exc:
            raise self._timed_out(limit) from self._cause(exc)
        except openai.OpenAIError as exc:
            raise self._translate(exc) from self._cause(exc)
        except Exception as exc:  # a body httpx or openai could not even read
            raise self._not_chat(f"{type(exc).__name__}: {exc}") from None
        return self._parse(raw)

    def _not_chat(self, what: str) -> LLMError:
        where = self._redact(f"the LLM endpoint at {self.base_url}")
        return LLMError(
            f"{where} answered with {self._redact(what)[:200]}, not a chat completion",
            hint=BODY_HINT,
            kind="not a chat answer",
        )

    def _parse(self, raw: Any) -> ChatResult:
        """The chat completion in an HTTP 200 answer, or ``LLMError`` saying what came."""
        ctype = str(raw.headers.get("content-type", "") or "").split(";")[0].strip().lower()
        if "json" not in ctype:
            body = _peek(raw)
            kind = f"a {ctype} body" if ctype else "a body with no content type"
            raise self._not_chat(f"{kind} ({body})" if body else kind)
        try:
            response = raw.parse()
        except Exception as exc:  # JSONDecodeError, UnicodeDecodeError, a shape of its own
            raise self._not_chat(
                f"a body that is not JSON ({type(exc).__name__}: {' '.join(str(exc).split())[:80]})"
            ) from None
        if isinstance(response, str | bytes) or not hasattr(response, "choices"):
            raise self._not_chat(f"JSON of another shape ({_peek(raw)})")
        return self._result(response)

    def _cause(self, exc: Exception) -> Exception | None:
        """``exc`` to chain from, or None when the server echoed the key into it."""
        key = self.api_key
        leaked = bool(key) and (key in str(exc) or key in repr(getattr(exc, "body", "")))
        return None if leaked else exc

    def _openai(self) -> openai.OpenAI:
        if self._client is None:
            import openai

            try:
                self._client = openai.OpenAI(
                    base_url=self.base_url,
                    api_key=self.api_key or NO_KEY,
                    timeout=self.timeout,
                    max_retries=0,
                )
            except openai.OpenAIError as exc:
                raise LLMError(
                    f"cannot set up the LLM client: {self._redact(str(exc))}",
                    hint=URL_HINT,
                    kind="misconfigured",
                ) from None
        client: openai.OpenAI = self._client
        return client

    def _result(self, response: Any) -> ChatResult:
        choices = getattr(response, "choices", None)
        error = getattr(response, "error", None)
        if not choices and error:
            said = error.get("message", error) if isinstance(error, Mapping) else error
            raise self._not_chat(f"an error in an HTTP 200 answer ({' '.join(str(said).split())})")
        if choices is not None and not isinstance(choices, list | tuple):
            raise self._not_chat(f"JSON whose 'choices' is a {type(choices).__name__}")
        choices = choices or []
        message = getattr(choices[0], "message", None) if choices else None
        text = getattr(message, "content", None) if message is not None else None
        if not isinstance(text, str) or not text.strip():
            raise LLMResponseError(
                f"the LLM ({self.model}) answered with no text",
                hint="the model may not support chat; check llm.model",
            )
        return ChatResult(
            text=text,
            usage=_usage(getattr(response, "usage", None)),
            model=str(getattr(response, "model", "") or self.model),
            finish_reason=str(getattr(choices[0], "finish_reason", "") or ""),
        )

    def _translate(self, exc: Exception) -> Exception:
        """An ``openai`` exception as an ``LLMError``, or a ``_Retry`` wrapping one."""
        import openai

        where = self._redact(f"the LLM endpoint at {self.base_url}")
        if isinstance(exc, openai.APITimeoutError):
            return self._timed_out(self.timeout)
        if isinstance(exc, openai.APIConnectionError):
            return _Retry(LLMError(f"cannot reach {where}", hint=URL_HINT, kind="unreachable"))
        if isinstance(exc, openai.APIStatusError):
            return self._translate_status(exc, where)
        return LLMError(f"{where} failed: {self._redact(str(exc))}", hint=URL_HINT)

    def _translate_status(self, exc: openai.APIStatusError, where: str) -> Exception:
        status = exc.status_code
        said = self._redact(_server_message(exc))
        detail = f" (HTTP {status}: {said})" if said else f" (HTTP {status})"
        if status in (401, 403):
            return LLMError(
                f"{where} refused the API key{detail}", hint=KEY_HINT, kind="refused the key"
            )
        if status == 404:
            return LLMError(
                f"model '{self.model}' not found at {where}{detail}",
                hint=MODEL_HINT,
                kind="model not found",
            )
        if status == 429 and _code(exc) == "insufficient_quota":
            return LLMError(
                f"{where} says the account is out of quota{detail}",
                hint="check the plan and billing of llm.api_key",
                kind="out of quota",
            )
        if status == 429:
            return _Retry(
                LLMError(
                    f"{where} is rate limiting{detail}",
                    hint="wait, or raise llm.max_retries",
                    kind="rate limited",
                ),
                after=_retry_after(exc),
            )
        if status >= 500:
            return _Retry(
                LLMError(
                    f"{where} failed{detail}",
                    hint="the server is in trouble; try again later",
                    kind="server error",
                )
            )
        return LLMError(
            f"{where} rejected the request{detail}", hint=MODEL_HINT, kind="rejected the request"
        )

    def _redact(self, text: str) -> str:
        key = self.api_key
        return text.replace(key, "***") if key and len(key) >= 4 else text


def _peek(raw: Any) -> str:
    """The first characters of a raw answer's body, printable, for an error message."""
    try:
        data = bytes(raw.http_response.content[:120])
    except Exception:  # a body that cannot even be read: say nothing of it
        return ""
    if not data:
        return "empty"
    text = data.decode("utf-8", "replace")
    if sum(ch == "\ufffd" or (ch < " " and ch not in "\r\n\t") for ch in text) > len(text) // 8:
        return f"{len(raw.http_response.content)} bytes of binary data"
    return repr(" ".join(text.split())[:60])


def _server_message(exc: Exception) -> str:
    """The error message the server sent, shortened to one line."""
    body = getattr(exc, "body", None)
    message: object = None
    if isinstance(body, Mapping):
        inner = body.get("error", body)
        message = inner.get("message") if isinstance(inner, Mapping) else inner
    text = str(message if message is not None else getattr(exc, "message", "") or "")
    return " ".join(text.split())[:300]


def _code(exc: Exception) -> str:
    return str(getattr(exc, "code", "") or "")


def _retry_after(exc: openai.APIStatusError) -> float | None:
    value = exc.response.headers.get("retry-after") if exc.response is not None else None
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def _usage(raw: Any) -> Usage:
    """Token counts from a response's ``usage`` (absent on some servers: zeros)."""
    if raw is None:
        return Usage()
    prompt = int(getattr(raw, "prompt_tokens", 0) or 0)
    completion = int(getattr(raw, "completion_tokens", 0) or 0)
    total = int(getattr(raw, "total_tokens", 0) or 0) or prompt + completion
    return Usage(prompt, completion, total)


#: What a script holds: an answer, a function of the messages giving one, or an
#: exception to raise in its turn.
ScriptItem: TypeAlias = str | Callable[[list[dict[str, str]]], str] | BaseException


class ScriptedLLM:
    """A chat model that replays a script and records every prompt it receives.

    Token usage is estimated (words), so reports and accounting have figures.
    """

    def __init__(self, answers: Sequence[ScriptItem], *, model: str = "scripted") -> None:
        self.answers = list(answers)
        self.model = model
        self.prompts: list[list[dict[str, str]]] = []
        self.temperatures: list[float] = []
        self.usage = Usage()

    @property
    def calls(self) -> int:
        return len(self.prompts)

    @property
    def remaining(self) -> int:
        return len(self.answers) - len(self.prompts)

    @property
    def last_prompt(self) -> list[dict[str, str]]:
        if not self.prompts:
            raise IndexError("ScriptedLLM has not been asked anything yet")
        return self.prompts[-1]

    def complete(self, messages: Sequence[Message], *, temperature: float = 0.0) -> ChatResult:
        recorded = [dict(m) for m in messages]
        turn = len(self.prompts)
        self.prompts.append(recorded)
        self.temperatures.append(temperature)
        if turn >= len(self.answers):
            raise LLMError(
                f"ScriptedLLM ran out of answers: its script holds {len(self.answers)} "
                f"and it was asked for answer {turn + 1}",
                hint="add answers to the script",
            )
        item = self.answers[turn]
        if isinstance(item, BaseException):
            raise item
        text = item(copy.deepcopy(recorded)) if callable(item) else item
        prompt = sum(len(m.get("content", "").split()) for m in recorded)
        usage = Usage(prompt, len(text.split()), prompt + len(text.split()))
        self.usage = self.usage + usage
        return ChatResult(text=text, usage=usage, model=self.model, finish_reason="stop")
