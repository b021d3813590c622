"""AutoTask's prompt set (``prompts/autotask.yaml``: score, check, lessons) and the
executed path as the prompts show it."""

from __future__ import annotations

import functools
import importlib.resources
from collections.abc import Sequence
from string import Template

from screenpilot.errors import PlannerError
from screenpilot.model import Step
from screenpilot.pbd.paths import op_words


@functools.lru_cache(maxsize=4)
def load_autotask_prompts(name: str = "autotask") -> dict[str, Template]:
    """The templates of ``prompts/<name>.yaml`` (score, check, lessons)."""
    import yaml

    resource = importlib.resources.files("screenpilot.planner.prompts").joinpath(f"{name}.yaml")
    try:
        data = yaml.safe_load(resource.read_text(encoding="utf-8"))
    except (FileNotFoundError, yaml.YAMLError) as exc:
        raise PlannerError(f"cannot read prompt set {name!r}: {exc}",
                           hint="reinstall screenpilot") from exc
    if not isinstance(data, dict) or not {"score", "check", "lessons"} <= set(data):
        raise PlannerError(f"prompt set {name!r} needs the templates score, check, lessons")
    return {k: Template(str(v).strip()) for k, v in data.items()}


def history_words(path: Sequence[Step]) -> str:
    """The executed path, one numbered operation a line."""
    return "\n".join(f"{i}. {op_words(s.action, s.before)}" for i, s in enumerate(path, 1)) \
        or "(none yet)"
