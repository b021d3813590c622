"""``ScriptedLLM``: the fake chat model the tests and the benchmark harness plan with.

It replays a list of answers (strings, callables of the messages, or exceptions to
raise) and records every prompt and temperature it is given.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import TypeAlias

from screenpilot.errors import LLMError
from screenpilot.planner.base import Usage
from screenpilot.planner.llm.chat import ChatResult, Message

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
