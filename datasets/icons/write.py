"""``dataset icons``: rendered train/val/test/unknown crops written as ``SPLIT.npz``,
optional PNGs in ``SPLIT/LABEL/`` and a ``manifest.json``."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
from PIL import Image

from screenpilot.datasets.icons.glyphs import (
    ALL_FAMILIES,
    TEST_FAMILY,
    Glyph,
    coverage,
    family_available,
    load_glyphs,
)
from screenpilot.datasets.icons.render import U8Array, drawable, render_set
from screenpilot.datasets.icons.splits import Splits, split_glyphs
from screenpilot.errors import DataError
from screenpilot.vision.icon_vocab import Vocabulary, load_vocabulary


def write_dataset(
    out: Path,
    *,
    families: Sequence[str] = ALL_FAMILIES,
    test_family: str = TEST_FAMILY,
    per_glyph: int = 2,
    size: int = 64,
    seed: int = 0,
    png: bool = True,
    limit: int | None = None,
) -> dict[str, object]:
    """Render train/val/test(/unknown) crops under ``out``: ``SPLIT.npz`` (images,
    labels, keys), PNGs in ``SPLIT/LABEL/`` when ``png``, and ``manifest.json``
    (label names, families, coverage, counts). ``limit`` caps the glyphs per split."""
    vocab = load_vocabulary()
    missing = [f for f in families if not family_available(f)]
    if missing:
        raise DataError(
            f"icon families not installed: {', '.join(missing)}",
            hint="`make setup` installs them (train extra), or pass --families",
        )
    glyphs = load_glyphs(families, vocab)
    splits = split_glyphs(glyphs, test_family=test_family)
    out.mkdir(parents=True, exist_ok=True)
    counts: dict[str, int] = {}
    for index, (name, subset) in enumerate(_named_splits(splits)):
        subset = drawable(subset)[:limit]
        images, labels = render_set(
            subset, per_glyph=per_glyph, seed=seed + index, size=size, vocab=vocab
        )
        keys = np.asarray([g.key for g in subset for _ in range(per_glyph)])
        np.savez_compressed(out / f"{name}.npz", images=images, labels=labels, keys=keys)
        if png:
            _write_pngs(out / name, images, labels, keys, vocab)
        counts[name] = len(labels)
    manifest: dict[str, object] = {
        "labels": vocab.names,
        "families": list(families),
        "test_family": test_family,
        "image_size": size,
        "per_glyph": per_glyph,
        "seed": seed,
        "counts": counts,
        "coverage": coverage(glyphs, vocab),
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return manifest


def _named_splits(splits: Splits) -> list[tuple[str, list[Glyph]]]:
    return [
        ("train", splits.train),
        ("val", splits.val),
        ("test", splits.test),
        ("unknown_val", splits.unknown_val),
        ("unknown_test", splits.unknown_test),
    ]


def _write_pngs(
    folder: Path,
    images: U8Array,
    labels: npt.NDArray[np.int64],
    keys: npt.NDArray[np.str_],
    vocab: Vocabulary,
) -> None:
    for i, (image, label, key) in enumerate(zip(images, labels, keys, strict=True)):
        name = vocab.names[label] if label >= 0 else "unknown"
        target = folder / name
        target.mkdir(parents=True, exist_ok=True)
        stem = str(key).replace("/", "__")
        Image.fromarray(image).save(target / f"{stem}__{i}.png")
