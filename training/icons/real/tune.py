"""The fine-tuning loop: each batch mixes label-balanced real train crops (a random
jittered copy, sometimes inverted) with rendered crops, cross-entropy over all labels;
evaluated on real dev crops and rendered validation crops. torch is imported inside."""

from __future__ import annotations

import json
import time
from collections import Counter
from typing import Any

import numpy as np
import numpy.typing as npt

from screenpilot.datasets import icons as icon_data
from screenpilot.errors import DataError
from screenpilot.training import icons_onnx
from screenpilot.training.icons.config import Logger, TrainConfig
from screenpilot.training.icons.data import _Batcher, _splits
from screenpilot.training.icons.loop import _param_groups, lr_at
from screenpilot.training.icons.metrics import topk_accuracy
from screenpilot.training.icons.model import image_size_of, to_tensor
from screenpilot.training.icons.real.config import RealTuneConfig
from screenpilot.training.icons.real.crops import RealCrops, prepare, split_counts
from screenpilot.training.icons.real.head import build_head, resume, save
from screenpilot.vision.icon_vocab import load_vocabulary


def train(cfg: RealTuneConfig, log: Logger = print) -> dict[str, Any]:
    """Fine-tune; see the package docstring. Returns the last and best metrics."""
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(max(1, cfg.threads))
    torch.manual_seed(cfg.seed)
    if not cfg.onnx.is_file():
        raise DataError(
            f"no icon model to start from: {cfg.onnx} does not exist",
            hint="--onnx names an exported icon model with its _labels.json beside it "
            "(models/icons.onnx; g32, the start of the shipped fine-tune: "
            "models/candidates/icons_g32.onnx)",
        )
    cfg.out.mkdir(parents=True, exist_ok=True)
    doc = icons_onnx.read_labels(cfg.labels)
    if cfg.balance not in ("label", "sqrt"):
        raise DataError(f"unknown balance {cfg.balance!r}", hint="label or sqrt")
    if str(doc.get("input_mode")) != "gray":
        raise DataError("icons-real fine-tuning expects a gray-input model")
    visual = icons_onnx.tower_from_onnx(cfg.onnx, cfg.labels)
    size = image_size_of(icons_onnx.as_model(visual))
    head = build_head(visual, np.asarray(doc["embeddings"], np.float32), float(doc["logit_scale"]))
    head.weight.requires_grad_(cfg.train_labels)
    crops = prepare(cfg, size, log)
    log(json.dumps(split_counts(crops)))
    vocab = load_vocabulary()
    splits = _splits(TrainConfig(out=cfg.out, test_family=cfg.test_family), vocab)
    val_images, val_labels = icon_data.render_set(
        splits.val, per_glyph=2, seed=101, size=size, vocab=vocab
    )
    train_idx = crops.where("train")
    dev_idx = crops.where("dev")
    if len(train_idx) == 0:
        raise DataError("no labelled real train crops", hint="check --data and the table")
    weights = _balanced_weights(crops.labels[train_idx], cfg.balance)
    n_real = round(cfg.batch * cfg.real_share)
    batcher = _Batcher(splits.train, vocab, size, cfg.batch - n_real, cfg.seed, pool=2, refresh=16)
    groups = _param_groups(head, cfg.weight_decay)
    if cfg.optimizer == "sgd":
        optimizer: Any = torch.optim.SGD(groups, lr=cfg.lr, momentum=0.9)
    elif cfg.optimizer == "adamw":
        optimizer = torch.optim.AdamW(groups, lr=cfg.lr)
    else:
        raise DataError(f"unknown optimizer {cfg.optimizer!r}", hint="adamw or sgd")
    start, best = 0, -1.0
    last = cfg.out / "last.pt"
    if cfg.resume and last.is_file():
        start, best = resume(last, head, optimizer)
        log(f"resumed from {last} at step {start}")
    rng = np.random.default_rng(cfg.seed + start)
    began = time.monotonic()
    metrics: dict[str, float] = {}
    if start == 0:
        metrics = _evaluate(head, crops, dev_idx, val_images, val_labels)
        log(json.dumps({"step": 0, **metrics}))
    step = start
    for step in range(start, cfg.steps):
        fraction = (time.monotonic() - began) / (cfg.minutes * 60) if cfg.minutes > 0 else 0.0
        r_images, r_labels = _real_batch(crops, train_idx, weights, n_real, cfg.invert, rng)
        g_images, g_labels = batcher.next()
        images = np.concatenate([r_images, g_images])
        labels = torch.from_numpy(np.concatenate([r_labels, g_labels]))
        for group in optimizer.param_groups:
            group["lr"] = lr_at(step, cfg.lr, cfg.warmup, cfg.steps, fraction)
        head.train()
        icons_onnx.freeze_batchnorm(head)
        logits = head(to_tensor(images, (0, 0, 0), (1, 1, 1), "gray"))
        loss: Any = F.cross_entropy(logits, labels)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        if cfg.clip > 0:
            torch.nn.utils.clip_grad_norm_(
                [p for g in optimizer.param_groups for p in g["params"]], cfg.clip
            )
        optimizer.step()
        done = step + 1
        out_of_time = fraction >= 1.0
        if done % cfg.eval_every == 0 or done == cfg.steps or out_of_time:
            metrics = _evaluate(head, crops, dev_idx, val_images, val_labels)
            if metrics["select"] > best:
                best = metrics["select"]
                save(cfg.out / "best.pt", head, optimizer, done, cfg, metrics, best, doc)
            save(last, head, optimizer, done, cfg, metrics, best, doc)
            record = {
                "step": done,
                "loss": round(float(loss.detach()), 4),
                "seconds": round(time.monotonic() - began, 1),
                **metrics,
            }
            with (cfg.out / "train.log").open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(record) + "\n")
            log(json.dumps(record))
        if out_of_time:
            log(f"time limit of {cfg.minutes} min reached at step {done}")
            break
    return {"steps": step + 1, "best_select": best, "last": metrics}


def _real_batch(
    crops: RealCrops,
    train_idx: npt.NDArray[np.int64],
    weights: npt.NDArray[np.float64],
    n: int,
    invert: float,
    rng: np.random.Generator,
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
    picked = rng.choice(train_idx, size=n, p=weights)
    copies = rng.integers(crops.images.shape[1], size=n)
    images = crops.images[picked, copies].copy()
    flip = rng.random(n) < invert
    images[flip] = 255 - images[flip]
    return images, crops.labels[picked]


def _balanced_weights(
    labels: npt.NDArray[np.int64], balance: str = "label"
) -> npt.NDArray[np.float64]:
    """Sampling weights: ``label`` = every label equally often, ``sqrt`` = a crop's weight
    1/sqrt(crops of its label)."""
    counts = Counter(labels.tolist())
    power = 0.5 if balance == "sqrt" else 1.0
    w = np.asarray([counts[int(y)] ** -power for y in labels], np.float64)
    out: npt.NDArray[np.float64] = w / w.sum()
    return out


def _scores(
    head: Any, images: npt.NDArray[np.uint8], labels: npt.NDArray[np.int64], batch: int = 256
) -> dict[str, float]:
    import torch

    if len(labels) == 0:
        return {"top1": 0.0, "top3": 0.0}
    head.eval()
    out = []
    with torch.no_grad():
        for start in range(0, len(images), batch):
            x = to_tensor(images[start : start + batch], (0, 0, 0), (1, 1, 1), "gray")
            out.append(head(x).numpy())
    return topk_accuracy(np.concatenate(out), labels)


def _evaluate(
    head: Any,
    crops: RealCrops,
    dev_idx: npt.NDArray[np.int64],
    val_images: npt.NDArray[np.uint8],
    val_labels: npt.NDArray[np.int64],
) -> dict[str, float]:
    dev = _scores(head, crops.images[dev_idx, 0], crops.labels[dev_idx])
    val = _scores(head, val_images, val_labels)
    out = {
        "dev_top1": dev["top1"],
        "dev_top3": dev["top3"],
        "val_top1": val["top1"],
        "val_top3": val["top3"],
    }
    out = {k: round(v, 4) for k, v in out.items()}
    out["select"] = round((out["dev_top1"] + out["val_top1"]) / 2, 4)
    return out
