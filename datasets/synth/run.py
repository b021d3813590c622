"""A synthetic dataset run (``screenpilot dataset synth``): settings, samples, the report.

:func:`synthesize` writes ``n`` screens as JPEG with the long side at most
``max_side`` through :func:`screenpilot.datasets.yolo.write_yolo` (YOLO labels,
COCO JSON, data.yaml), in worker processes, and reports counts per kind, split and
class.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from screenpilot.datasets.synth.generate import DEFAULT_MIX, KINDS, generate_screen
from screenpilot.datasets.synth.screen import scaled
from screenpilot.datasets.yolo import Sample, write_yolo
from screenpilot.errors import DataError
from screenpilot.model import WIDGET_CLASSES

#: The DroidBot apps (../shared/data/droidbot) the shipped detector trains on; every
#: other app there is kept out of training and measured (app-level split).
DROIDBOT_TRAIN_APPS: tuple[str, ...] = (
    "com.android.browser",
    "com.android.launcher",
    "com.android.launcher3",
    "com.google.android.apps.nexuslauncher",
)


@dataclass(frozen=True, slots=True)
class SynthConfig:
    """What :func:`synthesize` makes (see the module docstring)."""

    n: int = 1000
    seed: int = 0
    val_share: float = 0.1
    max_side: int = 1280
    mix: tuple[tuple[str, float], ...] = tuple(DEFAULT_MIX.items())

    def __post_init__(self) -> None:
        if self.n < 1:
            raise DataError(f"--n must be at least 1, not {self.n}")
        if not 0.0 <= self.val_share < 1.0:
            raise DataError(f"--val-share {self.val_share} must be in [0, 1)")
        if self.max_side < 64:
            raise DataError(f"--max-side {self.max_side} is too small (at least 64)")
        unknown = [k for k, _ in self.mix if k not in KINDS]
        if unknown or not any(w > 0 for _, w in self.mix):
            raise DataError(
                f"bad screen mix {dict(self.mix)}",
                hint=f"positive weights for some of {', '.join(KINDS)}",
            )


@dataclass(slots=True)
class SynthReport:
    """What a run produced: counts per screen kind, split and class, and the time."""

    data_yaml: Path | None = None
    kinds: Counter[str] = field(default_factory=Counter)
    splits: Counter[str] = field(default_factory=Counter)
    boxes: Counter[str] = field(default_factory=Counter)
    fallbacks: int = 0
    seconds: float = 0.0

    def add(self, sample: Sample) -> None:
        self.kinds[str(sample.meta.get("kind", sample.app))] += 1
        self.splits[sample.split] += 1
        self.boxes.update(b.kind.value for b in sample.boxes)
        self.fallbacks += int(bool(sample.meta.get("fallback")))

    def class_counts(self) -> dict[str, int]:
        """Boxes per class, all 12 classes in YOLO id order (zeros included)."""
        return {k.value: self.boxes.get(k.value, 0) for k in WIDGET_CLASSES}


def make_sample(index: int, config: SynthConfig, out: Path) -> Sample:
    """Generate screen ``index``, save its JPEG into ``out``'s split folder, return its Sample."""
    screen = scaled(generate_screen(index, config.seed, mix=config.mix), config.max_side)
    split_rng = random.Random(f"screenpilot-split:{config.seed}:{index}")
    split = "val" if split_rng.random() < config.val_share else "train"
    name = f"synth_{config.seed}_{index:06d}"
    path = Path(out) / "images" / split / f"{name}.jpg"
    path.parent.mkdir(parents=True, exist_ok=True)
    quality = split_rng.randint(75, 95)
    screen.image.convert("RGB").save(path, format="JPEG", quality=quality)
    w, h = screen.image.size
    return Sample(
        path,
        w,
        h,
        screen.boxes,
        app="synthetic",
        split=split,
        name=name,
        meta={"kind": screen.kind, **screen.meta},
    )


def _make_sample_star(args: tuple[int, SynthConfig, Path]) -> Sample:
    return make_sample(*args)


def synthesize(
    out: Path,
    config: SynthConfig = SynthConfig(),
    *,
    workers: int = 2,
    extra: Iterable[Sample] = (),
    progress: Callable[[int, int], None] | None = None,
) -> SynthReport:
    """Write ``config.n`` synthetic screens (plus ``extra`` samples, copied as they are)
    as a YOLO dataset under ``out``; returns the counts and the data.yaml path."""
    started = time.monotonic()
    out = Path(out)
    report = SynthReport()
    samples = list(_generate(out, config, workers, progress))
    samples += list(extra)
    for sample in samples:
        report.add(sample)
    report.data_yaml = write_yolo(samples, out)
    report.seconds = time.monotonic() - started
    return report


def _generate(
    out: Path, config: SynthConfig, workers: int, progress: Callable[[int, int], None] | None
) -> Iterable[Sample]:
    jobs = [(i, config, out) for i in range(config.n)]
    if workers <= 1:
        results: Iterable[Sample] = map(_make_sample_star, jobs)
        yield from _tick(results, config.n, progress)
        return
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    with context.Pool(workers) as pool:
        yield from _tick(pool.imap(_make_sample_star, jobs, chunksize=4), config.n, progress)


def _tick(
    results: Iterable[Sample], total: int, progress: Callable[[int, int], None] | None
) -> Iterable[Sample]:
    for done, sample in enumerate(results, start=1):
        if progress is not None:
            progress(done, total)
        yield sample


def parse_mix(text: str) -> tuple[tuple[str, float], ...]:
    """``"app=0.3,layout=0.45,rare=0.25"`` -> the mix tuple (``DataError`` if malformed)."""
    pairs: list[tuple[str, float]] = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, value = part.partition("=")
        try:
            pairs.append((name.strip(), float(value)))
        except ValueError as exc:
            raise DataError(
                f"bad mix entry {part!r}", hint="e.g. app=0.3,layout=0.5,rare=0.2"
            ) from exc
    return tuple(pairs)


def counts_table(counts: Mapping[str, int]) -> str:
    """``name count`` lines, the 12 classes in order."""
    return "\n".join(f"{name:16s}{count:8d}" for name, count in counts.items())
