"""bench/tasks.py run in shards side by side and merged (``--shard K/N``, ``--merge``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "bench" / "tasks.py"), *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def _shard(path: Path, runs: list[tuple[str, bool, str]]) -> None:
    tasks = [
        {
            "id": i,
            "success": ok,
            "executed": 3,
            "correct": 3 if ok else 1,
            "min_steps": 3,
            "outcome": outcome,
            "seconds": 10.0,
            "command": "",
        }
        for i, ok, outcome in runs
    ]
    path.write_text(json.dumps({"summary": {}, "tasks": tasks}))


def test_shards_merge_into_one_summary(tmp_path: Path) -> None:
    a, b = tmp_path / "tasks-a.json", tmp_path / "tasks-b.json"
    _shard(a, [("t1", True, "success"), ("t2", False, "success")])  # a false "done"
    _shard(b, [("t3", True, "success"), ("t4", False, "gave_up")])
    done = _run("--merge", str(a), str(b), "--tag", "joined")
    assert done.returncode == 0, done.stderr
    merged = json.loads((tmp_path / "tasks-joined.json").read_text())
    assert merged["summary"]["tasks"] == 4
    assert merged["summary"]["success_rate"] == 0.5
    assert merged["summary"]["false_done"] == 1
    assert [t["id"] for t in merged["tasks"]] == ["t1", "t2", "t3", "t4"]


def test_a_bad_shard_or_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = _run("--shard", "3/2")
    assert bad.returncode == 2 and "K/N" in bad.stderr
    junk = tmp_path / "junk.json"
    junk.write_text("not json")
    done = _run("--merge", str(junk))
    assert done.returncode == 2 and "not a result file" in done.stderr
