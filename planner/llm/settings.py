"""``check_settings``: refuse LLM settings that cannot work, before a run touches the phone.

A base URL that is not http(s), an empty model, a hosted service with no key, timeouts
or retries out of range: each is a ``ConfigError`` (exit 2). Nothing is sent anywhere.
"""

from __future__ import annotations

from screenpilot.errors import ConfigError

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
