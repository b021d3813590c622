"""Samples from a source folder (``droidbot``, ``uiautomator``, ``rico``, ``vins``), and
the app-level train/val split."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

from screenpilot.datasets.convert.droidbot import convert_droidbot
from screenpilot.datasets.convert.records import ConvertReport, Filters
from screenpilot.datasets.convert.rico import convert_rico
from screenpilot.datasets.convert.uiautomator import convert_uiautomator
from screenpilot.datasets.convert.vins import convert_vins
from screenpilot.datasets.yolo import Sample
from screenpilot.errors import DataError

SOURCES: tuple[str, ...] = ("droidbot", "uiautomator", "rico", "vins")


def convert(
    source: str, src: Path, *, filters: Filters = Filters(), report: ConvertReport | None = None
) -> Iterator[Sample]:
    """Samples from a ``droidbot``, ``uiautomator``, ``rico`` or ``vins`` folder."""
    if not Path(src).is_dir():
        raise DataError(f"source folder {src} not found")
    if source == "droidbot":
        return convert_droidbot(src, filters=filters, report=report)
    if source == "rico":
        return convert_rico(src, filters=filters, report=report)
    if source == "uiautomator":
        return convert_uiautomator(src, filters=filters, report=report)
    if source == "vins":
        return convert_vins(src, filters=filters, report=report)
    raise DataError(f"unknown source {source!r}", hint=f"use one of {', '.join(SOURCES)}")


def assign_splits(samples: Sequence[Sample], train_apps: Sequence[str] = ()) -> list[Sample]:
    """App-level split: samples of ``train_apps`` go to train, every other app to val."""
    wanted = set(train_apps)
    return [replace(s, split="train" if s.app in wanted else "val") for s in samples]
