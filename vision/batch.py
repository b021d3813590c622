"""Describe many screenshots at once: each file gets its own ``Description`` or its own
error, so one file that cannot be described never throws the others away."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from screenpilot.errors import ScreenpilotError, VisionError

if TYPE_CHECKING:
    from screenpilot.vision.pipeline import Description

#: One file's result: what it shows, or why it could not be described.
Result = tuple[Path, "Description | ScreenpilotError"]


def describe_file(
    path: Path, stages: Sequence[str], threshold: float, *, density: float | None = None
) -> Description:
    """``analyse`` on one file (``density``: the phone's dpi, see ``vision.density``); any
    failure leaves as a ``ScreenpilotError``."""
    from screenpilot.vision import pipeline

    try:
        return pipeline.analyse(path, stages=stages, ocr_threshold=threshold, density=density)
    except ScreenpilotError:
        raise
    except MemoryError:
        raise VisionError(
            f"{path}: not enough memory to describe it", hint="try a smaller image"
        ) from None
    except Exception as exc:  # a bug of ours: say so, keep the batch going
        raise VisionError(
            f"{path}: vision failed ({type(exc).__name__}: {exc})",
            hint="a bug in screenpilot; please report it with the image",
        ) from exc


def describe_files(
    files: Sequence[Path],
    stages: Sequence[str],
    threshold: float,
    *,
    done: Callable[[Result], None] | None = None,
    density: float | None = None,
) -> list[Result]:
    """Describe each file, in order; ``done(result)`` after each (so a caller can show it
    at once). With several files an error is kept as that file's result; a single
    file's error is raised."""
    results: list[Result] = []
    for f in files:
        try:
            result: Result = (f, describe_file(f, stages, threshold, density=density))
        except ScreenpilotError as exc:
            if len(files) < 2:
                raise
            result = (f, exc)
        results.append(result)
        if done is not None:
            done(result)
    return results
