"""Pack YOLO datasets into one small folder for a training run on another machine.

The device machine takes at most 64 MiB of files with it, so each image is shrunk
until its longest side is ``--max-side`` (the training ``imgsz``: ultralytics would
shrink it to that anyway) and saved as JPEG; labels are copied unchanged (they are
normalised to the image size). Several datasets' train splits go into one train
split (``--train DATA.yaml[:REPEATS]``); ``--val`` names the dataset whose val split
picks ultralytics' best.pt (never the real held-out apps)::

    .venv/bin/python tools/pack_detector_data.py --out .gpu/data --max-side 416 \\
        --train runs/data/real_v2/data.yaml --train runs/data/synth_v4/data.yaml \\
        --val runs/data/synth_v4/data.yaml
    tar -czf .gpu/data.tar.gz -C .gpu data && rm -r .gpu/data   # one file travels lighter

``tools/gpu_detector_lease.sh`` is the command that ran on the lent machine.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from mix_data import images
from PIL import Image

from screenpilot.datasets.yolo import label_path, write_data_yaml


def pack_one(
    image: Path, out_images: Path, out_labels: Path, stem: str, max_side: int, quality: int
) -> int:
    """Write one shrunk image and its label file; the bytes written."""
    with Image.open(image) as im:
        rgb = im.convert("RGB")
    scale = max_side / max(rgb.size)
    if scale < 1:
        rgb = rgb.resize(
            (max(1, round(rgb.width * scale)), max(1, round(rgb.height * scale))),
            Image.Resampling.LANCZOS,
        )
    target = out_images / f"{stem}.jpg"
    rgb.save(target, quality=quality)
    label = label_path(image)
    if label.is_file():
        shutil.copyfile(label, out_labels / f"{stem}.txt")
    else:
        (out_labels / f"{stem}.txt").write_text("", encoding="utf-8")
    return target.stat().st_size + (out_labels / f"{stem}.txt").stat().st_size


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--train", action="append", required=True, help="DATA.yaml[:REPEATS]")
    parser.add_argument("--val", type=Path, required=True)
    parser.add_argument("--max-side", type=int, default=416)
    parser.add_argument("--quality", type=int, default=85)
    args = parser.parse_args(argv)
    from screenpilot.errors import ScreenpilotError

    # every input is read before the output folder is replaced: a wrong path loses nothing
    try:
        sources = [
            (index, path, int(repeats or 1), images(Path(path), "train"))
            for index, (path, _, repeats) in enumerate(s.partition(":") for s in args.train)
        ]
        val = images(args.val, "val")
    except (ScreenpilotError, ValueError) as exc:
        parser.error(str(exc))
    if args.out.exists():
        shutil.rmtree(args.out)
    total = 0
    for split in ("train", "val"):
        (args.out / "images" / split).mkdir(parents=True)
        (args.out / "labels" / split).mkdir(parents=True)
    for index, path, repeats, found in sources:
        for image in found:
            for r in range(repeats):
                total += pack_one(
                    image,
                    args.out / "images/train",
                    args.out / "labels/train",
                    f"d{index}r{r}_{image.stem}",
                    args.max_side,
                    args.quality,
                )
        print(f"{path}: {len(found)} train images x{repeats}")
    for image in val:
        total += pack_one(
            image,
            args.out / "images/val",
            args.out / "labels/val",
            image.stem,
            args.max_side,
            args.quality,
        )
    train = sum(1 for _ in (args.out / "images/train").iterdir())
    write_data_yaml(args.out, counts={"train": train, "val": len(val)})
    print(f"{args.out}: {total / 2**20:.1f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
