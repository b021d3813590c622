"""Labelled icon crops rendered the way icons appear on phone screens.

Icon families come from pip-installed icon fonts (nothing is downloaded):

    mdi     Material Design Icons 7       fonticon-materialdesignicons7
    gmi     Google Material Icons (4 cuts) tkinter-icons-gmi          <- the TEST family
    fa      Font Awesome 6 solid/regular   tkinter-icons-fa
    bs      Bootstrap Icons                tkinter-icons-bs
    lucide  Lucide                         tkinter-icons-lucide
    remix   Remix Icon                     tkinter-icons-remix
    fluent  Fluent System Icons (24 px)    tkinter-icons-fluent
    ion     Ionicons 2                     tkinter-icons-ion
    eva     Eva Icons                      tkinter-icons-eva

Glyph names are mapped onto the vocabulary (``vision/icon_vocab.py``); unmapped
glyphs are kept apart as "unknown" examples for calibrating the reject threshold.
One whole family (``gmi`` by default) never enters training. A crop is 16-48 dp
at 420 dpi (42-126 px) with padding, page colours light or dark, an optional
circular or rounded button, contrasting foreground, small offsets, aspect jitter,
slight blur and JPEG artefacts, then resized to the model's input size.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import io
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from screenpilot.core import fonts
from screenpilot.errors import DataError
from screenpilot.vision.icon_vocab import Vocabulary, load_vocabulary

TEST_FAMILY = "gmi"
ALL_FAMILIES = ("mdi", "gmi", "fa", "bs", "lucide", "remix", "fluent", "ion", "eva")
MASK_SIZE = 96
DPI = 420
Rgb = tuple[int, int, int]
U8Array = npt.NDArray[np.uint8]

#: family -> (python package, [(font file, glyph map file, style)])
_FONT_PACKS: dict[str, tuple[str, list[tuple[str, str, str]]]] = {
    "gmi": (
        "tkinter_icons_gmi",
        [
            ("fonts/MaterialIcons-Regular.ttf", "glyphmap-baseline.json", "baseline"),
            ("fonts/MaterialIconsOutlined-Regular.otf", "glyphmap-outlined.json", "outlined"),
            ("fonts/MaterialIconsRound-Regular.otf", "glyphmap-round.json", "round"),
            ("fonts/MaterialIconsSharp-Regular.otf", "glyphmap-sharp.json", "sharp"),
        ],
    ),
    "fa": (
        "tkinter_icons_fa",
        [
            ("fonts/fa-solid-900.ttf", "glyphmap-solid.json", "solid"),
            ("fonts/fa-regular-400.ttf", "glyphmap-regular.json", "regular"),
        ],
    ),
    "bs": ("tkinter_icons_bs", [("assets/bootstrap.ttf", "assets/glyphmap.json", "")]),
    "lucide": ("tkinter_icons_lucide", [("fonts/lucide.ttf", "glyphmap.json", "")]),
    "remix": ("tkinter_icons_remix", [("fonts/remixicon.ttf", "glyphmap.json", "")]),
    "fluent": (
        "tkinter_icons_fluent",
        [
            ("fonts/FluentSystemIcons-Regular.ttf", "glyphmap-regular.json", "regular"),
            ("fonts/FluentSystemIcons-Filled.ttf", "glyphmap-filled.json", "filled"),
        ],
    ),
    "ion": ("tkinter_icons_ion", [("fonts/ionicons.ttf", "glyphmap.json", "")]),
    "eva": ("tkinter_icons_eva", [("fonts/eva-icons.ttf", "glyphmap.json", "")]),
}


@dataclass(frozen=True)
class Glyph:
    """One icon of one family: where to draw it from and what it means."""

    family: str
    style: str
    name: str
    char: str
    font: Path
    label: str | None

    @property
    def key(self) -> str:
        """A stable identifier: ``family/style/name``."""
        return f"{self.family}/{self.style}/{self.name}"


@dataclass(frozen=True)
class Splits:
    """Glyphs by role: train and val (training families), test (the held-out family),
    and unmapped glyphs of each side for calibrating and measuring "unknown"."""

    train: list[Glyph]
    val: list[Glyph]
    test: list[Glyph]
    unknown_val: list[Glyph]
    unknown_test: list[Glyph]


def family_available(family: str) -> bool:
    """Whether the package holding ``family`` is installed."""
    if family == "mdi":
        return importlib.util.find_spec("fonticon_mdi7") is not None
    if family not in _FONT_PACKS:
        return False
    return importlib.util.find_spec(_FONT_PACKS[family][0]) is not None


def _package_dir(module: str) -> Path:
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        pip_name = module.replace("_", "-")
        raise DataError(
            f"icon font package '{pip_name}' is not installed",
            hint=f"pip install {pip_name} (or `make setup`: it is in the train extra)",
        )
    return Path(next(iter(spec.submodule_search_locations)))


def _char(code: str | int) -> str:
    return chr(code if isinstance(code, int) else int(code, 16))


@functools.cache
def _raw_glyphs(family: str) -> tuple[tuple[str, str, str, Path], ...]:
    """(style, name, char, font) of every glyph of ``family``."""
    if family == "mdi":
        font = fonts.mdi_font()
        return tuple(("", name, char, font) for name, char in fonts.mdi_codepoints().items())
    if family not in _FONT_PACKS:
        raise DataError(
            f"unknown icon family {family!r}", hint=f"choose among {', '.join(ALL_FAMILIES)}"
        )
    module, packs = _FONT_PACKS[family]
    root = _package_dir(module)
    out: list[tuple[str, str, str, Path]] = []
    for font_file, map_file, style in packs:
        glyph_map = json.loads((root / map_file).read_text(encoding="utf-8"))
        for name, code in glyph_map.items():
            if family == "fluent" and "-24-" not in name:
                continue
            out.append((style, name, _char(code), root / font_file))
    return tuple(out)


def load_glyphs(families: Iterable[str], vocab: Vocabulary | None = None) -> list[Glyph]:
    """Every glyph of ``families`` with its label (``None`` when unmapped)."""
    vocab = vocab or load_vocabulary()
    return [
        Glyph(family, style, name, char, font, vocab.map_icon(family, name))
        for family in families
        for style, name, char, font in _raw_glyphs(family)
    ]


def coverage(glyphs: Sequence[Glyph], vocab: Vocabulary | None = None) -> dict[str, dict[str, int]]:
    """Per family: glyphs, mapped glyphs, and vocabulary labels covered."""
    vocab = vocab or load_vocabulary()
    out: dict[str, dict[str, int]] = {}
    for family in dict.fromkeys(g.family for g in glyphs):
        mine = [g for g in glyphs if g.family == family]
        labels = {g.label for g in mine if g.label}
        out[family] = {
            "glyphs": len(mine),
            "mapped": sum(1 for g in mine if g.label),
            "labels": len(labels),
            "vocabulary": len(vocab),
        }
    return out


def _bucket(key: str, modulo: int = 100) -> int:
    return int(hashlib.sha1(key.encode()).hexdigest()[:8], 16) % modulo


def split_glyphs(
    glyphs: Sequence[Glyph], *, test_family: str = TEST_FAMILY, val_percent: int = 8
) -> Splits:
    """Deterministic splits: the whole ``test_family`` is test; ``val_percent`` of
    the other families' glyphs (by a hash of the name) is validation."""
    mapped = [g for g in glyphs if g.label]
    unmapped = [g for g in glyphs if not g.label]
    test = [g for g in mapped if g.family == test_family]
    rest = [g for g in mapped if g.family != test_family]
    val = [g for g in rest if _bucket(f"{g.family}/{g.name}") < val_percent]
    train = [g for g in rest if _bucket(f"{g.family}/{g.name}") >= val_percent]
    other = [g for g in unmapped if g.family != test_family]
    return Splits(
        train=train,
        val=val,
        test=test,
        unknown_val=[g for g in other if _bucket(g.key) < 15],
        unknown_test=[g for g in unmapped if g.family == test_family],
    )


@functools.cache
def _font(path: Path, size: int) -> ImageFont.FreeTypeFont:
    try:
        return ImageFont.truetype(str(path), size)
    except OSError as exc:
        raise DataError(f"cannot open icon font {path}: {exc}") from exc


@functools.lru_cache(maxsize=40000)
def glyph_mask(glyph: Glyph) -> U8Array | None:
    """The glyph's coverage, cropped to its ink (at most ``MASK_SIZE`` px), or ``None``
    when the font draws nothing for it."""
    font = _font(glyph.font, MASK_SIZE)
    canvas = Image.new("L", (MASK_SIZE * 2, MASK_SIZE * 2), 0)
    ImageDraw.Draw(canvas).text(
        (MASK_SIZE, MASK_SIZE), glyph.char, fill=255, font=font, anchor="mm"
    )
    box = canvas.getbbox()
    if box is None or (box[2] - box[0]) * (box[3] - box[1]) < 9:
        return None
    mask = canvas.crop(box)
    scale = MASK_SIZE / max(mask.size)
    if scale < 1:
        mask = mask.resize(
            (max(1, round(mask.width * scale)), max(1, round(mask.height * scale))),
            Image.Resampling.LANCZOS,
        )
    return np.asarray(mask, dtype=np.uint8)


def _luminance(rgb: Rgb) -> float:
    r, g, b = (c / 255 for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _random_colour(rng: np.random.Generator) -> Rgb:
    r, g, b = (int(v) for v in rng.integers(0, 256, 3))
    return (r, g, b)


def _page_colour(rng: np.random.Generator) -> Rgb:
    roll = rng.random()
    if roll < 0.4:
        v = int(rng.integers(225, 256))
        return (v, v - int(rng.integers(0, 8)), v - int(rng.integers(0, 10)))
    if roll < 0.7:
        v = int(rng.integers(0, 60))
        return (v, v + int(rng.integers(0, 8)), v + int(rng.integers(0, 12)))
    return _random_colour(rng)


def _contrasting(rng: np.random.Generator, background: Rgb) -> Rgb:
    lum = _luminance(background)
    for _ in range(8):
        colour = _random_colour(rng) if rng.random() < 0.5 else _grey(rng, lum)
        if abs(_luminance(colour) - lum) > 0.35:
            return colour
    return (255, 255, 255) if lum < 0.5 else (0, 0, 0)


def _grey(rng: np.random.Generator, background_lum: float) -> Rgb:
    v = int(rng.integers(0, 90)) if background_lum > 0.5 else int(rng.integers(170, 256))
    return (v, v, v)


def render_crop(mask: U8Array, rng: np.random.Generator, size: int = 64) -> U8Array:
    """One crop of a glyph as a phone would show it, ``size`` x ``size`` RGB."""
    icon_px = rng.uniform(16, 48) * DPI / 160
    margin = rng.uniform(0.06, 0.55)
    aspect = float(np.exp(rng.uniform(-0.2, 0.2))) if rng.random() < 0.5 else 1.0
    crop = icon_px * (1 + 2 * margin)
    scale = min(1.0, 128 / crop)
    width = max(8, round(crop * scale * aspect))
    height = max(8, round(crop * scale))
    page = _page_colour(rng)
    canvas = Image.new("RGB", (width, height), page)
    background = _draw_button(canvas, rng, page)
    _paste_glyph(canvas, mask, rng, icon_px * scale, _contrasting(rng, background))
    if rng.random() < 0.3:
        canvas = canvas.filter(ImageFilter.GaussianBlur(float(rng.uniform(0.3, 1.0))))
    if rng.random() < 0.5:
        canvas = _jpeg(canvas, int(rng.integers(30, 92)))
    canvas = canvas.resize((size, size), Image.Resampling.BILINEAR)
    return np.asarray(canvas, dtype=np.uint8)


def _draw_button(canvas: Image.Image, rng: np.random.Generator, page: Rgb) -> Rgb:
    roll = rng.random()
    if roll > 0.45:
        return page
    colour = _random_colour(rng)
    w, h = canvas.size
    side = min(w, h) * rng.uniform(0.8, 1.02)
    x0, y0 = (w - side) / 2, (h - side) / 2
    box = (x0, y0, x0 + side, y0 + side)
    draw = ImageDraw.Draw(canvas)
    if roll < 0.25:
        draw.ellipse(box, fill=colour)
    else:
        draw.rounded_rectangle(box, radius=side * rng.uniform(0.1, 0.35), fill=colour)
    return colour


def _paste_glyph(
    canvas: Image.Image, mask: U8Array, rng: np.random.Generator, icon_px: float, colour: Rgb
) -> None:
    glyph = Image.fromarray(mask)
    longest = max(4.0, icon_px * rng.uniform(0.75, 1.0))
    factor = longest / max(glyph.size)
    new_size = (max(1, round(glyph.width * factor)), max(1, round(glyph.height * factor)))
    glyph = glyph.resize(new_size, Image.Resampling.LANCZOS)
    w, h = canvas.size
    dx, dy = rng.normal(0, 0.05, 2) * np.array([w, h])
    x = round((w - glyph.width) / 2 + dx)
    y = round((h - glyph.height) / 2 + dy)
    canvas.paste(Image.new("RGB", glyph.size, colour), (x, y), glyph)


def _jpeg(image: Image.Image, quality: int) -> Image.Image:
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=quality)
    buffer.seek(0)
    with Image.open(buffer) as decoded:
        return decoded.convert("RGB")


def drawable(glyphs: Iterable[Glyph]) -> list[Glyph]:
    """The glyphs the font actually draws (some glyph maps name empty code points)."""
    return [g for g in glyphs if glyph_mask(g) is not None]


def render_set(
    glyphs: Sequence[Glyph],
    *,
    per_glyph: int,
    seed: int,
    size: int = 64,
    vocab: Vocabulary | None = None,
) -> tuple[U8Array, npt.NDArray[np.int64]]:
    """``per_glyph`` crops of each glyph: images (N, size, size, 3) and label indices
    (-1 for unmapped glyphs)."""
    vocab = vocab or load_vocabulary()
    rng = np.random.default_rng(seed)
    images: list[U8Array] = []
    labels: list[int] = []
    for glyph in glyphs:
        mask = glyph_mask(glyph)
        if mask is None:
            continue
        for _ in range(per_glyph):
            images.append(render_crop(mask, rng, size))
            labels.append(vocab.index(glyph.label) if glyph.label else -1)
    if not images:
        return np.zeros((0, size, size, 3), np.uint8), np.zeros(0, np.int64)
    return np.stack(images), np.asarray(labels, dtype=np.int64)


def write_dataset(
    out: Path,
    *,
    families: Sequence[str] = ALL_FAMILIES,
    test_family: str = TEST_FAMILY,
    per_glyph: int = 2,
    size: int = 64,
    seed: int = 0,
    png: bool = True,
    limit: int | None = None,
) -> dict[str, object]:
    """Render train/val/test(/unknown) crops under ``out``: ``SPLIT.npz`` (images,
    labels, keys), PNGs in ``SPLIT/LABEL/`` when ``png``, and ``manifest.json``
    (label names, families, coverage, counts). ``limit`` caps the glyphs per split."""
    vocab = load_vocabulary()
    missing = [f for f in families if not family_available(f)]
    if missing:
        raise DataError(
            f"icon families not installed: {', '.join(missing)}",
            hint="`make setup` installs them (train extra), or pass --families",
        )
    glyphs = load_glyphs(families, vocab)
    splits = split_glyphs(glyphs, test_family=test_family)
    out.mkdir(parents=True, exist_ok=True)
    counts: dict[str, int] = {}
    for index, (name, subset) in enumerate(_named_splits(splits)):
        subset = drawable(subset)[:limit]
        images, labels = render_set(
            subset, per_glyph=per_glyph, seed=seed + index, size=size, vocab=vocab
        )
        keys = np.asarray([g.key for g in subset for _ in range(per_glyph)])
        np.savez_compressed(out / f"{name}.npz", images=images, labels=labels, keys=keys)
        if png:
            _write_pngs(out / name, images, labels, keys, vocab)
        counts[name] = len(labels)
    manifest: dict[str, object] = {
        "labels": vocab.names,
        "families": list(families),
        "test_family": test_family,
        "image_size": size,
        "per_glyph": per_glyph,
        "seed": seed,
        "counts": counts,
        "coverage": coverage(glyphs, vocab),
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return manifest


def _named_splits(splits: Splits) -> list[tuple[str, list[Glyph]]]:
    return [
        ("train", splits.train),
        ("val", splits.val),
        ("test", splits.test),
        ("unknown_val", splits.unknown_val),
        ("unknown_test", splits.unknown_test),
    ]


def _write_pngs(
    folder: Path,
    images: U8Array,
    labels: npt.NDArray[np.int64],
    keys: npt.NDArray[np.str_],
    vocab: Vocabulary,
) -> None:
    for i, (image, label, key) in enumerate(zip(images, labels, keys, strict=True)):
        name = vocab.names[label] if label >= 0 else "unknown"
        target = folder / name
        target.mkdir(parents=True, exist_ok=True)
        stem = str(key).replace("/", "__")
        Image.fromarray(image).save(target / f"{stem}__{i}.png")


@dataclass(frozen=True)
class RealCrop:
    """An icon cut from a real screenshot, with its content description and label."""

    image: Image.Image
    description: str
    label: str
    source: str
    view_class: str


@dataclass
class RealCropReport:
    """What ``droidbot_icon_crops`` found, kept and dropped."""

    crops: list[RealCrop]
    nodes: int = 0
    unmapped: dict[str, int] | None = None
    screens: int = 0
    screens_without_state: int = 0

    def summary(self) -> dict[str, object]:
        """Counts for a report: nodes with a description, mapped, unmapped descriptions."""
        return {
            "screens": self.screens,
            "screens_without_state": self.screens_without_state,
            "icon_nodes_with_description": self.nodes,
            "mapped": len(self.crops),
            "mapped_descriptions": sorted({c.description for c in self.crops}),
            "unmapped_descriptions": self.unmapped or {},
        }


_ICON_CLASSES = ("ImageButton", "ImageView")


def droidbot_icon_crops(
    root: Path, *, vocab: Vocabulary | None = None, max_screen_fraction: float = 0.05
) -> RealCropReport:
    """Crops of visible ImageButton/ImageView nodes with a content description in
    DroidBot logs under ``root`` (``screen_T.jpg|png`` + ``state_T.json``).

    Kept: visible, non-empty box inside the screen, at least 8 px a side, at most
    ``max_screen_fraction`` of the screen (icons, not pictures), a description the
    vocabulary maps. Boxes are scaled when the screenshot size differs from the
    hierarchy's.
    """
    vocab = vocab or load_vocabulary()
    if not root.is_dir():
        raise DataError(f"DroidBot folder {root} does not exist")
    report = RealCropReport(crops=[], unmapped={})
    for screen in sorted(root.rglob("screen_*")):
        state = screen.with_name("state_" + screen.stem.removeprefix("screen_") + ".json")
        report.screens += 1
        if not state.is_file():
            report.screens_without_state += 1
            continue
        _crops_of_screen(screen, state, vocab, max_screen_fraction, report)
    return report


def _crops_of_screen(
    screen: Path, state: Path, vocab: Vocabulary, max_fraction: float, report: RealCropReport
) -> None:
    try:
        doc = json.loads(state.read_text(encoding="utf-8"))
        with Image.open(screen) as opened:
            image = opened.convert("RGB")
    except (OSError, ValueError) as exc:
        raise DataError(f"cannot read {screen} / {state}: {exc}") from exc
    sx = image.width / float(doc.get("width") or image.width)
    sy = image.height / float(doc.get("height") or image.height)
    for view in doc.get("views", []):
        box = _icon_box(view, sx, sy, image.size, max_fraction)
        if box is None:
            continue
        description = str(view["content_description"]).strip()
        report.nodes += 1
        label = vocab.map_description(description)
        if label is None:
            assert report.unmapped is not None
            report.unmapped[description] = report.unmapped.get(description, 0) + 1
            continue
        report.crops.append(
            RealCrop(
                image=image.crop(box),
                description=description,
                label=label,
                source=screen.name,
                view_class=str(view.get("class", "")).rsplit(".", 1)[-1],
            )
        )


def _icon_box(
    view: dict[str, object], sx: float, sy: float, size: tuple[int, int], max_fraction: float
) -> tuple[int, int, int, int] | None:
    cls = str(view.get("class") or "")
    if not cls.endswith(_ICON_CLASSES) or not view.get("visible", True):
        return None
    if not str(view.get("content_description") or "").strip():
        return None
    try:
        bounds: Any = view["bounds"]
        x1, y1, x2, y2 = (float(v) for v in (*bounds[0], *bounds[1]))
    except (KeyError, TypeError, ValueError, IndexError):
        return None
    box = (
        max(0, round(x1 * sx)),
        max(0, round(y1 * sy)),
        min(size[0], round(x2 * sx)),
        min(size[1], round(y2 * sy)),
    )
    w, h = box[2] - box[0], box[3] - box[1]
    if min(w, h) < 8 or w * h > max_fraction * size[0] * size[1]:
        return None
    return box
