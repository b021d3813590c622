"""Selection and saturation: drop a proposed query too close to one already kept, and
stop proposing when the cumulative count of kept queries has flattened (the elbow)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from screenpilot.planner.probe.queries import Query


@dataclass(frozen=True, slots=True)
class Dropped:
    """A query selection dropped, and the query it was too close to."""

    query: Query
    similarity: float
    like: str


def select(
    queries: Sequence[Query],
    vectors: np.ndarray,
    pool: Sequence[Query],
    pool_vectors: np.ndarray,
    tau: float = 0.85,
) -> tuple[list[int], list[Dropped]]:
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
    return (
        all(
            at_elbow(kept_per_batch[:n], ratio)
            for n in range(len(kept_per_batch) - times + 1, len(kept_per_batch) + 1)
        )
        if len(kept_per_batch) >= 3 + times - 1
        else False
    )
