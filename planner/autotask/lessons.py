"""Lessons from the steps a run undid, in a chat model's words (the offline lessons
are knowledge's: pbd/knowledge)."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

from screenpilot.errors import LLMResponseError
from screenpilot.model import Step
from screenpilot.pbd.pages import title
from screenpilot.pbd.paths import op_words
from screenpilot.planner.autotask.prompts import load_autotask_prompts
from screenpilot.planner.llm import ChatModel
from screenpilot.planner.parse import extract_json


def llm_lessons(llm: ChatModel, task: str, undone: Sequence[tuple[Step, str]]) -> list[str]:
    """Lessons in the model's words (``prompts/autotask.yaml`` ``lessons``); one per line."""
    lines = [
        f"- {op_words(s.action, s.before)} on '{title(s.before)}' -> "
        f"'{title(s.after) if s.after else 'no change'}' (wrong: {why})"
        for s, why in undone
    ]
    prompt = load_autotask_prompts()["lessons"].substitute(task=task, steps="\n".join(lines))
    text = llm.complete([{"role": "user", "content": prompt}]).text
    with contextlib.suppress(LLMResponseError):
        data = extract_json(text)
        items = data.get("lessons")
        if isinstance(items, list):
            return [str(x).strip() for x in items if str(x).strip()]
    return [ln.strip("-* ").strip() for ln in text.splitlines() if ln.strip("-* ").strip()]
