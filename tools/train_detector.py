"""Background training run of the shipped widget detector (what models/MODELS.md reports).

``screenpilot train detector`` with the extra ultralytics settings a CPU run on a
small synthetic set wants (RAM cache, short close-mosaic, dataloader workers),
one line per epoch on stdout, resumable::

    nohup nice -n 10 .venv/bin/python tools/train_detector.py \\
        --data runs/data/synth_v1/data.yaml --name v1 > runs/detector/v1.log 2>&1 &
    # later, after an interruption (same --name):
    nohup nice -n 10 .venv/bin/python tools/train_detector.py --name v1 --resume \\
        --data runs/data/synth_v1/data.yaml >> runs/detector/v1.log 2>&1 &

Weights: runs/detector/NAME/weights/{last,best}.pt (last.pt after every epoch).
``--model W.pt`` starts from W's weights: ``pretrained=True`` is passed, because
``train_detector``'s default ``pretrained=False`` makes ultralytics drop the weights of
a ``.pt`` model and train from random weights.
Then ``tools/finish_detector.py`` exports best.pt to models/detector.onnx and scores it.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="train the widget detector (background run)")
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--model", default="yolov8n.yaml")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--imgsz", type=int, default=416)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--close-mosaic", type=int, default=2)
    parser.add_argument("--project", type=Path, default=Path("runs/detector"))
    parser.add_argument("--name", default="v1")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--lr0", type=float, default=0.01, help="initial learning rate")
    parser.add_argument(
        "--warmup-epochs", type=float, default=3.0, help="learning-rate warm-up (epochs)"
    )
    parser.add_argument("--resume", action="store_true")
    args = parser.parse_args(argv)

    from screenpilot.training.detector import EpochProgress, train_detector

    def show(p: EpochProgress) -> None:
        metrics = "  ".join(
            f"{k.split('/')[-1]} {v:.3f}" for k, v in p.metrics.items() if k.startswith("metrics/")
        )
        print(
            f"[{time.strftime('%H:%M:%S')}] epoch {p.epoch}/{p.epochs} {p.seconds:.0f}s  {metrics}",
            flush=True,
        )

    result = train_detector(
        args.data,
        model=args.model,
        epochs=args.epochs,
        imgsz=args.imgsz,
        device=args.device,
        batch=args.batch,
        project=args.project,
        name=args.name,
        resume=args.resume,
        workers=args.workers,
        progress=show,
        cache="ram",
        close_mosaic=args.close_mosaic,
        lr0=args.lr0,
        warmup_epochs=args.warmup_epochs,
        plots=False,
        pretrained=args.model.endswith(".pt"),
    )
    print(f"done: best {result.best}  last {result.last}  {result.seconds:.0f}s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
