"""The architecture guard: every import in the parts keeps the rules of ARCHITECTURE.md.

The two tables of ARCHITECTURE.md (parts with the arrows allowed, and the nevers) are read
as the rules; every ``.py`` file of the folders ``pyproject.toml`` maps into the package is
parsed with ``ast``, and every ``import``/``from ... import`` in it (at the top, inside
functions, under ``TYPE_CHECKING``; relative ones resolved) is checked against them.
"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGE = "screenpilot"


@dataclass(frozen=True)
class Never:
    """``sources`` never import ``targets``, because ``why``."""

    sources: frozenset[str]
    targets: frozenset[str]
    why: str


@dataclass(frozen=True)
class Rules:
    """Which part holds which path, the arrows each part may take, and the nevers."""

    holds: dict[str, str]
    may_import: dict[str, frozenset[str]]
    nevers: tuple[Never, ...]

    def part_of(self, path: str) -> str | None:
        """The part of the longest held path that is ``path`` or a folder above it."""
        held = [h for h in self.holds if path == h or (h.endswith("/") and path.startswith(h))]
        return self.holds[max(held, key=len)] if held else None

    def never(self, source: str, target: str) -> Never | None:
        return next((n for n in self.nevers if source in n.sources and target in n.targets), None)


def table(text: str, header: str) -> list[list[str]]:
    """The body rows of the Markdown table whose header row starts with ``header``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows: list[list[str]] = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


def names(cell: str) -> frozenset[str]:
    return frozenset(word for word in cell.split() if word != "-")


def read_rules(text: str) -> Rules:
    holds: dict[str, str] = {}
    may_import: dict[str, frozenset[str]] = {}
    for part, held, allowed in table(text, "| part | holds | may import |"):
        may_import[part] = names(allowed)
        holds.update({path.strip("`"): part for path in held.split() if path.startswith("`")})
    nevers = tuple(
        Never(names(sources), names(targets), why)
        for sources, targets, why in table(text, "| from | never imports | why |")
    )
    return Rules(holds, may_import, nevers)


def package_dirs(root: Path) -> dict[str, str]:
    """``pyproject.toml``'s package-dir: dotted package -> folder (``screenpilot.vision``:
    ``vision``)."""
    config = tomllib.loads((root / "pyproject.toml").read_text())
    return dict(config["tool"]["setuptools"]["package-dir"])


def module_files(root: Path) -> dict[str, str]:
    """Every module of the package: dotted name -> path relative to ``root``."""
    found: dict[str, str] = {}
    for package, folder in sorted(package_dirs(root).items(), key=lambda item: len(item[1])):
        for file in sorted((root / folder).rglob("*.py")):
            parts = file.relative_to(root / folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join((package, *parts))] = file.relative_to(root).as_posix()
    return found


def guessed_path(module: str, dirs: dict[str, str]) -> str:
    """Where ``module`` would be (for a name that no file holds, say one that moved)."""
    package = max(
        (p for p in dirs if module == p or module.startswith(p + ".")), key=len, default=PACKAGE
    )
    folder = dirs.get(package, PACKAGE)
    rest = module[len(package) :].lstrip(".").replace(".", "/")
    return f"{folder}/{rest}.py" if rest else f"{folder}/__init__.py"


@dataclass(frozen=True)
class Import:
    path: str
    line: int
    module: str


def imports_of(path: str, module: str, source: str, known: set[str]) -> Iterator[Import]:
    """The screenpilot modules ``module`` (in file ``path``) imports, wherever it does."""
    package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source, filename=path)):
        if not isinstance(node, ast.Import | ast.ImportFrom):
            continue
        targets = [alias.name for alias in node.names]
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                above = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*above, *([node.module] if node.module else [])])
            targets = [
                f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names
            ]
        for target in targets:
            if target == PACKAGE or target.startswith(PACKAGE + "."):
                yield Import(path, node.lineno, target)


def violations(root: Path, rules: Rules) -> list[str]:
    """One line per import that breaks a never or takes an arrow the rules do not list."""
    dirs = package_dirs(root)
    files = module_files(root)
    found: list[str] = []
    for module, path in files.items():
        source = rules.part_of(path)
        if source is None:
            found.append(f"{path}: belongs to no part of ARCHITECTURE.md")
            continue
        try:
            imports = dict.fromkeys(imports_of(path, module, (root / path).read_text(), set(files)))
        except SyntaxError as exc:
            found.append(f"{path}:{exc.lineno}: cannot be parsed ({exc.msg})")
            continue
        for imp in sorted(imports, key=lambda found_import: found_import.line):
            if imp.module == module:
                continue
            target = rules.part_of(files.get(imp.module) or guessed_path(imp.module, dirs))
            never = rules.never(source, target) if target else None
            if target is None:
                found.append(f"{imp.path}:{imp.line} imports {imp.module}, of no part")
            elif never is not None:
                found.append(
                    f"{imp.path}:{imp.line} imports {imp.module} "
                    f"(never: {source} -> {target}: {never.why})"
                )
            elif target != source and target not in rules.may_import[source]:
                found.append(
                    f"{imp.path}:{imp.line} imports {imp.module} "
                    f"(no arrow {source} -> {target} in ARCHITECTURE.md)"
                )
    return found


RULES = read_rules((REPO / "ARCHITECTURE.md").read_text())


# --- the rules themselves ---------------------------------------------------------------------
def test_the_rules_name_only_parts_and_every_folder_has_a_part() -> None:
    parts = set(RULES.may_import)
    named: set[str] = set().union(
        *RULES.may_import.values(), *(n.sources | n.targets for n in RULES.nevers)
    )
    assert named <= parts, f"not parts: {sorted(named - parts)}"
    assert set(RULES.holds.values()) == parts
    for folder in package_dirs(REPO).values():
        assert RULES.part_of(f"{folder}/__init__.py") is not None, folder
    assert len(RULES.nevers) >= 8


# --- the tree as it is ------------------------------------------------------------------------
def test_the_tree_keeps_the_rules() -> None:
    found = violations(REPO, RULES)
    assert not found, "imports that break ARCHITECTURE.md:\n" + "\n".join(found)


# --- the checker, on small made-up trees --------------------------------------------------------
def write_tree(root: Path, files: dict[str, str]) -> Path:
    """A made-up repository: the real folder mapping in its pyproject, and ``files``."""
    dirs = package_dirs(REPO)
    (root / "pyproject.toml").write_text(
        "[tool.setuptools.package-dir]\n"
        + "".join(f'"{package}" = "{folder}"\n' for package, folder in dirs.items())
    )
    for folder in dirs.values():
        (root / folder).mkdir(parents=True, exist_ok=True)
        (root / folder / "__init__.py").write_text("")
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    return root


def test_a_never_inside_a_function_is_caught(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path,
        {
            "planner/base.py": "X = 1\n",
            "pbd/store.py": "import os\n\n\ndef f() -> int:\n"
            "    from screenpilot.planner.base import X\n    return X\n",
        },
    )
    assert violations(root, RULES) == [
        "pbd/store.py:5 imports screenpilot.planner.base (never: pbd -> planner: "
        "the planner reads demonstrations and knowledge, never the reverse)"
    ]


@pytest.mark.parametrize(
    ("path", "line", "target", "arrow"),
    [
        (
            "simulator/phone.py",
            "from screenpilot.vision import ocr",
            "screenpilot.vision.ocr",
            "never: simulator -> vision",
        ),
        (
            "vision/detect.py",
            "import screenpilot.simulator.render",
            "screenpilot.simulator.render",
            "never: vision -> simulator",
        ),
        (
            "pbd/recorder.py",
            "if TYPE_CHECKING:\n    from screenpilot import report",
            "screenpilot.report",
            "never: pbd -> top",
        ),
        (
            "executor/adb.py",
            "from screenpilot.config import Config",
            "screenpilot.config",
            "never: executor -> config",
        ),
        (
            "screenpilot/agent.py",
            "from screenpilot.config import Config",
            "screenpilot.config",
            "never: top -> config",
        ),
        (
            "screenpilot/commands/run_cmd.py",
            "from screenpilot.commands.pbd_cmd import f",
            "screenpilot.commands.pbd_cmd",
            "never: commands -> commands",
        ),
        (
            "vision/describe.py",
            "from screenpilot.pbd.embed import load",
            "screenpilot.pbd.embed",
            "no arrow vision -> pbd",
        ),
        (
            "planner/autotask/agent.py",
            "from ...simulator import phone",
            "screenpilot.simulator.phone",
            "never: planner -> simulator",
        ),
        (
            "planner/autotask/check.py",
            "from ..base import Decision",
            "screenpilot.planner.base",
            None,
        ),
    ],
)
def test_each_kind_of_import_is_resolved_and_judged(
    tmp_path: Path, path: str, line: str, target: str, arrow: str | None
) -> None:
    root = write_tree(
        tmp_path,
        {
            "vision/ocr.py": "",
            "simulator/render.py": "",
            "simulator/phone.py": "",
            "screenpilot/report.py": "",
            "screenpilot/config.py": "",
            "pbd/embed.py": "",
            "screenpilot/commands/__init__.py": "",
            "screenpilot/commands/pbd_cmd.py": "",
            "planner/autotask/__init__.py": "",
            path: f"import os\n{line}\n",
        },
    )
    found = [v for v in violations(root, RULES) if v.startswith(path)]
    if arrow is None:  # the planner's own module, found relatively
        assert found == []
        return
    assert len(found) == 1 and f" imports {target} ({arrow}" in found[0], found
    assert found[0].startswith(f"{path}:{line.count(chr(10)) + 2} ")


def test_commands_share_their_helpers_and_build(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path,
        {
            "screenpilot/commands/__init__.py": "",
            "screenpilot/commands/common.py": "",
            "screenpilot/build.py": "def f() -> None:\n    from .simulator import phone\n",
            "simulator/phone.py": "",
            "screenpilot/commands/run_cmd.py": "from screenpilot.commands.common import x\n"
            "from screenpilot import build\n",
        },
    )
    assert violations(root, RULES) == []


def test_a_file_that_does_not_parse_is_reported(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {"vision/bad.py": "def f(:\n"})
    assert [v.split(" ")[0] for v in violations(root, RULES)] == ["vision/bad.py:1:"]
