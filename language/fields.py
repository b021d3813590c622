"""What a control on the screen takes: the kind of value a field wants, the kind of a
value from a command, whether the two fit, which controls toggle, and what a run has
typed so far.

    >>> value_kind("alice@example.com"), value_kind("+1 212 200 0000")
    ('email', 'number')
    >>> fits("number", "recipient"), fits("text", "recipient")
    (True, False)
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from screenpilot.language.taskparse import norm
from screenpilot.model import ActionKind, Element, ElementKind, Step

#: Controls that are flipped on and off.
TOGGLES = {ElementKind.SWITCH, ElementKind.CHECK_BOX}


def field_kind(e: Element) -> str:
    """What a field wants: email, number, first, last, name, recipient (a number or
    an address: "To", or a hint that names both) or text."""
    label = norm(f"{e.text} {e.caption}")
    if label in ("to", "recipient", "recipients", "send to", "收件人"):
        return "recipient"
    if "mail" in label and any(w in label for w in ("phone", "number", "电话")):
        return "recipient"  # "Type a name, phone number or email": an address or a number
    if "mail" in label:
        return "email"
    if any(w in label for w in ("phone", "number", "tel", "mobile", "hour", "minute", "电话")):
        return "number"
    if "first" in label:
        return "first"
    if "last" in label or "surname" in label:
        return "last"
    if "name" in label:
        return "name"
    shown = value_kind(e.text) if e.text and not e.hint else "text"
    return (
        shown
        if shown == "email" or (shown == "number" and len(re.sub(r"\D", "", e.text)) >= 7)
        else "text"
    )  # it holds a number: a number field


def value_kind(value: str) -> str:
    """What a value is: email, number or text."""
    if "@" in value:
        return "email"
    return "number" if re.fullmatch(r"\+?[\d\s:-]+", value) else "text"


def fits(value: str, field: str) -> bool:
    """Whether a value of kind ``value`` (``value_kind``, or first / last for the parts
    of a name) goes into a field of kind ``field`` (``field_kind``)."""
    if field == "recipient":  # "To": a number or an address, not a message
        return value in ("email", "number")
    if value in ("email", "number"):
        return field == value
    if value in ("first", "last"):
        return field == value
    return field in ("first", "name", "text", "last")


def typed_values(history: Sequence[Step]) -> list[str]:
    """Values typed so far (a trailing Enter that submitted one is not part of it)."""
    return [(s.action.text or "").rstrip("\n") for s in history if s.action.kind is ActionKind.TYPE]
