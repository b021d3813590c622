"""Accuracy of vision/describe against ground truth (a script, not a test).

Writes ``bench/results/vision_truth.json`` and prints a compact table.

Simulator (every page of every app, rendered by ``VirtualPhone`` in several
variants of size / theme / locale, with the phone's ground-truth ``Screen``). Each
screen is read once (OCR and the shipped detector, unfiltered), then assembled at
several OCR thresholds, once with the shipped detector's widgets ("shipped") and
once with the truth's widget boxes as an oracle detector ("oracle": measures OCR,
text-widget matching, states, blocks and tabs as if detection were perfect):

- elements by kind: recall and precision, a predicted element matching a truth one
  of the same kind at IoU >= 0.5 (one to one, best IoU first; the detector has no
  icon class, so truth icons count as images);
- OCR: for every truth element with a text, the OCR lines kept at the threshold
  whose centre lies in its box, joined left to right / top to bottom: exact match
  (whitespace collapsed) and character error rate (edit distance / length,
  whitespace removed; summed over all texts). ``text_exact`` is the same for
  truth TEXT elements only;
- text-widget matching: truth widgets (not text, not bars) with a text or caption;
  the predicted element of the same kind at IoU >= 0.5 must carry it: ``accuracy``
  when its text / caption contains the truth's (whitespace collapsed), ``exact``
  when they are equal (a caption that also took the row's summary line is not);
- checked: switches and check boxes matched as above, state from the pixels;
- blocks: for each truth block, the best IoU of a predicted block of the same kind
  (0 when there is none): mean, and the share at >= 0.5;
- active tab: on pages whose truth has a tab bar with an active element, whether
  the predicted selected element in that bar is nearest to the truth's active tab.

DroidBot (``../shared/data/droidbot``: screens + ``state_*.json`` matched by time
with ``datasets.convert.match_states``). Views are kept when visible with all their
ancestors, at least 4 px each way, at least half on screen, not occluded by a later
opaque view (``datasets.convert`` filters), and smaller than half the screen.
Clickable recall: a truth clickable view is found when a predicted element overlaps
it at IoU >= 0.3 or lies inside it (90 % of its area). OCR CER: as above, against
the views' ``text``.

Real screens (``../shared/data/real-screens``, 85 screenshots, no labels): every
screen described, errors counted, describe time p50; ``--overlays DIR`` writes the
overlays of ten of them (one per app, then more).

    .venv/bin/python bench/vision_truth.py [--variants default|all] [--pages N]
        [--no-simulator] [--no-droidbot] [--no-real] [--overlays DIR]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from screenpilot.model import BlockKind, Box, Element, ElementKind, Screen
from screenpilot.vision.glyphread import box_reader
from screenpilot.vision.image import RGB, load_image
from screenpilot.vision.ocr import DEFAULT_THRESHOLD, TextLine, get_backend
from screenpilot.vision.pipeline import (
    MODELS_DIR,
    STAGES,
    Observations,
    analyse,
    assemble,
    default_detector,
    default_icons,
    observe,
)
from screenpilot.vision.shipped import detector_path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "results" / "vision_truth.json"
SHARED = ROOT.parent / "shared" / "data"
DROIDBOT = SHARED / "droidbot"
REAL = SHARED / "real-screens"
#: OCR recognition thresholds the simulator screens are assembled at.
THRESHOLDS = (0.8, 0.9, 0.95)
#: Thresholds the OCR-only figures (droidbot) are computed at.
OCR_THRESHOLDS = (0.5, 0.8, 0.85, 0.9, 0.93, 0.95, 0.98)
MATCH_IOU = 0.5
BARS = frozenset({ElementKind.STATUS_BAR, ElementKind.NAVIGATION_BAR})
STATEFUL = frozenset({ElementKind.SWITCH, ElementKind.CHECK_BOX})
IMAGE_EXTS = frozenset({".png", ".jpg", ".jpeg", ".webp"})


# --------------------------------------------------------------------------- helpers


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance between two strings."""
    if len(a) < len(b):
        a, b = b, a
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        cur = [i]
        for j, cb in enumerate(b, start=1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def norm(text: str) -> str:
    """Whitespace collapsed (exact-match comparison)."""
    return " ".join(text.split())


def squash(text: str) -> str:
    """Whitespace removed (CER comparison: OCR spacing is not what is measured)."""
    return "".join(text.split())


def kind_class(kind: ElementKind) -> ElementKind:
    """The detector's class for a kind (it has no icon class: icons are images)."""
    return ElementKind.IMAGE if kind is ElementKind.ICON else kind


def greedy_match(
    truth: Sequence[Box], pred: Sequence[Box], min_iou: float = MATCH_IOU
) -> dict[int, int]:
    """One-to-one matching, best IoU first: truth index -> predicted index."""
    pairs = sorted(
        (
            (t.iou(p), i, j)
            for i, t in enumerate(truth)
            for j, p in enumerate(pred)
            if t.intersection(p) > 0
        ),
        reverse=True,
    )
    out: dict[int, int] = {}
    used: set[int] = set()
    for iou, i, j in pairs:
        if iou < min_iou:
            break
        if i not in out and j not in used:
            out[i] = j
            used.add(j)
    return out


def lines_in(box: Box, lines: Iterable[TextLine], pad: int = 4) -> str:
    """The lines whose centre lies in ``box`` (grown by ``pad``), in reading order."""
    grown = Box(box.x1 - pad, box.y1 - pad, box.x2 + pad, box.y2 + pad)
    inside = [t for t in lines if grown.contains(*t.box.center)]
    inside.sort(key=lambda t: (t.box.y1 // max(8, t.box.height // 2), t.box.x1))
    return " ".join(t.text for t in inside)


def ratio(num: float, den: float, digits: int = 3) -> float | None:
    """``num / den`` rounded, or None when there is nothing to divide."""
    return round(num / den, digits) if den else None


@dataclass(slots=True)
class OcrTally:
    """Exact matches and summed edit distances of OCR against truth texts."""

    texts: int = 0
    exact: int = 0
    found: int = 0
    dist: int = 0
    chars: int = 0

    def add(self, truth: str, read: str) -> None:
        self.texts += 1
        self.exact += norm(truth) == norm(read)
        self.found += bool(read)
        t, r = squash(truth), squash(read)
        self.dist += edit_distance(t, r)
        self.chars += len(t)

    def summary(self) -> dict[str, Any]:
        return {
            "texts": self.texts,
            "exact": ratio(self.exact, self.texts),
            "found": ratio(self.found, self.texts),
            "cer": ratio(self.dist, self.chars),
        }


@dataclass(slots=True)
class Tally:
    """Every simulator figure for one configuration (threshold, detector)."""

    truth: Counter[str] = field(default_factory=Counter)
    pred: Counter[str] = field(default_factory=Counter)
    hit_truth: Counter[str] = field(default_factory=Counter)
    hit_pred: Counter[str] = field(default_factory=Counter)
    any_kind_hits: int = 0
    ocr: OcrTally = field(default_factory=OcrTally)
    text_only: OcrTally = field(default_factory=OcrTally)
    widgets: int = 0
    widgets_found: int = 0
    widgets_carry: int = 0
    widgets_exact: int = 0
    checked: int = 0
    checked_right: int = 0
    blocks: Counter[str] = field(default_factory=Counter)
    block_iou: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))
    block_hits: Counter[str] = field(default_factory=Counter)
    tabs: Counter[str] = field(default_factory=Counter)

    def add(self, truth: Screen, pred: Screen, lines: Sequence[TextLine]) -> None:
        """Score one predicted screen (and the OCR lines it was made from) against truth."""
        self._elements(truth, pred)
        for e in truth.elements:
            if e.text and e.kind not in BARS:
                read = lines_in(e.box, lines)
                self.ocr.add(e.text, read)
                if e.kind is ElementKind.TEXT:
                    self.text_only.add(e.text, read)
        self._widgets(truth, pred)
        self._blocks(truth, pred)
        self._tabs(truth, pred)

    def _elements(self, truth: Screen, pred: Screen) -> None:
        by_kind: dict[ElementKind, tuple[list[Element], list[Element]]] = defaultdict(
            lambda: ([], [])
        )
        for e in truth.elements:
            by_kind[kind_class(e.kind)][0].append(e)
        for e in pred.elements:
            by_kind[kind_class(e.kind)][1].append(e)
        for kind, (ts, ps) in by_kind.items():
            matched = greedy_match([t.box for t in ts], [p.box for p in ps])
            self.truth[kind.value] += len(ts)
            self.pred[kind.value] += len(ps)
            self.hit_truth[kind.value] += len(matched)
            self.hit_pred[kind.value] += len(matched)
        self.any_kind_hits += len(
            greedy_match([t.box for t in truth.elements], [p.box for p in pred.elements])
        )

    def _widgets(self, truth: Screen, pred: Screen) -> None:
        for t in truth.elements:
            if t.kind is ElementKind.TEXT or t.kind in BARS:
                continue
            same = [p for p in pred.elements if kind_class(p.kind) is kind_class(t.kind)]
            best = max(same, key=lambda p: p.box.iou(t.box), default=None)
            if best is not None and best.box.iou(t.box) < MATCH_IOU:
                best = None
            if t.kind in STATEFUL and t.checked is not None and best is not None:
                self.checked += 1
                self.checked_right += best.checked == t.checked
            if not (t.text or t.caption):
                continue
            self.widgets += 1
            if best is None:
                continue
            self.widgets_found += 1
            self.widgets_exact += norm(best.text) == norm(t.text) and norm(best.caption) == norm(
                t.caption
            )
            self.widgets_carry += norm(t.text) in norm(best.text) and norm(t.caption) in norm(
                best.caption
            )

    def _blocks(self, truth: Screen, pred: Screen) -> None:
        for b in truth.blocks:
            kind = b.kind.value
            best = max((p.box.iou(b.box) for p in pred.blocks if p.kind is b.kind), default=0.0)
            self.blocks[kind] += 1
            self.block_iou[kind] += best
            self.block_hits[kind] += best >= MATCH_IOU

    def _tabs(self, truth: Screen, pred: Screen) -> None:
        for bar in truth.blocks:
            if bar.kind is not BlockKind.TAB_BAR or bar.active_element is None:
                continue
            active = truth.elements[bar.active_element]
            tabs = [
                e
                for e in truth.elements
                if e.block_id == bar.id and e.kind is active.kind and _same_row(e.box, active.box)
            ]
            chosen = [p for p in pred.elements if p.selected and bar.box.contains(*p.box.center)]
            if not chosen:
                self.tabs["none"] += 1
                continue
            x = chosen[0].box.center[0]
            nearest = min(tabs, key=lambda e: abs(e.box.center[0] - x))
            self.tabs["right" if nearest is active else "wrong"] += 1

    def summary(self) -> dict[str, Any]:
        kinds = sorted(set(self.truth) | set(self.pred))
        total_truth, total_pred = sum(self.truth.values()), sum(self.pred.values())
        tabs = sum(self.tabs.values())
        return {
            "elements": {
                k: {
                    "truth": self.truth[k],
                    "pred": self.pred[k],
                    "recall": ratio(self.hit_truth[k], self.truth[k]),
                    "precision": ratio(self.hit_pred[k], self.pred[k]),
                }
                for k in kinds
            },
            "elements_all": {
                "truth": total_truth,
                "pred": total_pred,
                "recall": ratio(sum(self.hit_truth.values()), total_truth),
                "precision": ratio(sum(self.hit_pred.values()), total_pred),
                "recall_any_kind": ratio(self.any_kind_hits, total_truth),
            },
            "ocr": self.ocr.summary(),
            "text_elements": self.text_only.summary(),
            "text_widget_matching": {
                "widgets": self.widgets,
                "found": ratio(self.widgets_found, self.widgets),
                "accuracy": ratio(self.widgets_carry, self.widgets),
                "exact": ratio(self.widgets_exact, self.widgets),
                "accuracy_when_found": ratio(self.widgets_carry, self.widgets_found),
            },
            "checked": {
                "widgets": self.checked,
                "accuracy": ratio(self.checked_right, self.checked),
            },
            "blocks": {
                k: {
                    "truth": n,
                    "mean_iou": ratio(self.block_iou[k], n),
                    "iou>=0.5": ratio(self.block_hits[k], n),
                }
                for k, n in sorted(self.blocks.items())
            },
            "active_tab": {
                "pages": tabs,
                "accuracy": ratio(self.tabs["right"], tabs),
                "wrong": self.tabs["wrong"],
                "none": self.tabs["none"],
            },
        }


def _same_row(a: Box, b: Box) -> bool:
    return min(a.y2, b.y2) - max(a.y1, b.y1) >= 0.5 * min(a.height, b.height)


# --------------------------------------------------------------------------- simulator


@dataclass(frozen=True, slots=True)
class Variant:
    """How the virtual phone renders: size, theme and locale."""

    width: int
    height: int
    theme: str
    locale: str

    @property
    def name(self) -> str:
        return f"{self.width}x{self.height}-{self.theme}-{self.locale}"


DEFAULT_VARIANTS = (
    Variant(1080, 2400, "light", "en"),
    Variant(1080, 2400, "dark", "zh"),
    Variant(720, 1600, "dark", "en"),
    Variant(1080, 1920, "light", "zh"),
)
ALL_VARIANTS = tuple(
    Variant(w, h, t, loc)
    for w, h in ((1080, 2400), (720, 1600), (1080, 1920))
    for t in ("light", "dark")
    for loc in ("en", "zh")
)


def oracle_widgets(truth: Screen) -> tuple[Element, ...]:
    """The truth's widgets as a perfect detector reports them (no text, no state)."""
    return tuple(
        Element(0, e.kind, e.box) for e in truth.elements if e.kind is not ElementKind.TEXT
    )


def simulator_screens(
    variants: Sequence[Variant], max_pages: int | None
) -> Iterator[tuple[str, Variant, RGB, Screen]]:
    """(page name, variant, pixels, truth) for every page of every app in every variant."""
    from screenpilot.errors import ScreenpilotError
    from screenpilot.simulator.phone import VirtualPhone

    for variant in variants:
        phone = VirtualPhone(
            size=(variant.width, variant.height),
            theme=variant.theme,  # type: ignore[arg-type]
            locale=variant.locale,
        )
        pages = [(app.package, app.label, page) for app in phone.installed() for page in app.pages]
        for package, label, page in pages[:max_pages]:
            phone.reset()
            try:
                phone.open_page(package, page)
                frame = phone.frame()
            except ScreenpilotError:
                continue
            if frame.secure:
                continue
            pixels = np.ascontiguousarray(np.asarray(frame.image.convert("RGB")))
            yield f"{label}/{page}", variant, pixels, phone.screen()


def run_simulator(variants: Sequence[Variant], max_pages: int | None) -> dict[str, Any]:
    """Every simulator figure, per configuration and (at the default threshold) per variant."""
    tallies: dict[tuple[float, str], Tally] = defaultdict(Tally)
    per_variant: dict[str, OcrTally] = defaultdict(OcrTally)
    per_app: dict[str, Tally] = defaultdict(Tally)
    screens, seconds = 0, []
    reader = box_reader(get_backend())  # numbers the text detector missed, as describe
    for name, variant, pixels, truth in simulator_screens(variants, max_pages):
        start = time.perf_counter()
        raw = observe(pixels, STAGES, detector=None, ocr=None, reports={})
        seconds.append(time.perf_counter() - start)
        screens += 1
        for th in THRESHOLDS:
            lines = tuple(t for t in raw.lines if t.score >= th)
            for det, widgets in (("shipped", raw.widgets), ("oracle", oracle_widgets(truth))):
                pred = assemble(
                    pixels,
                    Observations(lines, widgets),
                    STAGES,
                    icons=None,
                    reports={},
                    reader=reader,
                )
                tallies[(th, det)].add(truth, pred, lines)
                if th == DEFAULT_THRESHOLD and det == "shipped":
                    per_app[name.split("/")[0]].add(truth, pred, lines)
        for e in truth.elements:
            if e.text and e.kind not in BARS:
                per_variant[variant.name].add(
                    e.text, lines_in(e.box, [t for t in raw.lines if t.score >= DEFAULT_THRESHOLD])
                )
        print(f"  {screens:4d} {variant.name:24s} {name:32s} {seconds[-1]:.2f}s", file=sys.stderr)
    return {
        "screens": screens,
        "variants": [v.name for v in variants],
        "observe_p50_s": round(statistics.median(seconds), 3) if seconds else None,
        "by_threshold": {
            str(th): {det: tallies[(th, det)].summary() for det in ("shipped", "oracle")}
            for th in THRESHOLDS
        },
        "ocr_by_variant": {k: v.summary() for k, v in sorted(per_variant.items())},
        "ocr_by_app": {k: v.ocr.summary() for k, v in sorted(per_app.items())},
    }


# --------------------------------------------------------------------------- droidbot


@dataclass(frozen=True, slots=True)
class TruthView:
    """A filtered DroidBot view: its box in screenshot pixels, text, clickability."""

    box: Box
    text: str
    clickable: bool


def droidbot_pairs(root: Path) -> list[tuple[Path, Path]]:
    """(screenshot, state) pairs matched by time, as ``datasets.convert`` matches them."""
    from screenpilot.datasets.convert import match_states
    from screenpilot.datasets.yolo import IMAGE_SUFFIXES

    pairs: list[tuple[Path, Path]] = []
    for folder in sorted({p.parent for p in root.rglob("state_*.json")}):
        shots = sorted(p for p in folder.glob("screen_*") if p.suffix.lower() in IMAGE_SUFFIXES)
        matched = match_states(shots, sorted(folder.glob("state_*.json")))
        pairs += sorted(matched.items())
    return pairs


def droidbot_truth(state: Mapping[str, Any], width: int, height: int) -> list[TruthView]:
    """The views that pass the filters (see the module docstring)."""
    from screenpilot.datasets import convert

    views = state.get("views") or []
    if not views:
        return []
    by_id = {int(v["temp_id"]): v for v in views}
    root_width = max((v["bounds"][1][0] for v in views), default=width)
    nodes = convert.droidbot_nodes(views, convert._scale(root_width, width))
    order = convert.paint_order(views)
    filters = convert.Filters()
    out = []
    for node in nodes:
        view = by_id[order[node.index]]
        text = str(view.get("text") or "").strip()
        if not (text or node.clickable) or not convert.is_visible(nodes, node.index):
            continue
        clipped = convert._clip(node.box, width, height)
        full = convert._area(node.box)
        if full <= 0 or min(clipped[2] - clipped[0], clipped[3] - clipped[1]) < filters.min_side:
            continue
        if (
            convert._area(clipped) < filters.min_visible * full
            or convert._area(clipped) > 0.5 * width * height
        ):
            continue
        if convert._occluded(nodes, node.index, clipped, convert._lineage(nodes, node.index)):
            continue
        out.append(TruthView(Box.of(*clipped), text, node.clickable))
    return out


def _found(view: Box, pred: Iterable[Element]) -> bool:
    return any(p.box.iou(view) >= 0.3 or view.intersection(p.box) >= 0.9 * p.box.area for p in pred)


def run_droidbot(root: Path) -> dict[str, Any]:
    """Clickable recall and OCR against DroidBot view hierarchies."""
    clickable = hits = 0
    ocr: dict[float, OcrTally] = defaultdict(OcrTally)
    by_group: dict[str, OcrTally] = defaultdict(OcrTally)
    screens = 0
    for shot, state_path in droidbot_pairs(root):
        state = json.loads(state_path.read_text(encoding="utf-8"))
        pixels = load_image(shot)
        h, w = pixels.shape[:2]
        truth = droidbot_truth(state, w, h)
        raw = observe(pixels, STAGES, detector=None, ocr=None, reports={})
        lines = tuple(t for t in raw.lines if t.score >= DEFAULT_THRESHOLD)
        pred = assemble(
            pixels,
            Observations(lines, raw.widgets),
            STAGES,
            icons=None,
            reports={},
            reader=box_reader(get_backend()),
        )
        screens += 1
        for v in truth:
            if v.clickable:
                clickable += 1
                hits += _found(v.box, pred.elements)
            if v.text:
                for th in OCR_THRESHOLDS:
                    ocr[th].add(v.text, lines_in(v.box, [t for t in raw.lines if t.score >= th]))
                by_group[shot.parent.name].add(v.text, lines_in(v.box, lines))
        print(f"  {screens:4d} {shot.parent.name}/{shot.name}", file=sys.stderr)
    return {
        "screens": screens,
        "clickable": clickable,
        "clickable_recall": ratio(hits, clickable),
        "ocr_by_threshold": {str(th): ocr[th].summary() for th in OCR_THRESHOLDS},
        "ocr_by_source": {k: v.summary() for k, v in sorted(by_group.items())},
    }


# --------------------------------------------------------------------------- real screens


def real_images(root: Path) -> list[Path]:
    """Every screenshot under ``root``, sorted."""
    return sorted(p for p in root.rglob("*") if p.suffix.lower() in IMAGE_EXTS)


def overlay_choice(images: Sequence[Path], count: int = 10) -> list[Path]:
    """``count`` screens: the first of each app, then the second of each, and so on."""
    by_app: dict[str, list[Path]] = defaultdict(list)
    for p in images:
        by_app[p.relative_to(REAL).parts[0]].append(p)
    chosen: list[Path] = []
    rank = 0
    while len(chosen) < count and any(len(v) > rank for v in by_app.values()):
        chosen += [v[rank] for _, v in sorted(by_app.items()) if len(v) > rank]
        rank += 1
    return chosen[:count]


def run_real(root: Path, overlays: Path | None) -> dict[str, Any]:
    """Describe every real screenshot; count errors; describe time p50; optional overlays."""
    from screenpilot.vision import overlay

    images = real_images(root)
    chosen = set(overlay_choice(images)) if overlays else set()
    errors: list[str] = []
    seconds: list[float] = []
    elements: list[int] = []
    for i, path in enumerate(images, start=1):
        try:
            desc = analyse(path)
        except Exception as exc:  # every failure is counted, whatever its kind
            errors.append(f"{path.relative_to(root)}: {type(exc).__name__}: {exc}")
            continue
        seconds.append(desc.seconds)
        elements.append(len(desc.screen.elements))
        if overlays and path in chosen:
            overlays.mkdir(parents=True, exist_ok=True)
            overlay.save(path, desc.screen, overlays / f"{path.parent.name}-{path.stem}.png")
        print(f"  {i:4d} {path.relative_to(root)} {desc.seconds:.2f}s", file=sys.stderr)
    return {
        "screens": len(images),
        "described": len(seconds),
        "errors": len(errors),
        "error_messages": errors[:10],
        "describe_p50_s": round(statistics.median(seconds), 3) if seconds else None,
        "describe_p90_s": round(sorted(seconds)[int(0.9 * (len(seconds) - 1))], 3)
        if seconds
        else None,
        "elements_p50": statistics.median(elements) if elements else None,
    }


# --------------------------------------------------------------------------- report


def models() -> dict[str, Any]:
    """Which models were shipped (and what the pipeline says about them)."""
    det, det_note = default_detector()
    icons, icons_note = default_icons()
    return {
        "detector.onnx": (MODELS_DIR / "detector.onnx").is_file(),
        "detector_used_file": str(detector_path()[0].name),
        "icons.onnx": (MODELS_DIR / "icons.onnx").is_file(),
        "detector_used": det is not None,
        "icons_used": icons is not None,
        "notes": [n for n in (det_note, icons_note) if n],
    }


def _fmt(value: Any) -> str:
    return "-" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value)


def table(result: Mapping[str, Any]) -> str:
    """The compact table printed after a run."""
    rows = [f"models: {result['models']}"]
    sim = result.get("simulator")
    if sim:
        rows.append(f"simulator: {sim['screens']} screens ({', '.join(sim['variants'])})")
        rows.append(
            f"{'threshold/detector':22s} {'recall':>7s} {'prec':>7s} {'anykind':>7s} "
            f"{'ocr-ex':>7s} {'cer':>7s} {'text-ex':>7s} {'tw-acc':>7s} {'checked':>7s} "
            f"{'tab':>7s}"
        )
        for th, by_det in sim["by_threshold"].items():
            for det, s in by_det.items():
                rows.append(
                    f"{th + ' ' + det:22s} {_fmt(s['elements_all']['recall']):>7s} "
                    f"{_fmt(s['elements_all']['precision']):>7s} "
                    f"{_fmt(s['elements_all']['recall_any_kind']):>7s} "
                    f"{_fmt(s['ocr']['exact']):>7s} {_fmt(s['ocr']['cer']):>7s} "
                    f"{_fmt(s['text_elements']['exact']):>7s} "
                    f"{_fmt(s['text_widget_matching']['accuracy']):>7s} "
                    f"{_fmt(s['checked']['accuracy']):>7s} {_fmt(s['active_tab']['accuracy']):>7s}"
                )
        main = sim["by_threshold"][str(DEFAULT_THRESHOLD)]["shipped"]
        rows.append(
            "elements by kind (default threshold, shipped models): "
            + ", ".join(
                f"{k} {v['truth']}/{v['pred']} R{_fmt(v['recall'])} P{_fmt(v['precision'])}"
                for k, v in main["elements"].items()
            )
        )
        rows.append(
            "blocks (truth n, mean IoU, IoU>=0.5): "
            + ", ".join(
                f"{k} {v['truth']} {_fmt(v['mean_iou'])} {_fmt(v['iou>=0.5'])}"
                for k, v in main["blocks"].items()
            )
        )
        rows.append(
            "OCR by variant (exact, cer): "
            + ", ".join(
                f"{k} {_fmt(v['exact'])} {_fmt(v['cer'])}" for k, v in sim["ocr_by_variant"].items()
            )
        )
    db = result.get("droidbot")
    if db and "skipped" not in db:
        rows.append(
            f"droidbot: {db['screens']} screens, clickable recall "
            f"{_fmt(db['clickable_recall'])} of {db['clickable']}; OCR by threshold "
            "(exact, found, cer): "
            + ", ".join(
                f"{k}: {_fmt(v['exact'])} {_fmt(v['found'])} {_fmt(v['cer'])}"
                for k, v in db["ocr_by_threshold"].items()
            )
        )
    real = result.get("real_screens")
    if real and "skipped" not in real:
        rows.append(
            f"real screens: {real['described']}/{real['screens']} described, "
            f"{real['errors']} errors, describe p50 {_fmt(real['describe_p50_s'])} s, "
            f"p90 {_fmt(real['describe_p90_s'])} s"
        )
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--variants", choices=("default", "all"), default="default")
    parser.add_argument("--pages", type=int, default=None, help="at most this many pages/variant")
    parser.add_argument("--no-simulator", action="store_true")
    parser.add_argument("--no-droidbot", action="store_true")
    parser.add_argument("--no-real", action="store_true")
    parser.add_argument(
        "--overlays", type=Path, default=None, help="write overlays of ten real screens here"
    )
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    result: dict[str, Any] = {"models": models()}
    start = time.perf_counter()
    if not args.no_simulator:
        variants = DEFAULT_VARIANTS if args.variants == "default" else ALL_VARIANTS
        result["simulator"] = run_simulator(variants, args.pages)
    if not args.no_droidbot:
        result["droidbot"] = (
            run_droidbot(DROIDBOT) if DROIDBOT.is_dir() else {"skipped": f"{DROIDBOT} is absent"}
        )
    if not args.no_real:
        result["real_screens"] = (
            run_real(REAL, args.overlays) if REAL.is_dir() else {"skipped": f"{REAL} is absent"}
        )
    result["seconds"] = round(time.perf_counter() - start, 1)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(table(result))
    print(f"wrote {args.out}")
    return 0


__all__ = ["OcrTally", "Tally", "Variant", "edit_distance", "lines_in", "main", "oracle_widgets"]

if __name__ == "__main__":
    sys.exit(main())
