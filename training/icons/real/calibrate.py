"""Export of a fine-tuned labeller: the tower to ONNX, the classifier weights as label
embeddings, and the "unknown" threshold recalibrated on known crops (rendered validation
+ real dev) mixed with out-of-vocabulary crops (rendered unmapped glyphs + real crops
whose description maps to no label). torch is imported inside."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from screenpilot.datasets import icons as icon_data
from screenpilot.training import icons_onnx
from screenpilot.training.icons.config import TrainConfig
from screenpilot.training.icons.data import _splits
from screenpilot.training.icons.metrics import calibrate_threshold, softmax, topk_accuracy
from screenpilot.training.icons.real.config import CROPS_FILE
from screenpilot.training.icons.real.crops import RealCrops, split_counts
from screenpilot.training.icons.real.head import load
from screenpilot.vision.icon_vocab import load_vocabulary


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
    test_family = str(dict(ckpt.get("config") or {}).get("test_family", icon_data.TEST_FAMILY))
    splits = _splits(TrainConfig(out=checkpoint.parent, test_family=test_family), vocab)

    def probs(images: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
        if len(images) == 0:
            return np.zeros((0, len(text)), np.float32)
        return softmax(scale * icons_export._onnx_embed(onnx_path, images) @ text.T)

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
    threshold = calibrate_threshold(mix_p.max(1), correct, target_precision)
    metrics: dict[str, float] = {}
    for name, p, y in (
        ("val", known_p[: len(val_labels)], val_labels),
        ("real_dev", known_p[len(val_labels) :], crops.labels[dev_idx]),
    ):
        for key, value in topk_accuracy(p, y).items():
            metrics[f"{name}_{key}"] = value
        metrics[f"{name}_known_accepted"] = float(np.mean(p.max(1) >= threshold)) if len(y) else 0
    metrics["unknown_rejected"] = float(np.mean(unknown_p.max(1) < threshold))
    metrics["calibration_unknown_crops"] = float(wanted)
    if splits.test:
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
        "test_family": test_family,
        "train_step": ckpt.get("step"),
        "finetune": {
            "from": str(dict(ckpt.get("config") or {}).get("onnx", "")),
            "config": ckpt.get("config"),
            "split_counts": split_counts(crops),
        },
        "metrics": {k: round(v, 4) for k, v in metrics.items()},
        "exported": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    labels_path.parent.mkdir(parents=True, exist_ok=True)
    labels_path.write_text(json.dumps(out), encoding="utf-8")
    return {"threshold": threshold, "metrics": metrics}
