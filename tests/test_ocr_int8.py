"""``export ocr-det``: rapidocr's text detector quantised to int8 from calibration screens
of a harvest manifest's train apps (training/ocr_int8.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from screenpilot.errors import DataError
from screenpilot.training import ocr_int8
from screenpilot.vision.ocr import wheel_det_model

SCREENS = Path(__file__).parent / "data" / "screens"


def _manifest(tmp_path: Path) -> Path:
    files = {
        "netguard": ("train", "netguard-32-settings-network.png"),
        "tracker": ("train", "trackercontrol-3.png"),
        "calendar": ("train", "etarcalendar-t5.png"),
        "held-out": ("val", "seal-3.jpg"),
    }
    rows = [
        {"stem": stem, "split": split, "original": str(SCREENS / name)}
        for stem, (split, name) in files.items()
    ]
    path = tmp_path / "manifest.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_calibration_comes_from_train_screens_in_a_fixed_order(tmp_path: Path) -> None:
    manifest = _manifest(tmp_path)
    first = [r["stem"] for r in ocr_int8.calibration_screens(manifest, 10)]
    assert sorted(first) == ["calendar", "netguard", "tracker"]  # never the held-out app
    assert [r["stem"] for r in ocr_int8.calibration_screens(manifest, 2)] == first[:2]
    with pytest.raises(DataError, match="no screen manifest"):
        ocr_int8.calibration_screens(tmp_path / "none.jsonl", 2)
    (tmp_path / "bad.jsonl").write_text('{"stem": "a", "split": "train"}\nnot json\n')
    with pytest.raises(DataError, match=r"bad\.jsonl:2"):
        ocr_int8.calibration_screens(tmp_path / "bad.jsonl", 2)


@pytest.mark.slow
def test_quantised_detector_is_small_close_and_described(tmp_path: Path) -> None:
    """Two calibration screens at 256 px, one to check on: the int8 model is a quarter of
    the float one's size, its text mask overlaps the float one's, and the report names its
    source and calibration screens."""
    out = tmp_path / "models" / "det.onnx"
    steps: list[int] = []
    manifest = _manifest(tmp_path)
    report = ocr_int8.build(
        manifest, out, screens=2, check=1, det_width=256, progress=lambda: steps.append(1)
    )
    assert len(steps) == 3 and out.is_file() and not out.with_name("det.onnx.part").exists()
    assert report.bytes_int8 < report.bytes_float / 3
    assert report.check_inputs == 1 and report.mask_iou > 0.7
    saved = json.loads(out.with_suffix(".json").read_text())
    assert saved["source_sha256"] == ocr_int8.sha256(wheel_det_model())
    assert len(saved["calibration_screens"]) == 2 and saved["det_width"] == 256
    from screenpilot.vision.ocr import RapidOcrBackend

    pixels = np.asarray(Image.open(SCREENS / "seal-3.jpg").convert("RGB"))
    lines = RapidOcrBackend(det_model=str(out), det_width=256).read(pixels)
    assert lines  # the quantised file loads in the OCR engine and finds text
    with pytest.raises(DataError, match="train screens"):
        ocr_int8.build(manifest, out, screens=3, check=1)
