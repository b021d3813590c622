"""screenpilot: a vision-only GUI agent for Android phones.

Reads the phone's screen from pixels alone, describes it in natural language,
plans one screen at a time and acts over ADB.
"""

from __future__ import annotations

__version__ = "0.1.0"

from typing import TYPE_CHECKING, Any

__all__ = ["__version__", "describe"]

if TYPE_CHECKING:
    from screenpilot.vision.pipeline import describe


def __getattr__(name: str) -> Any:
    """``screenpilot.describe`` is imported on first use (it pulls in numpy and OpenCV)."""
    if name == "describe":
        from screenpilot.vision.pipeline import describe

        return describe
    raise AttributeError(f"module 'screenpilot' has no attribute {name!r}")
