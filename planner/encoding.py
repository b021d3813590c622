"""Text embeddings as the planners use them: the encoder type (texts -> normalised
vectors) and a cache that encodes each text once."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

#: Embeds texts as rows of normalised vectors.
Encoder = Callable[[Sequence[str]], np.ndarray]
#: Cosine similarity of each text to a query.
Similarity = Callable[[str, Sequence[str]], np.ndarray]


class CachedEncoder:
    """An ``Encoder`` that encodes each text once (the screens of a run repeat labels)."""

    def __init__(self, encode: Encoder) -> None:
        self._encode = encode
        self._cache: dict[str, np.ndarray] = {}

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        missing = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if missing:
            for text, vector in zip(missing, self._encode(missing), strict=True):
                self._cache[text] = vector
        return np.stack([self._cache[t] for t in texts])

    def similarity(self, query: str, texts: Sequence[str]) -> np.ndarray:
        """Cosine similarity of each of ``texts`` to ``query`` (vectors are normalised)."""
        vectors = self([query, *texts])
        return np.asarray(vectors[1:] @ vectors[0], dtype=np.float64)
