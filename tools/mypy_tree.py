"""Run mypy on the package as it is installed: ``screenpilot.vision`` is ``vision/``.

mypy cannot follow setuptools' editable finder, so this builds ``.mypy_tree/``,
a tree of symlinks laid out as the installed package, and checks that.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUBPACKAGES = (
    "vision",
    "planner",
    "executor",
    "pbd",
    "simulator",
    "datasets",
    "training",
    "language",
    "core",
)


def build_tree() -> Path:
    tree = ROOT / ".mypy_tree" / "screenpilot"
    if tree.parent.exists():
        subprocess.run(["rm", "-rf", str(tree.parent)], check=True)
    tree.mkdir(parents=True)
    for item in (ROOT / "screenpilot").iterdir():
        if item.name != "__pycache__":
            (tree / item.name).symlink_to(item)
    for name in SUBPACKAGES:
        (tree / name).symlink_to(ROOT / name)
    return tree


def main() -> int:
    tree = build_tree()
    extra = [str(ROOT / d) for d in ("tests", "bench", "tools") if any((ROOT / d).glob("*.py"))]
    cmd = [
        sys.executable,
        "-m",
        "mypy",
        "--config-file",
        str(ROOT / "pyproject.toml"),
        str(tree),
        *extra,
    ]
    return subprocess.run(cmd, cwd=ROOT / ".mypy_tree").returncode


if __name__ == "__main__":
    sys.exit(main())
