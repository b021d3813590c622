"""screenpilot: a vision-only GUI agent for Android phones.

Reads the phone's screen from pixels alone, describes it in natural language,
plans one screen at a time and acts over ADB.
"""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
