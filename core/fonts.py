"""Fonts and icon glyphs that ship in pip packages (nothing is downloaded).

- ``text_font()``: Roboto (variable) or Noto Sans for Latin text,
- ``cjk_font()``: Noto Sans CJK for Chinese,
- ``mdi_font()`` + ``mdi_codepoints()``: Material Design Icons 7 (~7000 named glyphs).
"""

from __future__ import annotations

import functools
import importlib.util
import re
from pathlib import Path

from screenpilot.errors import DataError


def _package_dir(module: str) -> Path:
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise DataError(
            f"font package '{module}' is not installed",
            hint="run `make setup` (or pip install screenpilot's dependencies)",
        )
    return Path(next(iter(spec.submodule_search_locations)))


def _font_file(module: str, relative: str) -> Path:
    path = _package_dir(module) / relative
    if not path.is_file():
        raise DataError(f"font file {path} is missing", hint="reinstall the font package")
    return path


@functools.cache
def text_font(family: str = "roboto") -> Path:
    """A Latin text font: ``roboto`` (default) or ``noto``."""
    if family == "roboto":
        return _font_file("fontpkg_roboto", "files/Roboto[wdth,wght].ttf")
    if family == "noto":
        return _font_file("fontpkg_noto_sans", "files/NotoSans[wdth,wght].ttf")
    raise DataError(f"unknown text font family {family!r}", hint="use 'roboto' or 'noto'")


@functools.cache
def cjk_font() -> Path:
    """Noto Sans CJK (traditional-Chinese cut, covers simplified too)."""
    return _font_file("cvttf_NotoSansCJK_Regular", "NotoSansCJKtc-Regular.otf")


@functools.cache
def mdi_font() -> Path:
    """The Material Design Icons 7 webfont."""
    return _font_file("fonticon_mdi7", "fonts/materialdesignicons-webfont.ttf")


@functools.cache
def mdi_codepoints() -> dict[str, str]:
    """Icon name (``wifi``, ``arrow_left``...) -> the glyph's character in ``mdi_font()``."""
    source = (_package_dir("fonticon_mdi7") / "mdi7.py").read_text(encoding="utf-8")
    pairs = re.findall(r'^\s+(\w+) = "\\U([0-9a-fA-F]{8})"', source, flags=re.M)
    return {name: chr(int(code, 16)) for name, code in pairs}
