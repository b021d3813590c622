"""The icon CLIP's architectures and towers: open_clip configurations, building a model,
and the image transform (``rgb`` or ``gray`` input) that is also inside the ONNX graph.

torch and open_clip are imported inside the functions that use them.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from screenpilot.errors import DataError

ICON_ARCH = "screenpilot-icon-g32"
ICON_MODEL_CONFIG: dict[str, Any] = {
    "embed_dim": 128,
    "vision_cfg": {"image_size": 32, "layers": [1, 1, 2, 1], "width": 24},
    "text_cfg": {"context_length": 28, "vocab_size": 49408, "width": 128, "heads": 4, "layers": 2},
}
#: The first, 64 px configuration (kept so that its checkpoints still load).
ICON_RN64_ARCH = "screenpilot-icon-rn64"
ICON_RN64_CONFIG: dict[str, Any] = {
    "embed_dim": 128,
    "vision_cfg": {"image_size": 64, "layers": [1, 1, 2, 1], "width": 24},
    "text_cfg": {"context_length": 32, "vocab_size": 49408, "width": 128, "heads": 4, "layers": 3},
}
#: A minute model for tests and smoke runs (same towers, much narrower).
ICON_TINY_ARCH = "screenpilot-icon-tiny"
ICON_TINY_CONFIG: dict[str, Any] = {
    "embed_dim": 32,
    "vision_cfg": {"image_size": 32, "layers": [1, 1, 1, 1], "width": 8},
    "text_cfg": {"context_length": 32, "vocab_size": 49408, "width": 32, "heads": 2, "layers": 1},
}
_CONFIGS = {
    ICON_ARCH: ICON_MODEL_CONFIG,
    ICON_RN64_ARCH: ICON_RN64_CONFIG,
    ICON_TINY_ARCH: ICON_TINY_CONFIG,
}
INPUT_MODES = ("auto", "rgb", "gray")
_GRAY_EPS = 0.02
OPENAI_MEAN = (0.48145466, 0.4578275, 0.40821073)
OPENAI_STD = (0.26862954, 0.26130258, 0.27577711)


def _register(name: str, config: dict[str, Any]) -> None:
    """Make one more architecture known to open_clip (from a checkpoint's model_config)."""
    import open_clip

    folder = Path(tempfile.mkdtemp(prefix="screenpilot-openclip-"))
    (folder / f"{name}.json").write_text(json.dumps(config), encoding="utf-8")
    open_clip.add_model_config(folder)


def register_config() -> None:
    """Make ``ICON_ARCH``, ``ICON_RN64_ARCH`` and ``ICON_TINY_ARCH`` known to open_clip
    (once per process)."""
    import open_clip

    if all(name in open_clip.list_models() for name in _CONFIGS):
        return
    folder = Path(tempfile.mkdtemp(prefix="screenpilot-openclip-"))
    for name, config in _CONFIGS.items():
        (folder / f"{name}.json").write_text(json.dumps(config), encoding="utf-8")
    open_clip.add_model_config(folder)


def build_model(
    arch: str = ICON_ARCH, pretrained: Path | None = None, image_size: int | None = None
) -> Any:
    """An open_clip CLIP: ``arch`` with random weights, or loaded from ``pretrained``;
    ``image_size`` overrides the architecture's input size."""
    import open_clip

    register_config()
    if pretrained is not None and not Path(pretrained).is_file():
        raise DataError(f"pretrained checkpoint {pretrained} does not exist")
    try:
        return open_clip.create_model(
            arch,
            pretrained=str(pretrained) if pretrained else None,
            weights_only=False,
            force_image_size=image_size,
        )
    except (RuntimeError, ValueError, KeyError, OSError) as exc:
        raise DataError(
            f"cannot build open_clip model {arch!r}: {exc}",
            hint="check --arch matches the checkpoint given to --pretrained",
        ) from exc


def build_arch(arch: str, model_config: Any, image_size: int | None = None) -> Any:
    """``arch`` with random weights, registering ``model_config`` (a checkpoint's copy of
    the architecture) first when it is none of the known ones."""
    if arch not in _CONFIGS and isinstance(model_config, dict):
        _register(arch, model_config)
    return build_model(arch, image_size=image_size)


def image_size_of(model: Any) -> int:
    """The square input size of the model's image tower."""
    size = model.visual.image_size
    return int(size[0] if isinstance(size, tuple | list) else size)


def normalisation_of(model: Any) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """(mean, std) the image tower expects."""
    cfg = getattr(model.visual, "preprocess_cfg", None) or {}
    return tuple(cfg.get("mean", OPENAI_MEAN)), tuple(cfg.get("std", OPENAI_STD))


def prepare(pixels: Any, mode: str, mean: Sequence[float], std: Sequence[float]) -> Any:
    """float (N, 3, H, W) in [0, 1] -> the image tower's input.

    ``rgb``: ``(x - mean) / std`` per channel. ``gray``: luminance minus its mean over
    the crop, divided by its RMS (+0.02), copied to 3 channels. Plain tensor ops, so
    that the exported ONNX graph holds the same transform.
    """
    import torch

    if mode == "gray":
        g = pixels[:, 0:1] * 0.299 + pixels[:, 1:2] * 0.587 + pixels[:, 2:3] * 0.114
        g = g - g.mean(dim=(2, 3), keepdim=True)
        g = g / ((g * g).mean(dim=(2, 3), keepdim=True).sqrt() + _GRAY_EPS)
        return torch.cat([g, g, g], dim=1)
    m = torch.tensor(mean, dtype=pixels.dtype).view(1, 3, 1, 1)
    s = torch.tensor(std, dtype=pixels.dtype).view(1, 3, 1, 1)
    return (pixels - m) / s


def to_tensor(
    images: npt.NDArray[np.uint8], mean: Sequence[float], std: Sequence[float], mode: str = "rgb"
) -> Any:
    """uint8 (N, H, W, 3) -> the tower's float input (N, 3, H, W), see ``prepare``."""
    import torch

    x = torch.from_numpy(np.ascontiguousarray(images)).permute(0, 3, 1, 2).float().div_(255)
    return prepare(x, mode, mean, std)
