"""An LLM's answer -> one ``Action``, tolerantly read and strictly checked.

Reading forgives what chat models do to JSON: code fences, prose before and
after, ``<think>`` blocks, trailing commas, single-quoted strings and Python's
True/False/None (when the repaired text then parses). Checking forgives
nothing that matters: an unknown key or action kind, a missing element, an id
that is not on the screen. Every refusal is an ``LLMResponseError`` whose
message is written to be sent back to the LLM so that it can answer again.

The answer format (``ANSWER_KEYS``)::

    {"action": "tap", "element": 12, "text": "", "direction": "", "app": "",
     "done": false, "reason": "..."}

Fields that do not apply to the chosen action are ignored (models tend to send
every key, empty or not); ``done`` is only accepted with ``stop``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

from screenpilot.errors import DataError, LLMResponseError
from screenpilot.model import Action, ActionKind, Direction, Screen

ANSWER_KEYS = ("action", "element", "text", "direction", "app", "done", "reason")
#: The kinds an LLM may choose (swipe needs pixel points, which it never sees).
LLM_KINDS: tuple[ActionKind, ...] = tuple(k for k in ActionKind if k is not ActionKind.SWIPE)
_APPLIES: dict[ActionKind, frozenset[str]] = {
    ActionKind.TAP: frozenset({"element"}),
    ActionKind.LONG_PRESS: frozenset({"element"}),
    ActionKind.TYPE: frozenset({"element", "text"}),
    ActionKind.SCROLL: frozenset({"element", "direction"}),
    ActionKind.LAUNCH: frozenset({"app"}),
    ActionKind.STOP: frozenset({"done"}),
}
_FORMAT_HINT = (
    'answer with one JSON object such as {"action": "tap", "element": 3, "reason": "..."}'
)
#: How a hint listing the ids on the screen begins.
IDS_HINT = "the elements on the screen are"
_FENCE = re.compile(r"```[a-zA-Z0-9_-]*\s*\n?(.*?)```", re.DOTALL)
_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_PY_WORDS = {"True": "true", "False": "false", "None": "null"}


def parse_action(answer: str, screen: Screen | None = None) -> Action:
    """The ``Action`` in an LLM answer; its element checked against ``screen`` if given."""
    return to_action(extract_json(answer), screen)


def extract_json(answer: str) -> dict[str, Any]:
    """The first JSON object in ``answer``, repaired where that is safe."""
    text = _THINK.sub("", answer)
    for candidate in _candidates(text):
        data = _loads(candidate)
        if isinstance(data, dict):
            return data
    shown = " ".join(answer.split())[:200]
    raise LLMResponseError(f"the answer is not a JSON object: {shown!r}", hint=_FORMAT_HINT)


def _candidates(text: str) -> Iterator[str]:
    """Code-fenced blocks first, then every balanced ``{...}`` in the text."""
    for match in _FENCE.finditer(text):
        yield match.group(1).strip()
    start = text.find("{")
    while start != -1:
        end = _balanced_end(text, start)
        if end is not None:
            yield text[start:end]
        start = text.find("{", start + 1)


def _balanced_end(text: str, start: int) -> int | None:
    """The index just past the brace closing the one at ``start`` (strings skipped)."""
    depth, i, prev = 0, start, ""
    while i < len(text):
        c = text[i]
        if c == '"' or (c == "'" and prev in "{[,:"):
            i = _string_end(text, i)
            if i < 0:
                return None
        elif c in "{[":
            depth += 1
        elif c in "}]":
            depth -= 1
            if depth == 0:
                return i + 1
        if not c.isspace():
            prev = c
        i += 1
    return None


def _string_end(text: str, start: int) -> int:
    """The index of the quote closing the string opened at ``start``; -1 if none."""
    quote, i = text[start], start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == quote:
            return i
        i += 1
    return -1


def _loads(candidate: str) -> Any:
    for text in (candidate, _repair(candidate)):
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            continue
    return None


def _repair(text: str) -> str:
    """Trailing commas dropped, single-quoted strings and Python literals made JSON."""
    out: list[str] = []
    i, prev = 0, ""
    while i < len(text):
        c = text[i]
        if c == '"' or (c == "'" and prev in "{[,:"):
            end = _string_end(text, i)
            if end < 0:
                return text
            body = text[i + 1 : end]
            out.append(text[i : end + 1] if c == '"' else _requote(body))
            i, prev = end + 1, '"'
            continue
        word = re.match(r"[A-Za-z_]+", text[i:])
        if word and not prev.isalnum():
            out.append(_PY_WORDS.get(word.group(), word.group()))
            i, prev = i + len(word.group()), word.group()[-1]
            continue
        if c == "," and re.match(r",\s*[}\]]", text[i:]):
            i += 1
            continue
        out.append(c)
        prev = c if not c.isspace() else prev
        i += 1
    return "".join(out)


def _requote(body: str) -> str:
    """A single-quoted string's body as a JSON string."""
    return json.dumps(body.replace("\\'", "'"), ensure_ascii=False)


def to_action(data: Mapping[str, Any], screen: Screen | None = None) -> Action:
    """Check an answer's fields and build the ``Action``; ``LLMResponseError`` if wrong."""
    unknown = sorted(set(data) - set(ANSWER_KEYS))
    if unknown:
        raise LLMResponseError(
            f"unknown key(s) {', '.join(map(repr, unknown))} in the answer",
            hint=f"use only the keys {', '.join(ANSWER_KEYS)}",
        )
    kind = _kind(data.get("action"))
    fields: dict[str, Any] = {"reason": _text(data, "reason")}
    applies = _APPLIES.get(kind, frozenset())
    if "element" in applies:
        fields["element"] = _element(data.get("element"), kind, screen)
    if "text" in applies:
        fields["text"] = _text(data, "text") or None
    if "direction" in applies:
        fields["direction"] = _direction(data.get("direction"))
    if "app" in applies:
        fields["app"] = _text(data, "app") or None
    fields["done"] = _done(data.get("done"), kind)
    return _build(kind, fields)


def _build(kind: ActionKind, fields: dict[str, Any]) -> Action:
    try:
        return Action(kind, **fields)
    except DataError as exc:
        raise LLMResponseError(
            str(exc).removeprefix("invalid Action: "), hint=_FORMAT_HINT
        ) from exc


def _kind(value: Any) -> ActionKind:
    name = str(value or "").strip().lower().replace("-", "_").replace(" ", "_")
    allowed = ", ".join(k.value for k in LLM_KINDS)
    if name == ActionKind.SWIPE.value:
        raise LLMResponseError("swipe is not available", hint=f"use scroll; actions: {allowed}")
    try:
        return ActionKind(name)
    except ValueError:
        raise LLMResponseError(f"unknown action {value!r}", hint=f"one of {allowed}") from None


def _text(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise LLMResponseError(f"{key!r} must be a string, got {value!r}", hint=_FORMAT_HINT)
    return str(value).strip() if key != "text" else str(value)


def _element(value: Any, kind: ActionKind, screen: Screen | None) -> int | None:
    if value is None or value == "":
        if kind in (ActionKind.TAP, ActionKind.LONG_PRESS):
            raise LLMResponseError(
                f"{kind.value} needs the id of an element on the screen", hint=_ids_hint(screen)
            )
        return None
    element = _int(value)
    if element is None:
        raise LLMResponseError(
            f"'element' must be an element id (a number), got {value!r}", hint=_ids_hint(screen)
        )
    if screen is not None and element not in {e.id for e in screen.elements}:
        raise LLMResponseError(
            f"there is no element {element} on the screen", hint=_ids_hint(screen)
        )
    return element


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value >= 0 else None
    if isinstance(value, float) and value.is_integer() and value >= 0:
        return int(value)
    match = re.fullmatch(r"\s*\[?\s*(\d+)\s*\]?\s*", value) if isinstance(value, str) else None
    return int(match.group(1)) if match else None


def _direction(value: Any) -> Direction | None:
    if value is None or value == "":
        return None
    try:
        return Direction(str(value).strip().lower())
    except ValueError:
        raise LLMResponseError(
            f"unknown direction {value!r}", hint="one of up, down, left, right"
        ) from None


def _done(value: Any, kind: ActionKind) -> bool:
    if value is None or value == "":
        return False
    if isinstance(value, str) and value.strip().lower() in {"true", "false"}:
        value = value.strip().lower() == "true"
    if not isinstance(value, bool):
        raise LLMResponseError(f"'done' must be true or false, got {value!r}", hint=_FORMAT_HINT)
    if value and kind is not ActionKind.STOP:
        raise LLMResponseError(
            f"done is true but the action is {kind.value}",
            hint='when the task is complete answer {"action": "stop", '
            '"done": true, "reason": "..."}',
        )
    return value


def available_ids(screen: Screen) -> str:
    """The element ids on ``screen``, in reading order, as ``3, 4, 7``."""
    return ", ".join(str(e.id) for e in screen.reading_order()) or "none"


def _ids_hint(screen: Screen | None) -> str:
    if screen is None:
        return "use the id in [brackets] of an element on the screen"
    return f"{IDS_HINT} {available_ids(screen)}"
