"""Whether the page a command asks for is open (for "open ..." and "what is ..."
commands, rule 7 of the offline planner): a title or a line that names it, and nothing
on the page that names more of the command."""

from __future__ import annotations

from collections.abc import Sequence

from screenpilot.language.apps import is_app
from screenpilot.language.taskparse import TaskIntent, norm
from screenpilot.language.words import APP_NAMES, lexical, stems, task_stems
from screenpilot.model import ActionKind, Element, ElementKind, Screen, Step
from screenpilot.planner.demos import TAPPABLE
from screenpilot.planner.forms import in_system_bar, viewport
from screenpilot.planner.offline.steps import label_at

#: First words of commands that ask to see something (done once it is on the screen).
QUESTION_VERBS = frozenset({"what", "what's", "check", "find", "look up", "where", "how"})


def opened(intent: TaskIntent, screen: Screen, history: Sequence[Step]) -> bool:
    """The last tap opened what an "open ..." task names: its label uses only the
    task's words, and nothing on the new page names a task word not reached yet
    ("Orders" opens "my order history"; for "my Yoga Mat order" the 'Yoga Mat' row
    is still to open)."""
    last = history[-1] if history else None
    if (
        last is None
        or last.action.kind is not ActionKind.TAP
        or lexical(intent, label_at(last)) < 0.99
    ):
        return False
    return not more_to_open(intent, screen, history)


def more_to_open(
    intent: TaskIntent, screen: Screen, history: Sequence[Step], title: str = ""
) -> bool:
    """Whether an element on the screen names task words that no tap of the run (nor
    the page's ``title``) named yet."""
    task = task_stems(intent) - APP_NAMES
    covered: set[str] = stems(title)
    for s in history:
        if s.action.kind is ActionKind.TAP:
            covered |= stems(label_at(s))
    top = viewport(screen) * 0.1  # the toolbar: the page's own title, its icons
    for e in screen.elements:
        if e.kind in TAPPABLE and e.label and not in_system_bar(e, screen) and e.box.y2 > top:
            words = stems(e.label) - APP_NAMES
            if words and words <= task and words - covered:
                return True
    return False


def title_matches(intent: TaskIntent, screen: Screen, history: Sequence[Step] = ()) -> bool:
    """A title near the top names the page the task asks for; for a question
    ("what is", "check", "show") a line anywhere on the page that names what is
    asked for in two or more of the task's words ("Android version"). An app's name
    alone ("Shop") only counts when the task names nothing but the app: "open my
    order history in the Shop app" is not done on the Shop's home page."""
    texts = [e for e in screen.reading_order() if e.kind is ElementKind.TEXT]
    top = [e for e in texts if e.box.y1 < viewport(screen) * 0.15]
    wanted = task_stems(intent) - APP_NAMES
    titles = [
        e
        for e in top[:3]
        if lexical(intent, e.text) >= 0.99 and (not wanted or bool(stems(e.text) - APP_NAMES))
    ]
    if titles:
        return not more_to_open(intent, screen, history, titles[0].text)
    if intent.verb not in QUESTION_VERBS or (history and is_app(label_at(history[-1]))):
        return False  # an app's first page lists things to open, not answers
    tapped = {norm(label_at(s)) for s in history if s.action.kind is ActionKind.TAP}
    return any(
        len(stems(e.text) - APP_NAMES) >= 2
        and lexical(intent, e.text) >= 0.99
        and (norm(e.text) in tapped or not pictured(e, screen))
        for e in texts
    )


def pictured(e: Element, screen: Screen) -> bool:
    """Whether a line is the name of a pictured row of a list (a thumbnail or avatar at
    least twice its height on its left): an item to open ("Yoga Mat" in a list of
    orders), not an answer that a line of a page gives ("Android version 14")."""
    return any(
        p.kind in (ElementKind.IMAGE, ElementKind.ICON)
        and p.box.x2 <= e.box.x1 + 4
        and p.box.height >= 2 * e.box.height
        and p.box.y1 - e.box.height <= e.box.y1 <= p.box.y2 - e.box.height
        for p in screen.elements
    )
