"""Icon labeller: vocabulary mapping, crop rendering, a tiny train + export + ONNX
labelling run, the shipped model on held-out-family icons, the CLI, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from screenpilot.datasets import icons as icon_data
from screenpilot.errors import ImageError, VisionError
from screenpilot.vision.icon_vocab import load_vocabulary
from screenpilot.vision.icons import DEFAULT_LABELS, DEFAULT_MODEL, load_crop

needs_gmi = pytest.mark.skipif(not icon_data.family_available("gmi"),
                               reason="tkinter-icons-gmi (train extra) is not installed")


def test_vocabulary_size_and_entries() -> None:
    vocab = load_vocabulary()
    assert 150 <= len(vocab) <= 200
    assert len(set(vocab.names)) == len(vocab.names)
    for name in ("back", "close", "menu", "more_options", "search", "settings", "wifi"):
        label = vocab.get(name)
        assert label.description and label.synonyms
        prompt = vocab.prompt(name)
        assert prompt.startswith(label.words) and label.description in prompt


@pytest.mark.parametrize(("family", "raw", "expected"), [
    ("mdi", "wifi", "wifi"), ("mdi", "arrow_left", "back"), ("mdi", "magnify", "search"),
    ("mdi", "dots_vertical", "more_options"), ("mdi", "heart_outline", "favorite"),
    ("gmi", "search", "search"), ("gmi", "more_vert", "more_options"),
    ("gmi", "arrow_back", "back"), ("gmi", "favorite_border", "favorite"),
    ("fa", "magnifying-glass", "search"), ("bs", "three-dots-vertical", "more_options"),
    ("fluent", "ic-fluent-search-24-regular", "search"), ("remix", "more-2-fill", "more_options"),
    ("lucide", "icon-trash-2", "delete"), ("ion", "ion-android-settings", "settings"),
])
def test_known_icon_names_map(family: str, raw: str, expected: str) -> None:
    assert load_vocabulary().map_icon(family, raw) == expected


@pytest.mark.parametrize(("family", "raw"), [
    ("mdi", "abacus"), ("gmi", "10k"), ("mdi", "language_c"), ("gmi", "forward"),
    ("gmi", "brightness_2"), ("mdi", "wifi_off_thing_that_does_not_exist"), ("fa", "dragon"),
])
def test_unknown_icon_names_do_not_map(family: str, raw: str) -> None:
    assert load_vocabulary().map_icon(family, raw) is None


@pytest.mark.parametrize(("text", "expected"), [
    ("Close tab", "close"), ("Start voice search", "mic"), ("更多", "more_options"),
    ("Navigate up", "back"), ("Search", "search"), ("Wi-Fi", "wifi"), ("xyzzy", None),
    ("", None),
])
def test_descriptions_map(text: str, expected: str | None) -> None:
    assert load_vocabulary().map_description(text) == expected


def test_render_crop_shape_and_determinism() -> None:
    glyphs = [g for g in icon_data.load_glyphs(["mdi"]) if g.label][:5]
    images, labels = icon_data.render_set(glyphs, per_glyph=2, seed=3, size=48)
    again, _ = icon_data.render_set(glyphs, per_glyph=2, seed=3, size=48)
    assert images.shape == (10, 48, 48, 3) and images.dtype == np.uint8
    assert labels.shape == (10,) and (labels >= 0).all()
    assert np.array_equal(images, again)
    assert images.std() > 5  # not blank


@needs_gmi
def test_split_keeps_the_test_family_out() -> None:
    splits = icon_data.split_glyphs(icon_data.load_glyphs(["mdi", "gmi"]), test_family="gmi")
    assert splits.test and all(g.family == "gmi" for g in splits.test)
    assert all(g.family != "gmi" for g in splits.train + splits.val + splits.unknown_val)
    assert all(g.label is None for g in splits.unknown_val + splits.unknown_test)
    train_keys = {g.key for g in splits.train}
    assert not train_keys & {g.key for g in splits.val}


@needs_gmi
def test_write_dataset(tmp_path: Path) -> None:
    manifest = icon_data.write_dataset(tmp_path, families=("mdi", "gmi"), per_glyph=1, size=32,
                                       limit=6)
    assert manifest["counts"] == {"train": 6, "val": 6, "test": 6, "unknown_val": 6,
                                  "unknown_test": 6}
    with np.load(tmp_path / "test.npz") as data:
        assert data["images"].shape == (6, 32, 32, 3)
        assert all(str(k).startswith("gmi/") for k in data["keys"])
    assert len(list((tmp_path / "train").rglob("*.png"))) == 6


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A few training steps and an export: the whole pipeline, tiny."""
    pytest.importorskip("open_clip")
    if not icon_data.family_available("gmi"):
        pytest.skip("tkinter-icons-gmi (train extra) is not installed")
    from screenpilot.training.icons import ICON_TINY_ARCH, TrainConfig, train
    from screenpilot.training.icons_export import export_icons

    out = tmp_path_factory.mktemp("icons")
    result = train(TrainConfig(out=out, arch=ICON_TINY_ARCH, steps=2, batch=8, eval_every=2,
                               warmup=1,
                               families=("mdi", "gmi"), eval_limit=8, eval_per_glyph=1),
                   log=lambda _: None)
    assert result.checkpoint.is_file()
    exported = export_icons(result.checkpoint, out / "icons.onnx", out / "icons_labels.json",
                            limit=8)
    assert 0.0 <= exported.threshold <= 1.0
    return exported.onnx


@pytest.mark.slow
def test_pretrained_checkpoint_is_fine_tuned(tmp_path: Path) -> None:
    """--pretrained: an open_clip state dict of the same architecture is loaded and trained."""
    pytest.importorskip("open_clip")
    if not icon_data.family_available("gmi"):
        pytest.skip("tkinter-icons-gmi (train extra) is not installed")
    import torch

    from screenpilot.training.icons import ICON_TINY_ARCH, TrainConfig, build_model, train

    weights = tmp_path / "pretrained.pt"
    torch.save(build_model(ICON_TINY_ARCH).state_dict(), weights)
    result = train(TrainConfig(out=tmp_path / "run", arch=ICON_TINY_ARCH, pretrained=weights,
                               steps=1, batch=4, eval_every=1, warmup=1, lr=1e-5,
                               families=("mdi", "gmi"), eval_limit=4, eval_per_glyph=1),
                   log=lambda _: None)
    assert result.steps == 1 and result.checkpoint.is_file()


@pytest.mark.slow
def test_tiny_train_export_and_label(tiny_model: Path) -> None:
    from screenpilot.vision.icons import IconLabeller

    labeller = IconLabeller(tiny_model)
    glyphs = [g for g in icon_data.load_glyphs(["gmi"]) if g.label][:4]
    images, _ = icon_data.render_set(glyphs, per_glyph=1, seed=0, size=80)
    results = labeller.label([Image.fromarray(a) for a in images], top=3)
    assert len(results) == 4
    for result in results:
        assert len(result.top) == 3
        assert all(name in labeller.labels for name, _ in result.top)
        assert result.label in (result.top[0][0], "unknown")
        scores = [s for _, s in result.top]
        assert scores == sorted(scores, reverse=True) and 0.0 <= scores[0] <= 1.0


@pytest.mark.slow
def test_label_icon_cli(tiny_model: Path, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from screenpilot.cli import app

    glyph = next(g for g in icon_data.load_glyphs(["gmi"]) if g.label == "search")
    mask = icon_data.glyph_mask(glyph)
    assert mask is not None
    crop = tmp_path / "crop.png"
    Image.fromarray(icon_data.render_crop(mask, np.random.default_rng(0), 96)).save(crop)
    result = CliRunner().invoke(app, ["label-icon", str(crop), "--top", "2", "--json",
                                      "--model", str(tiny_model)])
    assert result.exit_code == 0, result.output
    line = json.loads(result.output.strip().splitlines()[-1])
    assert line["crop"] == str(crop) and len(line["top"]) == 2


def test_corrupt_crop_is_a_vision_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.png"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n not really a png")
    with pytest.raises(ImageError):
        load_crop(bad)
    with pytest.raises(ImageError):
        load_crop(tmp_path / "missing.png")
    with pytest.raises(ImageError):
        load_crop(np.zeros((0, 4, 3), np.uint8))
    assert issubclass(ImageError, VisionError)


def test_missing_model_is_a_vision_error(tmp_path: Path) -> None:
    from screenpilot.vision.icons import IconLabeller

    with pytest.raises(VisionError):
        IconLabeller(tmp_path / "none.onnx")


#: Held-out family (Google Material Icons, baseline cut): icons every Android app uses.
SHIPPED_CASES = [
    ("search", "search"), ("more_vert", "more_options"), ("arrow_back", "back"),
    ("settings", "settings"), ("delete", "delete"), ("share", "share"), ("add", "add"),
    ("close", "close"), ("menu", "menu"), ("home", "home"), ("wifi", "wifi"),
    ("bluetooth", "bluetooth"), ("mic", "mic"), ("photo_camera", "camera"),
    ("play_arrow", "play"), ("pause", "pause"), ("edit", "edit"), ("favorite", "favorite"),
    ("star", "star"), ("notifications", "notifications"), ("send", "send"),
    ("lock", "lock"), ("visibility", "visibility"), ("refresh", "refresh"),
]


@needs_gmi
@pytest.mark.skipif(not (DEFAULT_MODEL.is_file() and DEFAULT_LABELS.is_file()),
                    reason="no shipped icon model in models/")
def test_shipped_model_on_held_out_family(tmp_path: Path) -> None:
    from screenpilot.vision.icons import IconLabeller

    labeller = IconLabeller(threads=1)
    by_name = {g.name: g for g in icon_data.load_glyphs(["gmi"]) if g.style == "baseline"}
    rng = np.random.default_rng(7)
    crops, expected = [], []
    for name, label in SHIPPED_CASES:
        mask = icon_data.glyph_mask(by_name[name])
        assert mask is not None
        crops.append(icon_data.render_crop(mask, rng, 96))
        expected.append(label)
    results = labeller.label(crops, top=3)
    hits = sum(label in [n for n, _ in r.top] for r, label in zip(results, expected, strict=True))
    assert hits >= 0.8 * len(SHIPPED_CASES), [(e, r.top) for r, e in zip(results, expected,
                                                                          strict=True)]
