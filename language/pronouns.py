"""A clause that acts on "it" / "him" / "them", said after a clause that names the
thing: the act is read from the last clause, the thing from the first.

    >>> resolve("I don't need Frank Miller's contact any more, delete it")
    "delete Frank Miller's contact"
    >>> resolve("the living room lamp, turn it off")
    'turn the living room lamp off'
    >>> resolve("delete it")
    'delete it'
"""

from __future__ import annotations

import re

#: What a person says before naming the thing ("I don't need", "I'm done with").
_LEAD = re.compile(
    r"^\s*(?:(?:well|ok|okay|so|hey|um|oh)\b[, ]*)?"
    r"(?:i|we)\s+(?:(?:really|just|honestly|also)\s+)?"
    r"(?:don'?t|do not|no longer|never|won'?t|will not|can'?t)\s+"
    r"(?:need|want|use|like|care about|call|talk to|see)\s+"
    r"|^\s*(?:i|we)'?(?:m|\s+am|\s+are|'re)\s+(?:done|finished|through)\s+with\s+"
    r"|^\s*(?:i|we)\s+(?:(?:really|just|also)\s+)?(?:need|want|like|love|have|found|see|"
    r"got|miss|haven'?t (?:talked|spoken) to|haven'?t called)\s+"
    r"|^\s*(?:i|we)'?d\s+like\s+"
    r"|^\s*(?:there'?s|there is|here'?s|here is)\s+",
    re.I,
)
#: Words after the thing that say when, not what ("any more", "in ages").
_TAIL = re.compile(
    r"\s+(?:any\s?more|any longer|now|again|at all|in (?:ages|a while|years)|"
    r"for (?:ages|a while|now)|these days|either)\s*$",
    re.I,
)
#: A first clause that is only a thing: "the lamp", "my old account", "Bob's number".
_NAMED = re.compile(
    r"^\s*(?:(?i:the|my|our|your|a|an|this|that|these|those)\s+\w"
    r"|[A-Z][\w-]*(?:\s+[A-Z][\w-]*)*['’]s\b)"
)
#: ", delete it" / ". call him now" / "; turn it off": a verb (and particles), the
#: pronoun, then what follows it ("off", "to my favorites").
_ACT_ON_IT = re.compile(
    r"^(?P<first>.+?)\s*(?:[,;.!?]|\s+-|\s+so|\s+and)\s+(?:(?:so|then|just|please|pls)\s+)*"
    r"(?P<verb>[a-z]+(?:\s+(?:out|up|down|off|on|away))?)\s+"
    r"(?:it|him|her|them|that|this|that one|this one)\b"
    r"(?P<rest>(?:\s+[\w'’%-]+)*)\s*[.!]*\s*$",
    re.I,
)
#: Verbs that are no act on the thing ("I like it", "I need it").
_NO_ACT = frozenset(
    {
        "need",
        "want",
        "like",
        "love",
        "hate",
        "have",
        "use",
        "is",
        "was",
        "do",
        "did",
        "does",
        "see",
        "saw",
        "know",
        "think",
        "got",
        "get",
        "find",
        "found",
    }
)


def resolve(text: str) -> str:
    """'X, <verb> it' -> '<verb> X': the act from the last clause, the thing the first
    clause names (its lead, "I don't need", and its tail, "any more", left out)."""
    m = _ACT_ON_IT.match(text)
    if m is None or m.group("verb").split()[0].lower() in _NO_ACT:
        return text
    first = m.group("first").strip(" ,.")
    lead = _LEAD.match(first)
    if lead:
        first = first[lead.end() :]
    elif not _NAMED.match(first):
        return text  # "set an alarm, label it Gym": the first clause is a command itself
    first = _TAIL.sub("", first).strip(" ,.")
    if not first:
        return text
    rest = m.group("rest").strip()
    return " ".join(w for w in (m.group("verb"), first, rest) if w)
