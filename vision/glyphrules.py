"""Icons named by their drawing, before the icon model: glyphs whose shape is fixed.

The icon model reads a 32 px crop and misses glyphs made of a few thin strokes or
dots: the navigation drawer's three bars and the sort and filter glyphs' three bars of
falling lengths (:mod:`vision.hamburger`), the overflow
menu's three dots (:mod:`vision.overflow`), thin crosses (:mod:`vision.crosses`) and
chevrons (:mod:`vision.chevrons`); the navigation bar's back, home and recents keys
(:mod:`vision.navkeys`); and two filled glyphs it never learnt, the Wi-Fi fan and the
mobile signal's triangle (:mod:`vision.signals`, on a picture with no text); and a
media player's play, pause, skip and fast-forward glyphs and a drop-down's solid arrow
(:mod:`vision.transport`, on a picture with no text).
Each picture (an image, icon or button) with no label yet, and no text but what OCR
makes of such a glyph ("三", ":", "v", ">"), of a button's size at most, is looked at
as drawn (a button also as the icon model would see it,
:func:`vision.discs.glyph_crop`); one that is such a glyph is labelled by it, and the
read goes. The model then labels the rest. About 3 ms a screen.

    >>> elements = name_drawn_glyphs(pixels, elements)   # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
import unicodedata
from collections.abc import Sequence

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision import chevrons, crosses, hamburger, overflow, signals, transport
from screenpilot.vision.blocks import dp_size
from screenpilot.vision.density import short_side
from screenpilot.vision.discs import glyph_crop
from screenpilot.vision.group import PICTURES
from screenpilot.vision.image import RGB, glyph_ink
from screenpilot.vision.navkeys import name_nav_keys

#: A glyph's button is at most this share of the screen's short side each way (a
#: toolbar's 56 dp button is 14 % of a 411 dp phone).
MAX_SIDE = 0.2
#: What OCR may make of a glyph these rules name (the picture keeps any other text).
READS = hamburger.READS | chevrons.READS | overflow.READS | crosses.READS
#: OCR's reads of a glyph for a cross ("×" drawn, "+" turned) besides its signs.
CROSS_READS = frozenset({"X", "x"})
#: Letters OCR makes of a glyph, and the icon model's labels each gives way to on a
#: picture: a check mark (LoopHabits' "✓" read "L"), round arrows (NewPipe's refresh
#: read "C"); with any other label the letter stays a letter.
CHECK = "check"
ROUND_ARROWS = frozenset({"refresh", "replay", "history", "rotate", "undo", "redo", "repeat"})
LETTER_GLYPHS: dict[str, frozenset[str]] = {
    **dict.fromkeys(("L", "V", "v", "J"), frozenset({CHECK})),
    **dict.fromkeys(("C", "c"), ROUND_ARROWS),
}
#: Dots a "more" glyph reads as ("• •", "⋮", "...").
DOTS = frozenset("•·.:…⋮")
#: A text that starts within this many of a triangle's heights right of it, on its
#: line, makes the triangle a legend's or a bullet's mark ("▼ 73 B/s" in NetGuard's
#: traffic notification), not a drop-down's arrow, which ends its label.
FOLLOWS = 1.5


def glyph_read(text: str) -> bool:
    """Whether ``text``, all a picture holds, is what OCR makes of a glyph rather than a
    word: one sign that is neither a letter nor a digit ("☆", "+", "←", "≡"), "三",
    a cross's "X", dots alone ("• •"), or one Latin letter with a mark on it, which no
    button is labelled with (ActivityDiary's floating camera button read "à"). Such a
    picture goes to the icon model, and its read gives way to the model's label when the
    model is sure (a floating "+" read "X" is ``add``); a word, a number or a "<>" stays
    as read."""
    sign = text.replace(" ", "")
    if not sign:
        return False
    if sign in CROSS_READS or sign in hamburger.READS or set(sign) <= DOTS:
        return True
    return len(sign) == 1 and (not sign.isalnum() or _accented(sign))


def _accented(sign: str) -> bool:
    """Whether ``sign`` is a Latin letter with a mark on it ("à", "é", "ü")."""
    parts = unicodedata.normalize("NFD", sign)
    return len(parts) > 1 and parts[0].isascii() and parts[0].isalpha()


def name_drawn_glyphs(pixels: RGB, elements: Sequence[Element]) -> list[Element]:
    """``elements`` with each unlabelled picture that is the drawer's three bars labelled
    ``menu``, each that is three dots ``more_options``, a thin "×" ``close`` or "+"
    ``add``, the Wi-Fi fan ``wifi`` and the mobile signal's triangle ``signal``, a
    player's ``play``, ``pause``, ``skip_next``, ``skip_previous``, ``fast_forward`` and
    ``fast_rewind``, a drop-down's solid arrow ``expand`` (``collapse`` pointing up), and
    each that is a chevron
    ``expand``, ``collapse``, ``next`` or ``previous`` (its read, if any, dropped). A
    button is looked at as drawn and, where that finds nothing, as the icon model sees
    it (:func:`vision.discs.glyph_crop`). The navigation bar's keys are named first
    (:func:`vision.navkeys.name_nav_keys`)."""
    elements = name_nav_keys(pixels, elements)
    out = list(elements)
    largest = MAX_SIDE * short_side(pixels.shape[1], pixels.shape[0])
    for i, e in enumerate(elements):
        if e.icon_label or e.kind not in PICTURES or e.text not in READS:
            continue
        if max(e.box.width, e.box.height) > largest:
            continue  # a photo or a card, not a glyph's button
        followed = not e.text and _text_follows(e.box, elements)  # only a bare arrow
        label = _drawn_label(pixels, e.box, e.text, followed)
        if not label and e.kind is ElementKind.BUTTON:
            inner = glyph_crop(pixels, e.box)  # a button's plain fill round its glyph
            label = _drawn_label(pixels, inner, e.text, followed) if inner != e.box else ""
        if label:
            out[i] = dataclasses.replace(e, text="", icon_label=label)
    return out


def _text_follows(box: Box, elements: Sequence[Element]) -> bool:
    """Whether a text element starts at most :data:`FOLLOWS` of ``box``'s height right
    of it, across ``box``'s middle row."""
    middle = box.center[1]
    reach = box.x2 + FOLLOWS * box.height
    return any(
        e.kind is ElementKind.TEXT
        and e.box.y1 <= middle <= e.box.y2
        and box.x2 <= e.box.x1 <= reach
        for e in elements
    )


def _drawn_label(pixels: RGB, box: Box, text: str, followed: bool = False) -> str:
    """The label the glyph rules give ``box`` on ``pixels`` (read as ``text``), or "":
    its ink is found once (:func:`vision.image.glyph_ink`) and read by each rule. A
    drop-down's arrow is not looked for where a text follows it (``followed``)."""
    parts = glyph_ink(pixels, box)
    if text in hamburger.READS and hamburger.menu_in(parts, box):
        return hamburger.LABEL
    if text in hamburger.READS and (label := hamburger.sort_in(parts, box)):
        return label
    if text in overflow.READS and overflow.dots_in(parts, box):
        return overflow.LABEL
    if text in crosses.READS and (label := crosses.cross_in(parts, box)):
        return label
    if not text and (label := signals.signal_in(parts, signals.largest_glyph(pixels))):
        return label
    dp = dp_size(pixels.shape[1], pixels.shape[0])
    if not text and (label := signals.slashed_in(parts, signals.largest_glyph(pixels), dp)):
        return label
    if not text and (label := transport.transport_in(parts, transport.largest_glyph(pixels))):
        return label
    if not text and not followed and (label := transport.drop_down_in(parts, dp)):
        return label
    if text in chevrons.READS:
        return chevrons.chevron_in(parts, box)
    return ""
