"""AutoTask's explore-learn loop, the deciding and checking halves (no device here).

**Deciding.** Every operation available on the screen (tap a tappable element,
type a value of the task into a field it fits, scroll the page) gets::

    score = basic / (1 + penalty)
    basic   = a 1-7 Likert relevance to the task (the LLM's, or offline the
              heuristic planner's similarity mapped onto 1-7)
              + a 0-1 tie-break: embedding similarity of the operation's words and the task
    penalty = repetition (10 when the operation is already in the executed path)
              + the backtracking penalty the checker set on it (0-9 each time)

``ExplorePlanner`` picks the best. Offline, the heuristic planner makes the
first proposal: its rules for switches, sliders, typing values and confirming
know things similarity does not, so a rule's proposal counts as relevance 7 -
unless it is penalised, when the exploration scores decide among the rest.
Knowledge of the environment (pbd/knowledge/) adds "targets": what was seen
behind an element before, which raises the relevance of an element that leads
to what the task needs.

**Checking.** After each step a ``Checker`` says whether the task is complete
and whether the last step is on a path to the goal; when it is not, a penalty
0-9 is added to that operation's backtracking penalty and the run loop
(screenpilot/autotask.py) undoes it (``choose_undo``: back for a tap that
changed the page, clear the text for a typing, scroll back for a scroll, tap a
toggled switch again). More than ``max_steps`` steps counts as complete
(``exhausted``). ``HeuristicChecker`` is the offline checker (the proposer's own
done signal, relevance of the new page, relevance going down); ``LLMChecker``
asks the model with ``prompts/explore.yaml``.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.resources
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from string import Template
from typing import Protocol

import numpy as np

from screenpilot.errors import LLMResponseError, PlannerError
from screenpilot.language.fields import TOGGLES, field_kind, fits, typed_values, value_kind
from screenpilot.language.taskparse import norm, parse_task
from screenpilot.language.words import lexical
from screenpilot.model import (
    Action,
    ActionKind,
    Direction,
    Element,
    ElementKind,
    Screen,
    Step,
)
from screenpilot.pbd.knowledge import PenaltyBook
from screenpilot.pbd.pages import content, page_labels, same_page, title
from screenpilot.pbd.paths import effective_path, op_words
from screenpilot.planner.base import Decision, PlanHints, Planner, Usage
from screenpilot.planner.demos import TAPPABLE
from screenpilot.planner.encoding import Encoder
from screenpilot.planner.llm import ChatModel
from screenpilot.planner.offline import HeuristicPlanner, describe_for_match, purpose_bonus
from screenpilot.planner.parse import extract_json

REPETITION_PENALTY = 10.0
#: The same operation words already used on another page (a title that repeats the
#: label tapped to get there, say): a milder penalty.
ECHO_PENALTY = 3.0
MAX_CHECK_PENALTY = 9
#: Likert relevance of a scroll: above an unrelated element, below anything that matches.
SCROLL_LIKERT = {Direction.DOWN: 2.6, Direction.UP: 2.0}
TYPE_LIKERT = 4.0
RULE_LIKERT = 7.0
#: Heuristic similarity (cosine + lexical + app purpose) that maps to Likert 1 and 7.
RAW_LOW, RAW_HIGH = 0.1, 1.6
_OPPOSITE = {Direction.DOWN: Direction.UP, Direction.UP: Direction.DOWN,
             Direction.LEFT: Direction.RIGHT, Direction.RIGHT: Direction.LEFT}

Targets = Mapping[str, Sequence[str]]


# --- pages and operations ------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Operation:
    """One thing that can be done on the screen, with the text it is matched on."""

    action: Action
    words: str
    label: str = ""
    match_text: str = ""
    element: Element | None = None


def operations(task: str, screen: Screen, history: Sequence[Step] = ()) -> list[Operation]:
    """Every operation on ``screen``: taps, typing the task's untyped values into empty
    fields that fit them, scrolling the page (down; up once it was scrolled down)."""
    ops: list[Operation] = []
    for e in content(screen):
        if e.kind is ElementKind.EDIT_TEXT or e.editable:
            continue
        if e.kind not in TAPPABLE and not e.clickable:
            continue
        if e.kind is ElementKind.TEXT and not e.label:
            continue
        action = Action(ActionKind.TAP, element=e.id)
        ops.append(Operation(action, op_words(action, screen), e.label,
                             describe_for_match(e, screen) if e.label else "", e))
    typed = typed_values(history)
    intent = parse_task(task)
    searching = bool(intent.words & {"search", "find", "look", "搜索"})
    pending = [v for v in intent.values if v not in typed]
    for e in content(screen):
        if not (e.kind is ElementKind.EDIT_TEXT or e.editable) or (e.text and not e.hint):
            continue
        if not searching and "search" in norm(f"{e.text} {e.caption}"):
            continue
        for value in pending:
            if fits(value_kind(value), field_kind(e)):
                action = Action(ActionKind.TYPE, element=e.id, text=value, secret=e.password)
                ops.append(Operation(action, op_words(action, screen), e.label,
                                     f"type {value} into {e.label}", e))
                break
    for direction in (Direction.DOWN, Direction.UP):
        scrolled = any(s.action.kind is ActionKind.SCROLL and s.action.direction is Direction.DOWN
                       for s in history)
        if direction is Direction.UP and not scrolled:
            continue
        action = Action(ActionKind.SCROLL, direction=direction)
        ops.append(Operation(action, f"scroll {direction}", match_text=f"scroll {direction}"))
    return ops


# --- the executed path and penalties -------------------------------------------------------
def repetition(page: frozenset[str], words: str, path: Sequence[Step]) -> float:
    """``REPETITION_PENALTY`` when the operation on this page is already in the path,
    ``ECHO_PENALTY`` when the same operation was done on another page (scrolls aside)."""
    out = 0.0
    for s in path:
        if op_words(s.action, s.before) != words:
            continue
        if same_page(page_labels(s.before), page):
            return REPETITION_PENALTY
        if s.action.kind is not ActionKind.SCROLL:
            out = ECHO_PENALTY
    return out


# --- scorers: Likert 1-7 ---------------------------------------------------------------------
def to_likert(raw: float) -> float:
    """Heuristic similarity -> Likert 1..7."""
    return 1.0 + 6.0 * float(np.clip((raw - RAW_LOW) / (RAW_HIGH - RAW_LOW), 0.0, 1.0))


class Scorer(Protocol):
    """Rates how relevant each operation is to the task, 1 (not at all) to 7 (surely)."""

    def likert(self, task: str, screen: Screen, ops: Sequence[Operation],
               history: Sequence[Step], targets: Targets) -> list[float]: ...


class HeuristicScorer:
    """Offline Likert: the heuristic planner's similarity (embedding + words + app
    purpose) mapped to 1-7; an element with known targets counts their relevance too."""

    def __init__(self, heuristic: HeuristicPlanner) -> None:
        self.heuristic = heuristic

    def raw(self, task: str, texts: Sequence[str], labels: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros(0)
        vectors = self.heuristic.encode([task, *texts])
        intent = parse_task(task)
        lexical_part = np.array([0.5 * lexical(intent, lab) for lab in labels])
        out: np.ndarray = np.asarray(vectors[1:] @ vectors[0], dtype=np.float64) + lexical_part
        return out

    def likert(self, task: str, screen: Screen, ops: Sequence[Operation],
               history: Sequence[Step], targets: Targets) -> list[float]:
        intent = parse_task(task)
        out = [1.0] * len(ops)
        taps = [i for i, op in enumerate(ops) if op.action.kind is ActionKind.TAP and op.label]
        raw = self.raw(task, [ops[i].match_text for i in taps], [ops[i].label for i in taps])
        for j, i in enumerate(taps):
            e = ops[i].element
            bonus = purpose_bonus(intent, e) if e is not None else 0.0
            out[i] = to_likert(float(raw[j]) + bonus)
        for i, op in enumerate(ops):
            if op.action.kind is ActionKind.TYPE:
                out[i] = TYPE_LIKERT
            elif op.action.kind is ActionKind.SCROLL and op.action.direction is not None:
                out[i] = SCROLL_LIKERT.get(op.action.direction, 1.5)
            behind = targets.get(op.words)
            if behind:
                best = float(np.max(self.raw(task, list(behind), list(behind))))
                out[i] = max(out[i], to_likert(best) - 0.5)
        return out


@functools.lru_cache(maxsize=4)
def load_explore_prompts(name: str = "explore") -> dict[str, Template]:
    """The templates of ``prompts/<name>.yaml`` (score, check, lessons)."""
    import yaml

    resource = importlib.resources.files("screenpilot.planner.prompts").joinpath(f"{name}.yaml")
    try:
        data = yaml.safe_load(resource.read_text(encoding="utf-8"))
    except (FileNotFoundError, yaml.YAMLError) as exc:
        raise PlannerError(f"cannot read prompt set {name!r}: {exc}",
                           hint="reinstall screenpilot") from exc
    if not isinstance(data, dict) or not {"score", "check", "lessons"} <= set(data):
        raise PlannerError(f"prompt set {name!r} needs the templates score, check, lessons")
    return {k: Template(str(v).strip()) for k, v in data.items()}


def _history_words(path: Sequence[Step]) -> str:
    return "\n".join(f"{i}. {op_words(s.action, s.before)}" for i, s in enumerate(path, 1)) \
        or "(none yet)"


class LLMScorer:
    """Likert relevance from a chat model (``prompts/explore.yaml`` ``score``)."""

    def __init__(self, llm: ChatModel, *, temperature: float = 0.0) -> None:
        self.llm = llm
        self.temperature = temperature
        self.usage = Usage()

    def likert(self, task: str, screen: Screen, ops: Sequence[Operation],
               history: Sequence[Step], targets: Targets) -> list[float]:
        lines = []
        for i, op in enumerate(ops, 1):
            line = f"{i}. {op.words}"
            behind = targets.get(op.words)
            if behind:
                line += f" (leads to: {', '.join(list(behind)[:6])})"
            lines.append(line)
        prompt = load_explore_prompts()["score"].substitute(
            task=task, history=_history_words(history), screen=screen.describe(),
            operations="\n".join(lines), n=str(len(ops)))
        result = self.llm.complete([{"role": "user", "content": prompt}],
                                   temperature=self.temperature)
        self.usage = self.usage + result.usage
        try:
            scores = extract_json(result.text).get("scores")
        except LLMResponseError:
            scores = None
        if not isinstance(scores, list) or len(scores) != len(ops):
            raise LLMResponseError(f"expected {len(ops)} scores, got {result.text[:200]!r}",
                                   hint='answer {"scores": [1-7 for each operation]}')
        out = []
        for s in scores:
            try:
                out.append(float(np.clip(float(s), 1.0, 7.0)))
            except (TypeError, ValueError):
                out.append(1.0)
        return out


# --- the planner ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Scored:
    op: Operation
    likert: float
    tie: float
    penalty: float
    repeated: float = 0.0

    @property
    def score(self) -> float:
        return (self.likert + self.tie) / (1.0 + self.penalty)


@dataclass(frozen=True)
class Choice:
    """What ``ExplorePlanner.decide`` found: the decision and every scored operation."""

    decision: Decision
    scored: tuple[Scored, ...] = ()
    proposal: Decision | None = None
    dead_end: bool = False
    best: Scored | None = None

    @property
    def relevance(self) -> float:
        """The best Likert relevance of what is new on this page: no scroll, nothing
        already done (1 when nothing)."""
        return max((s.likert for s in self.scored if s.op.action.kind is not ActionKind.SCROLL
                    and s.repeated == 0), default=1.0)


def is_rule(proposal: Decision) -> bool:
    """Whether the heuristic's proposal came from a rule (toggle, slider, typing, confirm),
    not from plain similarity navigation or its scroll/back fallback."""
    a = proposal.action
    if a.kind not in (ActionKind.TAP, ActionKind.TYPE):
        return False
    return not (proposal.alternatives or "closest match" in proposal.reason)


class ExplorePlanner:
    """``Planner`` that scores every operation (see the module docstring)."""

    name = "explore"

    def __init__(self, scorer: Scorer, encode: Encoder, *, proposer: Planner | None = None,
                 penalties: PenaltyBook | None = None,
                 targets: Callable[[Screen], Targets] | None = None,
                 min_score: float = 1.5) -> None:
        self.scorer = scorer
        self.encode = encode
        self.proposer = proposer
        self.penalties = penalties if penalties is not None else PenaltyBook()
        self.targets = targets
        self.min_score = min_score
        self._cache: dict[str, np.ndarray] = {}

    def _vectors(self, texts: Sequence[str]) -> np.ndarray:
        missing = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if missing:
            for t, v in zip(missing, self.encode(missing), strict=True):
                self._cache[t] = v
        return np.stack([self._cache[t] for t in texts])

    def tie_break(self, task: str, ops: Sequence[Operation]) -> list[float]:
        """0-1: cosine similarity of each operation (the text it is matched on, else its
        words) and the task (0 below 0)."""
        if not ops:
            return []
        vectors = self._vectors([task, *[op.match_text or op.words for op in ops]])
        sims = vectors[1:] @ vectors[0]
        return [float(np.clip(s, 0.0, 1.0)) for s in sims]

    def next(self, task: str, screen: Screen, history: Sequence[Step], *,
             hints: PlanHints | None = None) -> Decision:
        return self.decide(task, screen, history, hints=hints).decision

    def decide(self, task: str, screen: Screen, history: Sequence[Step], *,
               hints: PlanHints | None = None, allow_done: bool = True) -> Choice:
        """Score every operation and choose; ``allow_done=False`` ignores the
        proposer's "done" (the person said the task is not done yet)."""
        path = effective_path(history)
        proposal = None
        if self.proposer is not None:
            proposal = self.proposer.next(task, screen, path, hints=hints)
            if proposal.done and allow_done:
                return Choice(proposal, proposal=proposal)
        ops = operations(task, screen, path)
        rule = proposal is not None and is_rule(proposal)
        if rule and proposal is not None:
            words = op_words(proposal.action, screen)
            if not any(op.words == words for op in ops):
                target = None
                if proposal.action.element is not None:
                    with contextlib.suppress(KeyError):
                        target = screen.element(proposal.action.element)
                ops.insert(0, Operation(proposal.action, words,
                                        target.label if target else "", words, target))
        if not ops:
            return Choice(Decision(Action(ActionKind.STOP), "nothing to operate on here"),
                          proposal=proposal, dead_end=True)
        targets = self.targets(screen) if self.targets is not None else {}
        likert = self.scorer.likert(task, screen, ops, path, targets)
        if rule and proposal is not None:
            words = op_words(proposal.action, screen)
            likert = [RULE_LIKERT if op.words == words else v
                      for op, v in zip(ops, likert, strict=True)]
        ties = self.tie_break(task, ops)
        labels = page_labels(screen)
        scored = []
        for op, lk, tie in zip(ops, likert, ties, strict=True):
            rep = repetition(labels, op.words, path)
            scored.append(Scored(op, lk, tie, rep + self.penalties.get(labels, op.words), rep))
        return self._choose(tuple(scored), proposal, rule, screen)

    def _choose(self, scored: tuple[Scored, ...], proposal: Decision | None, rule: bool,
                screen: Screen) -> Choice:
        order = sorted(range(len(scored)), key=lambda i: -scored[i].score)
        best = scored[order[0]]
        alternatives = tuple((scored[i].op.action, scored[i].score) for i in order[1:4])
        if best.score < self.min_score:
            return Choice(Decision(Action(ActionKind.STOP),
                                   f"dead end: the best operation here, {best.op.words}, "
                                   f"scores {best.score:.2f}", alternatives=alternatives),
                          scored, proposal, dead_end=True, best=best)
        why = (proposal.reason if rule and proposal is not None
               and best.op.words == op_words(proposal.action, screen) else
               f"relevance {best.likert:.1f}/7")
        reason = (f"{why}; score {best.score:.2f}"
                  + (f" (penalty {best.penalty:.0f})" if best.penalty else ""))
        return Choice(Decision(best.op.action, reason, alternatives=alternatives),
                      scored, proposal, best=best)


# --- checking ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Verdict:
    """The checker's word on the last step."""

    complete: bool
    correct: bool = True
    penalty: int = 0
    reason: str = ""
    exhausted: bool = False


class Checker(Protocol):
    def check(self, task: str, path: Sequence[Step], screen: Screen) -> Verdict:
        """Whether the task is complete on ``screen`` and whether ``path[-1]`` was right."""
        ...


def _budget(path: Sequence[Step], max_steps: int) -> Verdict | None:
    if len(path) >= max_steps:
        return Verdict(True, True, 0, f"{len(path)} steps taken: counted as done "
                                      f"(the limit is {max_steps})", exhausted=True)
    return None


class HeuristicChecker:
    """Offline checker.

    - complete: the heuristic proposer says the task is done on this screen;
    - a tap that opened another page is wrong when its relevance (the best Likert of
      what is new there) is lower by more than ``drop`` than the best alternative the
      page before offered (screen relevance going down), or when
      nothing there is relevant (below ``low``) even after scrolling: the first
      time, the page gets the benefit of the doubt (exploration scrolls it);
    - a scroll that brought nothing relevant into view is wrong;
    the penalty grows with how far relevance fell. Typing and steps that kept the
    page are taken as right.
    """

    def __init__(self, planner: ExplorePlanner, *, max_steps: int = 20, low: float = 2.6,
                 drop: float = 3.0) -> None:
        self.planner = planner
        self.max_steps = max_steps
        self.low = low
        self.drop = drop

    def relevance(self, task: str, screen: Screen, path: Sequence[Step],
                  besides: str = "") -> float:
        """The best Likert of what is new on ``screen``, the operation ``besides`` aside."""
        choice = self.planner.decide(task, screen, path)
        if choice.proposal is not None and choice.proposal.done:
            return RULE_LIKERT
        return max((s.likert for s in choice.scored if s.op.action.kind is not ActionKind.SCROLL
                    and s.repeated == 0 and s.op.words != besides), default=1.0)

    def check(self, task: str, path: Sequence[Step], screen: Screen) -> Verdict:
        if not path:
            return Verdict(False)
        budget = _budget(path, self.max_steps)
        if budget is not None:
            return budget
        choice = self.planner.decide(task, screen, path)
        if choice.proposal is not None and choice.proposal.done:
            return Verdict(True, True, 0, choice.proposal.reason)
        last = path[-1]
        kind = last.action.kind
        if kind is ActionKind.TYPE or (kind is not ActionKind.SCROLL
                                       and same_page(last.before, screen)):
            return Verdict(False, True, 0, "the step kept the page")
        now = choice.relevance
        where = title(screen)
        low = int(np.clip(round(3 + 2 * (self.low - now)), 1, MAX_CHECK_PENALTY))
        if kind is ActionKind.SCROLL:
            if now < self.low:
                return Verdict(False, False, low, f"scrolling '{where}' showed nothing "
                                                  f"relevant (best {now:.1f}/7)")
            return Verdict(False, True, 0, f"scrolling showed something relevant ({now:.1f}/7)")
        before = self.relevance(task, last.before, path[:-1],
                                besides=op_words(last.action, last.before))
        if before - now > self.drop:
            penalty = int(np.clip(round(before - now), 1, MAX_CHECK_PENALTY))
            return Verdict(False, False, penalty, f"'{where}' is less relevant than what the "
                                                  f"page before offered ({now:.1f} < "
                                                  f"{before:.1f}/7)")
        if now < self.low:
            arrived = last.after if last.after is not None else screen
            if self.planner.penalties.get(arrived, f"scroll {Direction.DOWN}") > 0:
                return Verdict(False, False, low, f"nothing on '{where}' is relevant to the "
                                                  f"task, even further down (best {now:.1f}/7)")
            return Verdict(False, True, 0, f"nothing relevant in sight on '{where}' yet")
        return Verdict(False, True, 0, f"'{where}' is relevant ({now:.1f}/7)")


class LLMChecker:
    """Checker asking a chat model (``prompts/explore.yaml`` ``check``)."""

    def __init__(self, llm: ChatModel, *, max_steps: int = 20,
                 temperature: float = 0.0) -> None:
        self.llm = llm
        self.max_steps = max_steps
        self.temperature = temperature
        self.usage = Usage()

    def check(self, task: str, path: Sequence[Step], screen: Screen) -> Verdict:
        if not path:
            return Verdict(False)
        budget = _budget(path, self.max_steps)
        if budget is not None:
            return budget
        prompt = load_explore_prompts()["check"].substitute(
            task=task, history=_history_words(path), screen=screen.describe(),
            last=op_words(path[-1].action, path[-1].before))
        result = self.llm.complete([{"role": "user", "content": prompt}],
                                   temperature=self.temperature)
        self.usage = self.usage + result.usage
        data = extract_json(result.text)
        complete, correct = bool(data.get("complete")), bool(data.get("correct", True))
        try:
            penalty = int(np.clip(int(data.get("penalty", 0) or 0), 0, MAX_CHECK_PENALTY))
        except (TypeError, ValueError):
            penalty = 5
        if not correct and penalty == 0:
            penalty = 5
        return Verdict(complete, correct or complete, 0 if complete else penalty,
                       str(data.get("reason", "")))


# --- undoing ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Undo:
    """How to undo a step: ``action`` on the current screen, then clear the focused
    field when ``clear``."""

    action: Action
    clear: bool
    words: str


def _find_again(element: Element, screen: Screen) -> Element | None:
    label = norm(element.label)
    same = [e for e in screen.elements if label and norm(e.label) == label
            and e.kind is element.kind]
    if same:
        return min(same, key=lambda e: abs(e.box.center[1] - element.box.center[1]))
    near = [e for e in screen.elements if e.box.iou(element.box) > 0.5]
    return max(near, key=lambda e: e.box.iou(element.box)) if near else None


def choose_undo(step: Step, screen: Screen) -> Undo | None:
    """How to undo ``step`` from ``screen`` (the page now), or None when it cannot be.

    A tap (or long press) that changed the page -> back; one that flipped a switch
    on the same page -> tap the switch again; a typing -> tap the field and clear it;
    a scroll -> scroll the other way.
    """
    a = step.action
    after = step.after or screen
    if a.kind is ActionKind.SCROLL and a.direction is not None:
        back = Action(ActionKind.SCROLL, element=a.element if a.element is not None
                      and any(e.id == a.element for e in screen.elements) else None,
                      direction=_OPPOSITE[a.direction])
        return Undo(back, False, f"scroll {back.direction}")
    if a.kind is ActionKind.TYPE:
        target: Element | None = None
        if a.element is not None:
            with contextlib.suppress(KeyError):
                before = step.before.element(a.element)
                typed = norm(a.text or "")[:12]
                target = next((e for e in screen.elements if typed
                               and norm(e.text).startswith(typed)), None) \
                    or _find_again(before, screen)
        if target is None:
            return None
        return Undo(Action(ActionKind.TAP, element=target.id), True,
                    f"clear the text typed into '{target.label or 'the field'}'")
    if a.kind in (ActionKind.TAP, ActionKind.LONG_PRESS):
        if not same_page(step.before, after):
            return Undo(Action(ActionKind.BACK), False, "go back")
        if a.element is not None:
            with contextlib.suppress(KeyError):
                tapped = step.before.element(a.element)
                if tapped.kind in TOGGLES:
                    again = _find_again(tapped, screen)
                    if again is not None and again.checked is not tapped.checked:
                        return Undo(Action(ActionKind.TAP, element=again.id), False,
                                    f"tap '{tapped.label}' again")
        return None
    return None


# --- lessons ----------------------------------------------------------------------------------
def llm_lessons(llm: ChatModel, task: str, undone: Sequence[tuple[Step, str]]) -> list[str]:
    """Lessons in the model's words (``prompts/explore.yaml`` ``lessons``); one per line."""
    lines = [f"- {op_words(s.action, s.before)} on '{title(s.before)}' -> "
             f"'{title(s.after) if s.after else 'no change'}' (wrong: {why})" for s, why in undone]
    prompt = load_explore_prompts()["lessons"].substitute(task=task, steps="\n".join(lines))
    text = llm.complete([{"role": "user", "content": prompt}]).text
    with contextlib.suppress(LLMResponseError):
        data = extract_json(text)
        items = data.get("lessons")
        if isinstance(items, list):
            return [str(x).strip() for x in items if str(x).strip()]
    return [ln.strip("-* ").strip() for ln in text.splitlines() if ln.strip("-* ").strip()]

