"""AutoTask's prompt set (``prompts/autotask.yaml``: score, check, lessons) and the
executed path as the prompts show it."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from string import Template

from screenpilot.model import Step
from screenpilot.pbd.paths import op_words
from screenpilot.planner.prompts import load_templates


@functools.lru_cache(maxsize=4)
def load_autotask_prompts(name: str = "autotask") -> dict[str, Template]:
    """The templates of ``prompts/<name>.yaml`` (score, check, lessons)."""
    return load_templates(name, ("score", "check", "lessons"))


def history_words(path: Sequence[Step]) -> str:
    """The executed path, one numbered operation a line."""
    return (
        "\n".join(f"{i}. {op_words(s.action, s.before)}" for i, s in enumerate(path, 1))
        or "(none yet)"
    )
