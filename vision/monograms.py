"""Letters that are a picture's own, not texts to read: an avatar's initials, an icon
read as a letter.

A contact's or an account's avatar is often a square or round picture with one or
two letters centred in it ("C" for Carmen Diaz). The picture is named by the row
beside it (:mod:`screenpilot.vision.targets` gives a row's leading picture the row's
title as its caption), and the letters name nothing more; kept as a text of their
own, they stand between the picture and its row and the picture loses its name.
Whether the text detector finds such letters at all is chance (rapidocr's float
detector mostly does not, its int8 copy mostly does), so :func:`drop_monograms`
leaves them out: one or two capital letters (no digits: a calendar's selected day is a
number in a disc, and is tapped; no CJK character, which has no case and may be a
label drawn in a square, as Weibo's "评") whose centre lies within ``CENTRED`` of the
picture's side from the centre of an about square picture (sides within ``SQUARE``)
that leads a row: a text starts right of it, on its row, within one side of it. A
letter on a picture with its name under it (a mode button's "A" over "Automatic") stays.

An icon beside a row's title (a settings row's airplane or battery glyph) is now and
then read as one character ("X", "%") at a score near OCR's threshold, by one text
detector and not the other, and so is a check box ("□"). Where the detector found
such a widget there (:data:`screenpilot.vision.pipeline.DRAWN`: a check box, a switch,
or an icon or an image that leads a row as an avatar does), :func:`drop_glyph_reads`
leaves out the read: one character
that is a Latin letter or a symbol (not a digit, which a badge's count is, nor a CJK
character, which may be a label drawn in a square), its centre on the widget, its box
covering at least ``COVERS`` of the widget's (the read is the drawing itself, not a
letter inside a larger picture). A round button's "A" with its name "Automatic" under
it leads no row and stays its text.

    >>> texts = drop_monograms(texts, pictures)   # doctest: +SKIP
    >>> texts = drop_glyph_reads(texts, drawn)   # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence

from screenpilot.model import Box, Element, ElementKind

#: Initials: at most this many letters.
MAX_LETTERS = 2
#: The letters' centre is within this share of the picture's side from its centre.
CENTRED = 0.2
#: An avatar's sides differ by at most this factor.
SQUARE = 1.25
#: A drawing's read covers at least this share of the widget's box.
COVERS = 0.5


def _initials(text: str) -> bool:
    t = text.strip()
    return 0 < len(t) <= MAX_LETTERS and t.isalpha() and t.isupper()


def _on_avatar(text: Box, picture: Box) -> bool:
    side = min(picture.width, picture.height)
    if not side or max(picture.width, picture.height) > SQUARE * side:
        return False
    (tx, ty), (px, py) = text.center, picture.center
    return (
        abs(tx - px) <= CENTRED * side
        and abs(ty - py) <= CENTRED * side
        and text.width <= picture.width
        and text.height <= picture.height
    )


def _leads_row(picture: Box, texts: Sequence[Element]) -> bool:
    """Whether a text starts right of ``picture``, on its row, within one side of it."""
    side = min(picture.width, picture.height)
    return any(
        0 <= t.box.x1 - picture.x2 <= side
        and min(t.box.y2, picture.y2) - max(t.box.y1, picture.y1) >= 0.5 * t.box.height
        for t in texts
    )


def drop_monograms(texts: Sequence[Element], pictures: Sequence[Element]) -> list[Element]:
    """``texts`` without an avatar's initials (see the module docstring)."""
    avatars = [p.box for p in pictures if _leads_row(p.box, texts)]
    return [
        t
        for t in texts
        if not (_initials(t.text or "") and any(_on_avatar(t.box, a) for a in avatars))
    ]


def _glyph_read(text: Element, drawn: Box) -> bool:
    t = (text.text or "").strip()
    return (
        len(t) == 1
        and not t.isdigit()
        and (t.isascii() or not t.isalpha())
        and drawn.contains(*text.box.center)
        and text.box.intersection(drawn) >= COVERS * drawn.area
    )


def drop_glyph_reads(texts: Sequence[Element], drawn: Sequence[Element]) -> list[Element]:
    """``texts`` without a widget's drawing read as one character (see the module
    docstring): a check box's or a switch's, or a picture's that leads a row."""
    boxes = [
        d.box
        for d in drawn
        if d.kind in (ElementKind.CHECK_BOX, ElementKind.SWITCH) or _leads_row(d.box, texts)
    ]
    return [t for t in texts if not any(_glyph_read(t, b) for b in boxes)]
