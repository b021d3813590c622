"""Switches and check boxes on real phone screens: found, and on or off as the phone says.

A benchmark (prints figures, writes ``bench/results/real_states.json``), not a test.

Screens: the lines of ``runs/data/real_v2/manifest.jsonl`` of one split (``val`` by
default: the held-out apps, never trained on) whose hierarchy holds a switch or a check
box: a visible view (every ancestor visible too) that is checkable, whose class is one
of the Android switch or check-box classes (``datasets.convert.classes``:
``Switch``, ``SwitchCompat``, ``SwitchMaterial``, ``MaterialSwitch``, ``ToggleButton``;
``CheckBox``, ``AppCompatCheckBox``, ``MaterialCheckBox``; not ``CheckedTextView``, the
rows of a choice dialog, drawn as a radio button or a tick as the dialog chooses), at
least 4 px each way and wholly on the screenshot. Its ``checked`` attribute is the truth.
A switch-class view less than ``TILE_RATIO`` times wider than tall is a Quick Settings
tile of the notification shade (Android's tiles are ``Switch`` views drawn as square
buttons, no track): left out, and counted as ``switch/tiles_left_out``.

Per kind, over all such views:

- **found**: an element of ``screenpilot describe`` (``vision.pipeline.analyse``) of
  the same kind whose centre lies inside the view;
- **state right**: of those found, the ones whose ``checked`` equals the view's.

Screens whose hierarchy was dumped before the screen settled show a view the
screenshot lacks (a photo picker's check boxes under a full-screen photo): they count
as missed, so *found* is a floor.

    .venv/bin/python bench/real_states.py [--split val|train] [--limit N]
        [--shard K/N] [--merge A.json B.json] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from real import (
    MAKE_DATA,
    MANIFEST,
    ROOT,
    BenchError,
    _path,
    _shard,
    read_manifest,
    spread,
    write_result,
)

from screenpilot.datasets.convert.classes import ANDROID_CLASSES
from screenpilot.model import ElementKind

OUT = ROOT / "bench" / "results" / "real_states.json"
#: The classes whose ``checked`` is a switch's or a check box's state: the converters'
#: own switch and check-box classes (``CheckedTextView`` is not among them).
KINDS = {
    name: kind.value
    for name, kind in ANDROID_CLASSES.items()
    if kind in (ElementKind.SWITCH, ElementKind.CHECK_BOX)
}
MIN_SIDE = 4
#: A drawn switch's track is wider than tall (``vision.shapes.SWITCH_RATIO``); a view of
#: a switch class under this ratio is a tile.
TILE_RATIO = 1.3


def truth(
    row: dict[str, Any],
) -> tuple[Path, list[tuple[str, tuple[float, float, float, float], bool]], int]:
    """The screenshot of a manifest line, its switches and check boxes (kind, box in
    screenshot pixels, checked) and how many Quick Settings tiles were left out."""
    from PIL import Image

    from screenpilot.datasets.convert import is_visible
    from screenpilot.datasets.convert.classes import simple_name
    from screenpilot.datasets.screens import hierarchy_nodes

    original = _path(row["original"])
    with Image.open(original) as im:
        width, height = im.size
    nodes, _ = hierarchy_nodes(row["fmt"], _path(row["state"]), width)
    views = []
    tiles = 0
    for node in nodes:
        kind = KINDS.get(simple_name(node.cls))
        if kind is None or not node.checkable or not is_visible(nodes, node.index):
            continue
        x1, y1, x2, y2 = node.box
        if x2 - x1 < MIN_SIDE or y2 - y1 < MIN_SIDE:
            continue
        if x1 < 0 or y1 < 0 or x2 > width or y2 > height:
            continue
        if kind == "switch" and x2 - x1 < TILE_RATIO * (y2 - y1):
            tiles += 1
            continue
        views.append((kind, node.box, node.checked))
    return original, views, tiles


def measure(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    from rich.progress import track

    from screenpilot.vision.pipeline import analyse

    counts: Counter[str] = Counter()
    apps: dict[str, Counter[str]] = {}
    cases = [(row, *truth(row)) for row in rows]
    counts["switch/tiles_left_out"] = sum(c[3] for c in cases)
    cases = [c for c in cases if c[2]]
    start = time.perf_counter()
    for row, original, views, _ in track(cases, description="describe"):
        elements = analyse(str(original)).screen.elements
        app = apps.setdefault(row["app"], Counter())
        for kind, (x1, y1, x2, y2), checked in views:
            found = next(
                (
                    e
                    for e in elements
                    if e.kind.value == kind
                    and x1 <= e.box.center[0] <= x2
                    and y1 <= e.box.center[1] <= y2
                ),
                None,
            )
            keys = [f"{kind}/views", f"{kind}/{'on' if checked else 'off'}"]
            if found is not None:
                keys.append(f"{kind}/found")
                if found.checked == checked:
                    keys.append(f"{kind}/state_right")
            counts.update(keys)
            app.update(keys)
    return {
        "screens": len(cases),
        "seconds": round(time.perf_counter() - start, 1),
        "counts": dict(counts),
        "apps": {a: dict(c) for a, c in sorted(apps.items())},
    }


def merge(paths: Sequence[Path]) -> dict[str, Any]:
    """One result from the JSON of ``--shard`` runs."""
    try:
        docs = [json.loads(p.read_text(encoding="utf-8")) for p in paths]
        if len({d["split"] for d in docs}) != 1:
            raise BenchError("the shards were run on different splits")
        counts: Counter[str] = Counter()
        apps: dict[str, Counter[str]] = {}
        for d in docs:
            counts.update(d["counts"])
            for a, c in d["apps"].items():
                apps.setdefault(a, Counter()).update(c)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise BenchError(
            f"cannot merge {[str(p) for p in paths]}: not this benchmark's "
            f"shard results ({exc!r}); run it with --shard K/N --json F"
        ) from exc
    return {
        "split": docs[0]["split"],
        "screens": sum(d["screens"] for d in docs),
        "seconds": round(sum(d["seconds"] for d in docs), 1),
        "counts": dict(counts),
        "apps": {a: dict(c) for a, c in sorted(apps.items())},
    }


def summary(result: dict[str, Any]) -> dict[str, dict[str, float | int]]:
    """Per kind: views, on, found and its share, state right and its share of found."""
    c = result["counts"]
    out: dict[str, dict[str, float | int]] = {}
    for kind in ("switch", "check_box"):
        views, found, right = (c.get(f"{kind}/{k}", 0) for k in ("views", "found", "state_right"))
        out[kind] = {
            "views": views,
            "on": c.get(f"{kind}/on", 0),
            "tiles_left_out": c.get(f"{kind}/tiles_left_out", 0),
            "found": found,
            "found_share": round(found / views, 3) if views else 0.0,
            "state_right": right,
            "state_right_share": round(right / found, 3) if found else 0.0,
        }
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--split", choices=("val", "train"), default="val")
    ap.add_argument("--limit", type=int, default=0, help="N screens across apps (default all)")
    ap.add_argument("--shard", metavar="K/N", help="every N-th screen from the K-th")
    ap.add_argument("--merge", type=Path, nargs="+", metavar="SHARD.json")
    ap.add_argument("--json", type=Path, default=OUT, help=f"output (default {OUT})")
    args = ap.parse_args(argv)
    try:
        if args.merge:
            result = merge(args.merge)
        else:
            if not MANIFEST.is_file():
                print(f"skipped: no real-screen data at {MANIFEST}; make it with: {MAKE_DATA}")
                return 0
            rows = read_manifest(args.split)
            if args.limit > 0:
                rows = spread(rows, args.limit)
            k, n = _shard(args.shard)
            result = {"split": args.split, **measure(rows[k::n])}
    except BenchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    result["summary"] = summary(result)
    print(f"{result['split']}: {result['screens']} screens with a switch or a check box")
    head = ("kind", "views", "on", "found", "share", "state ok", "share")
    print("{:<10} {:>6} {:>5} {:>6} {:>6} {:>9} {:>6}".format(*head))
    for kind, s in result["summary"].items():
        print(
            f"{kind:<10} {s['views']:>6} {s['on']:>5} {s['found']:>6} {s['found_share']:>6.3f} "
            f"{s['state_right']:>9} {s['state_right_share']:>6.3f}"
        )
    print(f"Quick Settings tiles left out: {result['summary']['switch']['tiles_left_out']}")
    write_result(args.json, result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
