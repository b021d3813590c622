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
rest from rendered crops of the training families (``training.icons.data._Batcher``, the
from-scratch training's own renderer), cross-entropy over all labels. AdamW,
warm-up then cosine to ``steps`` or the time limit. Every ``eval_every`` steps:
top-1 on real dev crops and on rendered validation crops; ``best.pt`` by their mean,
``last.pt`` for ``resume``.

Export (``export``): the tower to ONNX (int8 weights), the classifier weights as
label embeddings, the "unknown" threshold recalibrated on a mix of known crops
(rendered validation + real dev) and out-of-vocabulary crops (rendered unmapped
glyphs + real dev/train crops whose description maps to no label) at
``unknown_share`` of the mix, to hold ``target_precision``.

Modules: ``config``, ``crops`` (extract, split, cache), ``head`` (tower + classifier,
checkpoints), ``tune`` (the loop), ``calibrate`` (export and the "unknown" threshold).
"""

from screenpilot.training.icons.real.calibrate import export
from screenpilot.training.icons.real.config import CROPS_FILE, RealTuneConfig
from screenpilot.training.icons.real.crops import RealCrops, dev_apps, prepare, split_counts
from screenpilot.training.icons.real.head import load
from screenpilot.training.icons.real.tune import train

__all__ = [
    "CROPS_FILE",
    "RealCrops",
    "RealTuneConfig",
    "dev_apps",
    "export",
    "load",
    "prepare",
    "split_counts",
    "train",
]
