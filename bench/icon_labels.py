"""The icon labels describe prints on real screens, against what the hierarchies say (a
benchmark, not a test).

``screenpilot eval icons`` scores the icon model on the crops a hierarchy cuts; this
scores what a planner reads: describe's whole pipeline (the detector's boxes, the glyph
rules of ``vision/glyphrules.py``, the model on ``glyph_crop``'s cut, its threshold) on
the screens that hold the harvest's labelled icon views (``datasets.real_icons``: image
views and icon buttons whose content description the table maps to a label; every view,
no duplicate removal). For each view, describe's element whose centre lies inside it,
no larger than twice it (``bench/real.py``'s hit rule), with the best IoU, is its
answer: **right** (that element's label is the view's), **wrong** (another label), or
**unlabelled** (no label, or no such element).

``--split val`` (the default): the harvest's 18 held-out apps, never trained on;
``--split train``: the train and dev apps (at most ``--per-app`` screens each).
``--no-glyph-rules`` measures describe without the glyph rules (the label the model
alone gives). Writes ``bench/results/icon_labels.json`` (``--json``).

    .venv/bin/python bench/icon_labels.py [--split val|train] [--per-app N]
        [--no-glyph-rules] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from real import DATA, HIT_MAX_AREA_RATIO, MAKE_DATA, ROOT

OUT = ROOT / "bench" / "results" / "icon_labels.json"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--split",
        choices=("val", "train"),
        default="val",
        help="val: the held-out apps (default); train: the train and dev apps",
    )
    ap.add_argument(
        "--per-app",
        type=int,
        default=0,
        help="at most N screens an app (default: all for val, 12 for train)",
    )
    ap.add_argument(
        "--no-glyph-rules",
        action="store_true",
        help="describe without vision/glyphrules.py (the icon model alone)",
    )
    ap.add_argument("--data", type=Path, default=DATA, help="the harvest dataset folder")
    ap.add_argument("--json", type=Path, default=OUT, help=f"output (default {OUT})")
    return ap.parse_args(argv)


def answer(view: tuple[int, int, int, int], elements: Sequence[Any]) -> Any:
    """The element that answers for ``view`` (x1, y1, x2, y2), or None."""
    x1, y1, x2, y2 = view
    area = max(1, (x2 - x1) * (y2 - y1))
    best, best_iou = None, 0.0
    for e in elements:
        cx, cy = e.box.center
        if not (x1 <= cx <= x2 and y1 <= cy <= y2) or e.box.area > HIT_MAX_AREA_RATIO * area:
            continue
        ix = max(0, min(x2, e.box.x2) - max(x1, e.box.x1))
        iy = max(0, min(y2, e.box.y2) - max(y1, e.box.y1))
        iou = ix * iy / (area + e.box.area - ix * iy)
        if iou > best_iou:
            best, best_iou = e, iou
    return best


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if not (args.data / "manifest.jsonl").is_file():
        print(f"skipped: no real-screen data at {args.data}; make it with: {MAKE_DATA}")
        return 0
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    from rich.progress import track

    import screenpilot.vision.pipeline as pipeline
    from screenpilot.datasets import real_icons
    from screenpilot.datasets.real_icons.extract import IconFilters

    if args.no_glyph_rules:
        setattr(pipeline, "name_drawn_glyphs", lambda pixels, elements: list(elements))  # noqa: B010
    held = set(real_icons.held_out_apps(args.data))
    records = [
        r
        for r in real_icons.screens_from_manifest(args.data)
        if (r.app in held) == (args.split == "val")
    ]
    views = [
        v
        for v in real_icons.extract(
            records, report=real_icons.CropReport(), filters=IconFilters(hash_dedupe=False)
        )
        if v.label
    ]
    by_screen: dict[str, list[Any]] = defaultdict(list)
    for v in views:
        by_screen[v.screen].append(v)
    per_app = args.per_app or (12 if args.split == "train" else 0)
    taken: Counter[str] = Counter()
    screens = []
    for s in sorted(by_screen):
        app = by_screen[s][0].app
        if not per_app or taken[app] < per_app:
            taken[app] += 1
            screens.append(s)
    outcome: Counter[str] = Counter()
    by_label: dict[str, Counter[str]] = defaultdict(Counter)
    by_app: dict[str, Counter[str]] = defaultdict(Counter)
    rows = []
    start = time.perf_counter()
    for s in track(screens, description=f"describe ({args.split})"):
        elements = pipeline.analyse(s).screen.elements
        for v in by_screen[s]:
            e = answer(v.box, elements)
            got = e.icon_label if e is not None else ""
            kind = "right" if got == v.label else "unlabelled" if not got else "wrong"
            outcome[kind] += 1
            by_label[v.label][kind] += 1
            by_app[v.app][kind] += 1
            rows.append(
                {
                    "screen": str(s),
                    "app": v.app,
                    "box": list(v.box),
                    "label": v.label,
                    "description": v.description,
                    "answer": got,
                    "outcome": kind,
                }
            )
    total = sum(outcome.values())
    result = {
        "split": args.split,
        "glyph_rules": not args.no_glyph_rules,
        "screens": len(screens),
        "views": total,
        **{k: outcome[k] for k in ("right", "wrong", "unlabelled")},
        "right_share": round(outcome["right"] / total, 4) if total else 0.0,
        "by_label": {k: dict(v) for k, v in sorted(by_label.items())},
        "by_app": {k: dict(v) for k, v in sorted(by_app.items())},
        "seconds": round(time.perf_counter() - start, 1),
        "views_listed": rows,
    }
    print(
        f"{args.split}: {len(screens)} screens, {total} labelled icon views"
        f"{'' if result['glyph_rules'] else ' (no glyph rules)'}"
    )
    print(
        f"  right {outcome['right']}  wrong {outcome['wrong']}  "
        f"unlabelled {outcome['unlabelled']}  (right {result['right_share']:.1%})"
    )
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=1), encoding="utf-8")
    print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
