"""Train the icon labeller: an open_clip model, image <-> label text, symmetric contrastive loss.

By default a small CLIP is built from scratch (``ICON_MODEL_CONFIG``: a modified
ResNet image tower at 32 px, a 2-layer text transformer) and trained on crops
rendered from the training families (``datasets/icons.py``): a pool of ``pool``
crops per glyph is rendered once and ``refresh`` of them are re-rendered every
step. Every batch holds distinct labels, so the batch-wise symmetric InfoNCE of
CLIP has no false negatives. The text of a label is one fixed prompt built from its
vocabulary entry (name, description, first synonyms): with prompts drawn at random
per step the small text tower trained from scratch collapsed to a constant (loss
stuck at ln(batch)).

Input mode ``gray`` (the default from scratch): the image tower sees the crop's
luminance standardised per crop (zero mean, unit RMS), copied to 3 channels. With
RGB input the from-scratch tower's embeddings stayed ~0.98 cosine-similar for
hundreds of steps (colours dominate, the glyph shape is a small part of the
signal) and the loss sat at ln(batch); with ``gray`` it leaves the plateau within
~100 steps. The same transform is inside the exported ONNX graph. Before the
contrastive steps, ``text_init_steps`` steps push the label text embeddings apart
(their initial mean cosine is ~0.65).

``pretrained`` fine-tunes a user-supplied open_clip checkpoint of architecture
``arch`` (e.g. ``ViT-B-32``) instead, in ``rgb`` mode (the checkpoint's own
normalisation) and without the text initialisation.

Checkpoints (``last.pt`` for resuming, ``best.pt`` by validation top-1) and a
JSON-lines ``train.log`` go to the output folder. torch and open_clip are
imported inside the functions that use them.
"""

from __future__ import annotations

import json
import math
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from screenpilot.datasets import icons as icon_data
from screenpilot.errors import DataError
from screenpilot.vision.icon_vocab import Vocabulary, load_vocabulary

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


def _register(name: str, config: dict[str, Any]) -> None:
    """Make one more architecture known to open_clip (from a checkpoint's model_config)."""
    import open_clip

    folder = Path(tempfile.mkdtemp(prefix="screenpilot-openclip-"))
    (folder / f"{name}.json").write_text(json.dumps(config), encoding="utf-8")
    open_clip.add_model_config(folder)


def input_mode_of(ckpt: dict[str, Any]) -> str:
    """The input mode a checkpoint was trained with (``rgb`` for checkpoints from before
    input modes existed)."""
    mode = str((ckpt.get("config") or {}).get("input_mode") or "rgb")
    return mode if mode in ("rgb", "gray") else "rgb"


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


def topk_accuracy(
    scores: npt.NDArray[np.float32], labels: npt.NDArray[np.int64], ks: Sequence[int] = (1, 3)
) -> dict[str, float]:
    """top-k accuracy of score rows against label indices (rows with label -1 ignored)."""
    keep = labels >= 0
    scores, labels = scores[keep], labels[keep]
    if len(labels) == 0:
        return {f"top{k}": 0.0 for k in ks}
    order = np.argsort(-scores, axis=1)
    return {f"top{k}": float(np.mean((order[:, :k] == labels[:, None]).any(axis=1))) for k in ks}


def softmax(logits: npt.NDArray[np.floating[Any]]) -> npt.NDArray[np.float32]:
    """Row-wise softmax."""
    z = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    out: npt.NDArray[np.float32] = (e / e.sum(axis=1, keepdims=True)).astype(np.float32)
    return out


def calibrate_threshold(
    top_prob: npt.NDArray[np.float32], correct: npt.NDArray[np.bool_], target_precision: float = 0.9
) -> float:
    """The lowest top-1 probability at which accepted answers keep ``target_precision``.

    ``correct`` is False for every crop of an unmapped ("unknown") glyph, so the
    threshold also rejects icons outside the vocabulary.
    """
    order = np.argsort(-top_prob)
    hits = np.cumsum(correct[order])
    precision = hits / np.arange(1, len(order) + 1)
    ok = np.nonzero(precision >= target_precision)[0]
    if len(ok) == 0:
        return float(top_prob.max(initial=1.0))
    return float(top_prob[order][ok[-1]])


@dataclass
class _EvalSet:
    images: npt.NDArray[np.uint8]
    labels: npt.NDArray[np.int64]


def _eval_sets(
    splits: icon_data.Splits, size: int, per_glyph: int, vocab: Vocabulary, limit: int | None = None
) -> dict[str, _EvalSet]:
    sets = {}
    for name, glyphs, seed in (("val", splits.val, 101), ("test", splits.test, 202)):
        images, labels = icon_data.render_set(
            glyphs[:limit], per_glyph=per_glyph, seed=seed, size=size, vocab=vocab
        )
        sets[name] = _EvalSet(images, labels)
    return sets


def evaluate(
    model: Any, bank: PromptBank, sets: dict[str, _EvalSet], mode: str = "rgb"
) -> dict[str, float]:
    """top-1/top-3 of every evaluation set."""
    mean, std = normalisation_of(model)
    text = label_embeddings(model, bank)
    out: dict[str, float] = {}
    for name, data in sets.items():
        if len(data.labels) == 0:
            continue
        scores = image_embeddings(model, data.images, mean, std, mode=mode) @ text.T
        for key, value in topk_accuracy(scores, data.labels).items():
            out[f"{name}_{key}"] = round(value, 4)
    return out


class _Batcher:
    """Distinct-label batches rendered from the training glyphs.

    With ``pool`` > 0, ``pool`` crops of every glyph are rendered once and ``refresh``
    random pool entries are re-rendered after each batch; with ``pool`` = 0 every
    crop is rendered when it is drawn. Rendering runs in the training thread: a
    background renderer competes with torch's threads for the two cores.
    """

    def __init__(
        self,
        glyphs: Sequence[icon_data.Glyph],
        vocab: Vocabulary,
        size: int,
        batch: int,
        seed: int,
        pool: int = 0,
        refresh: int = 32,
    ) -> None:
        by_label: dict[int, list[icon_data.Glyph]] = {}
        for glyph in glyphs:
            if glyph.label:
                by_label.setdefault(vocab.index(glyph.label), []).append(glyph)
        if len(by_label) < 2:
            raise DataError(
                "fewer than two vocabulary labels have training glyphs",
                hint="install more icon families or check --families",
            )
        self.by_label = by_label
        self.classes = np.asarray(sorted(by_label))
        self.size = size
        self.batch = min(batch, len(self.classes))
        self.rng = np.random.default_rng(seed)
        self.refresh = max(0, refresh)
        self.slot_glyphs: list[icon_data.Glyph] = []
        self.slots_by_label: dict[int, npt.NDArray[np.int64]] = {}
        self.pool = np.zeros((0, size, size, 3), np.uint8)
        if pool > 0:
            for label in self.classes:
                first = len(self.slot_glyphs)
                for glyph in by_label[int(label)]:
                    self.slot_glyphs.extend([glyph] * pool)
                self.slots_by_label[int(label)] = np.arange(first, len(self.slot_glyphs))
            self.pool = np.stack([self._render(g) for g in self.slot_glyphs])

    def _render(self, glyph: icon_data.Glyph) -> npt.NDArray[np.uint8]:
        mask = icon_data.glyph_mask(glyph)
        if mask is None:
            mask = np.full((8, 8), 255, np.uint8)
        return icon_data.render_crop(mask, self.rng, self.size)

    def next(self) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
        """A batch: one crop each of ``batch`` distinct labels, and the label indices."""
        labels = self.rng.choice(self.classes, self.batch, replace=False)
        if not self.slot_glyphs:
            images = []
            for label in labels:
                options = self.by_label[int(label)]
                images.append(self._render(options[int(self.rng.integers(len(options)))]))
            return np.stack(images), labels.astype(np.int64)
        slots = [int(self.rng.choice(self.slots_by_label[int(label)])) for label in labels]
        batch = self.pool[slots].copy()
        for slot in self.rng.integers(len(self.slot_glyphs), size=self.refresh):
            self.pool[slot] = self._render(self.slot_glyphs[int(slot)])
        return batch, labels.astype(np.int64)


def _lr_at(step: int, cfg: TrainConfig, time_fraction: float = 0.0) -> float:
    """Warm-up, then a cosine that ends at ``steps`` or at the time limit, whichever
    comes first (``time_fraction`` = elapsed / limit)."""
    if step < cfg.warmup:
        return cfg.lr * (step + 1) / cfg.warmup
    progress = max((step - cfg.warmup) / max(1, cfg.steps - cfg.warmup), time_fraction)
    return cfg.lr * 0.5 * (1 + math.cos(math.pi * min(1.0, progress)))


def clip_loss(image_features: Any, text_features: Any, logit_scale: Any) -> Any:
    """Symmetric InfoNCE: image i matches text i, both ways."""
    import torch
    import torch.nn.functional as F

    logits = logit_scale * image_features @ text_features.T
    target = torch.arange(len(logits))
    return (F.cross_entropy(logits, target) + F.cross_entropy(logits.T, target)) / 2


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
            "config": _config_dict(cfg),
            "metrics": metrics,
            "best_val_top1": best,
            "arch": cfg.arch,
            "model_config": _CONFIGS.get(cfg.arch),
        },
        tmp,
    )
    tmp.replace(path)


def _config_dict(cfg: TrainConfig) -> dict[str, Any]:
    raw = asdict(cfg)
    raw["out"] = str(cfg.out)
    raw["pretrained"] = str(cfg.pretrained) if cfg.pretrained else None
    raw["families"] = list(cfg.families)
    return raw


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
    if arch not in _CONFIGS and isinstance(ckpt.get("model_config"), dict):
        _register(arch, ckpt["model_config"])
    model = build_model(arch, image_size=size)
    model.load_state_dict(ckpt["model"])
    model.eval()
    return model, ckpt


def train(cfg: TrainConfig, log: Logger = print) -> TrainResult:
    """Train (or resume) an icon CLIP; see the module docstring."""
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
    sets = _eval_sets(splits, size, cfg.eval_per_glyph, vocab, cfg.eval_limit)
    optimizer = torch.optim.AdamW(_param_groups(model, cfg.weight_decay), lr=cfg.lr)
    start, best = _maybe_resume(cfg, model, optimizer, log)
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
        loss = _train_step(
            model, optimizer, batcher, bank, _lr_at(step, cfg, fraction), mean, std, mode
        )
        done = step + 1
        out_of_time = fraction >= 1.0
        if done % cfg.eval_every == 0 or done == cfg.steps or out_of_time:
            metrics = evaluate(model, bank, sets, mode)
            best = _checkpoint(cfg, model, optimizer, done, metrics, best)
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


def _param_groups(model: Any, weight_decay: float) -> list[dict[str, Any]]:
    """Weight decay on matrices and kernels only (not on gains, biases, logit_scale)."""
    decay: list[Any] = []
    plain: list[Any] = []
    for name, param in model.named_parameters():
        if not param.requires_grad:
            continue
        (plain if param.ndim < 2 or "logit_scale" in name else decay).append(param)
    return [{"params": decay, "weight_decay": weight_decay}, {"params": plain, "weight_decay": 0.0}]


def _splits(cfg: TrainConfig, vocab: Vocabulary) -> icon_data.Splits:
    families = [f for f in cfg.families if icon_data.family_available(f)]
    if cfg.test_family not in families:
        raise DataError(
            f"the test family {cfg.test_family!r} is not installed",
            hint="pip install tkinter-icons-gmi (train extra) or pass --test-family",
        )
    glyphs = icon_data.load_glyphs(families, vocab)
    splits = icon_data.split_glyphs(glyphs, test_family=cfg.test_family)
    return icon_data.Splits(
        train=icon_data.drawable(splits.train),
        val=icon_data.drawable(splits.val),
        test=icon_data.drawable(splits.test),
        unknown_val=splits.unknown_val,
        unknown_test=splits.unknown_test,
    )


def _maybe_resume(cfg: TrainConfig, model: Any, optimizer: Any, log: Logger) -> tuple[int, float]:
    import torch

    last = cfg.out / "last.pt"
    if not (cfg.resume and last.is_file()):
        return 0, -1.0
    ckpt = torch.load(last, map_location="cpu", weights_only=False)
    model.load_state_dict(ckpt["model"])
    optimizer.load_state_dict(ckpt["optimizer"])
    log(f"resumed from {last} at step {ckpt['step']}")
    return int(ckpt["step"]), float(ckpt.get("best_val_top1", -1.0))


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


def _checkpoint(
    cfg: TrainConfig, model: Any, optimizer: Any, step: int, metrics: dict[str, float], best: float
) -> float:
    val = metrics.get("val_top1", 0.0)
    if val > best:
        best = val
        _save(cfg.out / "best.pt", model, optimizer, step, cfg, metrics, best)
    _save(cfg.out / "last.pt", model, optimizer, step, cfg, metrics, best)
    return best


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
