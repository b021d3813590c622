"""What a run of ``train icons-real`` is asked for (``RealTuneConfig``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from screenpilot.datasets.icons import TEST_FAMILY

CROPS_FILE = "real_crops.npz"


@dataclass
class RealTuneConfig:
    """What ``train`` needs; the CLI options have the same names."""

    out: Path
    data: Path
    onnx: Path = Path("models/icons.onnx")
    labels: Path = Path("models/icons_labels.json")
    steps: int = 3000
    batch: int = 128
    real_share: float = 0.5
    lr: float = 5e-4
    weight_decay: float = 0.05
    warmup: int = 50
    minutes: float = 0.0
    threads: int = 1
    seed: int = 0
    resume: bool = False
    eval_every: int = 100
    copies: int = 8
    dev_share: float = 0.25
    train_labels: bool = True
    invert: float = 0.3
    optimizer: str = "adamw"
    clip: float = 1.0
    balance: str = "label"
    # the rendered family kept out of the rendered batches ("" = none: every family,
    # Google's Material icons too, which most Android apps draw with)
    test_family: str = TEST_FAMILY
    # image views with no description labelled by their resource id
    # (vision/data/icon_resource_ids.json) join the train and dev crops (never test)
    resource_ids: bool = True
