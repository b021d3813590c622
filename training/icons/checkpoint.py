"""Checkpoints of ``train icons``: ``best.pt`` / ``last.pt`` written atomically, read back
as a model, resumed from. torch is imported inside the functions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from screenpilot.errors import DataError
from screenpilot.training.icons.config import Logger, TrainConfig, config_dict
from screenpilot.training.icons.model import _CONFIGS, ICON_RN64_ARCH, build_arch


def _save(
    path: Path,
    model: Any,
    optimizer: Any,
    step: int,
    cfg: TrainConfig,
    metrics: dict[str, float],
    best: float,
) -> None:
    import torch

    tmp = path.with_suffix(".tmp")
    torch.save(
        {
            "model": model.state_dict(),
            "optimizer": optimizer.state_dict(),
            "step": step,
            "config": config_dict(cfg),
            "metrics": metrics,
            "best_val_top1": best,
            "arch": cfg.arch,
            "model_config": _CONFIGS.get(cfg.arch),
        },
        tmp,
    )
    tmp.replace(path)


def save_checkpoints(
    cfg: TrainConfig, model: Any, optimizer: Any, step: int, metrics: dict[str, float], best: float
) -> float:
    """Write ``last.pt``, and ``best.pt`` when validation top-1 beat ``best``; the new best."""
    val = metrics.get("val_top1", 0.0)
    if val > best:
        best = val
        _save(cfg.out / "best.pt", model, optimizer, step, cfg, metrics, best)
    _save(cfg.out / "last.pt", model, optimizer, step, cfg, metrics, best)
    return best


def maybe_resume(cfg: TrainConfig, model: Any, optimizer: Any, log: Logger) -> tuple[int, float]:
    """(first step, best validation top-1): from ``last.pt`` with ``resume``, else (0, -1)."""
    import torch

    last = cfg.out / "last.pt"
    if not (cfg.resume and last.is_file()):
        return 0, -1.0
    ckpt = torch.load(last, map_location="cpu", weights_only=False)
    model.load_state_dict(ckpt["model"])
    optimizer.load_state_dict(ckpt["optimizer"])
    log(f"resumed from {last} at step {ckpt['step']}")
    return int(ckpt["step"]), float(ckpt.get("best_val_top1", -1.0))


def input_mode_of(ckpt: dict[str, Any]) -> str:
    """The input mode a checkpoint was trained with (``rgb`` for checkpoints from before
    input modes existed)."""
    mode = str((ckpt.get("config") or {}).get("input_mode") or "rgb")
    return mode if mode in ("rgb", "gray") else "rgb"


def load_checkpoint(path: Path) -> tuple[Any, dict[str, Any]]:
    """(model, checkpoint dict) from a ``train icons`` checkpoint."""
    import torch

    try:
        ckpt = torch.load(path, map_location="cpu", weights_only=False)
    except (OSError, RuntimeError, EOFError) as exc:
        raise DataError(f"cannot read icon checkpoint {path}: {exc}") from exc
    if not isinstance(ckpt, dict) or "model" not in ckpt:
        raise DataError(f"{path} is not a `screenpilot train icons` checkpoint")
    size = (ckpt.get("config") or {}).get("image_size")
    arch = str(ckpt.get("arch", ICON_RN64_ARCH))
    model = build_arch(arch, ckpt.get("model_config"), size)
    model.load_state_dict(ckpt["model"])
    model.eval()
    return model, ckpt
