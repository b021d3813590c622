"""The words of a command kept as typed: quoted text, e-mail addresses, a message's
body and an alarm's label are held out of the rewrites (as numbered slots) and put back
in the words written back, which are then tidied (spaces before punctuation)."""

from __future__ import annotations

import re
from collections.abc import Callable

QUOTED = re.compile(r"[\"“‘「『]([^\"”’」』]+)[\"”’」』]|(?<![\w])'([^']+)'(?![\w])")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_PROTECT = "\ue000{}\ue001"
_SLOT = re.compile("\ue000(\\d+)\ue001")


def hold(span: str, spans: list[str]) -> str:
    """Keep ``span`` out of the rewrites: its slot, to stand where it was."""
    spans.append(span)
    return _PROTECT.format(len(spans) - 1)


def protect(text: str, spans: list[str]) -> str:
    """Quoted text and e-mail addresses in ``text`` held as slots."""

    def keep(m: re.Match[str]) -> str:
        return hold(m.group(0), spans)

    text = QUOTED.sub(keep, text)
    return _EMAIL.sub(keep, text)


def take_after(
    text: str,
    spans: list[str],
    marker: re.Pattern[str],
    read: Callable[[str], str],
    *,
    keep_rest: bool,
) -> tuple[str, str]:
    """A span said in quotes, or after ``marker`` (``read`` from the words that follow
    it): ``text`` with a span read after the marker held as a slot (and, with
    ``keep_rest``, the words after it kept), and the span ("" when none is said)."""
    quoted = QUOTED.search(text)
    if quoted:
        return text, quoted.group(1) or quoted.group(2)
    m = marker.search(text)
    span = read(text[m.end() :]) if m else ""
    if not m or not span:
        return text, ""
    rest = text[m.end() + len(span) :] if keep_rest else ""
    return text[: m.start()] + " " + hold(span, spans) + rest, span


def restore(text: str, spans: list[str]) -> str:
    return _SLOT.sub(lambda m: spans[int(m.group(1))], text)


def clean(text: str) -> str:
    text = re.sub(r"\s+([,.!?])", r"\1", text)
    text = re.sub(r"[ \t]+", " ", text)
    return text.strip(" ,")
