"""Safety by asking an LLM: the prompt (``prompts/safety.yaml``, the screen as data
between ``<screen>`` tags) and the reading of its answer into a category."""

from __future__ import annotations

import functools
import importlib.resources
import logging
import re

import yaml

from screenpilot.errors import LLMResponseError, PlannerError
from screenpilot.model import Screen, SensitiveCategory, Sensitivity
from screenpilot.planner.llm import ChatModel

log = logging.getLogger(__name__)
C = SensitiveCategory

_CATEGORY_NAMES = {c.value: c for c in SensitiveCategory} | {
    "account": C.ACCOUNT,
    "purchase": C.PAYMENT,
    "privacy": C.PERMISSION,
    "location": C.PERMISSION,
    "not_sensitive": C.NONE,
    "not sensitive": C.NONE,
    "personal data": C.PERSONAL_DATA,
    "account management": C.ACCOUNT,
}
_SCREEN_TAG = re.compile(r"<\s*(/?)\s*screen\s*>", re.IGNORECASE)


@functools.lru_cache(maxsize=1)
def _safety_prompt() -> dict[str, str]:
    resource = importlib.resources.files("screenpilot.planner.prompts").joinpath("safety.yaml")
    data = yaml.safe_load(resource.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not {"system", "user"} <= set(data):
        raise PlannerError(
            "prompts/safety.yaml needs 'system' and 'user' templates", hint="reinstall screenpilot"
        )
    return {k: str(v) for k, v in data.items()}


class LLMSafety:
    """Asks a chat model (``planner.llm.ChatModel``) which category a screen is in.

    The screen goes in as data between ``<screen>`` tags; the answer is one JSON
    object ``{"category": ..., "evidence": ...}``. An answer that cannot be read
    counts as no opinion (the other checks still stand).
    """

    def __init__(self, llm: ChatModel) -> None:
        self.llm = llm
        self.calls = 0
        self.failures = 0

    def messages(self, screen: Screen) -> list[dict[str, str]]:
        prompt = _safety_prompt()
        described = screen.describe() or "(nothing was recognised on this screen)"
        described = _SCREEN_TAG.sub(r"‹\1screen›", described)
        user = (
            prompt["user"]
            .replace("$screen", described)
            .replace("$secure", "yes" if screen.secure else "no")
        )
        return [
            {"role": "system", "content": prompt["system"].strip()},
            {"role": "user", "content": user.strip()},
        ]

    def classify(self, screen: Screen) -> Sensitivity | None:
        """The model's category and its stated reason; None when it gave no usable answer."""
        from screenpilot.planner.parse import extract_json

        self.calls += 1
        try:
            result = self.llm.complete(self.messages(screen), temperature=0.0)
            data = extract_json(result.text)
        except (LLMResponseError, PlannerError) as exc:
            self.failures += 1
            log.warning("safety LLM gave no usable answer: %s", exc)
            return None
        name = str(data.get("category", "")).strip().lower()
        category = _CATEGORY_NAMES.get(name) or _CATEGORY_NAMES.get(name.replace("_", " "))
        if category is None:
            self.failures += 1
            log.warning("safety LLM answered an unknown category %r", name)
            return None
        reason = " ".join(str(data.get("evidence", "") or data.get("reason", "")).split())[:200]
        evidence = (f"the LLM says: {reason}" if reason else "the LLM says so",)
        return Sensitivity(
            category,
            evidence if category is not C.NONE else (),
            0.8 if category is not C.NONE else 0.0,
        )
