"""The memory bank: every probed query (the seed first) with what running it did, scored
for novelty (query, step, category) and reward, saved as ``bank.json`` and exported as
``sft.jsonl`` and ``grpo.jsonl``."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from screenpilot.model import Outcome
from screenpilot.planner.probe.clusters import elbow_k, kmeans
from screenpilot.planner.probe.queries import Query


@dataclass
class BankEntry:
    """One probed query: what it was, what running it did, and how novel it was."""

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
        return {
            "query": self.query.text,
            "batch": self.query.batch,
            "seed": self.seed,
            "proposed_steps": [s.to_dict() for s in self.query.steps],
            "outcome": self.outcome,
            "steps": self.steps,
            "step_categories": self.step_categories,
            "categories": self.categories,
            "trajectory": self.trajectory,
            "cluster": self.cluster,
            "novelty": {
                "query": round(self.novelty_query, 4),
                "step": round(self.novelty_step, 4),
                "category": round(self.novelty_category, 4),
            },
            "reward": round(self.reward, 4),
            "query_embedding": [round(float(v), 5) for v in self.query_vector],
            "step_embeddings": [[round(float(v), 5) for v in row] for row in self.step_vectors],
        }


class MemoryBank:
    """Every probed query (the seed first), scored for novelty."""

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
            others = [
                o.step_vectors for j, o in enumerate(self.entries) if j != i and len(o.step_vectors)
            ]
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
                if (
                    e.seed
                    or not e.messages
                    or e.outcome not in (Outcome.SUCCESS.value, Outcome.SAFETY_STOP.value)
                ):
                    continue
                out.write(
                    json.dumps(
                        {
                            "query": e.query.text,
                            "outcome": e.outcome,
                            "categories": e.categories,
                            "messages": e.messages,
                        },
                        ensure_ascii=False,
                    )
                    + "\n"
                )
                n += 1
        return n

    def export_grpo(self, path: Path, app: str = "") -> int:
        """One prompt per probed query, with its reward and the parts of it."""
        n = 0
        with path.open("w", encoding="utf-8") as out:
            for e in self.entries:
                if e.seed:
                    continue
                out.write(
                    json.dumps(
                        {
                            "prompt": [{"role": "user", "content": e.query.text}],
                            "query": e.query.text,
                            "app": app,
                            "reward": round(e.reward, 4),
                            "novelty": {
                                "query": round(e.novelty_query, 4),
                                "step": round(e.novelty_step, 4),
                                "category": round(e.novelty_category, 4),
                            },
                            "categories": e.categories,
                            "outcome": e.outcome,
                            "reference_steps": [s.to_dict() for s in e.query.steps],
                            "executed_steps": e.steps,
                        },
                        ensure_ascii=False,
                    )
                    + "\n"
                )
                n += 1
        return n
