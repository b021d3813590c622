"""The real screens icons are cut from: the ``manifest.jsonl`` of a ``dataset harvest``
output (app, split, hierarchy format and file, original screenshot) and its held-out
apps."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from screenpilot.errors import DataError


@dataclass(frozen=True, slots=True)
class ScreenRecord:
    """One real screen: its app, split and where its files are."""

    app: str
    split: str
    fmt: str
    state: Path
    original: Path


def screens_from_manifest(folder: Path) -> list[ScreenRecord]:
    """The screens of a ``dataset harvest`` output (``manifest.jsonl``)."""
    path = folder / "manifest.jsonl"
    if not path.is_file():
        raise DataError(f"{path} does not exist", hint="`screenpilot dataset harvest` writes it")
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        out.append(
            ScreenRecord(
                app=str(row["app"]),
                split=str(row["split"]),
                fmt=str(row["fmt"]),
                state=Path(row["state"]),
                original=Path(row.get("original") or row["image"]),
            )
        )
    return out


def held_out_apps(folder: Path) -> list[str]:
    """``val_apps`` of a ``dataset harvest`` report."""
    path = folder / "harvest_report.json"
    try:
        return [str(a) for a in json.loads(path.read_text(encoding="utf-8"))["val_apps"]]
    except (OSError, ValueError, KeyError) as exc:
        raise DataError(f"cannot read val_apps from {path}: {exc}") from exc
