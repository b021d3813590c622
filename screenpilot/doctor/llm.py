"""The doctor's LLM check: the endpoint (llm.base_url / llm.model / llm.api_key) answers.

Only when one is configured (a key or URL or model set anywhere, or a planner or
safety check that asks it). Then: the settings are sane (``check_settings``), the
endpoint is reachable and lists its models (``GET /models``; some servers list
none), the model is among them, and one tiny chat call through the planner's own
client answers, with its latency. The key is shown masked (at most its first 3
and last 2 characters) and never printed whole, not even in an error.
"""

from __future__ import annotations

import dataclasses
import json
import time
import urllib.error
import urllib.request
from typing import Any

from screenpilot.config import Config
from screenpilot.doctor.report import Check, fail, ok, warn
from screenpilot.errors import ScreenpilotError

LLM = "LLM endpoint"
LLM_KEYS = ("llm.base_url", "llm.model", "llm.api_key")
PROBE = [{"role": "user", "content": "Reply with the single word OK."}]
#: The doctor waits at most this long for the endpoint (the run's limits may be longer).
WAIT_S = 30.0
SHOWN_MODELS = 8
START_FIX = (
    "is the server running? Ollama: `ollama serve`; llama.cpp: `llama-server -m "
    "MODEL.gguf --port 8080`; vLLM: `vllm serve MODEL`"
)


def mask(key: str) -> str:
    """At most the first 3 and last 2 characters of ``key`` (less of a short one)."""
    if not key:
        return "no key"
    head, tail = min(3, len(key) // 4), min(2, len(key) // 6)
    return f"{key[:head]}…{key[len(key) - tail :] if tail else ''}"


def configured(cfg: Config) -> bool:
    """An endpoint is set anywhere, or the planner or the safety check asks one."""
    return needed(cfg) or any(cfg.sources[k] != "default" for k in LLM_KEYS)


def needed(cfg: Config) -> bool:
    """``run`` asks the LLM (so a broken endpoint fails the report)."""
    return bool(cfg["planner.kind"] == "llm" or cfg["safety.llm"])


def check_llm(cfg: Config) -> Check:
    """The configured endpoint, checked end to end (see the module docstring)."""
    if not configured(cfg):
        return ok(LLM, "none configured: the offline planner plans (planner.kind=heuristic)")
    key = cfg["llm.api_key"]
    where = f"{cfg['llm.base_url']} model {cfg['llm.model']} (key {mask(key)})"
    bad = fail if needed(cfg) else warn
    try:
        found = _check(cfg)
    except ScreenpilotError as exc:
        said = exc.message.replace(key, mask(key)) if key else exc.message
        return bad(LLM, f"{where}: {said}", exc.hint or START_FIX)
    except _Problem as exc:
        return bad(LLM, f"{where}: {exc.args[0]}", exc.args[1])
    return ok(LLM, f"{where}: {found}")


class _Problem(Exception):
    """(what is wrong, what to do) found by the doctor itself."""


def _check(cfg: Config) -> str:
    from screenpilot import build

    build.check_llm_settings(cfg)
    listed = _models(
        cfg["llm.base_url"], cfg["llm.api_key"], min(float(cfg["llm.timeout"]), WAIT_S)
    )
    model = cfg["llm.model"]
    if listed and model not in listed:
        shown = ", ".join(listed[:SHOWN_MODELS]) + (", ..." if len(listed) > SHOWN_MODELS else "")
        raise _Problem(
            f"the endpoint does not serve {model} (it lists {shown})",
            f"--set llm.model={listed[0]}  (or pull the model first, e.g. `ollama pull {model}`)",
        )
    chat = dataclasses.replace(
        build.llm(cfg),
        max_retries=0,
        deadline=min(float(cfg["llm.deadline"]), WAIT_S),
        timeout=min(float(cfg["llm.timeout"]), WAIT_S),
    )
    started = time.perf_counter()
    answer = chat.complete(PROBE)
    seconds = time.perf_counter() - started
    said = " ".join(answer.text.split())[:40]
    known = f"{model} listed" if listed else "the endpoint lists no models"
    return f"{known}; one chat call answered {said!r} in {seconds:.2f} s"


def _models(base_url: str, key: str, timeout: float) -> list[str]:
    """Model ids from ``GET {base_url}/models`` ([] when the server lists none)."""
    request = urllib.request.Request(
        base_url.rstrip("/") + "/models", headers={"Accept": "application/json"}
    )
    if key:
        request.add_header("Authorization", f"Bearer {key}")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            body: Any = json.loads(response.read(1 << 20).decode("utf-8", "replace"))
    except urllib.error.HTTPError as exc:
        if exc.code in (401, 403):
            raise _Problem(
                f"the endpoint refused the key (HTTP {exc.code})",
                "check llm.api_key (or SCREENPILOT_LLM_API_KEY)",
            ) from None
        return []  # no model list here (404...): the chat call decides
    except (urllib.error.URLError, OSError, TimeoutError) as exc:
        reason = getattr(exc, "reason", exc)
        raise _Problem(f"cannot reach it ({reason})", START_FIX) from None
    except ValueError:
        return []
    data = (body.get("data") or body.get("models")) if isinstance(body, dict) else None
    if not isinstance(data, list):
        return []
    ids = [str(m.get("id") or m.get("name") or "") for m in data if isinstance(m, dict)]
    return [i for i in ids if i]
