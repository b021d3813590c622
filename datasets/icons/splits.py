"""Deterministic roles of glyphs: one whole family is test, a hashed share of the others
is validation, and unmapped glyphs are kept apart for calibrating "unknown"."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from screenpilot.datasets.icons.glyphs import TEST_FAMILY, Glyph


@dataclass(frozen=True)
class Splits:
    """Glyphs by role: train and val (training families), test (the held-out family),
    and unmapped glyphs of each side for calibrating and measuring "unknown"."""

    train: list[Glyph]
    val: list[Glyph]
    test: list[Glyph]
    unknown_val: list[Glyph]
    unknown_test: list[Glyph]


def _bucket(key: str, modulo: int = 100) -> int:
    return int(hashlib.sha1(key.encode()).hexdigest()[:8], 16) % modulo


def split_glyphs(
    glyphs: Sequence[Glyph], *, test_family: str = TEST_FAMILY, val_percent: int = 8
) -> Splits:
    """Deterministic splits: the whole ``test_family`` is test; ``val_percent`` of
    the other families' glyphs (by a hash of the name) is validation."""
    mapped = [g for g in glyphs if g.label]
    unmapped = [g for g in glyphs if not g.label]
    test = [g for g in mapped if g.family == test_family]
    rest = [g for g in mapped if g.family != test_family]
    val = [g for g in rest if _bucket(f"{g.family}/{g.name}") < val_percent]
    train = [g for g in rest if _bucket(f"{g.family}/{g.name}") >= val_percent]
    other = [g for g in unmapped if g.family != test_family]
    return Splits(
        train=train,
        val=val,
        test=test,
        unknown_val=[g for g in other if _bucket(g.key) < 15],
        unknown_test=[g for g in unmapped if g.family == test_family],
    )
