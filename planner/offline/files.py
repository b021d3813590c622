"""File pickers: a command that imports, loads or attaches a file is done only once a
file was picked. On a picker (a list of two or more file names) the file the command
names is tapped: by its name ("contacts.vcf"), else by its kind ("the vcf file", "the
photo": ``language/data/files.json``), the first of that kind in the list; once the
picker closed, a confirmation (Import, OK) is tapped once, then the task is done."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from screenpilot.language.lexicon import package_data
from screenpilot.language.taskparse import TaskIntent, norm
from screenpilot.model import Action, ActionKind, BlockKind, Element, ElementKind, Screen, Step
from screenpilot.planner.base import Decision
from screenpilot.planner.demos import TAPPABLE
from screenpilot.planner.forms import in_system_bar
from screenpilot.planner.offline.steps import acted_on

#: A file name as a picker shows it: a name, a dot, an extension with a letter.
FILE_NAME = re.compile(r"^\S(?:.*\S)?\.([a-z][a-z0-9]{1,4})$", re.I)
_NAMED = re.compile(r"(?<![\w.])([\w-]+(?:\.[\w-]+)*\.[a-z][a-z0-9]{1,4})(?![\w])", re.I)
#: Verbs of commands that use a file (a picker's choice ends them).
PICK_VERBS = frozenset(
    {"import", "load", "add", "attach", "upload", "open", "restore", "pick", "choose", "select"}
)
#: Labels of a button that confirms the picked file.
CONFIRMS = frozenset({"import", "ok", "open", "select", "done", "attach", "upload", "导入", "确定"})


@functools.cache
def kinds() -> tuple[tuple[frozenset[str], tuple[str, ...]], ...]:
    """(words people call a kind of file, its extensions) from ``files.json``."""
    data = package_data("files.json")
    return tuple((frozenset(k["words"]), tuple(k["ext"])) for k in data["kinds"])


def file_rows(screen: Screen) -> list[Element]:
    """The lines that read as file names, in reading order."""
    return [
        e
        for e in screen.reading_order()
        if e.kind in TAPPABLE
        and e.text
        and FILE_NAME.match(e.text.strip())
        and not in_system_bar(e, screen)
    ]


def showing_files(screen: Screen) -> bool:
    """Whether the screen is a file picker: two or more file names listed."""
    return len(file_rows(screen)) >= 2


def wanted_file(intent: TaskIntent, rows: Sequence[Element]) -> Element | None:
    """The file the command names: by its name, else the first of the kind it names."""
    names = {n.lower() for n in _NAMED.findall(intent.text)}
    for e in rows:
        if e.text.strip().lower() in names:
            return e
    if names:
        return None  # it names another file: not this one
    text = f" {norm(intent.text)} "
    exts: list[str] = []
    for words, ext in kinds():
        if any(f" {w} " in text for w in words):
            exts.extend(ext)
    for x in exts:
        for e in rows:
            m = FILE_NAME.match(e.text.strip())
            if m and m.group(1).lower() == x:
                return e
    return None


def file_to_pick(intent: TaskIntent, screen: Screen) -> Element | None:
    """On a file picker, the file the command names (None elsewhere)."""
    if intent.verb not in PICK_VERBS or not showing_files(screen):
        return None
    return wanted_file(intent, file_rows(screen))


def _picked(intent: TaskIntent, step: Step) -> Element | None:
    """The file a step tapped on a picker, when it is the file the command names."""
    if step.action.kind is not ActionKind.TAP:
        return None
    wanted = file_to_pick(intent, step.before)
    e = acted_on(step)
    if wanted is None or e is None or norm(e.text) != norm(wanted.text):
        return None
    return e


def _confirm(screen: Screen) -> Element | None:
    in_dialog = any(b.kind is BlockKind.DIALOG for b in screen.blocks)
    for e in screen.elements:
        if (
            e.kind in (ElementKind.BUTTON, ElementKind.TEXT)
            and norm(e.text) in CONFIRMS
            and (in_dialog or e.kind is ElementKind.BUTTON)
            and not in_system_bar(e, screen)
        ):
            return e
    return None


def pick_file(intent: TaskIntent, screen: Screen, history: Sequence[Step]) -> Decision | None:
    """On a picker tap the file the command names; after the pick confirm it once, then
    stop, done."""
    if intent.verb not in PICK_VERBS:
        return None
    last = history[-1] if history else None
    file = _picked(intent, last) if last is not None else None
    if file is not None and not showing_files(screen):
        ok = _confirm(screen)
        if ok is not None:
            return Decision(Action(ActionKind.TAP, element=ok.id), f"confirm '{ok.text}'")
        return Decision(Action(ActionKind.STOP, done=True), f"picked '{file.text}'")
    before = _picked(intent, history[-2]) if len(history) >= 2 else None
    if before is not None and _confirmed(last) and not showing_files(screen):
        return Decision(Action(ActionKind.STOP, done=True), f"picked '{before.text}'")
    e = file_to_pick(intent, screen)
    if e is None or (file is not None and norm(file.text) == norm(e.text)):
        return None  # nothing named here, or tapping it did not take
    return Decision(Action(ActionKind.TAP, element=e.id), f"the command names the file '{e.text}'")


def _confirmed(step: Step | None) -> bool:
    e = acted_on(step) if step is not None and step.action.kind is ActionKind.TAP else None
    return e is not None and norm(e.text) in CONFIRMS
