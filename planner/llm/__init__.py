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

One module per idea: ``chat`` (the protocol and its result), ``settings``
(``check_settings``), ``client`` (``OpenAIChat``), ``answers`` (reading what the
endpoint sent back) and ``scripted`` (``ScriptedLLM``). Import them from here.
"""

from screenpilot.planner.llm.answers import BODY_HINT, KEY_HINT, MODEL_HINT, URL_HINT
from screenpilot.planner.llm.chat import ChatModel, ChatResult, Message
from screenpilot.planner.llm.client import NO_KEY, OpenAIChat
from screenpilot.planner.llm.scripted import ScriptedLLM, ScriptItem
from screenpilot.planner.llm.settings import HOSTED, check_settings

__all__ = [
    "BODY_HINT",
    "HOSTED",
    "KEY_HINT",
    "MODEL_HINT",
    "NO_KEY",
    "URL_HINT",
    "ChatModel",
    "ChatResult",
    "Message",
    "OpenAIChat",
    "ScriptItem",
    "ScriptedLLM",
    "check_settings",
]
