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

Modules: ``glyphs`` (families, fonts, labels), ``splits`` (roles of glyphs), ``render``
(crops), ``write`` (the ``dataset icons`` output) and ``droidbot`` (real crops from
DroidBot logs).
"""

from screenpilot.datasets.icons.droidbot import RealCrop, RealCropReport, droidbot_icon_crops
from screenpilot.datasets.icons.glyphs import (
    ALL_FAMILIES,
    TEST_FAMILY,
    Glyph,
    coverage,
    family_available,
    load_glyphs,
)
from screenpilot.datasets.icons.render import (
    DPI,
    MASK_SIZE,
    Rgb,
    U8Array,
    drawable,
    glyph_mask,
    render_crop,
    render_set,
)
from screenpilot.datasets.icons.splits import Splits, split_glyphs
from screenpilot.datasets.icons.write import write_dataset

__all__ = [
    "ALL_FAMILIES",
    "DPI",
    "MASK_SIZE",
    "TEST_FAMILY",
    "Glyph",
    "RealCrop",
    "RealCropReport",
    "Rgb",
    "Splits",
    "U8Array",
    "coverage",
    "drawable",
    "droidbot_icon_crops",
    "family_available",
    "glyph_mask",
    "load_glyphs",
    "render_crop",
    "render_set",
    "split_glyphs",
    "write_dataset",
]
