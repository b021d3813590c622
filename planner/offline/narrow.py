"""A search that found nothing, tried again with fewer words (rule 5a of the offline
planner): what a person does when "concert tickets" finds no message but the message
says "the tickets for the show".

Apps' searches mostly match the query as one piece of text, so a query of several
words finds less than its last word alone: in an English noun phrase the head noun
comes last ("concert tickets" -> "tickets", "red running shoes" -> "shoes"). The
narrower query is typed once into the same search field; when the one-word query finds
nothing either, the run stops, honestly not done.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from screenpilot.language.fields import typed_values
from screenpilot.language.taskparse import TaskIntent, norm
from screenpilot.model import Action, ActionKind, ElementKind, Screen, Step
from screenpilot.planner.base import Decision
from screenpilot.planner.demos import TAPPABLE
from screenpilot.planner.forms import in_system_bar, is_search_field
from screenpilot.planner.offline.fill import THEN_OPEN
from screenpilot.planner.offline.steps import submitted

#: What a search page says when nothing matched (English and the apps' Chinese).
NO_RESULTS = re.compile(
    r"^(?:no (?:results?|matches|messages|conversations|items|products|contacts)"
    r"(?: found)?(?: for .*)?|nothing (?:found|matches)|没有结果|无结果|未找到.*)[.!]?$",
    re.I,
)
#: Words that are never the point of a query on their own.
#: The reason given when a search's result is tapped (the next turn ends the run).
_OPENED = "open the search's result"
_WEAK = frozenset({"the", "a", "an", "my", "some", "of", "for", "about", "with", "and", "or"})


def shorter_query(query: str) -> str | None:
    """The query's last content word, when the query has more than one word."""
    words = [w for w in re.findall(r"[\w'@.+-]+", query) if w.lower() not in _WEAK]
    if len(words) < 2:
        return None
    return str(words[-1])


def no_results(screen: Screen) -> bool:
    """Whether the screen says a search found nothing."""
    return any(
        e.text and NO_RESULTS.match(norm(e.text)) and not in_system_bar(e, screen)
        for e in screen.elements
    )


def narrow_search(intent: TaskIntent, screen: Screen, history: Sequence[Step]) -> Decision | None:
    """After a search that found nothing: its last word alone into the search field
    (once), else stop without claiming done."""
    if not intent.queries or not history or not no_results(screen):
        return None
    typed = [t for t in typed_values(history) if t]
    if not typed:
        return None
    last = typed[-1]
    fields = [e for e in screen.elements if e.kind is ElementKind.EDIT_TEXT and is_search_field(e)]
    shorter = shorter_query(last)
    if shorter is None or not fields or norm(shorter) in {norm(t) for t in typed}:
        return Decision(Action(ActionKind.STOP), f"the search for '{last}' found nothing")
    return Decision(
        Action(ActionKind.TYPE, element=fields[0].id, text=shorter + "\n"),
        f"'{last}' found nothing: search for '{shorter}'",
    )


def open_result(intent: TaskIntent, screen: Screen, history: Sequence[Step]) -> Decision | None:
    """After a search that found something, for a command that goes on to open what it
    found ("... and open that conversation"): the first result naming the query, and
    the turn after that, done."""
    if not history or not THEN_OPEN.search(intent.text):
        return None
    last = history[-1]
    if last.reason.startswith(_OPENED):
        return Decision(Action(ActionKind.STOP, done=True), "the search's result is open")
    if not submitted(history) or no_results(screen):
        return None
    query = norm((last.action.text or "").rstrip("\n"))
    fields = [e for e in screen.elements if e.kind is ElementKind.EDIT_TEXT]
    below = max((e.box.y2 for e in fields), default=0)
    words = [w for w in query.split() if w not in _WEAK]
    hits = [
        e
        for e in screen.elements
        if e.kind in TAPPABLE
        and e.kind is not ElementKind.EDIT_TEXT
        and e.box.y1 >= below
        and e.text
        and not in_system_bar(e, screen)
        and all(w in norm(e.text) for w in words)
    ]
    if not hits:
        return None
    first = min(hits, key=lambda e: (e.box.y1, e.box.x1))
    return Decision(Action(ActionKind.TAP, element=first.id), f"{_OPENED} '{first.text}'")
