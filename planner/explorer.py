"""Guided exploration from one demonstrated task: where does an app become sensitive?

From a seed (one demonstrated trajectory, or a stored demonstration), the explorer
runs batches of five stages::

    generation   a proxy user (an LLM with prompts/explorer.yaml, or the offline
                 proposer) proposes new single-task queries for the same app, each
                 with steps {uiSummary, actionPurpose, category};
    selection    a query whose cosine similarity to a query of its batch already
                 kept, or of the pool, is >= tau (0.85) is dropped;
    saturation   the cumulative count of kept queries is fitted per batch; when the
                 slope of a coarse 3-point fit over the last three batches falls to
                 ``ratio`` (0.3) of the first three batches' slope (the elbow), twice
                 in consecutive batches, exploration stops (or at ``max_batches``);
    roll-out     each kept query runs on the phone with the planner, handover and
                 safety stops included; its query, steps, the categories of the
                 screens it met and their embeddings go into the memory bank;
    novelty      query novelty from k-means of the bank's query embeddings (cluster
                 count at the elbow of the inertia curve): 1 - (cluster size - 1) / N;
                 step novelty: mean over its steps of (1 - the highest similarity to
                 a step of another entry); category novelty: the share of its
                 sensitive categories no earlier entry met; reward
                 R = query x (step + category).

The bank is saved as ``bank.json`` and exported as ``sft.jsonl`` (one chat
transcript per roll-out that succeeded or handed over) and ``grpo.jsonl`` (one
prompt per query with its reward and novelty parts).

    explorer = Explorer(seed, LLMProposer(llm), encode, rollout, out=Path("explore"))
    result = explorer.run()
"""

from __future__ import annotations

import dataclasses
import functools
import importlib.resources
import json
import logging
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from string import Template
from typing import Any, ClassVar, Protocol

import numpy as np
import yaml

from screenpilot.errors import DataError, LLMResponseError, PlannerError
from screenpilot.model import (
    ActionKind,
    BlockKind,
    ElementKind,
    Outcome,
    Screen,
    SensitiveCategory,
    Trajectory,
)
from screenpilot.planner.llm import ChatModel
from screenpilot.planner.parse import extract_json

log = logging.getLogger(__name__)
Encoder = Callable[[Sequence[str]], np.ndarray]
CATEGORIES = tuple(c.value for c in SensitiveCategory)


# --- queries ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class QueryStep:
    """One step of a proposed (or demonstrated) task."""

    ui_summary: str
    action_purpose: str
    category: str = "none"

    def to_dict(self) -> dict[str, str]:
        return {"uiSummary": self.ui_summary, "actionPurpose": self.action_purpose,
                "category": self.category}

    @classmethod
    def from_dict(cls, data: Any) -> QueryStep | None:
        if not isinstance(data, dict):
            return None
        summary = str(data.get("uiSummary") or data.get("ui_summary") or "").strip()
        purpose = str(data.get("actionPurpose") or data.get("action_purpose") or "").strip()
        category = str(data.get("category") or "none").strip().lower()
        if not purpose:
            return None
        return cls(summary, purpose, category if category in CATEGORIES else "none")


@dataclass(frozen=True, slots=True)
class Query:
    """A single-task query and the steps its proposer expects."""

    text: str
    steps: tuple[QueryStep, ...] = ()
    batch: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"query": self.text, "batch": self.batch,
                "steps": [s.to_dict() for s in self.steps]}


def summarise_screen(screen: Screen, limit: int = 8) -> str:
    """A short summary of a screen: its first labels, in reading order."""
    bars = {b.id for b in screen.blocks if b.kind in (BlockKind.STATUS_BAR,
                                                      BlockKind.NAVIGATION_BAR)}
    labels: list[str] = []
    for e in screen.reading_order():
        label = e.label.strip()
        if (label and label not in labels and e.block_id not in bars
                and e.kind not in (ElementKind.STATUS_BAR, ElementKind.NAVIGATION_BAR)):
            labels.append(label)
    if screen.secure:
        return "a screen that hides its content (FLAG_SECURE)"
    return ", ".join(f"'{t}'" for t in labels[:limit]) or "an empty screen"


def step_category(step: Any) -> str:
    """The sensitive category a trajectory step met (its screen's, or its handover's)."""
    sens = step.before.sensitivity
    if sens.sensitive:
        return str(sens.category.value)
    if step.action.kind is ActionKind.HANDOVER:
        m = re.search(r"\((" + "|".join(CATEGORIES) + r")\)", step.action.reason)
        if m:
            return m.group(1)
    return "none"


def _app_of(task: str) -> str:
    m = re.search(r"\bin (?:the )?([A-Z][\w-]*)(?: app)?\b", task)
    return m.group(1) if m else ""


@dataclass(frozen=True, slots=True)
class Seed:
    """What exploration starts from: a task, its app, its steps (and its screens)."""

    task: str
    app: str = ""
    steps: tuple[QueryStep, ...] = ()
    screens: tuple[Screen, ...] = ()

    @classmethod
    def from_trajectory(cls, traj: Trajectory) -> Seed:
        steps, screens = [], []
        for s in traj.steps:
            if s.action.kind is ActionKind.STOP:
                continue
            steps.append(QueryStep(summarise_screen(s.before), s.action.describe(s.before),
                                   step_category(s)))
            screens.append(s.before)
        return cls(traj.task, traj.app or _app_of(traj.task), tuple(steps), tuple(screens))

    @classmethod
    def from_demonstration(cls, instruction: str, steps: Sequence[str], app: str = "") -> Seed:
        return cls(instruction, app or _app_of(instruction),
                   tuple(QueryStep("", s) for s in steps))

    @classmethod
    def load(cls, path: Path) -> Seed:
        """A seed from a saved ``trajectory.json``."""
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise DataError(f"cannot read trajectory {path}: {exc.strerror}") from exc
        return cls.from_trajectory(Trajectory.from_json(text))

    def as_query(self) -> Query:
        return Query(self.task, self.steps, batch=0)


# --- generation ---------------------------------------------------------------------------------
class Proposer(Protocol):
    """Proposes new single-task queries from the seed and the pool so far."""

    def propose(self, seed: Seed, pool: Sequence[Query], n: int, batch: int) -> list[Query]: ...


@functools.lru_cache(maxsize=1)
def explorer_prompt() -> dict[str, Template]:
    """The proxy-user instruction prompt (``prompts/explorer.yaml``)."""
    resource = importlib.resources.files("screenpilot.planner.prompts").joinpath("explorer.yaml")
    data = yaml.safe_load(resource.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not {"system", "user"} <= set(data):
        raise PlannerError("prompts/explorer.yaml needs 'system' and 'user' templates",
                           hint="reinstall screenpilot")
    return {k: Template(str(v).strip()) for k, v in data.items()}


def parse_queries(answer: str, batch: int) -> list[Query]:
    """The queries in a proxy user's answer; unusable items are skipped."""
    data = extract_json(answer)
    items = data.get("queries")
    if not isinstance(items, list):
        raise LLMResponseError("the answer has no 'queries' list",
                               hint='answer {"queries": [{"query": "...", "steps": [...]}]}')
    out = []
    for item in items:
        if not isinstance(item, dict):
            continue
        text = " ".join(str(item.get("query") or item.get("task") or "").split())
        if not text:
            continue
        raw = item.get("steps")
        raw = raw if isinstance(raw, list) else []
        steps = tuple(s for s in (QueryStep.from_dict(d) for d in raw) if s is not None)
        out.append(Query(text, steps, batch))
    return out


class LLMProposer:
    """The proxy user is an LLM (any ``ChatModel``), asked once per batch."""

    def __init__(self, llm: ChatModel, *, temperature: float = 0.8, pool_shown: int = 40) -> None:
        self.llm = llm
        self.temperature = temperature
        self.pool_shown = pool_shown
        self.failures = 0

    def messages(self, seed: Seed, pool: Sequence[Query], n: int) -> list[dict[str, str]]:
        prompt = explorer_prompt()
        demo = json.dumps({"query": seed.task, "steps": [s.to_dict() for s in seed.steps]},
                          ensure_ascii=False, indent=1)
        shown = [q.text for q in pool][-self.pool_shown:]
        values = {"app": seed.app or "the app", "n": str(n), "seed": demo,
                  "pool": "\n".join(f"- {t}" for t in shown) or "(none yet)",
                  "categories": ", ".join(CATEGORIES)}
        return [{"role": "system", "content": prompt["system"].safe_substitute(values)},
                {"role": "user", "content": prompt["user"].safe_substitute(values)}]

    def propose(self, seed: Seed, pool: Sequence[Query], n: int, batch: int) -> list[Query]:
        result = self.llm.complete(self.messages(seed, pool, n), temperature=self.temperature)
        try:
            return parse_queries(result.text, batch)[:n]
        except LLMResponseError as exc:
            self.failures += 1
            log.warning("the proxy user's answer was unusable: %s", exc)
            return []


class OfflineProposer:
    """A proxy user without an LLM: "Show X in the APP app" for the labels the app's
    screens in the seed show and the demonstration did not tap, each with the seed's
    steps up to that screen."""

    QUERY_KINDS: ClassVar[frozenset[ElementKind]] = frozenset({ElementKind.TEXT,
                                                               ElementKind.BUTTON})

    def __init__(self, *, seed_value: int = 0) -> None:
        self.rng = random.Random(seed_value)

    def candidates(self, seed: Seed) -> list[Query]:
        tapped = {s.action_purpose for s in seed.steps}
        out: list[Query] = []
        seen: set[str] = set()
        # the screens before the app was opened (the home screen) are not the app's
        first = next((i + 1 for i, s in enumerate(seed.steps)
                      if seed.app and f"'{seed.app}'" in s.action_purpose), 0)
        for i, screen in enumerate(seed.screens):
            if i < first:
                continue
            for e in screen.reading_order():
                label = e.label.strip()
                named = e.kind in self.QUERY_KINDS or (e.kind in (ElementKind.IMAGE,
                                                                  ElementKind.ICON) and e.text)
                if (not named or label in seen
                        or not self.nameish(label) or any(f"'{label}'" in t for t in tapped)
                        or e.box.y1 < screen.height * 0.05):
                    continue
                seen.add(label)
                steps = (*seed.steps[:i], QueryStep(summarise_screen(screen),
                                                    f"tap '{label}'", "none"))
                # lower case: a capitalised label would read as a value to type
                what = label.lower() if label[:1].isupper() else label
                text = f"Show {what} in the {seed.app} app" if seed.app else f"Show {what}"
                out.append(Query(text, steps))
        return out

    @staticmethod
    def nameish(label: str) -> bool:
        """Whether a label reads like the name of a page or a control ('Stores', 'Sign
        out', '付款记录'), not a price, a rating or a sentence."""
        words = label.split()
        letters = sum(ch.isalpha() for ch in label)
        return (1 <= len(words) <= 4 and letters >= 3 and letters >= 0.7 * len(label.replace(
            " ", "")) and not label.endswith((".", "!", "?", ":")))

    def propose(self, seed: Seed, pool: Sequence[Query], n: int, batch: int) -> list[Query]:
        asked = {q.text for q in pool}
        found = [q for q in self.candidates(seed) if q.text not in asked]
        self.rng.shuffle(found)
        return [dataclasses.replace(q, batch=batch) for q in found[:n]]


# --- selection ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Dropped:
    """A query selection dropped, and the query it was too close to."""

    query: Query
    similarity: float
    like: str


def select(queries: Sequence[Query], vectors: np.ndarray, pool: Sequence[Query],
           pool_vectors: np.ndarray, tau: float = 0.85) -> tuple[list[int], list[Dropped]]:
    """Indices of the queries kept, in order, and those dropped: a query is dropped when
    its cosine similarity to a query of the pool, or to one of this batch already kept,
    is >= ``tau`` (vectors are normalised)."""
    kept: list[int] = []
    dropped: list[Dropped] = []
    for i, q in enumerate(queries):
        refs = [(p.text, pool_vectors[j]) for j, p in enumerate(pool)]
        refs += [(queries[k].text, vectors[k]) for k in kept]
        if refs:
            sims = np.array([float(v @ vectors[i]) for _, v in refs])
            j = int(np.argmax(sims))
            if sims[j] >= tau:
                dropped.append(Dropped(q, float(sims[j]), refs[j][0]))
                continue
        kept.append(i)
    return kept, dropped


# --- saturation ---------------------------------------------------------------------------------
def _slope(points: Sequence[float] | np.ndarray) -> float:
    x = np.arange(len(points), dtype=np.float64)
    return float(np.polyfit(x, np.asarray(points, dtype=np.float64), 1)[0])


def at_elbow(kept_per_batch: Sequence[int], ratio: float = 0.3) -> bool:
    """Whether the cumulative kept-query curve has flattened: the slope of a 3-point fit
    over the last three batches is at most ``ratio`` times that over the first three."""
    if len(kept_per_batch) < 3:
        return False
    total = np.cumsum(np.asarray(kept_per_batch, dtype=np.float64))
    first, last = _slope(total[:3]), _slope(total[-3:])
    return last <= ratio * first + 1e-9 if first > 0 else True


def saturated(kept_per_batch: Sequence[int], ratio: float = 0.3, times: int = 2) -> bool:
    """Whether the elbow test held in the last ``times`` consecutive batches."""
    return all(at_elbow(kept_per_batch[:n], ratio)
               for n in range(len(kept_per_batch) - times + 1, len(kept_per_batch) + 1)) \
        if len(kept_per_batch) >= 3 + times - 1 else False


# --- k-means and novelty ------------------------------------------------------------------------
def kmeans(x: np.ndarray, k: int, *, seed: int = 0, iters: int = 50) -> tuple[np.ndarray,
                                                                            np.ndarray, float]:
    """(labels, centroids, inertia) of k-means with k-means++ seeding (numpy only)."""
    n = len(x)
    if n == 0:
        raise ValueError("k-means of nothing")
    k = max(1, min(k, n))
    rng = np.random.default_rng(seed)
    centroids = [x[int(rng.integers(n))]]
    for _ in range(1, k):
        d = np.min(((x[:, None, :] - np.asarray(centroids)[None]) ** 2).sum(-1), axis=1)
        p = d / d.sum() if d.sum() > 0 else np.full(n, 1.0 / n)
        centroids.append(x[int(rng.choice(n, p=p))])
    c = np.asarray(centroids, dtype=np.float64)
    labels = np.zeros(n, dtype=int)
    for _ in range(iters):
        d = ((x[:, None, :] - c[None]) ** 2).sum(-1)
        new = np.argmin(d, axis=1)
        if _ > 0 and np.array_equal(new, labels):
            break
        labels = new
        for j in range(k):
            members = x[labels == j]
            if len(members):
                c[j] = members.mean(axis=0)
    inertia = float(((x - c[labels]) ** 2).sum())
    return labels, c, inertia


def elbow_k(x: np.ndarray, k_max: int = 8, *, seed: int = 0) -> int:
    """The cluster count at the elbow of the inertia curve (the point farthest from the
    line joining its two ends)."""
    n = len(x)
    ks = list(range(1, min(k_max, n) + 1))
    if len(ks) <= 2:
        return ks[-1] if ks and n > 2 else 1
    inertia = np.array([kmeans(x, k, seed=seed)[2] for k in ks])
    if inertia[0] <= 1e-12:
        return 1
    y = inertia / inertia[0]
    xs = (np.array(ks, dtype=np.float64) - 1) / (ks[-1] - 1)
    p0, p1 = np.array([xs[0], y[0]]), np.array([xs[-1], y[-1]])
    line = (p1 - p0) / np.linalg.norm(p1 - p0)
    pts = np.stack([xs, y], axis=1) - p0
    dist = np.abs(pts[:, 0] * line[1] - pts[:, 1] * line[0])
    return ks[int(np.argmax(dist))]


@dataclass
class BankEntry:
    """One explored query: what it was, what running it did, and how novel it was."""

    query: Query
    outcome: str
    steps: list[str]
    step_categories: list[str]
    query_vector: np.ndarray
    step_vectors: np.ndarray
    trajectory: str = ""
    seed: bool = False
    cluster: int = 0
    novelty_query: float = 0.0
    novelty_step: float = 0.0
    novelty_category: float = 0.0
    reward: float = 0.0
    messages: list[dict[str, str]] = field(default_factory=list)

    @property
    def categories(self) -> list[str]:
        return sorted({c for c in self.step_categories if c != "none"})

    def to_dict(self) -> dict[str, Any]:
        return {"query": self.query.text, "batch": self.query.batch, "seed": self.seed,
                "proposed_steps": [s.to_dict() for s in self.query.steps],
                "outcome": self.outcome, "steps": self.steps,
                "step_categories": self.step_categories, "categories": self.categories,
                "trajectory": self.trajectory, "cluster": self.cluster,
                "novelty": {"query": round(self.novelty_query, 4),
                            "step": round(self.novelty_step, 4),
                            "category": round(self.novelty_category, 4)},
                "reward": round(self.reward, 4),
                "query_embedding": [round(float(v), 5) for v in self.query_vector],
                "step_embeddings": [[round(float(v), 5) for v in row]
                                    for row in self.step_vectors]}


class MemoryBank:
    """Every explored query (the seed first), scored for novelty."""

    def __init__(self) -> None:
        self.entries: list[BankEntry] = []

    def __len__(self) -> int:
        return len(self.entries)

    def add(self, entry: BankEntry) -> None:
        self.entries.append(entry)

    def score(self, *, k_max: int = 8) -> int:
        """Fill in every entry's novelty and reward; returns the cluster count used."""
        if not self.entries:
            return 0
        q = np.stack([e.query_vector for e in self.entries]).astype(np.float64)
        k = elbow_k(q, k_max)
        labels, _, _ = kmeans(q, k)
        n = len(self.entries)
        sizes = np.bincount(labels, minlength=k)
        seen: set[str] = set()
        for i, e in enumerate(self.entries):
            e.cluster = int(labels[i])
            e.novelty_query = 1.0 - (sizes[labels[i]] - 1) / n
            others = [o.step_vectors for j, o in enumerate(self.entries)
                      if j != i and len(o.step_vectors)]
            if len(e.step_vectors) and others:
                bank = np.concatenate(others)
                best = (e.step_vectors @ bank.T).max(axis=1)
                e.novelty_step = float(np.mean(1.0 - np.clip(best, -1.0, 1.0)))
            else:
                e.novelty_step = 1.0 if len(e.step_vectors) else 0.0
            cats = set(e.categories)
            e.novelty_category = len(cats - seen) / len(cats) if cats else 0.0
            seen |= cats
            e.reward = e.novelty_query * (e.novelty_step + e.novelty_category)
        return k

    # --- export ---------------------------------------------------------------------------
    def save(self, path: Path, **extra: Any) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        data = {"schema": 1, **extra, "entries": [e.to_dict() for e in self.entries]}
        path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
        return path

    def export_sft(self, path: Path) -> int:
        """One chat transcript per roll-out that succeeded or handed over to the person."""
        n = 0
        with path.open("w", encoding="utf-8") as out:
            for e in self.entries:
                if e.seed or not e.messages or e.outcome not in (
                        Outcome.SUCCESS.value, Outcome.SAFETY_STOP.value):
                    continue
                out.write(json.dumps({"query": e.query.text, "outcome": e.outcome,
                                      "categories": e.categories, "messages": e.messages},
                                     ensure_ascii=False) + "\n")
                n += 1
        return n

    def export_grpo(self, path: Path, app: str = "") -> int:
        """One prompt per explored query, with its reward and the parts of it."""
        n = 0
        with path.open("w", encoding="utf-8") as out:
            for e in self.entries:
                if e.seed:
                    continue
                out.write(json.dumps({
                    "prompt": [{"role": "user", "content": e.query.text}],
                    "query": e.query.text, "app": app, "reward": round(e.reward, 4),
                    "novelty": {"query": round(e.novelty_query, 4),
                                "step": round(e.novelty_step, 4),
                                "category": round(e.novelty_category, 4)},
                    "categories": e.categories, "outcome": e.outcome,
                    "reference_steps": [s.to_dict() for s in e.query.steps],
                    "executed_steps": e.steps}, ensure_ascii=False) + "\n")
                n += 1
        return n


# --- the loop -----------------------------------------------------------------------------------
#: Runs one query on the phone into a folder and returns its trajectory (also when the
#: run stopped at a sensitive screen: the trajectory says so).
Rollout = Callable[[Query, Path], Trajectory]


@dataclass
class BatchReport:
    """What one batch did."""

    batch: int
    proposed: int
    kept: list[str]
    dropped: list[Dropped]
    elbow: bool
    categories: list[str] = field(default_factory=list)


@dataclass
class ExploreResult:
    bank: MemoryBank
    batches: list[BatchReport]
    stopped: str
    clusters: int
    files: dict[str, Path]


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40] or "query"


class Explorer:
    """Generation, selection, saturation, roll-out and novelty (see the module docstring)."""

    def __init__(self, seed: Seed, proposer: Proposer, encode: Encoder, rollout: Rollout | None,
                 *, out: Path, per_batch: int = 8, max_batches: int = 10, tau: float = 0.85,
                 elbow_ratio: float = 0.3, on_batch: Callable[[BatchReport], None] | None = None,
                 on_rollout: Callable[[BankEntry], None] | None = None) -> None:
        if per_batch < 1 or max_batches < 1 or not 0.0 < tau <= 1.0:
            raise DataError(f"bad exploration settings: per_batch={per_batch}, "
                            f"max_batches={max_batches}, tau={tau}",
                            hint="per_batch and max_batches >= 1, 0 < tau <= 1")
        self.seed = seed
        self.proposer = proposer
        self.encode = encode
        self.rollout = rollout
        self.out = out
        self.per_batch = per_batch
        self.max_batches = max_batches
        self.tau = tau
        self.elbow_ratio = elbow_ratio
        self.on_batch = on_batch
        self.on_rollout = on_rollout
        self.pool: list[Query] = []
        self.pool_vectors = np.zeros((0, 0), dtype=np.float32)
        self.bank = MemoryBank()

    def _vectors(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, max(1, self.pool_vectors.shape[1])), dtype=np.float32)
        return np.asarray(self.encode(list(texts)), dtype=np.float32)

    def _entry(self, query: Query, traj: Trajectory | None, path: str, *,
               seed: bool = False) -> BankEntry:
        if traj is not None:
            acted = [s for s in traj.steps if s.action.kind is not ActionKind.STOP]
            words = [s.action.describe(s.before) for s in acted]
            cats = [step_category(s) for s in acted]
            outcome = traj.outcome.value
            messages = traj.to_messages()
        else:
            words = [s.action_purpose for s in query.steps]
            cats = [s.category for s in query.steps]
            outcome, messages = ("seed" if seed else "not run"), []
        qv = self._vectors([query.text])[0]
        sv = self._vectors(words) if words else np.zeros((0, len(qv)), dtype=np.float32)
        return BankEntry(query, outcome, words, cats, qv, sv, path, seed, messages=messages)

    def _roll(self, query: Query, index: int) -> BankEntry:
        folder = self.out / "rollouts" / f"{index:03d}-{_slug(query.text)}"
        traj: Trajectory | None = None
        if self.rollout is not None:
            traj = self.rollout(query, folder)
        return self._entry(query, traj, str(folder / "trajectory.json") if traj else "")

    def run(self) -> ExploreResult:
        seed_query = self.seed.as_query()
        self.pool = [seed_query]
        self.pool_vectors = self._vectors([seed_query.text])
        self.bank.add(self._entry(seed_query, None, "", seed=True))
        reports: list[BatchReport] = []
        kept_counts: list[int] = []
        stopped = f"max batches ({self.max_batches})"
        for batch in range(1, self.max_batches + 1):
            proposed = self.proposer.propose(self.seed, self.pool, self.per_batch, batch)
            vectors = self._vectors([q.text for q in proposed])
            kept_idx, dropped = select(proposed, vectors, self.pool, self.pool_vectors,
                                       self.tau)
            kept = [proposed[i] for i in kept_idx]
            kept_counts.append(len(kept))
            if kept:
                self.pool += kept
                self.pool_vectors = np.concatenate([self.pool_vectors, vectors[kept_idx]])
            report = BatchReport(batch, len(proposed), [q.text for q in kept], dropped,
                                 at_elbow(kept_counts, self.elbow_ratio))
            for q in kept:
                entry = self._roll(q, len(self.bank))
                self.bank.add(entry)
                report.categories += entry.categories
                if self.on_rollout is not None:
                    self.on_rollout(entry)
            reports.append(report)
            if self.on_batch is not None:
                self.on_batch(report)
            if saturated(kept_counts, self.elbow_ratio):
                stopped = f"saturated after batch {batch} (kept per batch: {kept_counts})"
                break
        clusters = self.bank.score()
        files = self.export()
        return ExploreResult(self.bank, reports, stopped, clusters, files)

    def export(self) -> dict[str, Path]:
        self.out.mkdir(parents=True, exist_ok=True)
        bank = self.bank.save(self.out / "bank.json", task=self.seed.task, app=self.seed.app,
                              tau=self.tau)
        sft, grpo = self.out / "sft.jsonl", self.out / "grpo.jsonl"
        self.bank.export_sft(sft)
        self.bank.export_grpo(grpo, self.seed.app)
        return {"bank": bank, "sft": sft, "grpo": grpo}
