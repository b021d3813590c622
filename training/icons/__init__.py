"""Train the icon labeller: an open_clip model, image <-> label text, symmetric contrastive loss.

By default a small CLIP is built from scratch (``ICON_MODEL_CONFIG``: a modified
ResNet image tower at 32 px, a 2-layer text transformer) and trained on crops
rendered from the training families (``datasets/icons/``): a pool of ``pool``
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

Modules: ``model`` (architectures, towers, the input transform), ``config`` (what a run
is asked for), ``data`` (glyph splits, distinct-label batches), ``embed`` (prompts and
embeddings), ``metrics`` (top-k, the "unknown" threshold), ``evaluate``, ``checkpoint``,
``loop`` (the training loop), and ``real`` (the fine-tune on real crops).
"""

from screenpilot.training.icons.checkpoint import input_mode_of, load_checkpoint
from screenpilot.training.icons.config import (
    Logger,
    TrainConfig,
    TrainResult,
    resolved_input_mode,
)
from screenpilot.training.icons.data import _Batcher, _splits
from screenpilot.training.icons.embed import PromptBank, image_embeddings, label_embeddings
from screenpilot.training.icons.evaluate import evaluate
from screenpilot.training.icons.loop import clip_loss, lr_at, train
from screenpilot.training.icons.metrics import calibrate_threshold, softmax, topk_accuracy
from screenpilot.training.icons.model import (
    _CONFIGS,
    ICON_ARCH,
    ICON_MODEL_CONFIG,
    ICON_RN64_ARCH,
    ICON_RN64_CONFIG,
    ICON_TINY_ARCH,
    ICON_TINY_CONFIG,
    INPUT_MODES,
    OPENAI_MEAN,
    OPENAI_STD,
    _register,
    build_model,
    image_size_of,
    normalisation_of,
    prepare,
    register_config,
    to_tensor,
)

__all__ = [
    "ICON_ARCH",
    "ICON_MODEL_CONFIG",
    "ICON_RN64_ARCH",
    "ICON_RN64_CONFIG",
    "ICON_TINY_ARCH",
    "ICON_TINY_CONFIG",
    "INPUT_MODES",
    "OPENAI_MEAN",
    "OPENAI_STD",
    "_CONFIGS",
    "Logger",
    "PromptBank",
    "TrainConfig",
    "TrainResult",
    "_Batcher",
    "_register",
    "_splits",
    "build_model",
    "calibrate_threshold",
    "clip_loss",
    "evaluate",
    "image_embeddings",
    "image_size_of",
    "input_mode_of",
    "label_embeddings",
    "load_checkpoint",
    "lr_at",
    "normalisation_of",
    "prepare",
    "register_config",
    "resolved_input_mode",
    "softmax",
    "to_tensor",
    "topk_accuracy",
    "train",
]
