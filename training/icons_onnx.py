"""Rebuild a trainable image tower from an exported ``icons.onnx``.

The shipped icon model exists only as ONNX (``models/icons.onnx``: the image tower,
its weights stored as int8 by ``export icons --quantize``) plus the label text
embeddings (``models/icons_labels.json``); the ``.pt`` checkpoint of its training
run is not part of a checkout. ``tower_from_onnx`` builds the open_clip image
tower of the architecture named in the labels file and loads the ONNX weights
into it:

- every ``Conv`` node is named after its module by the exporter
  (``/visual/layer1/layer1.0/conv1/Conv``); its weight (int8 weights are multiplied
  back by their per-channel scale) goes to that convolution. The exporter folded
  each BatchNorm into the convolution before it, so the BatchNorm after it becomes
  a pure bias: running mean 0, running variance ``1 - eps``, gain 1, shift = the
  folded bias. Keep those BatchNorms in eval mode when fine-tuning
  (``freeze_batchnorm``): batch statistics would undo the folding;
- the attention pool's positional embedding, q/k/v projections (``MatMul`` by the
  transposed weight, then ``Add`` of the bias, in q, k, v order) and ``c_proj``.

The rebuilt tower reproduces the ONNX embeddings to float precision (checked by
``max_embedding_error``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from screenpilot.errors import DataError
from screenpilot.training import icons as icon_train

FloatArray = npt.NDArray[np.float32]


def _initializers(graph: Any) -> dict[str, FloatArray]:
    from onnx import numpy_helper

    raw = {init.name: numpy_helper.to_array(init) for init in graph.initializer}
    out: dict[str, FloatArray] = {}
    for node in graph.node:  # int8 weights behind DequantizeLinear -> float again
        if node.op_type != "DequantizeLinear":
            continue
        q, scale, _zero = (raw[name] for name in node.input[:3])
        axis = next((a.i for a in node.attribute if a.name == "axis"), 1)
        shape = [1] * q.ndim
        if scale.ndim:
            shape[axis] = -1
        out[node.output[0]] = (q.astype(np.float32) * scale.reshape(shape)).astype(np.float32)
    for name, value in raw.items():
        if value.dtype == np.float32:
            out.setdefault(name, value)
    return out


def _module_path(output: str) -> str:
    """``/visual/layer1/layer1.0/downsample/downsample.0/Conv_output_0`` ->
    ``layer1.0.downsample.0``."""
    parts = output.strip("/").split("/")[1:-1]
    merged: list[str] = []
    for part in parts:
        if merged and part.startswith(merged[-1] + "."):
            merged[-1] = part
        else:
            merged.append(part)
    return ".".join(merged)


def _bn_path(conv: str) -> str:
    head, _, last = conv.rpartition(".")
    bn = last.replace("conv", "bn") if last.startswith("conv") else str(int(last) + 1)
    return f"{head}.{bn}" if head else bn


def read_labels(labels_path: Path) -> dict[str, Any]:
    """The labels file of an exported icon model (``icons_labels.json``)."""
    try:
        doc: dict[str, Any] = json.loads(Path(labels_path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DataError(f"cannot read icon labels {labels_path}: {exc}") from exc
    for key in ("labels", "embeddings", "logit_scale", "arch"):
        if key not in doc:
            raise DataError(f"{labels_path} has no {key!r}: not an `export icons` labels file")
    return doc


def tower_from_onnx(onnx_path: Path, labels_path: Path) -> Any:
    """The open_clip image tower of ``onnx_path`` as a torch module (BatchNorms folded)."""
    import onnx
    import torch

    doc = read_labels(labels_path)
    arch = str(doc["arch"])
    if arch not in icon_train._CONFIGS and isinstance(doc.get("model_config"), dict):
        icon_train._register(arch, doc["model_config"])
    visual = icon_train.build_model(arch, image_size=doc.get("image_size")).visual
    try:
        graph = onnx.load(str(onnx_path)).graph
    except (OSError, ValueError) as exc:
        raise DataError(f"cannot read icon model {onnx_path}: {exc}") from exc
    weights = _initializers(graph)
    modules = dict(visual.named_modules())
    state = {k: v.clone() for k, v in visual.state_dict().items()}
    loaded: set[str] = set()

    def put(name: str, value: FloatArray) -> None:
        if name not in state or tuple(state[name].shape) != value.shape:
            raise DataError(f"{onnx_path}: cannot place {value.shape} into {name}")
        state[name] = torch.from_numpy(np.array(value, dtype=np.float32))
        loaded.add(name)

    matmuls: list[tuple[str, str]] = []
    adds: dict[str, str] = {}
    for node in graph.node:
        if node.op_type == "Conv":
            conv = _module_path(node.output[0])
            bn = _bn_path(conv)
            if conv not in modules or bn not in modules:
                raise DataError(f"{onnx_path}: no module for Conv {node.output[0]}")
            put(f"{conv}.weight", weights[node.input[1]])
            bias = (
                weights[node.input[2]]
                if len(node.input) > 2
                else np.zeros(state[f"{bn}.bias"].shape, np.float32)
            )
            eps = float(modules[bn].eps)
            put(f"{bn}.bias", bias)
            put(f"{bn}.weight", np.ones_like(bias))
            put(f"{bn}.running_mean", np.zeros_like(bias))
            put(f"{bn}.running_var", np.full_like(bias, 1.0 - eps))
        elif node.op_type == "MatMul" and node.input[1] in weights:
            matmuls.append((node.output[0], node.input[1]))
        elif node.op_type == "Add":
            for i, name in enumerate(node.input):
                if name in weights:
                    adds[node.input[1 - i]] = name
                    if weights[name].ndim == 3:
                        put("attnpool.positional_embedding", weights[name][:, 0, :])
        elif node.op_type == "Gemm":
            put("attnpool.c_proj.weight", weights[node.input[1]])
            put("attnpool.c_proj.bias", weights[node.input[2]])
    if len(matmuls) != 3:
        raise DataError(f"{onnx_path}: expected the q, k, v projections, found {len(matmuls)}")
    for proj, (output, weight) in zip(("q_proj", "k_proj", "v_proj"), matmuls, strict=True):
        put(f"attnpool.{proj}.weight", weights[weight].T)
        put(f"attnpool.{proj}.bias", weights[adds[output]])
    missing = [k for k in state if k not in loaded and not k.endswith("num_batches_tracked")]
    if missing:
        raise DataError(f"{onnx_path}: no weights for {', '.join(missing[:5])}")
    visual.load_state_dict(state)
    visual.eval()
    return visual


def freeze_batchnorm(module: Any) -> None:
    """Put every BatchNorm of ``module`` in eval mode (call after ``module.train()``)."""
    import torch

    for sub in module.modules():
        if isinstance(sub, torch.nn.modules.batchnorm._BatchNorm):
            sub.eval()


def max_embedding_error(
    visual: Any, onnx_path: Path, mode: str, n: int = 16, seed: int = 0
) -> float:
    """The largest absolute difference between the torch tower's and the ONNX model's
    unit embeddings on ``n`` random crops."""
    import torch

    from screenpilot.vision.icons import OnnxImageTower

    size = icon_train.image_size_of(_Wrapper(visual))
    pixels = np.random.default_rng(seed).random((n, 3, size, size), dtype=np.float32)
    reference = OnnxImageTower(onnx_path, threads=1).embed(pixels)
    mean, std = icon_train.normalisation_of(_Wrapper(visual))
    with torch.no_grad():
        out = visual(icon_train.prepare(torch.from_numpy(pixels), mode, mean, std))
        out = (out / out.norm(dim=-1, keepdim=True)).numpy()
    return float(np.abs(out - reference).max())


class _Wrapper:
    """What ``training.icons`` helpers and ``export_onnx`` expect: an object with
    ``.visual``."""

    def __init__(self, visual: Any) -> None:
        self.visual = visual


def as_model(visual: Any) -> Any:
    """``visual`` wrapped so that ``icons_export.export_onnx`` and the ``training.icons``
    helpers accept it."""
    return _Wrapper(visual)
