"""Write a data.yaml whose train split is several datasets' train images, some repeated.

    .venv/bin/python tools/mix_data.py --out runs/data/mix_v3 \\
        --train runs/data/real_v2/data.yaml:2 --train runs/data/synth_v3/data.yaml:1 \\
        --val runs/data/synth_v3/data.yaml

ultralytics reads a split given as a text file of image paths (labels are found
beside each image's ``images/`` -> ``labels/`` folder), so nothing is copied.
The val split picks ultralytics' ``best.pt``; keep the real held-out apps out of it.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from screenpilot.datasets.yolo import CLASS_NAMES, IMAGE_SUFFIXES, split_dir


def images(data_yaml: Path, split: str) -> list[Path]:
    folder = split_dir(data_yaml, split)
    return sorted(p.resolve() for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--train", action="append", required=True, help="DATA.yaml[:REPEATS]")
    parser.add_argument("--val", type=Path, required=True)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    lines: list[str] = []
    for spec in args.train:
        path, _, repeats = spec.partition(":")
        found = images(Path(path), "train")
        lines += [str(p) for p in found] * int(repeats or 1)
        print(f"{path}: {len(found)} train images x{repeats or 1}")
    (args.out / "train.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    val = images(args.val, "val")
    (args.out / "val.txt").write_text("\n".join(str(p) for p in val) + "\n", encoding="utf-8")
    names = "\n".join(f"  {i}: {n}" for i, n in enumerate(CLASS_NAMES))
    (args.out / "data.yaml").write_text(
        f"path: {args.out.resolve()}\ntrain: train.txt\nval: val.txt\nnames:\n{names}\n",
        encoding="utf-8",
    )
    print(f"{len(lines)} train lines, {len(val)} val images -> {args.out / 'data.yaml'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
