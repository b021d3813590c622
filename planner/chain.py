"""The chain-of-screens planner: an LLM picks one action on one element per screen.

Each call builds the prompt from the five parts of the approach (templates in
``prompts/chain.yaml``)::

    system: 1. role and reference   (+ retrieved demonstrations, knowledge notes)
    user:   2. task description
            3. action history       (+ explored paths that failed)
            4. UI semantics         (Screen.describe(), delimited as data)
            5. the question

then asks the LLM and parses its JSON answer into an ``Action``. An answer that
cannot be used (not JSON, an unknown action, an element that is not on the
screen) is sent back once with the error and the ids on the screen; a second
unusable answer fails the step with ``LLMResponseError``. ``LLMError`` (the
endpoint itself failing) passes through untouched: the client already retried.

Typing into a password element makes a *secret* action; the history shown in
later prompts carries ``SECRET_PLACEHOLDER``, never the text.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib.resources
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from string import Template

import yaml

from screenpilot.errors import LLMResponseError, PlannerError
from screenpilot.model import SECRET_PLACEHOLDER, Action, ActionKind, Demonstration, Screen, Step
from screenpilot.planner.base import Decision, ExploredPath, PlanHints, Usage
from screenpilot.planner.llm import ChatModel, ChatResult
from screenpilot.planner.parse import IDS_HINT, available_ids, parse_action

PROMPTS_PACKAGE = "screenpilot.planner.prompts"

#: Each template of a prompt set and the placeholders it may use (and must, when
#: leaving one out would lose the part's content).
_PLACEHOLDERS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "role": (frozenset(), frozenset()),
    "reference": (frozenset(), frozenset()),
    "demonstrations": (frozenset({"items"}), frozenset({"items"})),
    "demonstration": (
        frozenset({"instruction", "app", "steps"}),
        frozenset({"instruction", "steps"}),
    ),
    "knowledge": (frozenset({"items"}), frozenset({"items"})),
    "task": (frozenset({"task"}), frozenset({"task"})),
    "history": (frozenset({"steps"}), frozenset({"steps"})),
    "history_empty": (frozenset(), frozenset()),
    "failed_paths": (frozenset({"paths"}), frozenset({"paths"})),
    "ui": (frozenset({"app", "screen"}), frozenset({"screen"})),
    "question": (frozenset({"task", "ids"}), frozenset()),
    "reask": (frozenset({"error", "ids"}), frozenset({"error", "ids"})),
}


def task_part(task: str) -> str:
    """The person's words, and when the command language reads them otherwise, how
    (the same parsed command the offline planner acts on): "wake me at 6.45" ->
    "Read as: create alarm at 6:45 am (act=create, target='alarm', ...)"."""
    from screenpilot.language import parse_command

    text = task.strip()
    command = parse_command(text)
    if command.question:
        return (
            f"{text}\nUnclear: {command.question} If the screens do not settle it, "
            "answer stop with done false and ask."
        )
    if (
        re.sub(r"\W+", " ", command.canonical).strip().lower()
        == re.sub(r"\W+", " ", text).strip().lower()
    ):
        return text
    return f"{text}\nRead as: {command.canonical} ({command.summary()})"


_SCREEN_TAG = re.compile(r"<\s*(/?)\s*screen\s*>", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class PromptSet:
    """The templates of the chain prompt, checked when loaded."""

    templates: Mapping[str, Template]

    @classmethod
    def from_yaml(cls, text: str, *, source: str = "<string>") -> PromptSet:
        """Templates from YAML text; ``PlannerError`` naming what is missing or unknown."""
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise PlannerError(f"cannot read prompt file {source}: {exc}") from exc
        if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
            raise PlannerError(f"prompt file {source} must map names to template strings")
        missing = sorted(set(_PLACEHOLDERS) - set(data))
        unknown = sorted(set(data) - set(_PLACEHOLDERS))
        if missing or unknown:
            raise PlannerError(f"prompt file {source}: missing {missing}, unknown {unknown}")
        templates = {name: Template(body.strip()) for name, body in data.items()}
        for name, template in templates.items():
            _check_placeholders(name, template, source)
        return cls(templates)

    def render(self, part: str, **values: str) -> str:
        return self.templates[part].substitute(values)


def _check_placeholders(name: str, template: Template, source: str) -> None:
    allowed, required = _PLACEHOLDERS[name]
    used = set(template.get_identifiers())
    if not template.is_valid() or used - allowed or required - used:
        raise PlannerError(
            f"prompt file {source}: template {name!r} uses {sorted(used)}; "
            f"it may use {sorted(allowed)} and must use {sorted(required)}"
        )


@functools.lru_cache(maxsize=8)
def load_prompts(name: str = "chain") -> PromptSet:
    """The prompt set ``name`` shipped as package data (``prompts/<name>.yaml``)."""
    resource = importlib.resources.files(PROMPTS_PACKAGE).joinpath(f"{name}.yaml")
    try:
        text = resource.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise PlannerError(
            f"no prompt set {name!r} in {PROMPTS_PACKAGE}", hint="reinstall screenpilot"
        ) from exc
    return PromptSet.from_yaml(text, source=f"{name}.yaml")


class ChainPlanner:
    """``Planner`` that asks an LLM for one action per screen (chain of screens)."""

    name = "llm"

    def __init__(
        self,
        llm: ChatModel,
        *,
        temperature: float = 0.0,
        reasks: int = 1,
        max_history: int = 15,
        max_steps: int | None = 20,
        prompts: PromptSet | None = None,
    ) -> None:
        self.llm = llm
        self.temperature = temperature
        self.reasks = reasks
        self.max_history = max_history
        self.max_steps = max_steps
        self.prompts = prompts or load_prompts()
        self.usage = Usage()

    def next(
        self, task: str, screen: Screen, history: Sequence[Step], *, hints: PlanHints | None = None
    ) -> Decision:
        """The LLM's next action for ``task`` on ``screen``; see the module docstring."""
        if self.max_steps is not None and len(history) >= self.max_steps:
            reason = f"gave up after {len(history)} steps (the limit is {self.max_steps})"
            return Decision(Action(ActionKind.STOP, done=False, reason=reason), reason)
        messages = self.messages(task, screen, history, hints)
        return self._ask(messages, screen)

    def messages(
        self, task: str, screen: Screen, history: Sequence[Step], hints: PlanHints | None = None
    ) -> list[dict[str, str]]:
        """The chat messages for one step: a system and a user message."""
        hints = hints or PlanHints()
        system = [
            self._render("role"),
            self._render("reference"),
            self._demonstrations(hints.demonstrations),
            self._knowledge(hints.knowledge),
        ]
        user = [
            self._render("task", task=task_part(task)),
            self._history(history),
            self._failed(hints.failed_paths),
            self._ui(screen),
            self._render("question", task=task.strip(), ids=available_ids(screen)),
        ]
        return [
            {"role": "system", "content": _join(system)},
            {"role": "user", "content": _join(user)},
        ]

    def _ask(self, messages: list[dict[str, str]], screen: Screen) -> Decision:
        usage = Usage()
        for attempt in range(self.reasks + 1):
            result = self._complete(messages)
            usage = usage + result.usage
            try:
                action = self._decide(result.text, screen)
            except LLMResponseError as exc:
                if attempt == self.reasks:
                    raise LLMResponseError(
                        f"no usable action after {attempt + 1} answers: {exc.message}",
                        hint=exc.hint,
                    ) from exc
                messages = [
                    *messages,
                    {"role": "assistant", "content": result.text},
                    {"role": "user", "content": self._reask(exc, screen)},
                ]
                continue
            return Decision(action, action.reason, usage, attempts=attempt + 1)
        raise AssertionError("unreachable")  # pragma: no cover

    def _complete(self, messages: list[dict[str, str]]) -> ChatResult:
        result = self.llm.complete(messages, temperature=self.temperature)
        self.usage = self.usage + result.usage
        return result

    def _decide(self, answer: str, screen: Screen) -> Action:
        action = parse_action(answer, screen)
        if action.kind is ActionKind.TYPE and _is_password(screen, action.element):
            action = dataclasses.replace(action, secret=True)
        if action.secret and action.text:
            action = dataclasses.replace(action, reason=_redact(action.reason, action.text))
        return action

    def _reask(self, exc: LLMResponseError, screen: Screen) -> str:
        error = exc.message if exc.hint.startswith(IDS_HINT) else str(exc)
        return self._render("reask", error=error, ids=available_ids(screen))

    def _render(self, part: str, **values: str) -> str:
        return self.prompts.render(part, **values)

    def _demonstrations(self, demos: Sequence[Demonstration]) -> str:
        if not demos:
            return ""
        items = [
            self._render(
                "demonstration",
                instruction=d.instruction,
                app=f" (in {d.app})" if d.app else "",
                steps=_numbered(d.steps, indent="    "),
            )
            for d in demos
        ]
        return self._render("demonstrations", items="\n".join(items))

    def _knowledge(self, notes: Sequence[str]) -> str:
        notes = [n.strip() for n in notes if n.strip()]
        return self._render("knowledge", items="\n".join(f"- {n}" for n in notes)) if notes else ""

    def _history(self, history: Sequence[Step]) -> str:
        if not history:
            return self._render("history_empty")
        shown = list(history)[-self.max_history :] if self.max_history > 0 else []
        lines = (
            [f"({len(history) - len(shown)} earlier actions not shown)"]
            if len(shown) < len(history)
            else []
        )
        lines += [history_line(s, n) for n, s in enumerate(shown, len(history) - len(shown) + 1)]
        return self._render("history", steps="\n".join(lines))

    def _failed(self, paths: Sequence[ExploredPath]) -> str:
        if not paths:
            return ""
        lines = [
            "- " + " -> ".join(p.steps) + (f" (wrong: {p.why})" if p.why else "") for p in paths
        ]
        return self._render("failed_paths", paths="\n".join(lines))

    def _ui(self, screen: Screen) -> str:
        described = screen.describe() or "(nothing was recognised on this screen)"
        return self._render(
            "ui", app=screen.app or "unknown", screen=_SCREEN_TAG.sub(r"‹\1screen›", described)
        )


def history_line(step: Step, number: int) -> str:
    """One step of the history in words; a secret's text never appears."""
    action = step.action
    line = f"{number}. {action.describe(step.before)}."
    reason = (
        _redact(step.reason or action.reason, action.text or "")
        if action.secret
        else (step.reason or action.reason)
    )
    if reason:
        line += f" Reason: {reason}"
    if step.error:
        line += f" -> it failed: {step.error}"
    elif step.after is not None and step.after.describe() == step.before.describe():
        line += " -> the screen did not change."
    if step.undone:
        line += " [undone: backtracked]"
    return line


def _is_password(screen: Screen, element: int | None) -> bool:
    return element is not None and screen.element(element).password


def _redact(text: str, secret: str) -> str:
    if not secret or secret == SECRET_PLACEHOLDER:
        return text
    return text.replace(secret, SECRET_PLACEHOLDER)


def _numbered(steps: Sequence[str], *, indent: str) -> str:
    return "\n".join(f"{indent}{i}. {s}" for i, s in enumerate(steps, 1))


def _join(parts: Sequence[str]) -> str:
    return "\n\n".join(p.strip() for p in parts if p.strip())
