"""Real screens of public repositories -> one YOLO dataset, split by app.

``tools/harvest.py`` extracts the folders of ``../shared/data/harvest/sources.tsv``
under one directory, a folder a source, each with a ``.done`` file naming its
repository, commit and format (droidbot, uiautomator or rico). This module
converts every source with the node filters of :mod:`convert` (clickable views
of no widget class included, ``clickable_share`` 0.25), drops screens by the
filters of :mod:`screens`, and writes one dataset:

- **split by app**: the apps of ``val_apps`` go to val, every other app to train;
  system apps (launchers, Settings, the file picker, permission dialogs,
  browsers, camera) are always train, since every source shares them;
  :func:`choose_val_apps` picks held-out apps reproducibly (a hash of the
  package name), never by looking at scores;
- **images** at most ``max_side`` pixels on their long side (JPEG, quality 90)
  so training reads them fast; labels are normalised, so they are unchanged;
- **status and navigation bars**: hierarchies hold no system bars. On train
  screens they are read from where the app's full-width views start and end
  (:func:`screens.system_bars`), else from an optional ``bars`` callable (the
  shipped detector, kept to those two classes at conf >= 0.5), so real screens
  do not teach the detector that a status bar is background; val screens never
  get them (the held-out score is over the hierarchy's own widgets), nor do
  ActivityDiary's (the emulator's pointer-location strip covers the bar);
- ``manifest.jsonl``: one line a screen (split, app, source, format, the
  original screenshot and hierarchy, the scale), for the real-screen benchmark.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from screenpilot.datasets.convert import ConvertReport, Filters, convert
from screenpilot.datasets.screens import (
    Deduper,
    ScreenFilters,
    ScreenReport,
    hierarchy_nodes,
    screen_drop_reason,
    system_bars,
)
from screenpilot.datasets.yolo import LabeledBox, Sample, write_yolo
from screenpilot.errors import DataError

FORMATS = ("droidbot", "uiautomator", "rico")
REAL_FILTERS = Filters(clickable_share=0.25, glyph_boxes=True)

#: Packages every source shares: always train, never held out.
SYSTEM_PREFIXES: tuple[str, ...] = (
    "com.android.",
    "com.google.android.apps.nexuslauncher",
    "com.google.android.documentsui",
    "com.google.android.permissioncontroller",
    "com.google.android.packageinstaller",
    "com.google.android.gms",
    "com.teslacoilsw.launcher",
    "com.transsion.",
    "com.gallery20",
    "com.sec.android.",
    "org.mozilla.firefox",
    "android",
    "unknown",
)

BarFinder = Callable[[Path], Sequence[LabeledBox]]
#: Sources whose status bar is covered by an emulator overlay (pointer location).
NO_BARS = frozenset({"activitydiary"})


def is_system(app: str) -> bool:
    """Launchers, Settings, pickers, browsers: shared by every source."""
    return any(app == p or app.startswith(p) for p in SYSTEM_PREFIXES if p.endswith(".")) or any(
        app == p or app.startswith(p + ".") for p in SYSTEM_PREFIXES if not p.endswith(".")
    )


@dataclass(frozen=True, slots=True)
class HarvestSource:
    name: str
    folder: Path
    fmt: str
    repo: str
    commit: str


def sources(root: Path) -> list[HarvestSource]:
    """The extracted sources under ``root`` (folders with a ``.done`` file)."""
    found = []
    for done in sorted(Path(root).glob("*/.done")):
        repo, commit, fmt = done.read_text(encoding="utf-8").split()[:3]
        if fmt not in FORMATS:
            raise DataError(f"{done}: unknown format {fmt!r}")
        found.append(HarvestSource(done.parent.name, done.parent, fmt, repo, commit))
    if not found:
        raise DataError(
            f"no extracted sources under {root}", hint="run tools/harvest.py --out DIR first"
        )
    return found


@dataclass(slots=True)
class HarvestReport:
    """Everything the data card needs."""

    convert: ConvertReport = field(default_factory=ConvertReport)
    screens: ScreenReport = field(default_factory=ScreenReport)
    boxes_by_source: dict[str, Counter[str]] = field(default_factory=dict)
    screens_by_source: Counter[str] = field(default_factory=Counter)
    boxes_by_app: dict[str, Counter[str]] = field(default_factory=dict)
    screens_by_app: Counter[str] = field(default_factory=Counter)
    split_screens: Counter[str] = field(default_factory=Counter)
    split_boxes: dict[str, Counter[str]] = field(default_factory=dict)
    bars_added: int = 0

    def add(self, sample: Sample, source: str) -> None:
        kinds = Counter(b.kind.value for b in sample.boxes)
        self.screens_by_source[source] += 1
        self.boxes_by_source.setdefault(source, Counter()).update(kinds)
        self.screens_by_app[sample.app] += 1
        self.boxes_by_app.setdefault(sample.app, Counter()).update(kinds)
        self.split_screens[sample.split] += 1
        self.split_boxes.setdefault(sample.split, Counter()).update(kinds)

    def to_json(self) -> dict[str, Any]:
        return {
            "screens_by_source": dict(self.screens_by_source),
            "boxes_by_source": {k: dict(v) for k, v in self.boxes_by_source.items()},
            "screens_by_app": dict(self.screens_by_app.most_common()),
            "boxes_by_app": {k: dict(v) for k, v in self.boxes_by_app.items()},
            "split_screens": dict(self.split_screens),
            "split_boxes": {k: dict(v) for k, v in self.split_boxes.items()},
            "screens_dropped": dict(self.screens.dropped.most_common()),
            "screens_dropped_by_source": {
                f"{s}/{r}": n for (s, r), n in sorted(self.screens.dropped_by_source.items())
            },
            "boxes_dropped": dict(self.convert.dropped.most_common()),
            "unpaired_screens": len(self.convert.skipped_screens),
            "bars_added": self.bars_added,
        }


def converted(
    root: Path, report: HarvestReport, screen_filters: ScreenFilters = ScreenFilters()
) -> Iterator[tuple[Sample, Any]]:
    """Every kept screen of every source, with its grey pixels; drops are counted."""
    from screenpilot.datasets.convert import read_image

    deduper = Deduper(screen_filters.max_hash_distance)
    for source in sources(root):
        for sample in _samples(source, report, deduper):
            _w, _h, gray = read_image(sample.image)
            reason = screen_drop_reason(sample, source.fmt, gray, deduper, screen_filters)
            if reason:
                report.screens.drop(source.name, reason)
                continue
            report.screens.kept[source.name] += 1
            meta = {
                **sample.meta,
                "source": source.name,
                "fmt": source.fmt,
                "repo": source.repo,
                "commit": source.commit,
            }
            yield replace(sample, name=f"{source.name}__{sample.stem}", meta=meta), gray


def _samples(source: HarvestSource, report: HarvestReport, deduper: Deduper) -> Iterator[Sample]:
    """A source's converted screens; DroidBot states already kept (same app and
    ``state_str``) are counted as duplicates before their boxes are computed."""
    if source.fmt != "droidbot":
        yield from convert(source.fmt, source.folder, filters=REAL_FILTERS, report=report.convert)
        return
    from screenpilot.datasets.convert import droidbot_sample, load_json, match_states
    from screenpilot.datasets.yolo import IMAGE_SUFFIXES

    seen: set[str] = set()
    for folder in sorted({p.parent for p in source.folder.rglob("state_*.json")}):
        screens = sorted(p for p in folder.glob("screen_*") if p.suffix.lower() in IMAGE_SUFFIXES)
        matched = match_states(screens, sorted(folder.glob("state_*.json")))
        report.convert.skipped_screens += [str(s) for s in screens if s not in matched]
        for screen, state_path in matched.items():
            state_str = str(load_json(state_path).get("state_str") or "")
            if state_str and state_str in seen:
                report.screens.drop(source.name, "duplicate state")
                continue
            seen.add(state_str)
            sample = droidbot_sample(screen, state_path, folder.name, REAL_FILTERS, report.convert)
            report.convert.add(sample)
            yield sample


def _stable_rank(app: str, seed: int) -> str:
    return hashlib.sha1(f"{seed}:{app}".encode()).hexdigest()


def choose_val_apps(
    screens_by_app: Counter[str], *, n_apps: int = 18, seed: int = 0, max_share: float = 0.25
) -> list[str]:
    """Held-out apps: non-system apps in a fixed hash order, up to ``n_apps`` and
    about ``max_share`` of the non-system screens (apps that would exceed it are
    passed over, so one huge app cannot become the whole validation set)."""
    candidates = sorted(
        (a for a in screens_by_app if not is_system(a)), key=lambda a: _stable_rank(a, seed)
    )
    total = sum(screens_by_app[a] for a in candidates)
    chosen: list[str] = []
    taken = 0
    for app in candidates:
        if len(chosen) >= n_apps:
            break
        if taken + screens_by_app[app] > max_share * total and chosen:
            continue
        chosen.append(app)
        taken += screens_by_app[app]
    return sorted(chosen)


def _resized(sample: Sample, out: Path, max_side: int) -> Sample:
    """Write the screen as a JPEG of at most ``max_side`` under the dataset's images."""
    from PIL import Image

    scale = min(1.0, max_side / max(sample.width, sample.height))
    width, height = round(sample.width * scale), round(sample.height * scale)
    target = out / "images" / sample.split / f"{sample.stem}.jpg"
    target.parent.mkdir(parents=True, exist_ok=True)
    with Image.open(sample.image) as im:
        small = im.convert("RGB").resize((width, height), Image.Resampling.BILINEAR)
        small.save(target, quality=90)
    boxes = tuple(
        replace(b, x1=b.x1 * scale, y1=b.y1 * scale, x2=b.x2 * scale, y2=b.y2 * scale)
        for b in sample.boxes
    )
    return replace(
        sample,
        image=target,
        width=width,
        height=height,
        boxes=boxes,
        meta={**sample.meta, "original": str(sample.image), "scale": scale},
    )


def _bars(full: Sample, small: Sample, finder: BarFinder | None) -> tuple[LabeledBox, ...]:
    """System bars of a train screen: from the hierarchy, else from ``finder``."""
    nodes, _state = hierarchy_nodes(small.meta["fmt"], Path(small.meta["state"]), full.width)
    scale = small.meta["scale"]
    found = {
        b.kind: replace(b, x1=b.x1 * scale, y1=b.y1 * scale, x2=b.x2 * scale, y2=b.y2 * scale)
        for b in system_bars(nodes, full.width, full.height)
    }
    if finder is not None and len(found) < 2:
        for box in finder(small.image):
            found.setdefault(box.kind, box)
    return tuple(found.values())


def build(
    root: Path,
    out: Path,
    *,
    val_apps: Sequence[str] | None = None,
    n_val_apps: int = 18,
    seed: int = 0,
    max_side: int = 960,
    bars: BarFinder | None = None,
    progress: Callable[[int], None] | None = None,
) -> tuple[Path, HarvestReport]:
    """Convert, filter, split and write the real dataset; returns data.yaml and the report."""
    report = HarvestReport()
    kept = []
    for i, (sample, _gray) in enumerate(converted(root, report)):
        kept.append(sample)
        if progress:
            progress(i + 1)
    apps = Counter(s.app for s in kept)
    held_out = set(
        val_apps if val_apps is not None else choose_val_apps(apps, n_apps=n_val_apps, seed=seed)
    )
    samples = []
    for sample in kept:
        split = "val" if sample.app in held_out else "train"
        small = _resized(replace(sample, split=split), out, max_side)
        if split == "train" and small.meta["source"] not in NO_BARS:
            extra = _bars(sample, small, bars)
            report.bars_added += len(extra)
            small = replace(small, boxes=small.boxes + extra)
        report.add(small, small.meta["source"])
        samples.append(small)
    data_yaml = write_yolo(samples, out, coco=False)
    with (out / "manifest.jsonl").open("w", encoding="utf-8") as fh:
        for s in samples:
            fh.write(
                json.dumps(
                    {
                        "stem": s.stem,
                        "split": s.split,
                        "app": s.app,
                        "image": str(s.image),
                        **s.meta,
                    }
                )
                + "\n"
            )
    summary = {"val_apps": sorted(held_out), **report.to_json()}
    (out / "harvest_report.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    return data_yaml, report


def pseudo_bars(model: Path, *, conf: float = 0.5) -> BarFinder:
    """Status and navigation bars found by a detector, as labels for train screens."""
    from screenpilot.model import ElementKind
    from screenpilot.vision.detect import Detector

    detector = Detector(model, conf=conf)
    wanted = {ElementKind.STATUS_BAR, ElementKind.NAVIGATION_BAR}

    def find(image: Path) -> list[LabeledBox]:
        found = {}
        for d in detector.detect(image):
            if d.kind in wanted and d.kind not in found:
                found[d.kind] = LabeledBox(d.kind, d.x1, d.y1, d.x2, d.y2)
        return list(found.values())

    return find
