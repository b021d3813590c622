"""Shared pieces of the explore-and-learn tests: a word-bag encoder, screens, a describer
that reads the virtual phone's ground truth (fast, no OCR)."""

from __future__ import annotations

import re
import zlib
from collections.abc import Sequence
from typing import Any

import numpy as np

from screenpilot.model import Block, BlockKind, Box, Element, ElementKind, Screen

DIM = 128


def words_encoder(texts: Sequence[str]) -> np.ndarray:
    """Normalised bags of words: texts sharing words are similar, others orthogonal-ish."""
    out = np.zeros((len(texts), DIM), dtype=np.float32)
    for i, text in enumerate(texts):
        for w in re.findall(r"[a-z0-9]+", text.lower().replace("wi-fi", "wifi")):
            out[i, zlib.crc32(w.encode()) % DIM] += 1.0
        norm = np.linalg.norm(out[i])
        out[i] = out[i] / norm if norm else out[i]
    return out


def el(i: int, kind: ElementKind, y: int, text: str = "", **kw: Any) -> Element:
    return Element(i, kind, Box(40, y, 1040, y + 90), text=text, **kw)


def screen(
    *labels: str,
    kind: ElementKind = ElementKind.TEXT,
    extra: Sequence[Element] = (),
    list_block: bool = False,
) -> Screen:
    """A screen with one text element per label (ids 0..), top to bottom."""
    els = [
        el(i, kind, 200 + 120 * i, lab, block_id=0 if list_block else None)
        for i, lab in enumerate(labels)
    ]
    els += list(extra)
    blocks = (Block(0, Box(0, 150, 1080, 2200), BlockKind.LIST),) if list_block else ()
    return Screen(1080, 2400, elements=tuple(els), blocks=blocks)


class TruthDescriber:
    """The virtual phone's own ground truth as the ``Screen`` (tests only: no vision)."""

    def __init__(self, phone: Any) -> None:
        self.phone = phone

    def describe(self, image: Any) -> Screen:
        out = self.phone.screen(captured=True)
        assert isinstance(out, Screen)
        return out
