"""The training loop of the icon CLIP: symmetric contrastive steps over distinct-label
batches, the learning-rate schedule, the text initialisation, logs and checkpoints.

torch is imported inside the functions that use it.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Sequence
from typing import Any

from screenpilot.training.icons.checkpoint import maybe_resume, save_checkpoints
from screenpilot.training.icons.config import Logger, TrainConfig, TrainResult, resolved_input_mode
from screenpilot.training.icons.data import _Batcher, _splits
from screenpilot.training.icons.embed import PromptBank
from screenpilot.training.icons.evaluate import eval_sets, evaluate
from screenpilot.training.icons.model import (
    build_model,
    image_size_of,
    normalisation_of,
    to_tensor,
)
from screenpilot.vision.icon_vocab import load_vocabulary


def train(cfg: TrainConfig, log: Logger = print) -> TrainResult:
    """Train (or resume) an icon CLIP; see the package docstring."""
    import torch

    torch.set_num_threads(max(1, cfg.threads))
    torch.manual_seed(cfg.seed)
    cfg.out.mkdir(parents=True, exist_ok=True)
    vocab = load_vocabulary()
    model = build_model(cfg.arch, cfg.pretrained, cfg.image_size)
    if cfg.freeze_token_embedding and hasattr(model, "token_embedding"):
        model.token_embedding.requires_grad_(False)  # 49408 x width: most of the step's cost
    size = image_size_of(model)
    mean, std = normalisation_of(model)
    mode = resolved_input_mode(cfg)
    cfg.input_mode = mode
    splits = _splits(cfg, vocab)
    log(
        f"glyphs: train {len(splits.train)}, val {len(splits.val)}, "
        f"test ({cfg.test_family}) {len(splits.test)}; image size {size}, input {mode}"
    )
    bank = PromptBank(vocab, cfg.arch)
    sets = eval_sets(splits, size, cfg.eval_per_glyph, vocab, cfg.eval_limit)
    optimizer = torch.optim.AdamW(_param_groups(model, cfg.weight_decay), lr=cfg.lr)
    start, best = maybe_resume(cfg, model, optimizer, log)
    if start == 0 and cfg.pretrained is None and cfg.text_init_steps > 0:
        log(f"text initialisation: {_spread_text(model, bank, cfg.text_init_steps)}")
    batcher = _Batcher(
        splits.train, vocab, size, cfg.batch, cfg.seed + start, pool=cfg.pool, refresh=cfg.refresh
    )
    began = time.monotonic()
    metrics: dict[str, float] = {}
    step = start
    for step in range(start, cfg.steps):
        fraction = (time.monotonic() - began) / (cfg.minutes * 60) if cfg.minutes > 0 else 0.0
        lr = lr_at(step, cfg.lr, cfg.warmup, cfg.steps, fraction)
        loss = _train_step(model, optimizer, batcher, bank, lr, mean, std, mode)
        done = step + 1
        out_of_time = fraction >= 1.0
        if done % cfg.eval_every == 0 or done == cfg.steps or out_of_time:
            metrics = evaluate(model, bank, sets, mode)
            best = save_checkpoints(cfg, model, optimizer, done, metrics, best)
            _log_line(
                cfg,
                log,
                done,
                loss,
                metrics,
                time.monotonic() - began,
                float(model.logit_scale.exp().detach()),
            )
            model.train()
        if out_of_time:
            log(f"time limit of {cfg.minutes} min reached at step {done}")
            break
    return TrainResult(
        steps=step + 1,
        seconds=time.monotonic() - began,
        best_val_top1=best,
        last_metrics=metrics,
        checkpoint=cfg.out / "best.pt",
    )


def lr_at(step: int, lr: float, warmup: int, steps: int, time_fraction: float = 0.0) -> float:
    """Warm-up, then a cosine that ends at ``steps`` or at the time limit, whichever
    comes first (``time_fraction`` = elapsed / limit)."""
    if step < warmup:
        return lr * (step + 1) / warmup
    progress = max((step - warmup) / max(1, steps - warmup), time_fraction)
    return lr * 0.5 * (1 + math.cos(math.pi * min(1.0, progress)))


def clip_loss(image_features: Any, text_features: Any, logit_scale: Any) -> Any:
    """Symmetric InfoNCE: image i matches text i, both ways."""
    import torch
    import torch.nn.functional as F

    logits = logit_scale * image_features @ text_features.T
    target = torch.arange(len(logits))
    return (F.cross_entropy(logits, target) + F.cross_entropy(logits.T, target)) / 2


def _param_groups(model: Any, weight_decay: float) -> list[dict[str, Any]]:
    """Weight decay on matrices and kernels only (not on gains, biases, logit_scale)."""
    decay: list[Any] = []
    plain: list[Any] = []
    for name, param in model.named_parameters():
        if not param.requires_grad:
            continue
        (plain if param.ndim < 2 or "logit_scale" in name else decay).append(param)
    return [{"params": decay, "weight_decay": weight_decay}, {"params": plain, "weight_decay": 0.0}]


def _spread_text(model: Any, bank: PromptBank, steps: int) -> dict[str, float]:
    """Push the label text embeddings apart (text tower only): softmax over the labels'
    own similarity matrix at scale 10, each label its own target. Returns the mean
    off-diagonal cosine before and after."""
    import torch
    import torch.nn.functional as F

    tokens = torch.cat(bank.tokens)
    params = [
        p
        for name, p in model.named_parameters()
        if p.requires_grad and not name.startswith("visual") and "logit_scale" not in name
    ]
    optimizer = torch.optim.Adam(params, lr=1e-3)
    target = torch.arange(len(tokens))

    def mean_cos() -> float:
        with torch.no_grad():
            emb = model.encode_text(tokens, normalize=True)
            sim = emb @ emb.T
            n = len(sim)
            return round(float((sim.sum() - sim.diagonal().sum()) / (n * n - n)), 3)

    before = mean_cos()
    model.train()
    for _ in range(steps):
        emb = model.encode_text(tokens, normalize=True)
        loss: Any = F.cross_entropy(10 * emb @ emb.T, target)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
    return {"steps": steps, "mean_cos_before": before, "mean_cos_after": mean_cos()}


def _train_step(
    model: Any,
    optimizer: Any,
    batcher: _Batcher,
    bank: PromptBank,
    lr: float,
    mean: Sequence[float],
    std: Sequence[float],
    mode: str = "rgb",
) -> float:
    import torch

    images, labels = batcher.next()
    for group in optimizer.param_groups:
        group["lr"] = lr
    model.train()
    image_features = model.encode_image(to_tensor(images, mean, std, mode), normalize=True)
    text_features = model.encode_text(bank.sample(labels.tolist(), batcher.rng), normalize=True)
    loss = clip_loss(image_features, text_features, model.logit_scale.exp())
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    with torch.no_grad():
        model.logit_scale.clamp_(0, math.log(100))
    return float(loss.detach())


def _log_line(
    cfg: TrainConfig,
    log: Logger,
    step: int,
    loss: float,
    metrics: dict[str, float],
    seconds: float,
    scale: float,
) -> None:
    record = {
        "step": step,
        "loss": round(loss, 4),
        "seconds": round(seconds, 1),
        "logit_scale": round(scale, 2),
        **metrics,
    }
    with (cfg.out / "train.log").open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(record) + "\n")
    log(json.dumps(record))
