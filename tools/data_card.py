"""Print the data card of a harvested real-screen dataset as Markdown (for models/MODELS.md).

    .venv/bin/python tools/data_card.py runs/data/real_v2

Reads DIR/harvest_report.json (written by ``screenpilot dataset harvest``) and the
sources' ``.done`` files (repository and commit) under the harvest folder.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from screenpilot.datasets.yolo import CLASS_NAMES


def _row(cells: list[Any]) -> str:
    return "| " + " | ".join(str(c) for c in cells) + " |"


def _table(title: str, counts: dict[str, dict[str, int]], screens: dict[str, int]) -> list[str]:
    used = [c for c in CLASS_NAMES if any(v.get(c) for v in counts.values())]
    lines = [_row([title, "screens", *used]), _row(["---"] * (len(used) + 2))]
    for key in sorted(counts, key=lambda k: -screens.get(k, 0)):
        lines.append(_row([key, screens.get(key, 0), *(counts[key].get(c, 0) for c in used)]))
    return lines


def card(report: dict[str, Any], harvest: Path | None) -> str:
    out = ["Sources (repository @ commit, format):", ""]
    if harvest is not None:
        for done in sorted(harvest.glob("*/.done")):
            repo, commit, fmt = done.read_text(encoding="utf-8").split()[:3]
            kept = report["screens_by_source"].get(done.parent.name, 0)
            out.append(
                f"- `{done.parent.name}`: {repo} @ {commit[:8]} ({fmt}), {kept} screens kept"
            )
        out.append("")
    out.append(f"Held-out (val) apps ({len(report['val_apps'])}): " + ", ".join(report["val_apps"]))
    out += [
        "",
        "Screens dropped: " + json.dumps(report["screens_dropped"]),
        "",
        "Screens dropped by source: " + json.dumps(report["screens_dropped_by_source"]),
        "",
        "Boxes dropped: " + json.dumps(report["boxes_dropped"]),
        "",
        f"Status/navigation bar boxes added to train screens: {report['bars_added']}",
        "",
        *_table("split", report["split_boxes"], report["split_screens"]),
        "",
        *_table("source", report["boxes_by_source"], report["screens_by_source"]),
        "",
        *_table("app", report["boxes_by_app"], report["screens_by_app"]),
    ]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dataset", type=Path)
    parser.add_argument("--harvest", type=Path, default=Path("runs/harvest"))
    args = parser.parse_args(argv)
    report = json.loads((args.dataset / "harvest_report.json").read_text(encoding="utf-8"))
    print(card(report, args.harvest if args.harvest.is_dir() else None), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
