"""Paths through the transition graph: which steps of a confirmed run change state and
must be kept, and the shortest path that covers them and every parameter.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from screenpilot.language.fields import TOGGLES
from screenpilot.language.taskparse import norm
from screenpilot.language.words import stems
from screenpilot.model import ActionKind, Screen, Step
from screenpilot.pbd.knowledge.params import content_words, slots, template
from screenpilot.pbd.knowledge.records import Edge, target_of
from screenpilot.pbd.pages import page_labels, same_page


def _states(screen: Screen) -> tuple[tuple[str, int, int], ...]:
    return tuple(
        sorted(
            (norm(e.label), -1 if e.checked is None else int(e.checked), int(e.selected))
            for e in screen.elements
        )
    )


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
    if page_labels(step.before) == page_labels(step.after) and _states(step.before) == _states(
        step.after
    ):
        return False
    target = target_of(step)
    if target is not None and target.kind in TOGGLES and task:
        return _related(target.label, task, values)
    return True


def _covers(edge: Edge, values: Sequence[str]) -> set[int]:
    return slots(template(edge.label, values)) | slots(template(edge.text, values))


def shortest_covering(
    edges: Sequence[Edge],
    start: int,
    end: int,
    required: Sequence[tuple[int, str]],
    values: Sequence[str],
    *,
    prefer: Sequence[tuple[int, str]] = (),
) -> list[Edge] | None:
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
    for j in sorted(
        range(len(edges)),
        key=lambda j: ((edges[j].src, edges[j].words) not in preferred, edges[j].order),
    ):
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
