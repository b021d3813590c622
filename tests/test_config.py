"""Configuration layering: defaults < TOML file < environment < flags, strictly."""

from __future__ import annotations

from pathlib import Path

import pytest

from screenpilot.config import DEFAULTS, load_config, parse_assignments
from screenpilot.errors import ConfigError, VisionError


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_have_type_and_comment() -> None:
    for key, opt in DEFAULTS.items():
        assert "." in key and opt.help, key
        assert isinstance(opt.default, opt.type), key


def test_layers_override_in_order(tmp_path: Path) -> None:
    path = write(tmp_path, '[llm]\nmodel = "file-model"\ntimeout = 5\n[planner]\nmax_steps = 7\n')
    env = {"SCREENPILOT_LLM_MODEL": "env-model", "SCREENPILOT_PLANNER_MAX_STEPS": "9"}
    cfg = load_config({"llm.model": "flag-model"}, env=env, path=path)
    assert cfg["llm.model"] == "flag-model" and cfg.sources["llm.model"] == "flag"
    assert cfg["planner.max_steps"] == 9 and cfg.sources["planner.max_steps"].startswith("env")
    assert cfg["llm.timeout"] == 5.0 and cfg.sources["llm.timeout"].startswith("file")
    assert cfg["device.serial"] == "" and cfg.sources["device.serial"] == "default"


def test_missing_file_is_fine(tmp_path: Path) -> None:
    cfg = load_config(env={}, path=tmp_path / "nope.toml")
    assert cfg["planner.kind"] == "heuristic"


@pytest.mark.parametrize(
    ("text", "env", "flags", "message"),
    [
        ('[llm]\nmodle = "x"\n', {}, {}, "did you mean 'llm.model'"),
        ("", {"SCREENPILOT_LLM_MODLE": "x"}, {}, "did you mean SCREENPILOT_LLM_MODEL"),
        ("", {}, {"planner.max_step": "3"}, "did you mean 'planner.max_steps'"),
        ('[planner]\nmax_steps = "many"\n', {}, {}, "bad value"),
        ("", {"SCREENPILOT_PLANNER_KIND": "oracle"}, {}, "one of heuristic, llm"),
        ("", {}, {"planner.max_steps": "2.5"}, "bad value"),
        ("[llm\n", {}, {}, "cannot read config file"),
    ],
)
def test_strict_errors(
    tmp_path: Path, text: str, env: dict[str, str], flags: dict[str, str], message: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_config(flags, env=env, path=path)
    assert message in str(info.value)


def test_types_are_coerced(tmp_path: Path) -> None:
    env = {"SCREENPILOT_SAFETY_ALLOW": "payment, authentication", "SCREENPILOT_LLM_TIMEOUT": "3"}
    cfg = load_config(env=env, path=tmp_path / "none.toml")
    assert cfg["safety.allow"] == ["payment", "authentication"]
    assert cfg["llm.timeout"] == 3.0


def test_secret_is_masked(tmp_path: Path) -> None:
    cfg = load_config({"llm.api_key": "sk-123"}, env={}, path=tmp_path / "none.toml")
    assert cfg.shown("llm.api_key") == "****" and cfg["llm.api_key"] == "sk-123"


def test_parse_assignments() -> None:
    assert parse_assignments(["a.b=1", " c.d = x=y "]) == {"a.b": "1", "c.d": "x=y"}
    with pytest.raises(ConfigError, match="KEY=VALUE"):
        parse_assignments(["novalue"])


def test_the_model_path_variables_are_not_taken_for_unknown_keys(tmp_path: Path) -> None:
    env = {"SCREENPILOT_DETECTOR": "/tmp/v4.onnx", "SCREENPILOT_ICONS": "/tmp/icons.onnx"}
    cfg = load_config(env=env, path=tmp_path / "none.toml")
    assert cfg["vision.detector"] == ""  # read by vision.shipped, not a configuration key
    with pytest.raises(ConfigError, match="SCREENPILOT_DETECTR"):
        load_config(env={"SCREENPILOT_DETECTR": "x"}, path=tmp_path / "none.toml")


def test_configured_model_paths_are_the_ones_describe_loads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from screenpilot.commands.common import use_configured_models
    from screenpilot.vision.shipped import model_path

    monkeypatch.setenv("SCREENPILOT_DETECTOR", "")  # unset: restored when the test ends
    monkeypatch.setenv("SCREENPILOT_ICONS", "")
    detector = tmp_path / "v4.onnx"
    cfg = load_config({"vision.detector": str(detector)}, path=tmp_path / "none.toml", env={})
    use_configured_models(cfg)
    assert model_path("SCREENPILOT_DETECTOR", "detector.onnx") == detector
    assert model_path("SCREENPILOT_ICONS", "icons.onnx").name == "icons.onnx"  # the shipped one
    monkeypatch.setenv("SCREENPILOT_DETECTOR", str(tmp_path / "other.onnx"))
    use_configured_models(cfg)  # a variable set in the environment wins
    assert model_path("SCREENPILOT_DETECTOR", "detector.onnx") == tmp_path / "other.onnx"


def test_ocr_det_width_reaches_the_ocr_engine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from screenpilot.commands.common import OCR_DET_WIDTH_VAR, use_configured_models
    from screenpilot.vision.ocr import DET_WIDTH_ENV, RapidOcrBackend

    assert OCR_DET_WIDTH_VAR == DET_WIDTH_ENV
    monkeypatch.setenv(DET_WIDTH_ENV, "")  # restored when the test ends
    cfg = load_config({"vision.ocr_det_width": 480}, path=tmp_path / "none.toml", env={})
    use_configured_models(cfg)
    assert RapidOcrBackend().det_width == 480
    from_env = load_config(path=tmp_path / "none.toml", env={DET_WIDTH_ENV: "540"})
    assert from_env["vision.ocr_det_width"] == 540  # the variable is the key's own
    with pytest.raises(ConfigError):
        load_config(path=tmp_path / "none.toml", env={DET_WIDTH_ENV: "fast"})


def test_ocr_det_model_reaches_the_ocr_engine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from screenpilot.commands.common import OCR_DET_MODEL_VAR, use_configured_models
    from screenpilot.vision.ocr import DET_MODEL_ENV, RapidOcrBackend

    assert OCR_DET_MODEL_VAR == DET_MODEL_ENV
    monkeypatch.setenv(DET_MODEL_ENV, "")  # restored when the test ends
    assert load_config(path=tmp_path / "none.toml", env={})["vision.ocr_det_model"] == "int8"
    cfg = load_config({"vision.ocr_det_model": "int8"}, path=tmp_path / "none.toml", env={})
    use_configured_models(cfg)
    backend = RapidOcrBackend()
    assert backend.det_model is not None and backend.det_model.name == "ocr_det_int8.onnx"
    cfg = load_config({"vision.ocr_det_model": "fp32"}, path=tmp_path / "none.toml", env={})
    use_configured_models(cfg)
    assert RapidOcrBackend().det_model is None  # rapidocr's own float detector


def test_ocr_squeeze_and_rec_width_reach_the_ocr_engine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from screenpilot.commands.common import (
        OCR_REC_WIDTH_VAR,
        OCR_SQUEEZE_VAR,
        use_configured_models,
    )
    from screenpilot.vision.ocr import REC_WIDTH_ENV, SQUEEZE_ENV, RapidOcrBackend

    assert (OCR_SQUEEZE_VAR, OCR_REC_WIDTH_VAR) == (SQUEEZE_ENV, REC_WIDTH_ENV)
    monkeypatch.setenv(SQUEEZE_ENV, "")  # restored when the test ends
    monkeypatch.setenv(REC_WIDTH_ENV, "")
    defaults = load_config(path=tmp_path / "none.toml", env={})
    use_configured_models(defaults)
    backend = RapidOcrBackend()
    assert backend.squeeze and backend.rec_width == defaults["vision.ocr_rec_width"]
    cfg = load_config(
        {"vision.ocr_squeeze": False, "vision.ocr_rec_width": 240},
        path=tmp_path / "none.toml",
        env={},
    )
    use_configured_models(cfg)
    backend = RapidOcrBackend()
    assert (backend.squeeze, backend.rec_width) == (False, 240)
    assert backend.engine()._load_rec_model().rec_image_shape[2] == 240
    with pytest.raises(ConfigError):
        load_config(path=tmp_path / "none.toml", env={SQUEEZE_ENV: "sometimes"})
    monkeypatch.setenv(REC_WIDTH_ENV, "8")
    with pytest.raises(VisionError, match="16-2048"):
        RapidOcrBackend()
    monkeypatch.setenv(REC_WIDTH_ENV, "wide")
    with pytest.raises(VisionError, match="whole number"):
        RapidOcrBackend()
