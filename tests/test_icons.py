"""Icon labeller: vocabulary mapping, crop rendering, a tiny train + export + ONNX
labelling run, the shipped model on held-out-family icons, the CLI, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from screenpilot.datasets import icons as icon_data
from screenpilot.errors import DataError, ImageError, VisionError
from screenpilot.vision.icon_vocab import load_vocabulary
from screenpilot.vision.icons import DEFAULT_LABELS, DEFAULT_MODEL, load_crop

needs_gmi = pytest.mark.skipif(
    not icon_data.family_available("gmi"), reason="tkinter-icons-gmi (train extra) is not installed"
)


def test_vocabulary_size_and_entries() -> None:
    vocab = load_vocabulary()
    assert 150 <= len(vocab) <= 200
    assert len(set(vocab.names)) == len(vocab.names)
    for name in ("back", "close", "menu", "more_options", "search", "settings", "wifi"):
        label = vocab.get(name)
        assert label.description and label.synonyms
        prompt = vocab.prompt(name)
        assert prompt.startswith(label.words) and label.description in prompt


@pytest.mark.parametrize(
    ("family", "raw", "expected"),
    [
        ("mdi", "wifi", "wifi"),
        ("mdi", "arrow_left", "back"),
        ("mdi", "magnify", "search"),
        ("mdi", "dots_vertical", "more_options"),
        ("mdi", "heart_outline", "favorite"),
        ("gmi", "search", "search"),
        ("gmi", "more_vert", "more_options"),
        ("gmi", "arrow_back", "back"),
        ("gmi", "favorite_border", "favorite"),
        ("fa", "magnifying-glass", "search"),
        ("bs", "three-dots-vertical", "more_options"),
        ("fluent", "ic-fluent-search-24-regular", "search"),
        ("remix", "more-2-fill", "more_options"),
        ("lucide", "icon-trash-2", "delete"),
        ("ion", "ion-android-settings", "settings"),
        ("phosphor", "magnifying-glass-bold", "search"),
        ("phosphor", "plus-thin", "add"),
        ("phosphor", "list-light", "menu"),  # Phosphor's "list" is the drawer's three bars
        ("codicon", "ellipsis", "more_options"),
        ("elusive", "remove", "close"),  # Elusive's "remove" is an X
    ],
)
def test_known_icon_names_map(family: str, raw: str, expected: str) -> None:
    assert load_vocabulary().map_icon(family, raw) == expected


@pytest.mark.parametrize(
    ("family", "raw"),
    [
        ("mdi", "abacus"),
        ("gmi", "10k"),
        ("mdi", "language_c"),
        ("gmi", "forward"),
        ("gmi", "brightness_2"),
        ("mdi", "wifi_off_thing_that_does_not_exist"),
        ("fa", "dragon"),
        ("phosphor", "notification-fill"),
        ("elusive", "signal"),
        ("codicon", "run"),
    ],
)
def test_unknown_icon_names_do_not_map(family: str, raw: str) -> None:
    assert load_vocabulary().map_icon(family, raw) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Close tab", "close"),
        ("Start voice search", "mic"),
        ("更多", "more_options"),
        ("Navigate up", "back"),
        ("Search", "search"),
        ("Wi-Fi", "wifi"),
        ("xyzzy", None),
        ("", None),
    ],
)
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


@pytest.mark.skipif(
    not icon_data.family_available("phosphor"), reason="qtawesome (train extra) is not installed"
)
def test_qtawesome_families_render() -> None:
    """Phosphor, Codicons and Elusive come from qtawesome's font files (Qt never imported)."""
    for family, least in (("phosphor", 900), ("codicon", 100), ("elusive", 100)):
        glyphs = [g for g in icon_data.load_glyphs([family]) if g.label]
        assert len(glyphs) >= least, family
        images, _ = icon_data.render_set(glyphs[:3], per_glyph=1, seed=0, size=32)
        assert images.std() > 5, family
    # the five weights of one Phosphor icon all mean the same
    names = {"trash", "trash-bold", "trash-fill", "trash-light", "trash-thin"}
    weights = {g.name: g.label for g in icon_data.load_glyphs(["phosphor"]) if g.name in names}
    assert weights == dict.fromkeys(names, "delete")


@needs_gmi
def test_split_keeps_the_test_family_out() -> None:
    splits = icon_data.split_glyphs(icon_data.load_glyphs(["mdi", "gmi"]), test_family="gmi")
    assert splits.test and all(g.family == "gmi" for g in splits.test)
    assert all(g.family != "gmi" for g in splits.train + splits.val + splits.unknown_val)
    assert all(g.label is None for g in splits.unknown_val + splits.unknown_test)
    train_keys = {g.key for g in splits.train}
    assert not train_keys & {g.key for g in splits.val}


@needs_gmi
def test_no_test_family_trains_on_every_family(tmp_path: Path) -> None:
    from screenpilot.training.icons.config import TrainConfig
    from screenpilot.training.icons.data import _splits

    vocab = load_vocabulary()
    cfg = TrainConfig(out=tmp_path, families=("mdi", "gmi"), test_family="")
    splits = _splits(cfg, vocab)
    assert not splits.test and not splits.unknown_test
    assert {g.family for g in splits.train} == {"mdi", "gmi"}
    assert {g.family for g in splits.val} == {"mdi", "gmi"}
    held = _splits(TrainConfig(out=tmp_path, families=("mdi", "gmi")), vocab)
    assert held.test and all(g.family != "gmi" for g in held.train)
    with pytest.raises(DataError, match="not installed"):
        _splits(TrainConfig(out=tmp_path, families=("mdi",), test_family="gmi"), vocab)


@needs_gmi
def test_write_dataset(tmp_path: Path) -> None:
    manifest = icon_data.write_dataset(
        tmp_path, families=("mdi", "gmi"), per_glyph=1, size=32, limit=6
    )
    assert manifest["counts"] == {
        "train": 6,
        "val": 6,
        "test": 6,
        "unknown_val": 6,
        "unknown_test": 6,
    }
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
    result = train(
        TrainConfig(
            out=out,
            arch=ICON_TINY_ARCH,
            steps=2,
            batch=8,
            eval_every=2,
            warmup=1,
            pool=1,
            refresh=4,
            text_init_steps=2,
            threads=1,
            families=("mdi", "gmi"),
            eval_limit=8,
            eval_per_glyph=1,
        ),
        log=lambda _: None,
    )
    assert result.checkpoint.is_file()
    exported = export_icons(
        result.checkpoint, out / "icons.onnx", out / "icons_labels.json", limit=8
    )
    assert 0.0 <= exported.threshold <= 1.0
    return exported.onnx


def test_gray_input_is_standardised_per_crop() -> None:
    """``gray``: zero mean and unit RMS per crop, the same for any brightness/contrast
    of the crop; ``rgb``: the plain per-channel normalisation."""
    torch = pytest.importorskip("torch")
    from screenpilot.training.icons import OPENAI_MEAN, OPENAI_STD, prepare

    rng = np.random.default_rng(0)
    base = rng.random((2, 1, 16, 16)).astype(np.float32)
    x = torch.from_numpy(np.repeat(base, 3, axis=1))
    out = prepare(x, "gray", OPENAI_MEAN, OPENAI_STD)
    assert out.shape == (2, 3, 16, 16)
    assert torch.allclose(out.mean(dim=(2, 3)), torch.zeros(2, 3), atol=1e-5)
    rms = (out[:, 0] ** 2).mean(dim=(1, 2)).sqrt()
    assert torch.all((rms > 0.9) & (rms <= 1.0))
    dimmer = prepare(x * 0.8 + 0.1, "gray", OPENAI_MEAN, OPENAI_STD)
    assert torch.allclose(out, dimmer, atol=0.05)
    rgb = prepare(x, "rgb", OPENAI_MEAN, OPENAI_STD)
    assert torch.allclose(rgb[:, 0], (x[:, 0] - OPENAI_MEAN[0]) / OPENAI_STD[0])


def test_training_pool_batches_hold_distinct_labels() -> None:
    from screenpilot.training.icons import _Batcher

    vocab = load_vocabulary()
    glyphs = icon_data.drawable(g for g in icon_data.load_glyphs(["mdi"], vocab) if g.label)[:60]
    batcher = _Batcher(glyphs, vocab, size=24, batch=16, seed=0, pool=2, refresh=5)
    assert len(batcher.pool) == 2 * len(glyphs)
    before = batcher.pool.copy()
    images, labels = batcher.next()
    assert images.shape[1:] == (24, 24, 3) and len(set(labels.tolist())) == len(labels)
    assert 0 < int((before != batcher.pool).any(axis=(1, 2, 3)).sum()) <= 5  # refreshed
    on_the_fly = _Batcher(glyphs, vocab, size=24, batch=16, seed=0, pool=0)
    assert on_the_fly.next()[0].shape == images.shape


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
    result = train(
        TrainConfig(
            out=tmp_path / "run",
            arch=ICON_TINY_ARCH,
            pretrained=weights,
            steps=1,
            batch=4,
            eval_every=1,
            warmup=1,
            lr=1e-5,
            pool=1,
            families=("mdi", "gmi"),
            eval_limit=4,
            eval_per_glyph=1,
        ),
        log=lambda _: None,
    )
    assert result.steps == 1 and result.checkpoint.is_file()
    ckpt = torch.load(result.checkpoint, map_location="cpu", weights_only=False)
    assert ckpt["config"]["input_mode"] == "rgb"  # a user CLIP keeps its own normalisation


@pytest.mark.slow
def test_onnx_tower_matches_torch_and_quantizes(tiny_model: Path, tmp_path: Path) -> None:
    """The exported graph holds the input transform: ONNX == torch embeddings; the int8
    export is smaller and still answers."""
    from screenpilot.training import icons as icon_train
    from screenpilot.training.icons_export import export_icons
    from screenpilot.vision.icons import IconLabeller, OnnxImageTower

    model, ckpt = icon_train.load_checkpoint(tiny_model.parent / "best.pt")
    assert icon_train.input_mode_of(ckpt) == "gray"
    glyphs = [g for g in icon_data.load_glyphs(["gmi"]) if g.label][:6]
    images, _ = icon_data.render_set(glyphs, per_glyph=1, seed=1, size=32)
    mean, std = icon_train.normalisation_of(model)
    expected = icon_train.image_embeddings(model, images, mean, std, mode="gray")
    got = OnnxImageTower(tiny_model, threads=1).embed_uint8(images)
    assert np.allclose(got, expected, atol=1e-4)
    small = tmp_path / "q.onnx"
    export_icons(
        tiny_model.parent / "best.pt", small, tmp_path / "q_labels.json", limit=8, quantize=True
    )
    assert small.stat().st_size < tiny_model.stat().st_size
    assert len(IconLabeller(small).label(list(images), top=2)) == 6


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
    result = CliRunner().invoke(
        app, ["label-icon", str(crop), "--top", "2", "--json", "--model", str(tiny_model)]
    )
    assert result.exit_code == 0, result.output
    line = json.loads(result.output.strip().splitlines()[-1])
    assert line["crop"] == str(crop) and len(line["top"]) == 2


@pytest.mark.slow
def test_eval_icons_cli_scores_the_held_out_family(tiny_model: Path, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from screenpilot.cli import app

    result = CliRunner().invoke(
        app,
        [
            "eval",
            "icons",
            "--model",
            str(tiny_model),
            "--droidbot",
            str(tmp_path),
            "--threads",
            "1",
            "--real",
            str(tmp_path / "no-harvest"),
        ],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.output.strip().splitlines()[-1])
    assert report["held_out_family"] == "gmi" and report["held_out_crops"] > 1000
    assert report["heldout_real"].startswith("skipped")
    assert 0.0 <= report["held_out_top1"] <= report["held_out_top3"] <= 1.0
    assert report["mapped"] == 0


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
    ("search", "search"),
    ("more_vert", "more_options"),
    ("arrow_back", "back"),
    ("settings", "settings"),
    ("delete", "delete"),
    ("share", "share"),
    ("add", "add"),
    ("close", "close"),
    ("menu", "menu"),
    ("home", "home"),
    ("wifi", "wifi"),
    ("bluetooth", "bluetooth"),
    ("mic", "mic"),
    ("photo_camera", "camera"),
    ("play_arrow", "play"),
    ("pause", "pause"),
    ("edit", "edit"),
    ("favorite", "favorite"),
    ("star", "star"),
    ("notifications", "notifications"),
    ("send", "send"),
    ("lock", "lock"),
    ("visibility", "visibility"),
    ("refresh", "refresh"),
]


@needs_gmi
@pytest.mark.skipif(
    not (DEFAULT_MODEL.is_file() and DEFAULT_LABELS.is_file()),
    reason="no shipped icon model in models/",
)
def test_shipped_model_on_held_out_family(tmp_path: Path) -> None:
    from screenpilot.vision.icons import IconLabeller

    assert DEFAULT_MODEL.stat().st_size < 5_000_000  # int8-stored weights (--quantize)
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
    assert hits >= 0.8 * len(SHIPPED_CASES), [
        (e, r.top) for r, e in zip(results, expected, strict=True)
    ]
