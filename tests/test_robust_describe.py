"""`describe` on hostile input (issue 20): narrow and enormous images, files that are not
regular files or are too large, and batches that keep going past a bad file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from screenpilot.errors import ImageError, VisionError
from screenpilot.model import Box
from screenpilot.vision import image as image_module
from screenpilot.vision.image import MAX_FILE_BYTES, check_size, load_image
from screenpilot.vision.ocr import TextLine, read_tiled


class Engine:
    """An OCR engine that records the tiles it is given and finds one line in each."""

    name = "fake"

    def __init__(self) -> None:
        self.tiles: list[tuple[int, int]] = []

    def read(self, image: np.ndarray, *, span: int | None = None) -> list[TextLine]:
        h, w = image.shape[:2]
        assert image.ndim == 3 and h > 0 and w > 0, image.shape
        self.tiles.append((h, w))
        return [TextLine("x", Box(0, h // 2, max(1, w), h // 2 + 1), 1.0)]


@pytest.mark.parametrize("w", [8, 9, 12, 16, 17, 31, 64, 400, 1080])
@pytest.mark.parametrize("h", [8, 100, 333, 1000, 5000])
def test_tiles_of_any_shape_are_never_empty(w: int, h: int) -> None:
    """The issue's case: 8-16 px wide, 100+ px tall made empty tiles (IndexError)."""
    engine = Engine()
    lines = read_tiled(engine, np.zeros((h, w, 3), np.uint8))
    covered = sum(t[0] for t in engine.tiles)
    assert covered >= h and all(t[1] == w for t in engine.tiles)
    assert len(engine.tiles) <= h // 100 + 2
    assert all(0 <= line.box.y1 < h for line in lines)


def test_a_long_screenshot_1080x60000_is_tiled() -> None:
    engine = Engine()
    check_size(np.zeros((60000, 1080, 3), np.uint8))  # within the size limits
    read_tiled(engine, np.zeros((60000, 1080, 3), np.uint8))
    assert all(h <= 2700 for h, _ in engine.tiles) and len(engine.tiles) >= 23


@pytest.mark.parametrize("size", [(8, 100), (12, 300), (16, 120), (8, 8), (40, 9)])
def test_narrow_images_are_described(size: tuple[int, int]) -> None:
    from screenpilot.vision.pipeline import analyse

    w, h = size
    pixels = (np.random.default_rng(w * h).random((h, w, 3)) * 255).astype(np.uint8)
    result = analyse(pixels, stages=["ocr", "blocks"], ocr_threshold=0.9)
    assert result.screen.width == w and result.screen.height == h


@pytest.mark.parametrize("size", [(1, 1), (7, 500), (500, 7)])
def test_too_small_is_refused(size: tuple[int, int]) -> None:
    with pytest.raises(ImageError, match="too small"):
        load_image(np.zeros((size[1], size[0], 3), np.uint8))


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    """The issue's case: a FIFO named x.png hung `describe` (no writer ever comes)."""
    fifo = tmp_path / "x.png"
    os.mkfifo(fifo)
    with pytest.raises(ImageError, match="FIFO"):
        load_image(fifo)


def test_a_device_is_refused_before_reading() -> None:
    """The issue's case: `describe /dev/zero` read until MemoryError."""
    with pytest.raises(ImageError, match="character device"):
        load_image("/dev/zero")


def test_a_file_over_the_limit_is_refused_before_reading(tmp_path: Path) -> None:
    huge = tmp_path / "huge.png"
    with huge.open("wb") as f:  # sparse: no disk is used
        f.truncate(MAX_FILE_BYTES + 1)
    with pytest.raises(ImageError, match="too large"):
        load_image(huge)


def test_a_file_that_grows_past_the_limit_while_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "a.png"
    path.write_bytes(b"\x89PNG" + b"\0" * 100)
    monkeypatch.setattr(image_module, "MAX_FILE_BYTES", 50)
    with pytest.raises(ImageError, match="too large"):
        image_module.read_image_file(path, limit=50)


def test_a_batch_describes_every_readable_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The issue's case: one file failing with an error that was not a VisionError threw
    away the batch. Each file now gets a result or its own error."""
    from screenpilot.vision import pipeline
    from screenpilot.vision.batch import describe_files

    files = [tmp_path / f"{name}.png" for name in ("a", "bug", "c")]
    for f in files:
        Image.new("RGB", (64, 64), "white").save(f)
    real = pipeline.analyse

    def analyse(path: Path, **kw: object) -> object:
        if Path(path).stem == "bug":
            raise IndexError("a bug deep in vision")
        return real(path, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "analyse", analyse)
    results = describe_files(files, ["blocks"], 0.9)
    kinds = {p.stem: type(r).__name__ for p, r in results}
    assert kinds == {"a": "Description", "bug": "VisionError", "c": "Description"}
    bug = dict(results)[files[1]]
    assert isinstance(bug, VisionError) and "IndexError" in bug.message


def test_cli_batch_lists_what_it_could_not_describe(tmp_path: Path) -> None:
    good = tmp_path / "good.png"
    Image.new("RGB", (200, 400), "white").save(good)
    fifo = tmp_path / "pipe.png"
    os.mkfifo(fifo)
    page = tmp_path / "page.png"
    page.write_text("<html>not an image</html>")
    tiny = tmp_path / "tiny.png"
    Image.new("RGB", (1, 1)).save(tiny)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "screenpilot",
            "describe",
            str(good),
            str(fifo),
            str(page),
            str(tiny),
            "/dev/zero",
            "--stages",
            "blocks",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "SCREENPILOT_CONFIG": str(tmp_path / "no.toml")},
    )
    assert proc.returncode == 4, proc.stderr
    assert f"== {good}" in proc.stdout and "Traceback" not in proc.stderr
    errors = [line for line in proc.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "  hint: " in proc.stderr
    last = errors[0]
    assert last.startswith("error: 4 of 5 images could not be described: ")
    assert proc.stderr.count("cannot describe: ") == 4
    for bad in (fifo, page, tiny):
        assert str(bad) in last
    assert "FIFO" in proc.stderr and "character device" in proc.stderr


def test_an_empty_path_is_refused_not_read_as_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``describe "$F"`` with F unset: Path("") is ".", which described every image under
    the working folder (a checkout's virtual environment and runs) before answering."""
    from typer.testing import CliRunner

    from screenpilot.cli import app

    Image.new("RGB", (64, 64), "white").save(tmp_path / "a.png")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SCREENPILOT_CONFIG", str(tmp_path / "no.toml"))
    result = CliRunner().invoke(app, ["describe", "", "--stages", "blocks"])
    assert result.exit_code == 2
    assert "empty path" in result.output and "== " not in result.output


def test_a_folder_s_hidden_folders_are_skipped_and_each_result_shown_as_it_comes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder: its images at any depth but none in ``.git`` or ``.venv``; each one's
    description is printed when it is done, so an interrupted batch keeps what it did."""
    from typer.testing import CliRunner

    from screenpilot.cli import app
    from screenpilot.vision import batch

    shots = tmp_path / "shots"
    for rel in ("a.png", "day2/b.png", ".venv/lib/icon.png", ".git/x.png"):
        (shots / rel).parent.mkdir(parents=True, exist_ok=True)
        Image.new("RGB", (64, 64), "white").save(shots / rel)
    seen: list[str] = []
    real = batch.describe_file

    def describe_file(
        path: Path, stages: object, threshold: float, density: float | None = None
    ) -> object:
        seen.append(path.name)
        if path.name == "b.png":
            raise KeyboardInterrupt  # the user stops the batch at the second image
        return real(path, stages, threshold, density=density)  # type: ignore[arg-type]

    monkeypatch.setattr(batch, "describe_file", describe_file)
    monkeypatch.setenv("SCREENPILOT_CONFIG", str(tmp_path / "no.toml"))
    result = CliRunner().invoke(app, ["describe", str(shots), "--stages", "blocks"])
    assert seen == ["a.png", "b.png"]  # sorted; hidden folders never read
    assert f"== {shots / 'a.png'}" in result.output  # printed before the interruption
    assert result.exit_code != 0
