"""Parts of a command for the Messages app: whether it is a message at all, its body
(after a colon, "saying", "that", quoted, or in Chinese after the name), who it goes
to, or a reply to the most recent conversation."""

from __future__ import annotations

import re

from screenpilot.language.positions import RECENT
from screenpilot.language.record import Command, language_of
from screenpilot.language.spans import hold, restore, take_after

PHONE = re.compile(r"\+?\d[\d\- ]{5,}\d")

#: Verbs of messaging (then what follows a colon, "saying", "that" is the message body).
_MESSAGING = re.compile(
    r"\b(text|message|messages|sms|tell|ask|send|reply|respond|answer|"
    r"chat|write|shoot)\b|短信|信息|消息|告诉|回复|发",
    re.I,
)
_BODY = re.compile(
    r"(?:\s*[:：]\s*|\s+saying\s+|\s+asking\s+|\s+that\s+(?=i\b|we\b|you\b|"
    r"i'm\b|the\b|it\b)|说(?!明[^天])|\s+with\s*[:：]\s*)",
    re.I,
)
_NOT_MESSAGING = re.compile(
    r"\balarm\b|闹钟|^\s*(?:search|find|look|open|show|read|delete|remove|mark|clear)\b|搜索|查找|删除",
    re.I,
)


def is_messaging(text: str) -> bool:
    """Whether a command speaks of sending a message (not of an alarm, nor a search)."""
    return bool(_MESSAGING.search(text)) and not _NOT_MESSAGING.search(text)


def take_body(text: str, spans: list[str]) -> tuple[str, str]:
    """The message's body (quoted, or after a colon, "saying", "that"): ``text`` with an
    unquoted body held as a slot, and the body ("" when none is said)."""
    return take_after(text, spans, _BODY, lambda rest: rest.strip().rstrip("."), keep_rest=False)


def take_chinese_body(text: str, spans: list[str]) -> tuple[str, str]:
    """In Chinese ("告诉 Bob Lee 明天见") the message is what follows the recipient."""
    who = PHONE.search(text) or re.search(r"[A-Za-z][A-Za-z .'-]*[A-Za-z]", text)
    after = text[who.end() :].strip(" ，,:：说") if who else ""
    if who and after and language_of(after) == "zh":
        return text[: who.end()] + " " + hold(after, spans), after
    return text, ""


_NAME = re.compile(r"\b([A-Z][a-z]+(?:\s+[A-Z][a-z]+)*)\b")


def recipient_of(text: str) -> str:
    m = PHONE.search(text)
    if m:
        return m.group(0).strip()
    for m2 in _NAME.finditer(text):
        name = m2.group(1)
        words = [w for w in name.split() if w.lower() not in _MSG_WORDS]
        if words:
            return " ".join(words)
    return ""


_MSG_WORDS = {
    "call",
    "phone",
    "ring",
    "dial",
    "text",
    "message",
    "messages",
    "tell",
    "ask",
    "send",
    "shoot",
    "sms",
    "new",
    "chat",
    "start",
    "reply",
    "answer",
    "respond",
    "write",
    "a",
    "the",
    "i",
    "hi",
}


def message_part(text: str, spans: list[str], body: str) -> Command | None:
    low = text.lower()
    if not body:
        return None
    recent = bool(RECENT.search(text)) or bool(re.search(r"\bmost recent\b", low))
    if re.search(r"\b(?:reply|respond|answer)\b", low) and (recent or not recipient_of(text)):
        return Command(
            text,
            f"Reply to the most recent text message with '{body}'",
            act="reply",
            target="message",
            app="messages",
            body=body,
            ordinal=1,
        )
    who = recipient_of(restore(text, spans).replace(body, " "))
    if not who:
        return None
    return Command(
        text,
        f"Send a text message to {who} saying '{body}'",
        act="send",
        target="message",
        app="messages",
        recipient=who,
        body=body,
    )
