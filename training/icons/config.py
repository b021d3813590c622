"""What a run of ``train icons`` is asked for (``TrainConfig``) and what it reached."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from screenpilot.datasets import icons as icon_data
from screenpilot.errors import DataError
from screenpilot.training.icons.model import ICON_ARCH, INPUT_MODES

Logger = Callable[[str], None]


@dataclass
class TrainConfig:
    """What ``train`` needs; every field has a CLI option of the same name."""

    out: Path
    steps: int = 6000
    batch: int = 128
    lr: float = 2e-3
    weight_decay: float = 0.1
    warmup: int = 50
    arch: str = ICON_ARCH
    pretrained: Path | None = None
    families: tuple[str, ...] = icon_data.ALL_FAMILIES
    test_family: str = icon_data.TEST_FAMILY
    eval_every: int = 250
    eval_per_glyph: int = 2
    minutes: float = 0.0
    threads: int = 2
    seed: int = 0
    resume: bool = False
    eval_limit: int | None = None
    image_size: int | None = None
    freeze_token_embedding: bool = True
    input_mode: str = "auto"
    pool: int = 4
    refresh: int = 32
    text_init_steps: int = 50
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class TrainResult:
    """What a run reached."""

    steps: int
    seconds: float
    best_val_top1: float
    last_metrics: dict[str, float]
    checkpoint: Path


def resolved_input_mode(cfg: TrainConfig) -> str:
    """``rgb`` or ``gray``: ``auto`` is ``rgb`` for a ``pretrained`` checkpoint, else ``gray``."""
    if cfg.input_mode not in INPUT_MODES:
        raise DataError(
            f"unknown input mode {cfg.input_mode!r}", hint=f"choose among {', '.join(INPUT_MODES)}"
        )
    if cfg.input_mode == "auto":
        return "rgb" if cfg.pretrained else "gray"
    return cfg.input_mode


def config_dict(cfg: TrainConfig) -> dict[str, Any]:
    """``cfg`` as plain JSON-able values (as checkpoints store it)."""
    raw = asdict(cfg)
    raw["out"] = str(cfg.out)
    raw["pretrained"] = str(cfg.pretrained) if cfg.pretrained else None
    raw["families"] = list(cfg.families)
    return raw
