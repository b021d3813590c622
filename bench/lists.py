"""Lists on real phone screens: describe's LIST and GRID blocks against the scrolling
lists and grids of the screens' view hierarchies.

A benchmark (prints figures, writes ``bench/results/lists.json``), not a test.

Screens: the lines of ``runs/data/real_v2/manifest.jsonl`` of one split (``val`` by
default: the held-out apps, never trained or tuned on), ``--limit`` of them taken
across apps in turn (``real.spread``).

A list of a screen: a view whose class name ends with ``RecyclerView``, ``ListView``
or ``GridView`` (their subclasses by name; a RecyclerView may lay its items out as a
grid), visible with every ancestor, its box clipped
to the screen at least 5 % of the screen and at least half its width, with three or
more visible children (its rows on screen); views with boxes at IoU >= 0.9 count once.
A ``ScrollView`` of the same size is noted: a page of rows that scrolls.

Measures, over all screens, for two readings of each screen in the same run:

- ``describe``: the LIST and GRID blocks of ``vision.pipeline.analyse`` (what
  ``screenpilot describe`` reports: lists by their lines and, since stop 51, lists by
  their rows and grids by their cells);
- ``lines``: the LIST blocks that ``vision.blocks.divide`` finds from lines alone (what
  describe reported before stop 51);

- **found**: a list with a LIST or GRID block at IoU >= 0.5 (one block may find several);
  **mean IoU** of each list's best block;
- **blocks**, and of them **right** (IoU >= 0.5 with a list) and **on a scroll view**
  (not right, IoU >= 0.5 with a ScrollView).

    .venv/bin/python bench/lists.py [--split val|train] [--limit N] [--json PATH]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from real import MAKE_DATA, MANIFEST, ROOT, BenchError, read_manifest, spread, write_result

from screenpilot.model import BlockKind, Box

OUT = ROOT / "bench" / "results" / "lists.json"
LIST_CLASSES = ("RecyclerView", "ListView", "GridView")
COLLECTIONS = (BlockKind.LIST, BlockKind.GRID)
SCROLL_CLASSES = ("ScrollView",)
MIN_SHARE, MIN_WIDTH, MIN_ROWS = 0.05, 0.5, 3
MATCH_IOU = 0.5


@dataclass
class Tally:
    """Lists found and blocks reported by one reading."""

    lists: int = 0
    found: int = 0
    iou: float = 0.0
    blocks: int = 0
    right: int = 0
    on_scroll: int = 0
    by_app: dict[str, list[int]] = field(default_factory=dict)

    def add(
        self, app: str, lists: Sequence[Box], scrolls: Sequence[Box], blocks: Sequence[Box]
    ) -> None:
        row = self.by_app.setdefault(app, [0, 0])
        for truth in lists:
            best = max((b.iou(truth) for b in blocks), default=0.0)
            self.lists += 1
            self.found += best >= MATCH_IOU
            self.iou += best
            row[0] += 1
            row[1] += best >= MATCH_IOU
        for b in blocks:
            self.blocks += 1
            if any(b.iou(t) >= MATCH_IOU for t in lists):
                self.right += 1
            elif any(b.iou(s) >= MATCH_IOU for s in scrolls):
                self.on_scroll += 1

    def summary(self) -> dict[str, Any]:
        def share(a: float, b: int) -> float | None:
            return round(a / b, 3) if b else None

        return {
            "lists": self.lists,
            "found": self.found,
            "found_share": share(self.found, self.lists),
            "mean_iou": share(self.iou, self.lists),
            "blocks": self.blocks,
            "right": self.right,
            "right_share": share(self.right, self.blocks),
            "on_scroll_view": self.on_scroll,
            "by_app": {a: {"lists": n, "found": f} for a, (n, f) in sorted(self.by_app.items())},
        }


def _clipped(box: tuple[float, float, float, float], width: int, height: int) -> Box | None:
    x1, y1 = max(0, round(box[0])), max(0, round(box[1]))
    x2, y2 = min(width, round(box[2])), min(height, round(box[3]))
    return Box(x1, y1, x2, y2) if x2 > x1 and y2 > y1 else None


def truth_lists(nodes: Sequence[Any], width: int, height: int) -> tuple[list[Box], list[Box]]:
    """(lists, scroll views) of a hierarchy, as the module docstring says."""
    from screenpilot.datasets.convert import is_visible, simple_name

    lists: list[Box] = []
    scrolls: list[Box] = []
    for node in nodes:
        name = simple_name(node.cls)
        if not name.endswith(LIST_CLASSES + SCROLL_CLASSES) or not is_visible(nodes, node.index):
            continue
        box = _clipped(node.box, width, height)
        if box is None or box.area < MIN_SHARE * width * height or box.width < MIN_WIDTH * width:
            continue
        if name.endswith(SCROLL_CLASSES):
            scrolls.append(box)
            continue
        rows = sum(1 for k in node.children if nodes[k].visible)
        if rows >= MIN_ROWS and all(box.iou(b) < 0.9 for b in lists):
            lists.append(box)
    return lists, scrolls


def measure(args: argparse.Namespace) -> dict[str, Any]:
    from rich.progress import Progress

    from screenpilot.datasets.screens import hierarchy_nodes
    from screenpilot.errors import ScreenpilotError
    from screenpilot.vision.blocks import divide
    from screenpilot.vision.image import load_image
    from screenpilot.vision.pipeline import analyse

    rows = read_manifest(args.split)
    if args.limit:
        rows = spread(rows, args.limit)
    tallies = {"describe": Tally(), "lines": Tally()}
    skipped = 0
    with Progress() as progress:
        task = progress.add_task(f"{args.split} screens", total=len(rows))
        for row in rows:
            progress.advance(task)
            try:
                pixels = load_image(ROOT / row["original"])
                h, w = pixels.shape[:2]
                nodes, _ = hierarchy_nodes(row["fmt"], ROOT / row["state"], w)
            except (OSError, ValueError, KeyError, ScreenpilotError) as exc:
                skipped += 1
                progress.console.print(f"skipped {row['stem']}: {exc}")
                continue
            lists, scrolls = truth_lists(nodes, w, h)
            screen = analyse(pixels).screen
            described = [b.box for b in screen.blocks if b.kind in COLLECTIONS]
            lined = [r.box for r in divide(pixels) if r.kind in COLLECTIONS]
            tallies["describe"].add(row["app"], lists, scrolls, described)
            tallies["lines"].add(row["app"], lists, scrolls, lined)
    return {
        "split": args.split,
        "screens": len(rows) - skipped,
        "skipped": skipped,
        "readings": {k: t.summary() for k, t in tallies.items()},
    }


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", default="val", choices=("val", "train"))
    ap.add_argument("--limit", type=int, default=0, help="at most N screens, across apps")
    ap.add_argument("--json", type=Path, default=OUT)
    args = ap.parse_args(argv)
    if not MANIFEST.is_file():
        print(f"skipped: no real-screen data at {MANIFEST}; make it with: {MAKE_DATA}")
        return 0
    try:
        result = measure(args)
    except BenchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"{result['screens']} {args.split} screens")
    print(
        f"{'reading':10s} {'lists':>6s} {'found':>6s} {'share':>6s} {'IoU':>6s} "
        f"{'blocks':>7s} {'right':>6s} {'share':>6s} {'scroll':>7s}"
    )
    for name, s in result["readings"].items():
        print(
            f"{name:10s} {s['lists']:6d} {s['found']:6d} {s['found_share'] or 0:6.3f} "
            f"{s['mean_iou'] or 0:6.3f} {s['blocks']:7d} {s['right']:6d} "
            f"{s['right_share'] or 0:6.3f} {s['on_scroll_view']:7d}"
        )
    write_result(args.json, result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
