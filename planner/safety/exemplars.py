"""Safety by resemblance: the labelled exemplar screens shipped as package data
(``data/safety_exemplars.yaml``) and the embedding similarity of a screen's text to
them (``ExemplarSafety``)."""

from __future__ import annotations

import functools
import importlib.resources
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import yaml

from screenpilot.errors import DataError
from screenpilot.model import SensitiveCategory

C = SensitiveCategory
Encoder = Callable[[Sequence[str]], np.ndarray]

EXEMPLARS_PACKAGE = "screenpilot.planner"
EXEMPLARS_FILE = "data/safety_exemplars.yaml"


@dataclass(frozen=True, slots=True)
class Exemplar:
    """A labelled screen: its category and its text (labels joined with ' | ')."""

    category: SensitiveCategory
    text: str


@functools.lru_cache(maxsize=2)
def load_exemplars(text: str | None = None) -> tuple[Exemplar, ...]:
    """The exemplars shipped as package data (or parsed from ``text``)."""
    if text is None:
        resource = importlib.resources.files(EXEMPLARS_PACKAGE).joinpath(EXEMPLARS_FILE)
        try:
            text = resource.read_text(encoding="utf-8")
        except FileNotFoundError as exc:
            raise DataError(
                f"no {EXEMPLARS_FILE} in {EXEMPLARS_PACKAGE}", hint="reinstall screenpilot"
            ) from exc
    data = yaml.safe_load(text)
    if not isinstance(data, dict):
        raise DataError("safety exemplars must map categories to lists of screen texts")
    out = []
    for name, items in data.items():
        try:
            category = SensitiveCategory(name)
        except ValueError as exc:
            raise DataError(
                f"unknown category {name!r} in the safety exemplars",
                hint=f"one of {', '.join(SensitiveCategory)}",
            ) from exc
        if not isinstance(items, list) or not all(isinstance(t, str) for t in items):
            raise DataError(f"safety exemplars of {name!r} must be a list of strings")
        out += [Exemplar(category, " ".join(t.split())) for t in items]
    return tuple(out)


@dataclass(frozen=True, slots=True)
class ExemplarMatch:
    """The nearest exemplars' verdict on a screen's text."""

    category: SensitiveCategory
    similarity: float
    exemplar: str
    benign: float
    margin: float

    @property
    def evidence(self) -> str:
        return (
            f"resembles the labelled {self.category.value} screen "
            f"'{self.exemplar[:60]}' ({self.similarity:.2f})"
        )


class ExemplarSafety:
    """Embedding similarity of a screen's text to labelled exemplar screens.

    ``encode`` is the sentence embedder's (normalised vectors); the exemplars are
    embedded on first use, so building one costs nothing. The verdict is the
    category of the ``k`` nearest exemplars (similarity-weighted vote); ``benign``
    is the similarity of the nearest ``none`` exemplar (the look-alikes).
    """

    def __init__(
        self, encode: Encoder, exemplars: Sequence[Exemplar] | None = None, *, k: int = 3
    ) -> None:
        self._encode = encode
        self.exemplars = tuple(exemplars) if exemplars is not None else load_exemplars()
        self.k = k
        self._matrix: np.ndarray | None = None

    def _vectors(self) -> np.ndarray:
        if self._matrix is None:
            self._matrix = np.asarray(
                self._encode([e.text for e in self.exemplars]), dtype=np.float32
            )
        return self._matrix

    def match(self, text: str) -> ExemplarMatch | None:
        """The nearest exemplars' verdict on ``text`` (None for an empty text)."""
        if not text.strip() or not self.exemplars:
            return None
        query = np.asarray(self._encode([text]), dtype=np.float32)[0]
        sims = self._vectors() @ query
        order = np.argsort(-sims)[: self.k]
        votes: dict[SensitiveCategory, float] = {}
        for i in order:
            cat = self.exemplars[int(i)].category
            votes[cat] = votes.get(cat, 0.0) + float(sims[i])
        category = max(votes, key=lambda c: votes[c])
        best = next(int(i) for i in order if self.exemplars[int(i)].category is category)
        benign_sims = [
            float(s) for s, e in zip(sims, self.exemplars, strict=True) if e.category is C.NONE
        ]
        benign = max(benign_sims, default=0.0)
        return ExemplarMatch(
            category,
            float(sims[best]),
            self.exemplars[best].text,
            benign,
            float(sims[best]) - benign,
        )
