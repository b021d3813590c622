"""Icon glyphs from pip-installed icon fonts (nothing is downloaded), each with its
vocabulary label (``None`` when the glyph name maps to none): the families, where their
fonts and glyph maps are, and the vocabulary coverage per family.
"""

from __future__ import annotations

import functools
import importlib.util
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from screenpilot.core import fonts
from screenpilot.errors import DataError
from screenpilot.vision.icon_vocab import Vocabulary, load_vocabulary

TEST_FAMILY = "gmi"
ALL_FAMILIES = (
    "mdi",
    "gmi",
    "fa",
    "bs",
    "lucide",
    "remix",
    "fluent",
    "ion",
    "eva",
    "phosphor",
    "codicon",
    "elusive",
)

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
    # the fonts qtawesome ships (read as files: Qt is never imported)
    "phosphor": (
        "qtawesome",
        [("fonts/phosphor-1.3.0.ttf", "fonts/phosphor-charmap-1.3.0.json", "")],
    ),
    "codicon": (
        "qtawesome",
        [("fonts/codicon-0.0.36.ttf", "fonts/codicon-charmap-0.0.36.json", "")],
    ),
    "elusive": (
        "qtawesome",
        [("fonts/elusiveicons-webfont-2.0.ttf", "fonts/elusiveicons-webfont-charmap-2.0.json", "")],
    ),
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
