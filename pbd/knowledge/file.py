"""The knowledge file: load, learn from runs (the graph, lessons, task knowledge), answer
the planner (targets, matches, penalties, notes), save atomically.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from screenpilot.errors import StoreError
from screenpilot.language.fields import value_kind
from screenpilot.language.taskparse import norm, parse_task
from screenpilot.language.words import stems
from screenpilot.model import ActionKind, Screen, Step, Trajectory
from screenpilot.pbd.knowledge.graph import shortest_covering, state_change
from screenpilot.pbd.knowledge.lessons import (
    PenaltyBook,
    lesson_penalty,
    lesson_sentences,
    undo_reason,
)
from screenpilot.pbd.knowledge.params import bind, content_words, intent_name, mask, template
from screenpilot.pbd.knowledge.records import (
    Edge,
    Lesson,
    Match,
    Node,
    PathOp,
    TaskKnowledge,
    op_of,
    param_names,
)
from screenpilot.pbd.pages import jaccard, page_labels, same_page, title
from screenpilot.pbd.paths import effective_path, op_words

Encoder = Callable[[Sequence[str]], np.ndarray]
FILE_NAME = "knowledge.json"
VERSION = 1
#: Pages whose label sets agree this much are one node of the graph.
NODE_MATCH = 0.7
#: A new command replays task knowledge when its match score reaches this (and leads
#: any task with another path by the margin).
MATCH_THRESHOLD = 0.55
MATCH_MARGIN = 0.03


def default_path(store_path: str = "") -> Path:
    """``knowledge.json`` in the demonstration store's folder (``store.path``, else the
    user data dir's ``store``)."""
    if store_path:
        return Path(store_path).expanduser() / FILE_NAME
    import platformdirs

    return Path(platformdirs.user_data_dir("screenpilot")) / "store" / FILE_NAME


def _path_labels(t: TaskKnowledge) -> frozenset[str]:
    return frozenset(norm(op.label) for op in t.path if op.label and "{" not in op.label)


# --- the store --------------------------------------------------------------------------------
class Knowledge:
    """The knowledge file: load, learn from runs, answer the planner, save."""

    def __init__(self, path: Path | None = None, *, threshold: float = MATCH_THRESHOLD) -> None:
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
            raise StoreError(
                f"cannot read the knowledge file {path}: {exc}",
                hint="move the file away to start afresh",
            ) from exc
        k = cls.from_dict(data, threshold=threshold, source=str(path))
        k.path = path
        return k

    @classmethod
    def from_dict(
        cls,
        data: Mapping[str, Any],
        *,
        threshold: float = MATCH_THRESHOLD,
        source: str = "knowledge",
    ) -> Knowledge:
        k = cls(threshold=threshold)
        try:
            k.nodes = [Node(**n) for n in data.get("nodes", [])]
            k.edges = [Edge(**e) for e in data.get("transitions", [])]
            k.lessons = [Lesson(**x) for x in data.get("lessons", [])]
            k.tasks = [
                TaskKnowledge(**{**t, "path": [PathOp(**p) for p in t["path"]]})
                for t in data.get("tasks", [])
            ]
        except (TypeError, KeyError, AttributeError) as exc:
            raise StoreError(
                f"cannot read {source}: {exc}", hint="move the file away to start afresh"
            ) from exc
        k._labels = [frozenset(n.labels) for n in k.nodes]
        return k

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": VERSION,
            "nodes": [asdict(n) for n in self.nodes],
            "transitions": [asdict(e) for e in self.edges],
            "lessons": [asdict(x) for x in self.lessons],
            "tasks": [asdict(t) for t in self.tasks],
        }

    def save(self, path: Path | None = None) -> Path:
        path = path or self.path
        if path is None:
            raise StoreError("no knowledge file to save to")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
            tmp.write_text(
                json.dumps(self.to_dict(), ensure_ascii=False, indent=1), encoding="utf-8"
            )
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
            self.lessons.append(
                Lesson(x.kind, x.task, x.text, remap.get(x.page, -1), x.words, x.penalty)
            )
        for t in other.tasks:
            path = [
                PathOp(
                    p.kind,
                    p.label,
                    p.element_kind,
                    p.text,
                    remap.get(p.src, -1),
                    remap.get(p.dst, -1),
                )
                for p in t.path
            ]
            self._add_task(
                TaskKnowledge(
                    t.intent,
                    t.command,
                    t.masked,
                    dict(t.params),
                    list(t.kinds),
                    path,
                    remap.get(t.start, -1),
                    remap.get(t.end, -1),
                    t.uses,
                    list(t.commands),
                )
            )

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
        edge = Edge(
            src,
            like.words,
            dst,
            like.kind,
            like.label,
            like.element_kind,
            like.text,
            like.count,
            like.changed,
            len(self.edges),
        )
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
            self._add_edge(
                src,
                dst,
                Edge(
                    src,
                    op_words(s.action, s.before),
                    dst,
                    op.kind,
                    op.label,
                    op.element_kind,
                    op.text,
                    1,
                    not same_page(s.before, s.after),
                ),
            )
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

    def match(
        self, command: str, encode: Encoder, *, threshold: float | None = None
    ) -> Match | None:
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
    def summarise(
        self,
        task: str,
        trajectory: Trajectory,
        *,
        lessons: Sequence[str] | None = None,
        nodes: Sequence[tuple[int, int] | None] | None = None,
    ) -> TaskKnowledge | None:
        """Lessons from the undone steps and task/execution knowledge from a confirmed
        run (``observe`` it first, or pass what it returned as ``nodes``)."""
        steps = list(trajectory.steps)
        if nodes is None:
            nodes = self.observe(steps)
        by_index = dict(zip((s.index for s in steps), nodes, strict=True))
        undone = [s for s in steps if s.undone and s.after is not None]
        for n, s in enumerate(undone):
            reason = undo_reason(steps, s)
            env, run = lesson_sentences(task, s, reason)
            pair = by_index.get(s.index)
            page = pair[0] if pair else self.node(s.before)
            words = op_words(s.action, s.before)
            penalty = lesson_penalty(steps, s)
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
        ops = [
            PathOp(
                op.kind,
                template(op.label, values),
                op.element_kind,
                template(op.text, values),
                op.src,
                op.dst,
            )
            for op in ops
        ]
        masked = mask(task, values)
        params = dict(zip(param_names(values, ops), values, strict=True))
        knowledge = TaskKnowledge(
            intent_name(masked),
            task,
            masked,
            params,
            [value_kind(v) for v in values],
            ops,
            start[0],
            end[1],
            commands=[masked],
        )
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

    def shortest_path(
        self,
        start: int,
        end: int,
        path: Sequence[Step],
        nodes: Mapping[int, tuple[int, int] | None],
        values: Sequence[str],
        task: str = "",
    ) -> list[PathOp]:
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
        prefer = [
            (pair[0], op_words(s.action, s.before))
            for s in path
            if (pair := nodes.get(s.index)) is not None
        ]
        found = shortest_covering(
            self.edges, start, end, required, [v for v in values if v], prefer=prefer
        )
        if found is None:
            return own
        return [PathOp(e.kind, e.label, e.element_kind, e.text, e.src, e.dst) for e in found]

    @staticmethod
    def _op_for(step: Step, pair: tuple[int, int] | None) -> PathOp:
        op = op_of(step)
        if pair is not None:
            op.src, op.dst = pair
        return op
