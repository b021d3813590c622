"""Reading what an OpenAI-compatible endpoint sent back: a chat completion, or a failure.

``Answers`` turns an HTTP 200 answer into a ``ChatResult`` (or an ``LLMError`` saying what
came instead: an HTML page, a binary body, JSON of another shape, no text at all) and an
``openai`` exception into our own errors, with the hint that fixes each; a failure worth
trying again comes wrapped in ``Retry``. The API key is redacted from everything it says.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from screenpilot.errors import LLMError, LLMResponseError
from screenpilot.planner.base import Usage
from screenpilot.planner.llm.chat import ChatResult

if TYPE_CHECKING:
    import openai

KEY_HINT = "check llm.api_key (or SCREENPILOT_LLM_API_KEY)"
MODEL_HINT = "check llm.model and llm.base_url (most servers' base URL ends in /v1)"
URL_HINT = "check llm.base_url and that the server is running"
BODY_HINT = (
    "check llm.base_url: it must name the chat API itself (most end in /v1), "
    "not a web page or a proxy's login page"
)


class Retry(Exception):
    """This attempt failed in a way worth trying again (after ``after`` seconds, when the
    server said so)."""

    def __init__(self, error: LLMError, *, after: float | None = None) -> None:
        super().__init__(error.message)
        self.error = error
        self.after = after


@dataclass(frozen=True, slots=True)
class Answers:
    """What the endpoint at ``base_url`` serving ``model`` answered, in our own terms."""

    base_url: str
    model: str
    api_key: str = field(default="", repr=False)

    @property
    def where(self) -> str:
        return self.redact(f"the LLM endpoint at {self.base_url}")

    def redact(self, text: str) -> str:
        key = self.api_key
        return text.replace(key, "***") if key and len(key) >= 4 else text

    def cause(self, exc: Exception) -> Exception | None:
        """``exc`` to chain from, or None when the server echoed the key into it."""
        key = self.api_key
        leaked = bool(key) and (key in str(exc) or key in repr(getattr(exc, "body", "")))
        return None if leaked else exc

    def timed_out(self, seconds: float) -> Retry:
        return Retry(
            LLMError(
                f"{self.where} did not answer within {seconds:.3g}s",
                hint="raise llm.timeout / llm.deadline, or check the server",
                kind="timed out",
            )
        )

    def not_chat(self, what: str) -> LLMError:
        return LLMError(
            f"{self.where} answered with {self.redact(what)[:200]}, not a chat completion",
            hint=BODY_HINT,
            kind="not a chat answer",
        )

    def parse(self, raw: Any) -> ChatResult:
        """The chat completion in an HTTP 200 answer, or ``LLMError`` saying what came."""
        ctype = str(raw.headers.get("content-type", "") or "").split(";")[0].strip().lower()
        if "json" not in ctype:
            body = peek(raw)
            kind = f"a {ctype} body" if ctype else "a body with no content type"
            raise self.not_chat(f"{kind} ({body})" if body else kind)
        try:
            response = raw.parse()
        except Exception as exc:  # JSONDecodeError, UnicodeDecodeError, a shape of its own
            raise self.not_chat(
                f"a body that is not JSON ({type(exc).__name__}: {' '.join(str(exc).split())[:80]})"
            ) from None
        if isinstance(response, str | bytes) or not hasattr(response, "choices"):
            raise self.not_chat(f"JSON of another shape ({peek(raw)})")
        return self.result(response)

    def result(self, response: Any) -> ChatResult:
        choices = getattr(response, "choices", None)
        error = getattr(response, "error", None)
        if not choices and error:
            said = error.get("message", error) if isinstance(error, Mapping) else error
            raise self.not_chat(f"an error in an HTTP 200 answer ({' '.join(str(said).split())})")
        if choices is not None and not isinstance(choices, list | tuple):
            raise self.not_chat(f"JSON whose 'choices' is a {type(choices).__name__}")
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
            usage=usage_of(getattr(response, "usage", None)),
            model=str(getattr(response, "model", "") or self.model),
            finish_reason=str(getattr(choices[0], "finish_reason", "") or ""),
        )

    def translate(self, exc: Exception, *, timeout: float) -> Exception:
        """An ``openai`` exception as an ``LLMError``, or a ``Retry`` wrapping one."""
        import openai

        if isinstance(exc, openai.APITimeoutError):
            return self.timed_out(timeout)
        if isinstance(exc, openai.APIConnectionError):
            return Retry(LLMError(f"cannot reach {self.where}", hint=URL_HINT, kind="unreachable"))
        if isinstance(exc, openai.APIStatusError):
            return self._translate_status(exc, self.where)
        return LLMError(f"{self.where} failed: {self.redact(str(exc))}", hint=URL_HINT)

    def _translate_status(self, exc: openai.APIStatusError, where: str) -> Exception:
        status = exc.status_code
        said = self.redact(server_message(exc))
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
            return Retry(
                LLMError(
                    f"{where} is rate limiting{detail}",
                    hint="wait, or raise llm.max_retries",
                    kind="rate limited",
                ),
                after=_retry_after(exc),
            )
        if status >= 500:
            return Retry(
                LLMError(
                    f"{where} failed{detail}",
                    hint="the server is in trouble; try again later",
                    kind="server error",
                )
            )
        return LLMError(
            f"{where} rejected the request{detail}", hint=MODEL_HINT, kind="rejected the request"
        )


def peek(raw: Any) -> str:
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


def server_message(exc: Exception) -> str:
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


def usage_of(raw: Any) -> Usage:
    """Token counts from a response's ``usage`` (absent on some servers: zeros)."""
    if raw is None:
        return Usage()
    prompt = int(getattr(raw, "prompt_tokens", 0) or 0)
    completion = int(getattr(raw, "completion_tokens", 0) or 0)
    total = int(getattr(raw, "total_tokens", 0) or 0) or prompt + completion
    return Usage(prompt, completion, total)
