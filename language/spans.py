"""The words of a command kept as typed: quoted text, e-mail addresses, a message's
body and an alarm's label are held out of the rewrites (as numbered slots) and put back
in the words written back, which are then tidied (spaces before punctuation)."""

from __future__ import annotations

import re

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


def restore(text: str, spans: list[str]) -> str:
    return _SLOT.sub(lambda m: spans[int(m.group(1))], text)


def clean(text: str) -> str:
    text = re.sub(r"\s+([,.!?])", r"\1", text)
    text = re.sub(r"[ \t]+", " ", text)
    return text.strip(" ,")
