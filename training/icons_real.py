"""Fine-tune the shipped icon labeller on real icon crops + rendered crops.

The shipped model exists only as ONNX + label embeddings (no ``.pt`` checkpoint in
a checkout), so the image tower is rebuilt from ``models/icons.onnx``
(:mod:`screenpilot.training.icons_onnx`, BatchNorms folded and kept in eval mode)
and the label text embeddings of ``models/icons_labels.json`` become the initial
weights of a cosine classifier (``logits = logit_scale * f_img . w_label``, both unit
length, the exported logit scale): the text tower is not needed at inference, and
the label embeddings may move (``train_labels``).

Data (``prepare``): the real icon crops of a ``dataset harvest`` output
(:mod:`screenpilot.datasets.real_icons`), split by app like the detector's data:
crops of its ``val_apps`` are the **test** split (never trained on, never used for
a choice); of the other apps, ``dev_share`` of the non-system apps (a hash of the
package name) are **dev** (checkpoint choice, threshold calibration), the rest
**train**. Each crop is stored as cut plus ``copies`` cuts with jittered boxes,
at the model's input size (``real_crops.npz`` in the run folder).

Training (``train``): each step draws ``real_share`` of the batch from real train
crops (label-balanced: every label equally often, or ``balance="sqrt"``: weight
1/sqrt(crops of the label); a random jittered copy;
inverted grey 30 % of the time, as icons come in light and dark themes) and the
rest from rendered crops of the training families (``training.icons._Batcher``, the
from-scratch training's own renderer), cross-entropy over all labels. AdamW,
warm-up then cosine to ``steps`` or the time limit. Every ``eval_every`` steps:
top-1 on real dev crops and on rendered validation crops; ``best.pt`` by their mean,
``last.pt`` for ``resume``.

Export (``export``): the tower to ONNX (int8 weights), the classifier weights as
label embeddings, the "unknown" threshold recalibrated on a mix of known crops
(rendered validation + real dev) and out-of-vocabulary crops (rendered unmapped
glyphs + real dev/train crops whose description maps to no label) at
``unknown_share`` of the mix, to hold ``target_precision``.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from screenpilot.datasets import icons as icon_data
from screenpilot.datasets import real_icons
from screenpilot.errors import DataError
from screenpilot.training import icons as icon_train
from screenpilot.training import icons_onnx
from screenpilot.vision.icon_vocab import load_vocabulary

Logger = Callable[[str], None]
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


@dataclass
class RealCrops:
    """The cached real crops: images (N, 1 + copies, S, S, 3), label index (-1 =
    no label), split (train / dev / test), app, description."""

    images: npt.NDArray[np.uint8]
    labels: npt.NDArray[np.int64]
    splits: npt.NDArray[np.str_]
    apps: npt.NDArray[np.str_]
    descriptions: npt.NDArray[np.str_]

    def where(self, split: str, labelled: bool = True) -> npt.NDArray[np.int64]:
        """Indices of ``split`` (with a label, or without one)."""
        mask = (self.splits == split) & ((self.labels >= 0) if labelled else (self.labels < 0))
        return np.nonzero(mask)[0]

    @classmethod
    def load(cls, path: Path) -> RealCrops:
        """Read ``real_crops.npz``."""
        try:
            with np.load(path) as z:
                return cls(z["images"], z["labels"], z["splits"], z["apps"], z["descriptions"])
        except (OSError, KeyError, ValueError) as exc:
            raise DataError(f"cannot read real icon crops {path}: {exc}") from exc


def dev_apps(apps: set[str], share: float, seed: int = 0) -> set[str]:
    """``share`` of the non-system apps, in a fixed hash order of the package names."""
    from screenpilot.datasets.harvest import is_system

    ranked = sorted(
        (a for a in apps if not is_system(a)),
        key=lambda a: hashlib.sha1(f"dev{seed}:{a}".encode()).hexdigest(),
    )
    return set(ranked[: max(1, round(share * len(ranked)))]) if ranked else set()


def prepare(cfg: RealTuneConfig, size: int, log: Logger = print) -> RealCrops:
    """Extract, split and cache the real crops (reused when ``real_crops.npz`` exists)."""
    path = cfg.out / CROPS_FILE
    if path.is_file():
        return RealCrops.load(path)
    vocab = load_vocabulary()
    records = real_icons.screens_from_manifest(cfg.data)
    held_out = set(real_icons.held_out_apps(cfg.data))
    report = real_icons.CropReport()
    icons = real_icons.extract(records, report=report)
    dev = dev_apps({i.app for i in icons if i.app not in held_out}, cfg.dev_share, cfg.seed)
    split = ["test" if i.app in held_out else "dev" if i.app in dev else "train" for i in icons]
    images = real_icons.augmented_arrays(icons, size, cfg.copies, seed=cfg.seed)
    crops = RealCrops(
        images=images,
        labels=np.asarray([vocab.index(i.label) if i.label else -1 for i in icons], np.int64),
        splits=np.asarray(split),
        apps=np.asarray([i.app for i in icons]),
        descriptions=np.asarray([i.description for i in icons]),
    )
    cfg.out.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        path,
        images=crops.images,
        labels=crops.labels,
        splits=crops.splits,
        apps=crops.apps,
        descriptions=crops.descriptions,
    )
    summary = {
        "report": report.to_json(),
        "dev_apps": sorted(dev),
        "held_out_apps": sorted(held_out),
        "counts": split_counts(crops),
    }
    (cfg.out / "real_crops.json").write_text(
        json.dumps(summary, indent=1, ensure_ascii=False), encoding="utf-8"
    )
    log(json.dumps(summary["counts"]))
    return crops


def split_counts(crops: RealCrops) -> dict[str, dict[str, int]]:
    """Crops, labelled crops, apps and labels per split."""
    out = {}
    for split in ("train", "dev", "test"):
        mask = crops.splits == split
        labelled = mask & (crops.labels >= 0)
        out[split] = {
            "crops": int(mask.sum()),
            "labelled": int(labelled.sum()),
            "apps": len(set(crops.apps[mask].tolist())),
            "apps_labelled": len(set(crops.apps[labelled].tolist())),
            "labels": len(set(crops.labels[labelled].tolist())),
        }
    return out


class _Classifier:
    """The tower + cosine classifier as one torch module (built lazily: torch import)."""

    @staticmethod
    def build(visual: Any, label_embeddings: npt.NDArray[np.float32], scale: float) -> Any:
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


def _lr_at(step: int, cfg: RealTuneConfig, fraction: float) -> float:
    if step < cfg.warmup:
        return cfg.lr * (step + 1) / cfg.warmup
    progress = max((step - cfg.warmup) / max(1, cfg.steps - cfg.warmup), fraction)
    return cfg.lr * 0.5 * (1 + math.cos(math.pi * min(1.0, progress)))


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
            x = icon_train.to_tensor(images[start : start + batch], (0, 0, 0), (1, 1, 1), "gray")
            out.append(head(x).numpy())
    return icon_train.topk_accuracy(np.concatenate(out), labels)


def _save(
    path: Path,
    head: Any,
    optimizer: Any,
    step: int,
    cfg: RealTuneConfig,
    metrics: dict[str, float],
    best: float,
    labels_doc: dict[str, Any],
) -> None:
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
    arch = str(doc["arch"])
    if arch not in icon_train._CONFIGS and isinstance(doc.get("model_config"), dict):
        icon_train._register(arch, doc["model_config"])
    visual = icon_train.build_model(arch, image_size=doc.get("image_size")).visual
    visual.load_state_dict(ckpt["visual"])
    head = _Classifier.build(visual, ckpt["weight"].numpy(), ckpt["scale"])
    head.eval()
    return head, ckpt


def train(cfg: RealTuneConfig, log: Logger = print) -> dict[str, Any]:
    """Fine-tune; see the module docstring. Returns the last and best metrics."""
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(max(1, cfg.threads))
    torch.manual_seed(cfg.seed)
    cfg.out.mkdir(parents=True, exist_ok=True)
    doc = icons_onnx.read_labels(cfg.labels)
    if cfg.balance not in ("label", "sqrt"):
        raise DataError(f"unknown balance {cfg.balance!r}", hint="label or sqrt")
    if str(doc.get("input_mode")) != "gray":
        raise DataError("icons-real fine-tuning expects a gray-input model")
    visual = icons_onnx.tower_from_onnx(cfg.onnx, cfg.labels)
    size = icon_train.image_size_of(icons_onnx.as_model(visual))
    head = _Classifier.build(
        visual, np.asarray(doc["embeddings"], np.float32), float(doc["logit_scale"])
    )
    head.weight.requires_grad_(cfg.train_labels)
    crops = prepare(cfg, size, log)
    log(json.dumps(split_counts(crops)))
    vocab = load_vocabulary()
    splits = icon_train._splits(icon_train.TrainConfig(out=cfg.out), vocab)
    val_images, val_labels = icon_data.render_set(
        splits.val, per_glyph=2, seed=101, size=size, vocab=vocab
    )
    train_idx = crops.where("train")
    dev_idx = crops.where("dev")
    if len(train_idx) == 0:
        raise DataError("no labelled real train crops", hint="check --data and the table")
    weights = _balanced_weights(crops.labels[train_idx], cfg.balance)
    n_real = round(cfg.batch * cfg.real_share)
    batcher = icon_train._Batcher(
        splits.train, vocab, size, cfg.batch - n_real, cfg.seed, pool=2, refresh=16
    )
    groups = icon_train._param_groups(head, cfg.weight_decay)
    if cfg.optimizer == "sgd":
        optimizer: Any = torch.optim.SGD(groups, lr=cfg.lr, momentum=0.9)
    elif cfg.optimizer == "adamw":
        optimizer = torch.optim.AdamW(groups, lr=cfg.lr)
    else:
        raise DataError(f"unknown optimizer {cfg.optimizer!r}", hint="adamw or sgd")
    start, best = 0, -1.0
    last = cfg.out / "last.pt"
    if cfg.resume and last.is_file():
        ckpt = torch.load(last, map_location="cpu", weights_only=False)
        head.visual.load_state_dict(ckpt["visual"])
        with torch.no_grad():
            head.weight.copy_(ckpt["weight"])
        optimizer.load_state_dict(ckpt["optimizer"])
        start, best = int(ckpt["step"]), float(ckpt["best"])
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
            group["lr"] = _lr_at(step, cfg, fraction)
        head.train()
        icons_onnx.freeze_batchnorm(head)
        logits = head(icon_train.to_tensor(images, (0, 0, 0), (1, 1, 1), "gray"))
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
                _save(cfg.out / "best.pt", head, optimizer, done, cfg, metrics, best, doc)
            _save(last, head, optimizer, done, cfg, metrics, best, doc)
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


def export(
    checkpoint: Path,
    onnx_path: Path,
    labels_path: Path,
    *,
    data_dir: Path | None = None,
    target_precision: float = 0.9,
    unknown_share: float = 0.2,
    threads: int = 1,
    quantize: bool = True,
) -> dict[str, Any]:
    """Export a fine-tuned checkpoint (ONNX + labels JSON), recalibrate "unknown"."""
    import torch

    from screenpilot.training import icons_export

    torch.set_num_threads(max(1, threads))
    head, ckpt = load(checkpoint)
    doc = dict(ckpt["labels_doc"])
    crops = RealCrops.load(data_dir or checkpoint.parent / CROPS_FILE)
    icons_export.export_onnx(icons_onnx.as_model(head.visual), onnx_path, "gray", quantize)
    w = head.weight.detach().numpy().astype(np.float32)
    text = (w / np.linalg.norm(w, axis=1, keepdims=True)).astype(np.float32)
    scale = float(head.scale)
    size = int(doc["image_size"])
    vocab = load_vocabulary()
    splits = icon_train._splits(icon_train.TrainConfig(out=checkpoint.parent), vocab)

    def probs(images: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
        if len(images) == 0:
            return np.zeros((0, len(text)), np.float32)
        return icon_train.softmax(scale * icons_export._onnx_embed(onnx_path, images) @ text.T)

    val_images, val_labels = icon_data.render_set(
        splits.val, per_glyph=2, seed=101, size=size, vocab=vocab
    )
    dev_idx = crops.where("dev")
    known_p = np.concatenate([probs(val_images), probs(crops.images[dev_idx, 0])])
    known_y = np.concatenate([val_labels, crops.labels[dev_idx]])
    u_images, _ = icon_data.render_set(
        icon_data.drawable(splits.unknown_val[:1500]), per_glyph=1, seed=303, size=size, vocab=vocab
    )
    real_unknown = np.concatenate(
        [crops.where("dev", labelled=False), crops.where("train", labelled=False)]
    )
    unknown_p = np.concatenate([probs(u_images), probs(crops.images[real_unknown, 0])])
    share = min(max(unknown_share, 0.0), 0.95)
    wanted = min(len(unknown_p), round(share / (1 - share) * len(known_y)))
    picked = np.random.default_rng(0).permutation(len(unknown_p))[:wanted]
    mix_p = np.concatenate([known_p, unknown_p[picked]])
    correct = np.concatenate([known_p.argmax(1) == known_y, np.zeros(wanted, bool)])
    threshold = icon_train.calibrate_threshold(mix_p.max(1), correct, target_precision)
    metrics: dict[str, float] = {}
    for name, p, y in (
        ("val", known_p[: len(val_labels)], val_labels),
        ("real_dev", known_p[len(val_labels) :], crops.labels[dev_idx]),
    ):
        for key, value in icon_train.topk_accuracy(p, y).items():
            metrics[f"{name}_{key}"] = value
        metrics[f"{name}_known_accepted"] = float(np.mean(p.max(1) >= threshold)) if len(y) else 0
    metrics["unknown_rejected"] = float(np.mean(unknown_p.max(1) < threshold))
    metrics["calibration_unknown_crops"] = float(wanted)
    metrics.update(
        icons_export._test_metrics(onnx_path, text, scale, size, splits, threshold, None)
    )
    out = {
        **doc,
        "labels": vocab.names,
        "embeddings": np.round(text, 6).tolist(),
        "logit_scale": scale,
        "threshold": threshold,
        "target_precision": target_precision,
        "unknown_share": unknown_share,
        "quantized": quantize,
        "input_mode": "gray",
        "train_step": ckpt.get("step"),
        "finetune": {
            "from": "icons.onnx (g32)",
            "config": ckpt.get("config"),
            "split_counts": split_counts(crops),
        },
        "metrics": {k: round(v, 4) for k, v in metrics.items()},
        "exported": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    labels_path.parent.mkdir(parents=True, exist_ok=True)
    labels_path.write_text(json.dumps(out), encoding="utf-8")
    return {"threshold": threshold, "metrics": metrics}
