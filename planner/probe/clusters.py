"""k-means (numpy only) and the cluster count at the elbow of its inertia curve: how
query novelty groups the memory bank's query embeddings."""

from __future__ import annotations

import numpy as np


def kmeans(
    x: np.ndarray, k: int, *, seed: int = 0, iters: int = 50
) -> tuple[np.ndarray, np.ndarray, float]:
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
