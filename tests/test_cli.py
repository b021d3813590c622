"""The command line as a user meets it: help, version, config, errors without tracebacks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from screenpilot import __version__
from screenpilot.cli import app

runner = CliRunner()
EXE = Path(sys.executable).parent / "screenpilot"


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, **(env or {})}
    return subprocess.run(
        [str(EXE), *args], capture_output=True, text=True, env=full_env, timeout=60, check=False
    )


def test_help_lists_commands() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    assert "config" in result.output


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.strip() == f"screenpilot {__version__}"


def test_config_show_json_reports_sources(tmp_path: Path) -> None:
    env = {"SCREENPILOT_CONFIG": str(tmp_path / "c.toml"), "SCREENPILOT_LLM_MODEL": "qwen-max"}
    proc = run_cli("--set", "planner.max_steps=5", "config", "show", "--json", env=env)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["llm.model"] == {"value": "qwen-max", "source": "env SCREENPILOT_LLM_MODEL"}
    assert data["planner.max_steps"] == {"value": 5, "source": "flag"}


def test_config_show_table_and_path(tmp_path: Path) -> None:
    env = {"SCREENPILOT_CONFIG": str(tmp_path / "c.toml")}
    proc = run_cli("config", "show", env=env)
    assert proc.returncode == 0 and "planner.max_steps" in proc.stdout
    proc = run_cli("config", "path", env=env)
    assert proc.returncode == 0 and "c.toml" in proc.stdout and "not created yet" in proc.stdout


def test_user_error_is_one_line_without_traceback(tmp_path: Path) -> None:
    env = {"SCREENPILOT_CONFIG": str(tmp_path / "c.toml")}
    proc = run_cli("--set", "llm.modle=x", "config", "show", env=env)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert "unknown configuration key 'llm.modle'" in proc.stderr
    assert "did you mean 'llm.model'" in proc.stderr


def test_help_does_not_import_heavy_libraries() -> None:
    code = (
        "import sys; from screenpilot.cli import app; "
        "heavy = [m for m in ('torch', 'ultralytics', 'chromadb', 'onnxruntime', "
        "'sentence_transformers', 'cv2', 'open_clip') if m in sys.modules]; print(heavy)"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert proc.stdout.strip() == "[]"
