"""Embeddings of the icon CLIP: the label prompts (``PromptBank``), label and image vectors.

torch and open_clip are imported inside the functions that use them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from screenpilot.training.icons.model import register_config, to_tensor
from screenpilot.vision.icon_vocab import Vocabulary


class PromptBank:
    """The tokenised label text of every label (one fixed prompt each, see
    ``Vocabulary.prompt``)."""

    def __init__(self, vocab: Vocabulary, arch: str) -> None:
        import open_clip

        register_config()
        self.tokenizer = open_clip.get_tokenizer(arch)
        self.vocab = vocab
        self.tokens = [self.tokenizer([vocab.prompt(name)]) for name in vocab.names]

    def sample(self, labels: Sequence[int], rng: np.random.Generator) -> Any:
        """One random prompt per label, stacked."""
        import torch

        rows = [self.tokens[i][int(rng.integers(len(self.tokens[i])))] for i in labels]
        return torch.stack(rows)


def label_embeddings(model: Any, bank: PromptBank) -> npt.NDArray[np.float32]:
    """(labels, dim) unit vectors: each label's prompt embeddings averaged."""
    import torch

    model.eval()
    rows = []
    with torch.no_grad():
        for tokens in bank.tokens:
            emb = model.encode_text(tokens, normalize=True).mean(0)
            rows.append(emb / emb.norm())
    stacked: npt.NDArray[np.float32] = torch.stack(rows).numpy().astype(np.float32)
    return stacked


def image_embeddings(
    model: Any,
    images: npt.NDArray[np.uint8],
    mean: Sequence[float],
    std: Sequence[float],
    batch: int = 256,
    mode: str = "rgb",
) -> npt.NDArray[np.float32]:
    """(N, dim) unit vectors of the image tower."""
    import torch

    model.eval()
    out = []
    with torch.no_grad():
        for start in range(0, len(images), batch):
            x = to_tensor(images[start : start + batch], mean, std, mode)
            out.append(model.encode_image(x, normalize=True).numpy())
    return np.concatenate(out).astype(np.float32) if out else np.zeros((0, 1), np.float32)
