"""The one place that opens ONNX models: onnxruntime on the CPU, its threads, quiet
logging, and every way that fails (onnxruntime missing, no file, not a model) as a
``VisionError`` with a hint. The detector and the icon labeller open theirs here."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from screenpilot.errors import VisionError

if TYPE_CHECKING:
    import onnxruntime

PROVIDERS = ["CPUExecutionProvider"]


def open_session(
    path: Path,
    *,
    what: str,
    hint: str,
    threads: int | None = None,
    inter_threads: int | None = None,
    config: Mapping[str, str] | None = None,
) -> onnxruntime.InferenceSession:
    """An inference session for the model at ``path`` (``what`` names it in errors,
    ``hint`` says how to get it). ``threads``: intra-op threads (onnxruntime's default
    when None or 0); ``inter_threads``: inter-op threads; ``config``: session entries."""
    if not path.is_file():
        raise VisionError(f"{what} {path} not found", hint=hint)
    try:
        import onnxruntime as ort
    except ImportError as exc:
        raise VisionError(
            "onnxruntime is not installed",
            hint="pip install onnxruntime (screenpilot depends on it)",
        ) from exc
    options = ort.SessionOptions()
    options.log_severity_level = 3
    if threads:
        options.intra_op_num_threads = threads
    if inter_threads:
        options.inter_op_num_threads = inter_threads
    for key, value in (config or {}).items():
        options.add_session_config_entry(key, value)
    try:
        return ort.InferenceSession(str(path), sess_options=options, providers=PROVIDERS)
    except Exception as exc:  # InvalidProtobuf, NoSuchFile, Fail, InvalidGraph: not one class
        raise VisionError(
            f"{what} {path} cannot be loaded (corrupt or not ONNX): {str(exc)[:300]}", hint=hint
        ) from exc
