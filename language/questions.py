"""Questions that ask where something is, or to see it, read as commands to open it:
"Where can I see my orders? Open it" -> "Open my orders", "Where are my receipts?" ->
"Open my receipts". Questions that ask for a value ("What is my Android version?") and
questions about how to change something ("Where can I change the ringtone?") are
left as they are.

    >>> as_open("Where can I see order history? Open it")
    'Open order history'
    >>> as_open("where's my payment history?")
    'Open my payment history'
    >>> as_open("What is the Android version?")
    'What is the Android version?'

Questions about who sent a message on a subject read as a search of the messages
whose result is opened:

    >>> as_open("Who texted me about the party? Open that thread")
    'Find the message about party and open that conversation'
"""

from __future__ import annotations

import re

#: "Open it" / "show me" / "take me there" after the question: the same ask again.
_AGAIN = (
    r"(?:[?.!,;]+\s*(?:(?:and|then|please|pls)\s+)*"
    r"(?:open|show|view|go to|take me to|take me|bring me to|bring up|pull up)"
    r"(?:\s+(?:it|them|that|those|this|there|me|up|one|thread|conversation|chat|"
    r"message|messages|page))*\s*[.!]*)?"
)
#: "where can I see X", "where do I find X", "where would I look at X".
_WHERE_SEE = re.compile(
    r"^\s*where\s+(?:can|do|could|would|should|will|might)\s+(?:i|we|one|you)\s+"
    r"(?:go\s+to\s+)?(?:see|find|view|check|look at|look up|read|get to|get at)\s+"
    rf"(?P<what>.+?)\s*{_AGAIN}\s*[?.!]*\s*$",
    re.I,
)
#: "where is X", "where are my X", "where's X", "where did X go".
_WHERE_IS = re.compile(
    r"^\s*where\s*(?:is|are|'s|’s|'re|’re|did)\s+"
    rf"(?P<what>.+?)(?:\s+go)?\s*{_AGAIN}\s*[?.!]*\s*$",
    re.I,
)
#: "I want to see X", "I'd like to see X", "let me see X", "can I see X".
_WANT_SEE = re.compile(
    r"^\s*(?:i\s+want\s+to|i'?d\s+like\s+to|i\s+would\s+like\s+to|let\s+me|"
    r"can\s+i|could\s+i|may\s+i)\s+(?:see|view|look at)\s+"
    rf"(?P<what>.+?)\s*{_AGAIN}\s*[?.!]*\s*$",
    re.I,
)

#: "who texted me about X", "who sent me a message about X", "who messaged me re X".
_WHO_ABOUT = re.compile(
    r"^\s*who\s+(?:texted|messaged|wrote|sent|emailed|mailed|sms(?:ed)?)\s+"
    r"(?:(?:to\s+)?me\s+)?(?:(?:a|an|the)\s+(?:text|message|sms|mail|email)\s+)?"
    r"(?:about|regarding|re|on)\s+"
    rf"(?P<what>.+?)\s*{_AGAIN}\s*[?.!]*\s*$",
    re.I,
)

#: "Open order history?" (a question the lexicon already wrote as an open): no "?".
_OPEN_ASKED = re.compile(r"^\s*open\s+(?P<what>.+?)\s*\?+\s*$", re.I)


def as_open(text: str) -> str:
    """A question asking where something is or to see it, as "Open X"; other text as
    it is."""
    who = _WHO_ABOUT.match(text)
    if who and who.group("what").strip(" ,.?!"):
        what = re.sub(r"^(?:the|a|an|my|some)\s+", "", who.group("what").strip(" ,.?!"), flags=re.I)
        return f"Find the message about {what} and open that conversation"
    opened = _OPEN_ASKED.match(text)
    if opened:
        return "Open " + opened.group("what")
    for pattern in (_WHERE_SEE, _WHERE_IS, _WANT_SEE):
        m = pattern.match(text)
        if m and m.group("what").strip(" ,.?!"):
            return "Open " + m.group("what").strip(" ,.?!")
    return text
