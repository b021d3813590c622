"""The planner's prompts, shipped as package data (``<name>.yaml``), and how a set of
them is loaded."""

from __future__ import annotations

import importlib.resources
from collections.abc import Collection
from string import Template

from screenpilot.errors import PlannerError


def load_templates(name: str, required: Collection[str]) -> dict[str, Template]:
    """The templates of ``prompts/<name>.yaml``; ``PlannerError`` when the file cannot be
    read or lacks one of ``required``."""
    import yaml

    resource = importlib.resources.files(__name__).joinpath(f"{name}.yaml")
    try:
        data = yaml.safe_load(resource.read_text(encoding="utf-8"))
    except (FileNotFoundError, yaml.YAMLError) as exc:
        raise PlannerError(
            f"cannot read prompt set {name!r}: {exc}", hint="reinstall screenpilot"
        ) from exc
    if not isinstance(data, dict) or not set(required) <= set(data):
        raise PlannerError(
            f"prompts/{name}.yaml needs the templates {', '.join(required)}",
            hint="reinstall screenpilot",
        )
    return {k: Template(str(v).strip()) for k, v in data.items()}
