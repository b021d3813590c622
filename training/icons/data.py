"""The icon CLIP's training data: the glyph splits of a run and distinct-label batches
of crops rendered from the training glyphs (``datasets/icons``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from screenpilot.datasets import icons as icon_data
from screenpilot.errors import DataError
from screenpilot.training.icons.config import TrainConfig
from screenpilot.vision.icon_vocab import Vocabulary


def _splits(cfg: TrainConfig, vocab: Vocabulary) -> icon_data.Splits:
    """The drawable glyphs of ``cfg``'s installed families, split (test = ``test_family``;
    ``""``: no family held out, every family trains and gives validation glyphs)."""
    families = [f for f in cfg.families if icon_data.family_available(f)]
    if cfg.test_family and cfg.test_family not in families:
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
