"""Switch off every library's reach for the network before it is imported.

Call ``enforce_offline()`` before importing ultralytics, transformers,
sentence-transformers, huggingface_hub or chromadb. It sets the offline
switches and gives ultralytics a local font (it downloads Arial.ttf otherwise).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

OFFLINE_ENV = {
    "YOLO_OFFLINE": "1",
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "HF_DATASETS_OFFLINE": "1",
    "HF_HUB_DISABLE_TELEMETRY": "1",
    "ANONYMIZED_TELEMETRY": "False",
    "DO_NOT_TRACK": "1",
    "HF_HUB_DISABLE_PROGRESS_BARS": "1",
    "TRANSFORMERS_VERBOSITY": "error",
}


def yolo_config_dir() -> Path:
    """A config dir for ultralytics holding local copies of the fonts it wants."""
    import platformdirs

    from screenpilot.core import fonts

    root = Path(
        os.environ.get("YOLO_CONFIG_DIR")
        or Path(platformdirs.user_cache_dir("screenpilot")) / "ultralytics"
    )
    target = root / "Ultralytics"
    target.mkdir(parents=True, exist_ok=True)
    for name in ("Arial.ttf", "Arial.Unicode.ttf"):
        if not (target / name).is_file():
            shutil.copyfile(fonts.text_font("noto"), target / name)
    return root


def enforce_offline(*, ultralytics: bool = False) -> None:
    """Set the offline switches (and ultralytics' config dir when asked)."""
    for key, value in OFFLINE_ENV.items():
        os.environ.setdefault(key, value)
    if ultralytics:
        os.environ["YOLO_CONFIG_DIR"] = str(yolo_config_dir())
