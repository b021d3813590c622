"""Doctor checks of the shipped models: they load, with their sizes and measured scores.

The detector and the icon labeller are loaded the way ``describe`` loads them
(``$SCREENPILOT_DETECTOR`` / ``$SCREENPILOT_ICONS``, else ``models/``). Their scores
are read from ``models/MODELS.md`` rather than written here: the section that names
the model's file, its first table, the first column of scores (a decimal or a
percentage), one value per row.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from screenpilot.doctor.report import Check, fail, ok

SCORE = re.compile(r"^\d*\.\d+$|^\d+(\.\d+)?\s*%$")
MAX_ROWS = 4
REINSTALL = "reinstall screenpilot (`make setup`), or `git checkout models/` in a clone"


@dataclass(frozen=True, slots=True)
class Scores:
    """A model's scores from MODELS.md: the measure and (set, value) per row."""

    measure: str
    rows: tuple[tuple[str, str], ...]

    def __str__(self) -> str:
        return f"{self.measure} " + ", ".join(f"{value} ({name})" for name, value in self.rows)


def _cells(line: str) -> list[str]:
    return [c.strip().replace("**", "").strip() for c in line.strip().strip("|").split("|")]


def _section(text: str, filename: str) -> list[str]:
    """The lines of the ``## `` section that first names ``models/<filename>``."""
    sections = re.split(r"^## ", text, flags=re.MULTILINE)
    for section in sections[1:]:
        if f"models/{filename}" in section:
            return section.splitlines()
    return []


def _first_table(lines: list[str]) -> list[list[str]]:
    rows: list[list[str]] = []
    for line in lines:
        if line.lstrip().startswith("|"):
            rows.append(_cells(line))
        elif rows:
            break
    return [r for r in rows if not all(set(c) <= set("-: ") for c in r)]


def parse_scores(text: str, filename: str) -> Scores | None:
    """The scores MODELS.md gives for ``models/<filename>`` (None when it gives none)."""
    table = _first_table(_section(text, filename))
    if len(table) < 2:
        return None
    header, body = table[0], table[1:]
    for col in range(1, len(header)):
        if all(col < len(r) and SCORE.match(r[col]) for r in body[:1]):
            rows = tuple(
                (re.sub(r"\s*\(.*?\)", "", r[0]).strip(), r[col])
                for r in body[:MAX_ROWS]
                if col < len(r) and SCORE.match(r[col])
            )
            return Scores(header[col], rows)
    return None


def models_md() -> str:
    from screenpilot.vision.pipeline import MODELS_DIR

    path = MODELS_DIR / "MODELS.md"
    return path.read_text(encoding="utf-8") if path.is_file() else ""


def _size(path: Path) -> str:
    return f"{path.stat().st_size / 1e6:.1f} MB"


def check_detector() -> Check:
    """The widget detector loads (the run reads widgets with it): the int8 copy unless
    ``vision.detector`` names another, or the copy was made from another float model."""
    from screenpilot.vision.pipeline import default_detector
    from screenpilot.vision.shipped import detector_path

    path, note = detector_path()
    model, why = default_detector()
    check = _report("detector", path, loaded=model is not None, why=why)
    if note and model is not None:
        return ok("detector", f"{check.detail}; {note}")
    return check


def check_icons() -> Check:
    """The icon labeller loads (the run names icon buttons with it)."""
    from screenpilot.vision.pipeline import default_icons
    from screenpilot.vision.shipped import model_path

    path = model_path("SCREENPILOT_ICONS", "icons.onnx")
    model, why = default_icons()
    return _report("icons", path, loaded=model is not None, why=why)


def check_ocr() -> Check:
    """The OCR engine starts with its configured text detector (``vision.ocr_det_model``)."""
    from screenpilot.errors import ScreenpilotError
    from screenpilot.vision.ocr import RapidOcrBackend, wheel_det_model

    hint = "set vision.ocr_det_model to int8 (shipped), fp32 (rapidocr's own) or an ONNX file"
    try:
        backend = RapidOcrBackend()
        backend.engine()
    except ScreenpilotError as exc:
        return fail("ocr", str(exc), exc.hint or hint)
    if backend.det_model is None:
        path = wheel_det_model()
        return ok(
            "ocr",
            f"rapidocr's own text detector {path.name} ({_size(path)}, float32) loads; "
            "--set vision.ocr_det_model=int8 (the default) makes describe 1.2-1.9x faster",
        )
    return _report("ocr", backend.det_model, loaded=True, why="")


def _report(name: str, path: Path, *, loaded: bool, why: str) -> Check:
    if not loaded:
        return fail(name, why or f"{path} does not load", REINSTALL)
    scores = parse_scores(models_md(), path.name)
    measured = f"; MODELS.md: {scores}" if scores else "; MODELS.md gives no scores for it"
    return ok(name, f"{path.name} ({_size(path)}) loads{measured}")
