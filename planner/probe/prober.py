"""The probe loop: batches of generation, selection, saturation and roll-out into the
memory bank, then novelty scoring and export (see the package docstring)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from screenpilot.errors import DataError
from screenpilot.model import ActionKind, Trajectory
from screenpilot.planner.encoding import Encoder
from screenpilot.planner.probe.bank import BankEntry, MemoryBank
from screenpilot.planner.probe.proposers import Proposer
from screenpilot.planner.probe.queries import Query, Seed, step_category
from screenpilot.planner.probe.selection import Dropped, at_elbow, saturated, select

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
class ProbeResult:
    """What a probe did: the scored bank, each batch, why it stopped, the files written."""

    bank: MemoryBank
    batches: list[BatchReport]
    stopped: str
    clusters: int
    files: dict[str, Path]


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40] or "query"


class Prober:
    """Generation, selection, saturation, roll-out and novelty (see the module docstring)."""

    def __init__(
        self,
        seed: Seed,
        proposer: Proposer,
        encode: Encoder,
        rollout: Rollout | None,
        *,
        out: Path,
        per_batch: int = 8,
        max_batches: int = 10,
        tau: float = 0.85,
        elbow_ratio: float = 0.3,
        on_batch: Callable[[BatchReport], None] | None = None,
        on_rollout: Callable[[BankEntry], None] | None = None,
    ) -> None:
        if per_batch < 1 or max_batches < 1 or not 0.0 < tau <= 1.0:
            raise DataError(
                f"bad exploration settings: per_batch={per_batch}, "
                f"max_batches={max_batches}, tau={tau}",
                hint="per_batch and max_batches >= 1, 0 < tau <= 1",
            )
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

    def _entry(
        self, query: Query, traj: Trajectory | None, path: str, *, seed: bool = False
    ) -> BankEntry:
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

    def run(self) -> ProbeResult:
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
            kept_idx, dropped = select(proposed, vectors, self.pool, self.pool_vectors, self.tau)
            kept = [proposed[i] for i in kept_idx]
            kept_counts.append(len(kept))
            if kept:
                self.pool += kept
                self.pool_vectors = np.concatenate([self.pool_vectors, vectors[kept_idx]])
            report = BatchReport(
                batch,
                len(proposed),
                [q.text for q in kept],
                dropped,
                at_elbow(kept_counts, self.elbow_ratio),
            )
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
        return ProbeResult(self.bank, reports, stopped, clusters, files)

    def export(self) -> dict[str, Path]:
        self.out.mkdir(parents=True, exist_ok=True)
        bank = self.bank.save(
            self.out / "bank.json", task=self.seed.task, app=self.seed.app, tau=self.tau
        )
        sft, grpo = self.out / "sft.jsonl", self.out / "grpo.jsonl"
        self.bank.export_sft(sft)
        self.bank.export_grpo(grpo, self.seed.app)
        return {"bank": bank, "sft": sft, "grpo": grpo}
