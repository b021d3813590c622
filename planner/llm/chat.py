"""What every chat model is: ``ChatModel`` (``complete(messages, *, temperature)``) and its
answer, ``ChatResult`` (the text and the tokens it cost)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeAlias

from screenpilot.planner.base import Usage

#: One chat message: ``{"role": "system" | "user" | "assistant", "content": "..."}``.
Message: TypeAlias = Mapping[str, str]


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
