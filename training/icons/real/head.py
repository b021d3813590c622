"""The fine-tuned labeller: the image tower + a cosine classifier over the labels (one torch
module), and its checkpoints. torch is imported inside the functions."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from screenpilot.errors import DataError
from screenpilot.training.icons.model import build_arch
from screenpilot.training.icons.real.config import RealTuneConfig


def build_head(visual: Any, label_embeddings: npt.NDArray[np.float32], scale: float) -> Any:
    """``logits = scale * f_img . w_label`` (both unit length); ``w`` starts as
    ``label_embeddings``."""
    import torch

    class Head(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.visual = visual
            self.weight = torch.nn.Parameter(torch.from_numpy(label_embeddings.copy()))
            self.register_buffer("scale", torch.tensor(float(scale)))

        def embed(self, x: Any) -> Any:
            f = self.visual(x)
            return f / f.norm(dim=-1, keepdim=True).clamp_min(1e-6)

        def forward(self, x: Any) -> Any:
            w = self.weight / self.weight.norm(dim=-1, keepdim=True)
            return self.scale * self.embed(x) @ w.T

    return Head()


def save(
    path: Path,
    head: Any,
    optimizer: Any,
    step: int,
    cfg: RealTuneConfig,
    metrics: dict[str, float],
    best: float,
    labels_doc: dict[str, Any],
) -> None:
    """Write a ``train icons-real`` checkpoint atomically."""
    import torch

    raw = asdict(cfg)
    raw = {k: str(v) if isinstance(v, Path) else v for k, v in raw.items()}
    tmp = path.with_suffix(".tmp")
    torch.save(
        {
            "visual": head.visual.state_dict(),
            "weight": head.weight.detach().clone(),
            "scale": float(head.scale),
            "optimizer": optimizer.state_dict(),
            "step": step,
            "config": raw,
            "metrics": metrics,
            "best": best,
            "labels_doc": {k: v for k, v in labels_doc.items() if k != "embeddings"},
        },
        tmp,
    )
    tmp.replace(path)


def load(path: Path) -> tuple[Any, dict[str, Any]]:
    """(head, checkpoint) of a ``train icons-real`` checkpoint."""
    import torch

    try:
        ckpt = torch.load(path, map_location="cpu", weights_only=False)
    except (OSError, RuntimeError, EOFError) as exc:
        raise DataError(f"cannot read {path}: {exc}") from exc
    doc = ckpt["labels_doc"]
    visual = build_arch(str(doc["arch"]), doc.get("model_config"), doc.get("image_size")).visual
    visual.load_state_dict(ckpt["visual"])
    head = build_head(visual, ckpt["weight"].numpy(), ckpt["scale"])
    head.eval()
    return head, ckpt


def resume(path: Path, head: Any, optimizer: Any) -> tuple[int, float]:
    """Load ``path`` (``last.pt``) into ``head`` and ``optimizer``: (step, best)."""
    import torch

    ckpt = torch.load(path, map_location="cpu", weights_only=False)
    head.visual.load_state_dict(ckpt["visual"])
    with torch.no_grad():
        head.weight.copy_(ckpt["weight"])
    optimizer.load_state_dict(ckpt["optimizer"])
    return int(ckpt["step"]), float(ckpt["best"])
