"""``export detector-int8``: the widget detector quantised to int8 (training/detector_int8.py),
and which detector describe loads (``vision.shipped.detector_path``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_ocr_int8 import _manifest

from screenpilot.errors import DataError
from screenpilot.training import detector_int8
from screenpilot.vision import shipped

SCREENS = Path(__file__).parent / "data" / "screens"
MODELS = Path(shipped.MODELS_DIR)


def _synthetic(folder: Path, count: int) -> Path:
    """A `dataset synth` folder's layout with ``count`` train screens (real screenshots
    stand in for rendered ones: only the files are read)."""
    train = folder / "images" / "train"
    train.mkdir(parents=True)
    for i, name in enumerate(sorted(SCREENS.glob("*.png"))[:count]):
        (train / f"synth_{i:06d}.jpg").write_bytes(name.read_bytes())
    return folder


def test_synthetic_calibration_screens_are_the_first_train_images(tmp_path: Path) -> None:
    folder = _synthetic(tmp_path / "synth", 2)
    (folder / "images" / "train" / "notes.txt").write_text("not a screen")
    assert [p.name for p in detector_int8.synthetic_screens(folder, 1)] == ["synth_000000.jpg"]
    with pytest.raises(DataError, match="2 synthetic train screens; 3") as info:
        detector_int8.synthetic_screens(folder, 3)
    assert "dataset synth" in (info.value.hint or "")


def _models(tmp_path: Path, float_bytes: bytes, made_from: bytes | None) -> Path:
    models = tmp_path / "models"
    models.mkdir(parents=True)
    (models / shipped.FLOAT_NAME).write_bytes(float_bytes)
    if made_from is not None:
        source = tmp_path / "source.onnx"
        source.write_bytes(made_from)
        (models / shipped.INT8_NAME).write_bytes(b"int8")
        report = {"source_sha256": shipped.sha256(source)}
        (models / shipped.INT8_NAME).with_suffix(".json").write_text(json.dumps(report))
    return models


def test_describe_loads_the_int8_copy_unless_asked_for_float_or_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    models = _models(tmp_path, b"float v5", made_from=b"float v5")
    for value in ("", "int8", " int8 "):
        monkeypatch.setenv("SCREENPILOT_DETECTOR", value)
        assert shipped.detector_path(models) == (models / shipped.INT8_NAME, "")
    monkeypatch.setenv("SCREENPILOT_DETECTOR", "fp32")
    assert shipped.detector_path(models) == (models / shipped.FLOAT_NAME, "")
    monkeypatch.setenv("SCREENPILOT_DETECTOR", str(tmp_path / "mine.onnx"))
    assert shipped.detector_path(models) == (tmp_path / "mine.onnx", "")


def test_an_int8_copy_of_another_float_detector_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After `export detector` replaced the float model, its old int8 copy would be a
    different detector: the float one is used, with a note that says how to remake it."""
    monkeypatch.setenv("SCREENPILOT_DETECTOR", "")
    models = _models(tmp_path, b"float v6", made_from=b"float v5")
    path, note = shipped.detector_path(models)
    assert path == models / shipped.FLOAT_NAME
    assert "export detector-int8" in note
    (models / shipped.INT8_NAME).with_suffix(".json").write_text("{half-written")
    assert shipped.detector_path(models)[0] == models / shipped.FLOAT_NAME
    bare = _models(tmp_path / "bare", b"float v6", made_from=None)
    path, note = shipped.detector_path(bare)
    assert path == bare / shipped.FLOAT_NAME and "no int8 detector" in note


def test_the_shipped_int8_detector_was_made_from_the_shipped_float_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SCREENPILOT_DETECTOR", "")
    assert shipped.detector_path() == (MODELS / shipped.INT8_NAME, "")
    report = json.loads((MODELS / shipped.INT8_NAME).with_suffix(".json").read_text())
    assert report["matched_share"] >= 0.95 and report["calibration_inputs"] >= 50


def test_the_head_decoding_stays_float() -> None:
    onnx = pytest.importorskip("onnx")
    model = onnx.load(str(MODELS / shipped.FLOAT_NAME))
    keep = detector_int8.float_head(model)
    names = {n.name: n.op_type for n in model.graph.node}
    assert all(name.startswith("/model.22/") for name in keep)
    assert {names[n] for n in keep} >= {"Softmax", "Sigmoid", "Concat", "Conv"}
    convs = [n for n in keep if names[n] == "Conv"]
    # each branch's last convolution (3 scales x boxes, classes) and the DFL's
    assert len(convs) == 7 and "/model.22/dfl/conv/Conv" in convs
    with pytest.raises(DataError, match="YOLOv8"):
        detector_int8.float_head(onnx.helper.make_model(onnx.helper.make_graph([], "g", [], [])))


@pytest.mark.slow
def test_quantised_detector_is_small_finds_what_the_float_one_finds(tmp_path: Path) -> None:
    """Two calibration screens, one to check on: the int8 model is a third of the float
    one's size or less, finds again what the float one finds, and its report names its
    source (which describe checks) and calibration screens."""
    out = tmp_path / "models" / shipped.INT8_NAME
    steps: list[int] = []
    manifest = _manifest(tmp_path)
    source = MODELS / shipped.FLOAT_NAME
    drawn = _synthetic(tmp_path / "synth", 1)
    report = detector_int8.build(
        manifest,
        source,
        out,
        screens=2,
        check=1,
        synthetic=drawn,
        synthetic_count=1,
        progress=lambda: steps.append(1),
    )
    assert len(steps) == 3 and out.is_file() and not out.with_name(out.name + ".part").exists()
    assert report.calibration_inputs == 3 and len(report.synthetic_screens) == 1
    assert report.bytes_int8 < report.bytes_float / 3
    assert report.check_screens == 1 and report.detections_float > 0
    assert report.matched_share > 0.6 and report.mean_iou > 0.8
    saved = json.loads(out.with_suffix(".json").read_text())
    assert saved["source_sha256"] == shipped.sha256(source)
    assert len(saved["calibration_screens"]) == 2 and saved["imgsz"] == 416
    from screenpilot.vision.detect import Detector

    assert Detector(out).detect(SCREENS / "seal-3.jpg")  # the int8 file loads and detects
    with pytest.raises(DataError, match="train screens"):
        detector_int8.build(manifest, source, out, screens=3, check=1)
    with pytest.raises(DataError, match="no float detector"):
        detector_int8.build(manifest, tmp_path / "none.onnx", out, screens=1, check=0)
