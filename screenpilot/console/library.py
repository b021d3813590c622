"""What is kept: past runs (their HTML reports under the runs folder) and the
demonstration store (list, show, delete, export, through the store's own API).

Run folders are named by ``build.run_folder`` (time first), so the newest sort last;
only a folder directly under the runs folder, with a name of plain characters, is
ever served.
"""

from __future__ import annotations

import io
import json
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from screenpilot.errors import StoreError

if TYPE_CHECKING:
    from screenpilot.pbd.store import DemoStore

#: How many past runs the page lists (the newest).
RUNS_SHOWN = 200
_NAME = re.compile(r"^[\w][\w.-]*$")


def run_summary(folder: Path) -> dict[str, Any] | None:
    """A past run in one line (task, outcome, steps, times), or None if it is not a run."""
    traj = folder / "trajectory.json"
    if not (folder / "report.html").is_file() or not traj.is_file():
        return None
    try:
        data = json.loads(traj.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    return {
        "name": folder.name,
        "task": str(data.get("task", "")),
        "outcome": str(data.get("outcome", "")),
        "steps": len(data.get("steps") or []),
        "planner": str(data.get("planner", "")),
        "started": str(data.get("started_at", "")),
        "report": f"/runs/{folder.name}/report.html",
    }


def past_runs(root: Path, limit: int = RUNS_SHOWN) -> list[dict[str, Any]]:
    """The newest runs under ``root``, newest first."""
    if not root.is_dir():
        return []
    folders = sorted(
        (p for p in root.iterdir() if p.is_dir() and _NAME.match(p.name)),
        key=lambda p: p.name,
        reverse=True,
    )
    found = []
    for folder in folders:
        summary = run_summary(folder)
        if summary is not None:
            found.append(summary)
            if len(found) >= limit:
                break
    return found


def report_file(root: Path, name: str) -> Path | None:
    """The report of the run folder ``name`` under ``root``; None for any other path."""
    if not _NAME.match(name):
        return None
    base = root.resolve()
    path = (base / name / "report.html").resolve()
    if path.parent.parent != base or not path.is_file():
        return None
    return path


class Demos:
    """The demonstration store, opened once when first asked (its opening is slow)."""

    def __init__(self, open_store: Callable[[], DemoStore] | None) -> None:
        self.open_store = open_store
        self._store: DemoStore | None = None
        self._lock = threading.Lock()

    def store(self) -> DemoStore:
        if self.open_store is None:
            raise StoreError("this console has no demonstration store")
        with self._lock:
            if self._store is None:
                self._store = self.open_store()
            return self._store

    def close(self) -> None:
        with self._lock:
            if self._store is not None:
                self._store.close()
                self._store = None

    def list(self) -> dict[str, Any]:
        store = self.store()
        records = [
            {
                "id": r.id,
                "created": r.created,
                "app": r.app,
                "steps": len(r.steps),
                "source": r.source,
                "instruction": r.instruction,
            }
            for r in store.list()
        ]
        return {"location": store.location, "demos": records}

    def show(self, demo_id: str) -> dict[str, Any]:
        record = self.store().get(demo_id)
        return record.to_json()

    def delete(self, demo_id: str) -> dict[str, Any]:
        store = self.store()
        full = store.resolve(demo_id)
        store.remove(full)
        return {"status": "removed", "id": full}

    def export(self) -> str:
        """Every demonstration as JSON lines (what ``screenpilot demos export`` writes)."""
        out = io.StringIO()
        self.store().export_jsonl(out)
        return out.getvalue()
