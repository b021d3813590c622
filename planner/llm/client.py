"""``OpenAIChat``: an OpenAI-compatible chat endpoint, with retries, a deadline and token counts.

It asks for nothing some servers lack (no ``response_format``, no ``max_tokens``; no
temperature once a server refuses one), retries 429, 5xx, timeouts and connection failures
with exponential backoff and jitter, and never takes longer than ``deadline`` seconds for
one call: a try still running when the deadline passes is abandoned, its client closed.
What the endpoint answers is read by ``answers.Answers``.
"""

from __future__ import annotations

import contextlib
import logging
import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from screenpilot.errors import LLMError
from screenpilot.planner.base import Usage
from screenpilot.planner.llm.answers import URL_HINT, Answers, Retry, server_message
from screenpilot.planner.llm.chat import ChatResult, Message

if TYPE_CHECKING:
    import openai

log = logging.getLogger(__name__)

#: A placeholder key for servers that want none (vLLM, Ollama, llama.cpp); the
#: ``openai`` package refuses to start without one.
NO_KEY = "not-needed"
#: A retry is started only with at least this many seconds of the deadline left: a try
#: with less is abandoned before it can fail on its own, and the error then says the
#: endpoint "did not answer within 0.0007s" instead of why the tries failed (an
#: unreachable endpoint's retries could land just under the deadline).
MIN_TRY = 0.1


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
            except Retry as retry:
                if attempt == self.max_retries:
                    raise retry.error from retry.__cause__
                if not self._wait(attempt, retry, ends):
                    raise self._gave_up(retry.error, attempt + 1) from retry.__cause__
                continue
            return self._account(result, attempt)
        raise AssertionError("unreachable")  # pragma: no cover

    @property
    def _answers(self) -> Answers:
        """The reader of this endpoint's answers (its settings as they are now)."""
        return Answers(self.base_url, self.model, self.api_key)

    def _gave_up(self, error: LLMError, tries: int) -> LLMError:
        return LLMError(
            f"{error.message}; gave up after {tries} "
            f"{'try' if tries == 1 else 'tries'} within llm.deadline "
            f"({self.deadline:g}s)",
            hint=error.hint,
            kind=error.kind,
        )

    def _wait(self, attempt: int, retry: Retry, ends: float) -> bool:
        """Sleep before the next try; False when that would leave the try less than
        ``MIN_TRY`` of the deadline."""
        delay = min(self.max_backoff, self.backoff * 2**attempt)
        if retry.after is not None:
            delay = min(self.max_backoff, max(delay, retry.after))
        delay *= 0.5 + self.jitter() / 2
        if self.clock() + delay >= ends - MIN_TRY:
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

    def _bounded(self, messages: Sequence[Message], temperature: float, left: float) -> ChatResult:
        """One try, abandoned (its client closed) when it outlives what is left of the
        deadline: a server that trickles its answer never times out a single read."""
        if left <= 0:
            raise self._answers.timed_out(self.deadline)
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
            raise self._answers.timed_out(limit)
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
            if self._send_temperature and "temperature" in server_message(exc).lower():
                log.info("%s rejects temperature; asking without it", self.model)
                self._send_temperature = False
                return self._attempt(messages, temperature, limit)
            raise self._answers.translate(exc, timeout=self.timeout) from self._answers.cause(exc)
        except openai.APITimeoutError as exc:
            raise self._answers.timed_out(limit) from self._answers.cause(exc)
        except openai.OpenAIError as exc:
            raise self._answers.translate(exc, timeout=self.timeout) from self._answers.cause(exc)
        except Exception as exc:  # a body httpx or openai could not even read
            raise self._answers.not_chat(f"{type(exc).__name__}: {exc}") from None
        return self._answers.parse(raw)

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
                    f"cannot set up the LLM client: {self._answers.redact(str(exc))}",
                    hint=URL_HINT,
                    kind="misconfigured",
                ) from None
        client: openai.OpenAI = self._client
        return client
