"""Knowledge from exploration (AutoTask's four kinds), kept in one JSON file.

- **Environment, type 1**: transitions (page, operation, page) as a graph. Pages
  are matched by their labels (``planner.explore.page_labels``); ``targets``
  annotates the elements of the current page with what was seen behind them, so
  that the planner rates an element by where it leads.
- **Environment and execution, type 2**: lessons in words from the steps that
  were undone ("On 'Settings', tap 'Display' opens 'Display / Brightness level'";
  "For "turn wifi on", tap 'Display' on 'Settings' was a wrong turn: ..."):
  templated sentences offline, the LLM's words when one is configured. Execution
  lessons of a matching task become backtracking penalties before it starts.
- **Task**: intent name, parameter names and values, the command, and the
  command with its values masked, embedded to match new commands to intents.
- **Execution, type 1**: the shortest path in the experience graph from the
  start page to the end page that covers every parameter and every state
  change of the run (typing, switches, selections), with parameter slots
  (``{0}``, ``{0:first}``, ``{0:rest}``) where the values were.

``match`` finds the task knowledge of a new command (similarity of the masked
commands and of the command to the stored path, values bound by kind and
order); ``Replay`` then runs the stored path with the new values, and fails
(exploration takes over) when an element of the path is not on the screen.

The file (``knowledge.path``; by default ``knowledge.json`` in the store folder)
is written atomically; ``transitions`` are kept even for runs the person did not
confirm, the rest only for confirmed ones.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from screenpilot.errors import StoreError
from screenpilot.model import (
    SECRET_PLACEHOLDER,
    Action,
    ActionKind,
    Direction,
    Element,
    ElementKind,
    Screen,
    Step,
    Trajectory,
)
from screenpilot.planner.demos import TOGGLES
from screenpilot.planner.explore import (
    PenaltyBook,
    effective_path,
    is_undo,
    jaccard,
    lesson_sentences,
    op_words,
    page_labels,
    same_page,
    title,
)
from screenpilot.planner.forms import field_kind, value_kind
from screenpilot.planner.taskparse import norm, parse_task
from screenpilot.planner.words import stems

Encoder = Callable[[Sequence[str]], np.ndarray]
FILE_NAME = "knowledge.json"
VERSION = 1
#: Pages whose label sets agree this much are one node of the graph.
NODE_MATCH = 0.7
#: A new command replays task knowledge when its match score reaches this (and leads
#: any task with another path by the margin).
MATCH_THRESHOLD = 0.55
MATCH_MARGIN = 0.03
_STOP = {"the", "a", "an", "to", "in", "into", "on", "off", "of", "my", "and", "for", "with",
         "is", "at", "it", "as", "be", "me", "i", "you", "please", "could", "can", "their",
         "his", "her", "x", "turn", "set", "switch", "put", "this", "that", "want", "need",
         "would", "like", "do", "don", "will", "so", "by", "up", "down", "from", "out", "new",
         "your", "am", "pm", "then", "also", "some", "all"}


def default_path(store_path: str = "") -> Path:
    """``knowledge.json`` in the demonstration store's folder (``store.path``, else the
    user data dir's ``store``)."""
    if store_path:
        return Path(store_path).expanduser() / FILE_NAME
    import platformdirs

    return Path(platformdirs.user_data_dir("screenpilot")) / "store" / FILE_NAME


# --- records ----------------------------------------------------------------------------------
@dataclass
class Node:
    id: int
    labels: list[str]
    title: str = ""


@dataclass
class Edge:
    """A transition: on page ``src``, operation ``words`` led to page ``dst``."""

    src: int
    words: str
    dst: int
    kind: str = "tap"
    label: str = ""
    element_kind: str = ""
    text: str = ""
    count: int = 1
    changed: bool = True
    order: int = 0


@dataclass
class Lesson:
    kind: str        # "environment" | "execution"
    task: str
    text: str
    page: int
    words: str
    penalty: float = 0.0


@dataclass
class PathOp:
    """One operation of a stored path, with parameter slots in ``label`` and ``text``."""

    kind: str
    label: str = ""
    element_kind: str = ""
    text: str = ""
    src: int = -1
    dst: int = -1

    def words(self, values: Sequence[str] = ()) -> str:
        label, text = fill(self.label, values), fill(self.text, values)
        if self.kind == "type":
            return f"type '{text.rstrip()}'" + (f" into '{label}'" if label else "")
        if self.kind == "scroll":
            return f"scroll {text}"
        if self.kind in ("tap", "long_press"):
            verb = "tap" if self.kind == "tap" else "long press"
            if self.element_kind == ElementKind.SEEK_BAR.value and text:
                return f"{verb} '{label}' at {round(float(text) * 100)}%"
            return f"{verb} '{label}'"
        return self.kind


@dataclass
class TaskKnowledge:
    intent: str
    command: str
    masked: str
    params: dict[str, str]
    kinds: list[str]
    path: list[PathOp]
    start: int = -1
    end: int = -1
    uses: int = 0
    commands: list[str] = field(default_factory=list)

    @property
    def description(self) -> str:
        """The path in words (its labels), matched against new commands."""
        return " ".join(dict.fromkeys(op.label for op in self.path if op.label))


@dataclass(frozen=True)
class Match:
    knowledge: TaskKnowledge
    values: tuple[str, ...]
    score: float


# --- parameters -------------------------------------------------------------------------------
_SLOT = re.compile(r"\{(\d+)(?::(first|rest))?\}")


def _pattern(value: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w{{]){re.escape(value)}(?![\w}}])", re.IGNORECASE)


def template(text: str, values: Sequence[str]) -> str:
    """``text`` with each parameter value (and the first word / the rest of a
    several-word value) replaced by its slot."""
    if not text:
        return text
    stripped = text.rstrip("\n")
    tail = text[len(stripped):]
    for i, v in enumerate(values):
        words = v.split()
        if len(words) >= 2 and stripped == words[0]:
            return f"{{{i}:first}}{tail}"
        if len(words) >= 2 and stripped == " ".join(words[1:]):
            return f"{{{i}:rest}}{tail}"
    out = stripped
    for i, v in sorted(enumerate(values), key=lambda p: -len(p[1])):
        if v:
            out = _pattern(v).sub(f"{{{i}}}", out)
    return out + tail


def fill(text: str, values: Sequence[str]) -> str:
    """The inverse of ``template`` with new values (a missing value is empty)."""
    def one(m: re.Match[str]) -> str:
        i = int(m.group(1))
        v = values[i] if i < len(values) else ""
        part = m.group(2)
        if part == "first":
            return v.split()[0] if v.split() else ""
        if part == "rest":
            return " ".join(v.split()[1:])
        return v
    return _SLOT.sub(one, text)


def mask(command: str, values: Sequence[str]) -> str:
    """The command with its values replaced by X (what the intent is matched on)."""
    out = command
    for v in sorted(values, key=len, reverse=True):
        if v:
            out = _pattern(v).sub("X", out)
    return out


def content_words(text: str) -> set[str]:
    """Stemmed words that say what to do (no stop words, no numbers, no X slots)."""
    return {w for w in stems(text) if w not in _STOP and not w.isdigit() and len(w) > 1}


def _path_labels(t: TaskKnowledge) -> frozenset[str]:
    return frozenset(norm(op.label) for op in t.path if op.label and "{" not in op.label)


def intent_name(masked: str) -> str:
    words = [w for w in norm(masked).split() if w not in _STOP and not w.isdigit()]
    return "_".join(words[:5]) or "task"


def param_names(values: Sequence[str], path: Sequence[PathOp]) -> list[str]:
    """A name for each value: the label of the field it was typed into, else its kind."""
    names: list[str] = []
    for i, v in enumerate(values):
        name = next((norm(op.label).replace(" ", "_") for op in path
                     if op.kind == "type" and op.label and i in slots(op.text)), "")
        if not name:
            kind = value_kind(v)
            name = "name" if kind == "text" and v[:1].isupper() else kind
        base, n = name, 2
        while name in names:
            name, n = f"{base}_{n}", n + 1
        names.append(name)
    return names


def bind(stored: Sequence[str], new: Sequence[str]) -> tuple[str, ...] | None:
    """New values for the stored parameter kinds, by kind and order (None if one is missing)."""
    pools: dict[str, list[str]] = {}
    for v in new:
        pools.setdefault(value_kind(v), []).append(v)
    out = []
    for kind in stored:
        pool = pools.get(kind)
        if not pool:
            return None
        out.append(pool.pop(0))
    return tuple(out)


# --- operations of steps ----------------------------------------------------------------------
def _target(step: Step) -> Element | None:
    a = step.action
    if a.element is not None:
        with contextlib.suppress(KeyError):
            return step.before.element(a.element)
    if a.point is not None:
        hits = [e for e in step.before.elements if e.box.contains(*a.point)]
        return min(hits, key=lambda e: e.box.area) if hits else None
    return None


def op_of(step: Step) -> PathOp:
    """The operation of a step, independent of element ids."""
    a = step.action
    e = _target(step)
    text = ""
    if a.kind is ActionKind.TYPE:
        text = SECRET_PLACEHOLDER if a.secret else (a.text or "")
    elif a.kind is ActionKind.SCROLL:
        text = str(a.direction)
    elif a.point is not None and e is not None and e.kind is ElementKind.SEEK_BAR:
        text = f"{(a.point[0] - e.box.x1) / max(1, e.box.width - 1):.3f}"
    return PathOp(a.kind.value, e.label if e is not None else "",
                  e.kind.value if e is not None else "", text)


# --- the store --------------------------------------------------------------------------------
class Knowledge:
    """The knowledge file: load, learn from runs, answer the planner, save."""

    def __init__(self, path: Path | None = None, *,
                 threshold: float = MATCH_THRESHOLD) -> None:
        self.path = path
        self.threshold = threshold
        self.nodes: list[Node] = []
        self.edges: list[Edge] = []
        self.lessons: list[Lesson] = []
        self.tasks: list[TaskKnowledge] = []
        self._vectors: dict[str, np.ndarray] = {}
        self._labels: list[frozenset[str]] = []

    # --- files --------------------------------------------------------------------------------
    @classmethod
    def load(cls, path: Path, *, threshold: float = MATCH_THRESHOLD) -> Knowledge:
        """The knowledge in ``path`` (empty when the file does not exist yet)."""
        if not path.is_file():
            return cls(path, threshold=threshold)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise StoreError(f"cannot read the knowledge file {path}: {exc}",
                             hint="move the file away to start afresh") from exc
        k = cls.from_dict(data, threshold=threshold, source=str(path))
        k.path = path
        return k

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, threshold: float = MATCH_THRESHOLD,
                  source: str = "knowledge") -> Knowledge:
        k = cls(threshold=threshold)
        try:
            k.nodes = [Node(**n) for n in data.get("nodes", [])]
            k.edges = [Edge(**e) for e in data.get("transitions", [])]
            k.lessons = [Lesson(**x) for x in data.get("lessons", [])]
            k.tasks = [TaskKnowledge(**{**t, "path": [PathOp(**p) for p in t["path"]]})
                       for t in data.get("tasks", [])]
        except (TypeError, KeyError, AttributeError) as exc:
            raise StoreError(f"cannot read {source}: {exc}",
                             hint="move the file away to start afresh") from exc
        k._labels = [frozenset(n.labels) for n in k.nodes]
        return k

    def to_dict(self) -> dict[str, Any]:
        return {"version": VERSION, "nodes": [asdict(n) for n in self.nodes],
                "transitions": [asdict(e) for e in self.edges],
                "lessons": [asdict(x) for x in self.lessons],
                "tasks": [asdict(t) for t in self.tasks]}

    def save(self, path: Path | None = None) -> Path:
        path = path or self.path
        if path is None:
            raise StoreError("no knowledge file to save to")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
            tmp.write_text(json.dumps(self.to_dict(), ensure_ascii=False, indent=1),
                           encoding="utf-8")
            tmp.replace(path)
        except OSError as exc:
            raise StoreError(f"cannot write the knowledge file {path}: {exc}") from exc
        self.path = path
        return path

    def merge(self, other: Knowledge) -> None:
        """Add ``other``'s knowledge (its pages matched to ours)."""
        remap = {n.id: self._node(frozenset(n.labels), n.title) for n in other.nodes}
        for e in other.edges:
            self._add_edge(remap[e.src], remap[e.dst], e)
        for x in other.lessons:
            self.lessons.append(Lesson(x.kind, x.task, x.text, remap.get(x.page, -1), x.words,
                                       x.penalty))
        for t in other.tasks:
            path = [PathOp(p.kind, p.label, p.element_kind, p.text, remap.get(p.src, -1),
                           remap.get(p.dst, -1)) for p in t.path]
            self._add_task(TaskKnowledge(t.intent, t.command, t.masked, dict(t.params),
                                         list(t.kinds), path, remap.get(t.start, -1),
                                         remap.get(t.end, -1), t.uses, list(t.commands)))

    # --- the graph ----------------------------------------------------------------------------
    def find(self, screen: Screen | frozenset[str]) -> int | None:
        """The node of this page, or None."""
        labels = screen if isinstance(screen, frozenset) else page_labels(screen)
        best, best_id = NODE_MATCH, None
        for i, known in enumerate(self._labels):
            j = jaccard(known, labels)
            if j >= best:
                best, best_id = j, self.nodes[i].id
        return best_id

    def _node(self, labels: frozenset[str], name: str = "") -> int:
        found = self.find(labels)
        if found is not None:
            return found
        node = Node(len(self.nodes), sorted(labels), name)
        self.nodes.append(node)
        self._labels.append(labels)
        return node.id

    def node(self, screen: Screen) -> int:
        return self._node(page_labels(screen), title(screen))

    def _add_edge(self, src: int, dst: int, like: Edge) -> Edge:
        for e in self.edges:
            if e.src == src and e.dst == dst and e.words == like.words:
                e.count += like.count
                return e
        edge = Edge(src, like.words, dst, like.kind, like.label, like.element_kind, like.text,
                    like.count, like.changed, len(self.edges))
        self.edges.append(edge)
        return edge

    def observe(self, trajectory: Trajectory | Sequence[Step]) -> list[tuple[int, int] | None]:
        """Add the transitions of every step with a screen after it; (src, dst) per step."""
        steps = trajectory.steps if isinstance(trajectory, Trajectory) else trajectory
        out: list[tuple[int, int] | None] = []
        for s in steps:
            if s.after is None or s.action.kind in (ActionKind.STOP, ActionKind.HANDOVER):
                out.append(None)
                continue
            src, dst = self.node(s.before), self.node(s.after)
            op = op_of(s)
            self._add_edge(src, dst, Edge(src, op_words(s.action, s.before), dst, op.kind,
                                          op.label, op.element_kind, op.text, 1,
                                          not same_page(s.before, s.after)))
            out.append((src, dst))
        return out

    def targets(self, screen: Screen, *, depth: int = 2, limit: int = 20) -> dict[str, list[str]]:
        """For each operation known on this page that opens another: the labels seen
        behind it (``depth`` pages deep)."""
        node = self.find(screen)
        if node is None:
            return {}
        out: dict[str, list[str]] = {}
        for e in self.edges:
            if e.src != node or not e.changed or e.dst == node:
                continue
            seen: list[str] = []
            frontier, visited = [e.dst], {node}
            for _ in range(depth):
                nxt = []
                for n in frontier:
                    if n in visited:
                        continue
                    visited.add(n)
                    seen.extend(self.nodes[n].labels)
                    nxt += [x.dst for x in self.edges if x.src == n and x.changed]
                frontier = nxt
            out.setdefault(e.words, [])
            out[e.words] = list(dict.fromkeys(out[e.words] + seen))[:limit]
        return out

    # --- matching -----------------------------------------------------------------------------
    def _encode(self, encode: Encoder, texts: Sequence[str]) -> np.ndarray:
        missing = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        if missing:
            for t, v in zip(missing, encode(missing), strict=True):
                self._vectors[t] = np.asarray(v, dtype=np.float32)
        return np.stack([self._vectors[t] for t in texts])

    def match(self, command: str, encode: Encoder, *,
              threshold: float | None = None) -> Match | None:
        """The task knowledge whose intent fits ``command``, with its new values.

        Score: 0.6 x similarity of the masked commands (the stored one and every
        phrasing that replayed it) + 0.4 x similarity of the command and the stored
        path's labels; at least ``threshold``; at least half of the command's content
        words known to the stored task (its commands and labels); and ahead by
        ``MATCH_MARGIN`` of any stored task with a different path."""
        threshold = self.threshold if threshold is None else threshold
        if not self.tasks:
            return None
        values = parse_task(command).parameters
        masked = mask(command, values)
        words = content_words(masked)
        scored: list[tuple[float, TaskKnowledge, tuple[str, ...]]] = []
        for t in self.tasks:
            bound = bind(t.kinds, values)
            if bound is None:
                continue
            vocabulary = stems(" ".join([t.command, *t.commands, t.description]))
            if words and len(words & vocabulary) < 0.5 * len(words):
                continue
            phrasings = list(dict.fromkeys([t.masked, *t.commands]))
            vec = self._encode(encode, [masked, command, t.description, *phrasings])
            sim_mask = float(np.max(vec[3:] @ vec[0]))
            sim_path = float(vec[2] @ vec[1]) if t.description else sim_mask
            scored.append((0.6 * sim_mask + 0.4 * sim_path, t, bound))
        if not scored:
            return None
        scored.sort(key=lambda x: -x[0])
        score, best, bound = scored[0]
        if score < threshold:
            return None
        labels = _path_labels(best)
        for other_score, other, _ in scored[1:]:
            if jaccard(labels, _path_labels(other)) < 0.6:
                if score - other_score < MATCH_MARGIN:
                    return None
                break
        return Match(best, bound, score)

    # --- lessons ------------------------------------------------------------------------------
    def lessons_for(self, command: str, encode: Encoder | None = None) -> list[Lesson]:
        """Execution lessons of this command or of a matching intent, and every
        environment lesson."""
        same = {norm(command)}
        if encode is not None:
            m = self.match(command, encode)
            if m is not None:
                same |= {norm(m.knowledge.command), *(norm(c) for c in m.knowledge.commands)}
        return [x for x in self.lessons if x.kind == "environment" or norm(x.task) in same]

    def penalties_for(self, command: str, encode: Encoder | None = None) -> PenaltyBook:
        """Backtracking penalties from earlier runs' execution lessons."""
        book = PenaltyBook()
        for x in self.lessons_for(command, encode):
            if x.kind == "execution" and 0 <= x.page < len(self.nodes) and x.penalty > 0:
                book.add(self._labels[x.page], x.words, x.penalty)
        return book

    def notes(self, command: str, encode: Encoder | None = None, *, limit: int = 12) -> list[str]:
        """Lessons as sentences for an LLM planner's hints."""
        return [x.text for x in self.lessons_for(command, encode)][-limit:]

    # --- summarising a run --------------------------------------------------------------------
    def summarise(self, task: str, trajectory: Trajectory, *,
                  lessons: Sequence[str] | None = None,
                  nodes: Sequence[tuple[int, int] | None] | None = None) -> TaskKnowledge | None:
        """Lessons from the undone steps and task/execution knowledge from a confirmed
        run (``observe`` it first, or pass what it returned as ``nodes``)."""
        steps = list(trajectory.steps)
        if nodes is None:
            nodes = self.observe(steps)
        by_index = dict(zip((s.index for s in steps), nodes, strict=True))
        undone = [s for s in steps if s.undone and s.after is not None]
        for n, s in enumerate(undone):
            reason = _why(steps, s)
            env, run = lesson_sentences(task, s, reason)
            pair = by_index.get(s.index)
            page = pair[0] if pair else self.node(s.before)
            words = op_words(s.action, s.before)
            penalty = _penalty(steps, s)
            self.lessons.append(Lesson("environment", task, env, page, words))
            text = lessons[n] if lessons is not None and n < len(lessons) else run
            self.lessons.append(Lesson("execution", task, text, page, words, penalty))
        path = effective_path(steps)
        if not path or any(s.action.secret for s in path):
            return None
        start = by_index.get(path[0].index)
        end = by_index.get(path[-1].index)
        if start is None or end is None:
            return None
        values = parse_task(task).parameters
        ops = self.shortest_path(start[0], end[1], path, by_index, values, task)
        ops = [PathOp(op.kind, template(op.label, values), op.element_kind,
                      template(op.text, values), op.src, op.dst) for op in ops]
        masked = mask(task, values)
        params = dict(zip(param_names(values, ops), values, strict=True))
        knowledge = TaskKnowledge(intent_name(masked), task, masked, params,
                                  [value_kind(v) for v in values], ops, start[0], end[1],
                                  commands=[masked])
        return self._add_task(knowledge)

    def _add_task(self, knowledge: TaskKnowledge) -> TaskKnowledge:
        for i, t in enumerate(self.tasks):
            if t.masked == knowledge.masked or norm(t.command) == norm(knowledge.command):
                knowledge.uses = t.uses
                knowledge.commands = list(dict.fromkeys([*t.commands, *knowledge.commands]))
                self.tasks[i] = knowledge
                return knowledge
        self.tasks.append(knowledge)
        return knowledge

    def remember_phrasing(self, knowledge: TaskKnowledge, command: str) -> None:
        """A command that replayed ``knowledge`` successfully: match it next time too."""
        knowledge.uses += 1
        masked = mask(command, parse_task(command).parameters)
        if masked not in knowledge.commands:
            knowledge.commands.append(masked)

    def shortest_path(self, start: int, end: int, path: Sequence[Step],
                      nodes: Mapping[int, tuple[int, int] | None],
                      values: Sequence[str], task: str = "") -> list[PathOp]:
        """The shortest path in the graph from ``start`` to ``end`` covering every
        parameter and every state change of the run (``state_change``: typing, a switch
        the task speaks of, a selection); the run's own path, no-ops left out, when
        none is found."""
        required: list[tuple[int, str]] = []
        own: list[PathOp] = []
        for s in path:
            pair = nodes.get(s.index)
            change = state_change(s, task, values)
            if pair is not None and change:
                required.append((pair[0], op_words(s.action, s.before)))
            if change or change is None:
                own.append(self._op_for(s, pair))
        prefer = [(pair[0], op_words(s.action, s.before)) for s in path
                  if (pair := nodes.get(s.index)) is not None]
        found = shortest_covering(self.edges, start, end, required,
                                  [v for v in values if v], prefer=prefer)
        if found is None:
            return own
        return [PathOp(e.kind, e.label, e.element_kind, e.text, e.src, e.dst) for e in found]

    @staticmethod
    def _op_for(step: Step, pair: tuple[int, int] | None) -> PathOp:
        op = op_of(step)
        if pair is not None:
            op.src, op.dst = pair
        return op


def _states(screen: Screen) -> tuple[tuple[str, int, int], ...]:
    return tuple(sorted((norm(e.label), -1 if e.checked is None else int(e.checked),
                         int(e.selected)) for e in screen.elements))


def _related(label: str, task: str, values: Sequence[str]) -> bool:
    """Whether a label speaks of the task: a parameter value, or a word of the task
    (or a word's start: 'Mon' for 'Monday')."""
    if slots(template(label, values)):
        return True
    words = content_words(task) | stems(task)
    for w in content_words(label) | {x for x in stems(label) if len(x) >= 3}:
        if w in words or any(len(w) >= 3 and t.startswith(w) for t in words):
            return True
    return False


def state_change(step: Step, task: str, values: Sequence[str]) -> bool | None:
    """What a step of a confirmed run is to its shortest path: True, a state change
    it must keep (typing; a tap that changed something on its page - a switch only
    when the task speaks of it); None, navigation (it opened another page; scrolls
    too); False, a no-op or a side effect to leave out."""
    a = step.action
    if a.kind is ActionKind.TYPE:
        return True
    if a.kind is ActionKind.SCROLL:
        return None
    if step.after is None or not same_page(step.before, step.after):
        return None
    if page_labels(step.before) == page_labels(step.after) and \
            _states(step.before) == _states(step.after):
        return False
    target = _target(step)
    if target is not None and target.kind in TOGGLES and task:
        return _related(target.label, task, values)
    return True


def _why(steps: Sequence[Step], undone: Step) -> str:
    for s in steps[undone.index + 1:]:
        if is_undo(s):
            reason = s.reason.removeprefix("undo: ")
            return reason.split(" because ", 1)[1] if " because " in reason else reason
    return ""


def _penalty(steps: Sequence[Step], undone: Step) -> float:
    for s in steps[undone.index + 1:]:
        if is_undo(s):
            m = re.search(r"penalty (\d+)", s.reason)
            return float(m.group(1)) if m else 5.0
    return 5.0


def slots(text: str) -> set[int]:
    """The parameter numbers a template mentions."""
    return {int(m.group(1)) for m in _SLOT.finditer(text)}


def _covers(edge: Edge, values: Sequence[str]) -> set[int]:
    return slots(template(edge.label, values)) | slots(template(edge.text, values))


def shortest_covering(edges: Sequence[Edge], start: int, end: int,
                      required: Sequence[tuple[int, str]], values: Sequence[str], *,
                      prefer: Sequence[tuple[int, str]] = ()) -> list[Edge] | None:
    """Breadth-first search over (page, what is covered): the fewest edges from
    ``start`` to ``end`` that use every required (page, operation) - as many times as
    it is listed - and mention every parameter value. Among paths of one length, the
    ``prefer``red edges (this run's) and then the oldest win."""
    items: list[tuple[str, int | tuple[int, str]]] = [("param", i) for i in range(len(values))]
    items += [("op", r) for r in required]
    full = (1 << len(items)) - 1
    if len(items) > 20:
        return None
    covers: list[int] = []
    for edge in edges:
        mask_e = 0
        for i in _covers(edge, values):
            mask_e |= 1 << i
        covers.append(mask_e)
    out_edges: dict[int, list[int]] = {}
    preferred = set(prefer)
    for j in sorted(range(len(edges)), key=lambda j: ((edges[j].src, edges[j].words)
                                                      not in preferred, edges[j].order)):
        out_edges.setdefault(edges[j].src, []).append(j)
    op_bits: dict[tuple[int, str], list[int]] = {}
    for b, (kind, item) in enumerate(items):
        if kind == "op":
            assert isinstance(item, tuple)
            op_bits.setdefault(item, []).append(b)

    def advance(state: int, e: int) -> int:
        state |= covers[e]
        for b in op_bits.get((edges[e].src, edges[e].words), []):
            if not state & (1 << b):
                return state | (1 << b)
        return state

    first = (start, 0)
    parent: dict[tuple[int, int], tuple[tuple[int, int], int] | None] = {first: None}
    queue = deque([first])
    while queue:
        node, state = queue.popleft()
        if node == end and state == full:
            chain: list[Edge] = []
            key: tuple[int, int] = (node, state)
            link = parent[key]
            while link is not None:
                key, index = link
                chain.append(edges[index])
                link = parent[key]
            return chain[::-1]
        for index in out_edges.get(node, []):
            nxt = (edges[index].dst, advance(state, index))
            if nxt not in parent:
                parent[nxt] = ((node, state), index)
                queue.append(nxt)
    return None


# --- replay -----------------------------------------------------------------------------------
class Replay:
    """Runs a stored path with new parameter values, one operation per screen."""

    def __init__(self, match: Match, task: str) -> None:
        self.match = match
        self.ops = list(match.knowledge.path)
        self.values = match.values
        self.intent = parse_task(task)
        self.position = 0
        self.failed = ""
        #: The operation of the last action handed out.
        self.last: PathOp | None = None

    @property
    def finished(self) -> bool:
        return self.position >= len(self.ops)

    @property
    def active(self) -> bool:
        return not self.failed and not self.finished

    def next(self, screen: Screen) -> tuple[Action, str] | None:
        """The next action and its words, skipping operations that need not be done
        (an empty value, a switch already as wished); None when finished or failed
        (``failed`` says why)."""
        while self.position < len(self.ops):
            op = self.ops[self.position]
            self.position += 1
            action = self._resolve(op, screen)
            if action == "skip":
                continue
            if action is None:
                self.failed = f"'{op.words(self.values)}' is not on the screen"
                return None
            assert isinstance(action, Action)
            self.last = op
            return action, op.words(self.values)
        return None

    def _resolve(self, op: PathOp, screen: Screen) -> Action | str | None:
        label, text = fill(op.label, self.values), fill(op.text, self.values)
        if op.kind == "scroll":
            with contextlib.suppress(ValueError):
                return Action(ActionKind.SCROLL, direction=Direction(text))
            return None
        if op.kind == "back":
            return Action(ActionKind.BACK)
        if op.kind == "type":
            if not text.strip() or SECRET_PLACEHOLDER in text:
                return "skip" if not text.strip() else None
            fld = find_field(screen, label, text)
            if fld is None:
                return None
            return Action(ActionKind.TYPE, element=fld.id, text=text, secret=fld.password)
        if op.kind not in ("tap", "long_press"):
            return None
        e = find_element(screen, label, op.element_kind)
        if e is None:
            return None
        kind = ActionKind.TAP if op.kind == "tap" else ActionKind.LONG_PRESS
        if e.kind is ElementKind.SEEK_BAR:
            level = self.intent.level
            share = level if level is not None else float(text or 0.5)
            x = round(e.box.x1 + share * (e.box.width - 1))
            return Action(kind, point=(x, e.box.center[1]))
        if e.kind in TOGGLES and self.intent.switch_to is not None \
                and e.checked is self.intent.switch_to:
            return "skip"
        return Action(kind, element=e.id)


def find_element(screen: Screen, label: str, element_kind: str = "") -> Element | None:
    """The element showing ``label`` (verbatim, else the same words, else as the start
    of its label), the same kind preferred."""
    want = norm(label)
    if not want:
        return None
    order = screen.reading_order()
    verbatim = [e for e in order if e.label.strip() == label.strip()]
    for hits in (verbatim, [e for e in order if norm(e.label) == want],
                 [e for e in order if norm(e.label).startswith(want + " ")]):
        if hits:
            same = [e for e in hits if e.kind.value == element_kind]
            return (same or hits)[0]
    if element_kind in {k.value for k in TOGGLES}:
        # a switch's label may carry its state ("Wi-Fi Off" / "Wi-Fi HomeNet"): the same
        # first word on a switch will do
        first = want.split()[0]
        toggles = [e for e in screen.reading_order() if e.kind in TOGGLES
                   and norm(e.label).split()[:1] == [first]]
        if toggles:
            return toggles[0]
    return None


def find_field(screen: Screen, label: str, value: str) -> Element | None:
    """The field labelled ``label``; else an empty field that fits the value."""
    e = find_element(screen, label, ElementKind.EDIT_TEXT.value)
    if e is not None:
        return e
    kind = value_kind(value)
    fields = [f for f in screen.reading_order() if f.kind is ElementKind.EDIT_TEXT
              and (f.hint or not f.text)]
    for f in fields:
        fk = field_kind(f)
        if (kind in ("email", "number") and fk == kind) or (kind == "text" and fk in (
                "first", "last", "name", "text")):
            return f
    return None
