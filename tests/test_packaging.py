"""One installed package: subpackages map to the root folders, no generic top-level names."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    "name",
    [
        "vision",
        "planner",
        "executor",
        "pbd",
        "simulator",
        "datasets",
        "training",
        "language",
        "core",
    ],
)
def test_subpackage_resolves_to_root_folder(name: str, tmp_path: Path) -> None:
    code = f"import screenpilot.{name} as m; print(m.__file__)"
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        check=True,
    )
    assert Path(proc.stdout.strip()) == ROOT / name / "__init__.py"


@pytest.mark.parametrize(
    "name",
    [
        "vision",
        "planner",
        "executor",
        "pbd",
        "simulator",
        "datasets",
        "training",
        "language",
        "core",
    ],
)
def test_no_generic_top_level_name(name: str, tmp_path: Path) -> None:
    code = (
        f"import importlib.util; s = importlib.util.find_spec({name!r}); "
        "print(s.origin if s else None)"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        check=True,
    )
    origin = proc.stdout.strip()
    assert origin == "None" or not origin.startswith(str(ROOT)), origin
