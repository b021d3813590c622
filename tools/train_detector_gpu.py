"""One widget-detector training run on a lent GPU machine, for a fixed wall-clock time.

Runs under the device machine's own python3 (torch there; ultralytics carried as
wheels), with no screenpilot import and no network: the AMP self-check (which would
download a model) is skipped, and ``polars`` (which ultralytics reads its results
CSV with; its wheel is too large to carry) is replaced by a stand-in that fails the
read, which ultralytics catches. The data is a folder written by
``tools/pack_detector_data.py``. The last epoch's weights are the candidate::

    python3 tools/train_detector_gpu.py --data .gpu/data --model models/detector.pt \\
        --name n416 --hours 0.13 --batch 32 --workers 7 --out $OUT
"""

from __future__ import annotations

import argparse
import re
import sys
import time
import types
from pathlib import Path


def _offline_ultralytics() -> None:
    if "polars" not in sys.modules:
        try:
            import polars  # noqa: F401
        except ImportError:
            stand_in = types.ModuleType("polars")

            def read_csv(*_args: object, **_kwargs: object) -> object:
                raise RuntimeError("polars is not installed here")

            stand_in.read_csv = read_csv  # type: ignore[attr-defined]
            sys.modules["polars"] = stand_in
    import ultralytics.engine.trainer as trainer

    trainer.check_amp = lambda *_a, **_k: True  # type: ignore[attr-defined]


def _copy_in_parts(source: Path, target: Path, part: int = 15 * 2**20) -> None:
    """Copy a file; one over ``part`` bytes goes as ``target.0``, ``target.1``, ... (cat them)."""
    blob = source.read_bytes()
    if len(blob) <= part:
        target.write_bytes(blob)
        return
    for index in range(0, len(blob), part):
        target.with_name(f"{target.name}.{index // part}").write_bytes(blob[index : index + part])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--data", type=Path, required=True, help="folder from pack_detector_data.py"
    )
    parser.add_argument("--model", default="yolov8n.yaml")
    parser.add_argument("--name", required=True)
    parser.add_argument("--hours", type=float, required=True, help="wall-clock budget of the run")
    parser.add_argument("--epochs", type=int, default=300, help="upper bound; --hours decides")
    parser.add_argument("--imgsz", type=int, default=416)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--lr0", type=float, default=0.01)
    parser.add_argument("--close-mosaic", type=int, default=10)
    parser.add_argument("--device", default="0")
    parser.add_argument("--project", type=Path, default=Path("/tmp/detector_runs"))
    parser.add_argument("--out", type=Path, help="copy last.pt and results.csv here")
    args = parser.parse_args(argv)

    _offline_ultralytics()
    from ultralytics.models.yolo.model import YOLO

    data = args.data.resolve()
    yaml_text = (data / "data.yaml").read_text(encoding="utf-8")
    run_yaml = data / f"data_{args.name}.yaml"
    # the data.yaml names the folder where it was packed: point it at this copy
    run_yaml.write_text(
        re.sub(r"^path: .*$", f"path: {data}", yaml_text, count=1, flags=re.MULTILINE),
        encoding="utf-8",
    )

    start = time.time()
    model = YOLO(args.model)
    model.train(
        data=str(run_yaml),
        epochs=args.epochs,
        time=args.hours,
        imgsz=args.imgsz,
        batch=args.batch,
        workers=args.workers,
        device=args.device,
        project=str(args.project),
        name=args.name,
        exist_ok=True,
        pretrained=args.model.endswith(".pt"),
        lr0=args.lr0,
        close_mosaic=args.close_mosaic,
        cache="ram",
        plots=False,
        patience=0,
        seed=0,
        deterministic=False,
        verbose=False,
    )
    run = args.project / args.name
    print(f"{args.name}: done in {time.time() - start:.0f}s", flush=True)
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        for name in ("weights/last.pt", "results.csv"):
            source = run / name
            if source.is_file():
                _copy_in_parts(source, args.out / f"{args.name}_{Path(name).name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
