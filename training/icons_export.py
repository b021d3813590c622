"""Export a trained icon CLIP for inference without torch.

- ``icons.onnx``: the image tower. Input ``pixels`` float32 (N, 3, S, S) in [0, 1]
  (RGB, resized to S); the input transform of the checkpoint (``rgb`` normalisation
  or ``gray`` per-crop standardisation, see ``training.icons.prepare``) is inside the
  graph. Output ``embeddings`` float32 (N, D), unit length. With ``quantize`` the
  weights of its convolutions and matrix products are stored as int8 (symmetric,
  one scale per output channel) behind ``DequantizeLinear`` nodes: ~4x smaller,
  computed in float32 as before (onnxruntime's dynamic quantisation, ConvInteger,
  was 5x slower here).
- ``icons_labels.json``: the vocabulary labels, their text embeddings (prompt
  ensemble, unit length), ``logit_scale``, the input size, the calibrated
  "unknown" threshold on the top-1 probability, and the metrics measured with the
  exported ONNX model on rendered validation/test crops.

The threshold is set on validation crops of the training families plus crops of
glyphs outside the vocabulary, to hold ``target_precision``. ``unknown_share`` is
the share of out-of-vocabulary crops in that mix (a prior: how many icons on a
screen the vocabulary does not cover); with all 1500 rendered unknowns (70 % of the
mix) a 90 % precision needed a threshold of 0.9999 that accepted 13 % of the known
validation crops. ``val_unknown_rejected`` is measured on all of them.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from screenpilot.datasets import icons as icon_data
from screenpilot.errors import DataError
from screenpilot.training import icons as icon_train
from screenpilot.vision.icon_vocab import load_vocabulary

LABELS_FORMAT = "screenpilot-icon-labels/1"


@dataclass
class ExportResult:
    """Where the files went and what the exported model measured."""

    onnx: Path
    labels: Path
    threshold: float
    metrics: dict[str, float]


def export_onnx(model: Any, path: Path, mode: str = "rgb", quantize: bool = False) -> None:
    """Write the image tower of ``model`` (with its input transform) to ``path``."""
    import torch

    mean, std = icon_train.normalisation_of(model)
    size = icon_train.image_size_of(model)

    class Tower(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.visual = model.visual
            self.register_buffer("mean", torch.tensor(mean).view(1, 3, 1, 1))
            self.register_buffer("std", torch.tensor(std).view(1, 3, 1, 1))

        def forward(self, pixels: Any) -> Any:
            features = self.visual(icon_train.prepare(pixels, mode, mean, std))
            return features / features.norm(dim=-1, keepdim=True).clamp_min(1e-6)

    tower = Tower().eval()
    path.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.rand(2, 3, size, size)
    target = path.with_name(path.stem + ".fp32.onnx") if quantize else path
    try:
        torch.onnx.export(
            tower,
            (dummy,),
            str(target),
            input_names=["pixels"],
            output_names=["embeddings"],
            opset_version=17,
            dynamo=False,
            dynamic_axes={"pixels": {0: "batch"}, "embeddings": {0: "batch"}},
        )
    except Exception as exc:  # the exporter raises many unrelated types
        raise DataError(f"ONNX export of the icon model failed: {exc}") from exc
    if quantize:
        quantize_weights(target, path)
        target.unlink()


def quantize_weights(source: Path, path: Path, min_size: int = 1024) -> int:
    """Store the float32 weights of Conv / MatMul / Gemm nodes (``min_size`` elements or
    more) as int8 with one symmetric scale per output channel, each behind a
    ``DequantizeLinear`` that restores the float tensor under its old name; the
    arithmetic stays float32. Returns how many tensors were quantised."""
    import onnx
    from onnx import helper, numpy_helper

    model = onnx.load(str(source))
    graph = model.graph
    axes: dict[str, int | None] = {}
    for node in graph.node:
        if node.op_type not in ("Conv", "MatMul", "Gemm") or len(node.input) < 2:
            continue
        if node.op_type == "Conv":
            axis = 0
        elif node.op_type == "MatMul":
            axis = 1
        else:
            trans_b = next((a.i for a in node.attribute if a.name == "transB"), 0)
            axis = 0 if trans_b else 1
        name = node.input[1]
        axes[name] = axis if axes.get(name, axis) == axis else None
    kept, dequant, count = [], [], 0
    for init in graph.initializer:
        weight = numpy_helper.to_array(init)
        channel: int | None = axes.get(init.name, -1)
        if (
            init.name not in axes
            or weight.dtype != np.float32
            or weight.size < min_size
            or (channel is not None and weight.ndim <= channel)
        ):
            kept.append(init)
            continue
        if channel is None:
            peak = np.abs(weight).max(keepdims=True).reshape(1)
        else:
            peak = np.abs(np.moveaxis(weight, channel, 0)).reshape(weight.shape[channel], -1).max(1)
        scale = np.maximum(peak, 1e-12).astype(np.float32) / 127.0
        shape = [1] * weight.ndim
        if channel is not None:
            shape[channel] = -1
        q = np.clip(np.round(weight / scale.reshape(shape)), -127, 127).astype(np.int8)
        zero: npt.NDArray[np.int8]
        if channel is None:
            scale, zero = scale.reshape(()), np.zeros((), np.int8)
        else:
            zero = np.zeros(len(scale), np.int8)
        kept += [
            numpy_helper.from_array(q, init.name + "_int8"),
            numpy_helper.from_array(scale, init.name + "_scale"),
            numpy_helper.from_array(zero, init.name + "_zero"),
        ]
        node = helper.make_node(
            "DequantizeLinear",
            [init.name + "_int8", init.name + "_scale", init.name + "_zero"],
            [init.name],
            name=init.name + "_dequantize",
        )
        if channel is not None:
            node.attribute.append(helper.make_attribute("axis", channel))
        dequant.append(node)
        count += 1
    del graph.initializer[:]
    graph.initializer.extend(kept)
    nodes = dequant + list(graph.node)
    del graph.node[:]
    graph.node.extend(nodes)
    try:
        onnx.checker.check_model(model)
        onnx.save(model, str(path))
    except (onnx.checker.ValidationError, OSError, ValueError) as exc:
        raise DataError(
            f"quantising the icon model failed: {exc}", hint="export without --quantize"
        ) from exc
    return count


def _onnx_embed(path: Path, images: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    from screenpilot.vision.icons import OnnxImageTower

    return OnnxImageTower(path).embed_uint8(images)


def _calibrate(
    onnx_path: Path,
    text: npt.NDArray[np.float32],
    scale: float,
    size: int,
    splits: icon_data.Splits,
    per_glyph: int,
    target_precision: float,
    limit: int | None,
    unknown_share: float = 0.2,
) -> tuple[float, dict[str, float]]:
    vocab = load_vocabulary()
    images, labels = icon_data.render_set(
        splits.val[:limit], per_glyph=per_glyph, seed=101, size=size, vocab=vocab
    )
    unknown = icon_data.drawable(splits.unknown_val[: limit or 1500])
    u_images, u_labels = icon_data.render_set(
        unknown, per_glyph=1, seed=303, size=size, vocab=vocab
    )
    all_images = np.concatenate([images, u_images])
    all_labels = np.concatenate([labels, u_labels])
    probs = icon_train.softmax(scale * _onnx_embed(onnx_path, all_images) @ text.T)
    share = min(max(unknown_share, 0.0), 0.95)
    wanted = min(len(u_labels), round(share / (1 - share) * len(labels)))
    picked = np.random.default_rng(0).permutation(len(u_labels))[:wanted] + len(labels)
    mix = np.concatenate([np.arange(len(labels)), picked])
    correct = probs[mix].argmax(1) == all_labels[mix]
    threshold = icon_train.calibrate_threshold(probs[mix].max(1), correct, target_precision)
    val = icon_train.topk_accuracy(probs[: len(labels)], labels)
    metrics = {
        "val_top1": val["top1"],
        "val_top3": val["top3"],
        "val_unknown_rejected": float(np.mean(probs[len(labels) :].max(1) < threshold)),
        "val_known_accepted": float(np.mean(probs[: len(labels)].max(1) >= threshold)),
        "calibration_unknown_crops": float(wanted),
    }
    return threshold, metrics


def _test_metrics(
    onnx_path: Path,
    text: npt.NDArray[np.float32],
    scale: float,
    size: int,
    splits: icon_data.Splits,
    threshold: float,
    limit: int | None,
) -> dict[str, float]:
    vocab = load_vocabulary()
    images, labels = icon_data.render_set(
        splits.test[:limit], per_glyph=1, seed=202, size=size, vocab=vocab
    )
    probs = icon_train.softmax(scale * _onnx_embed(onnx_path, images) @ text.T)
    out = {f"test_{k}": v for k, v in icon_train.topk_accuracy(probs, labels).items()}
    accepted = probs.max(1) >= threshold
    out["test_accepted"] = float(np.mean(accepted))
    out["test_precision_accepted"] = (
        float(np.mean(probs.argmax(1)[accepted] == labels[accepted])) if accepted.any() else 0.0
    )
    out["test_crops"] = float(len(labels))
    unknown = icon_data.drawable(splits.unknown_test[: limit or 1500])
    u_images, _ = icon_data.render_set(unknown, per_glyph=1, seed=404, size=size, vocab=vocab)
    if len(u_images):
        u_probs = icon_train.softmax(scale * _onnx_embed(onnx_path, u_images) @ text.T)
        out["test_unknown_rejected"] = float(np.mean(u_probs.max(1) < threshold))
    return out


def export_icons(
    checkpoint: Path,
    onnx_path: Path,
    labels_path: Path,
    *,
    target_precision: float = 0.9,
    per_glyph: int = 2,
    families: tuple[str, ...] | None = None,
    test_family: str | None = None,
    threads: int = 2,
    limit: int | None = None,
    quantize: bool = False,
    unknown_share: float = 0.2,
) -> ExportResult:
    """Export ``checkpoint`` to ``onnx_path`` + ``labels_path``, calibrate, measure.

    ``limit`` caps the glyphs of each calibration / measurement set (unknown sets: 1500)."""
    import torch

    torch.set_num_threads(max(1, threads))
    model, ckpt = icon_train.load_checkpoint(checkpoint)
    config = ckpt.get("config", {})
    families = families or tuple(config.get("families", icon_data.ALL_FAMILIES))
    test_family = test_family or str(config.get("test_family", icon_data.TEST_FAMILY))
    vocab = load_vocabulary()
    bank = icon_train.PromptBank(vocab, str(ckpt.get("arch", icon_train.ICON_ARCH)))
    text = icon_train.label_embeddings(model, bank)
    scale = float(model.logit_scale.exp().detach())
    size = icon_train.image_size_of(model)
    mode = icon_train.input_mode_of(ckpt)
    export_onnx(model, onnx_path, mode, quantize)
    cfg = icon_train.TrainConfig(out=checkpoint.parent, families=families, test_family=test_family)
    splits = icon_train._splits(cfg, vocab)
    threshold, metrics = _calibrate(
        onnx_path, text, scale, size, splits, per_glyph, target_precision, limit, unknown_share
    )
    metrics.update(_test_metrics(onnx_path, text, scale, size, splits, threshold, limit))
    doc = {
        "format": LABELS_FORMAT,
        "labels": vocab.names,
        "embeddings": np.round(text, 6).tolist(),
        "logit_scale": scale,
        "image_size": size,
        "threshold": threshold,
        "target_precision": target_precision,
        "unknown_share": unknown_share,
        "input_mode": mode,
        "quantized": quantize,
        "arch": ckpt.get("arch"),
        "model_config": ckpt.get("model_config"),
        "train_step": ckpt.get("step"),
        "families": list(families),
        "test_family": test_family,
        "metrics": {k: round(v, 4) for k, v in metrics.items()},
        "exported": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    labels_path.parent.mkdir(parents=True, exist_ok=True)
    labels_path.write_text(json.dumps(doc), encoding="utf-8")
    return ExportResult(onnx=onnx_path, labels=labels_path, threshold=threshold, metrics=metrics)
