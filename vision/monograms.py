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
an icon or an image that leads a row as an avatar does), :func:`drop_glyph_reads`
leaves out the read: one character that is a Latin letter or a symbol (not a digit,
which a badge's count is, nor a CJK character, which may be a label drawn in a
square), its centre on the widget, its box covering at least ``COVERS`` of the
widget's (the read is the drawing itself, not a letter inside a larger picture). A
symbol that is no letter ("←", "☆") centred on such a picture goes however little of it
it covers: a toolbar's back arrow read at the smaller scale of a wide screen. A
round button's "A" with its name "Automatic" under it leads no row and stays its text.

A toolbar's back arrow is a button, not an icon, and is read now and then as "K" (the
int8 text detector's line over it, read at 0.92). A button that leads a row whose
text is a title (at least ``TITLE_CHARS`` characters: a toolbar's "Settings") loses a
one-character read centred on it (within ``CENTRED`` of its side), however little of it
the read covers; a keyboard's key leads only another key's letter and keeps its own.

A floating action button's "+" is read now and then as "X" or "+" (one line over its
glyph, found or not as the detector sees the rest of the screen): a button or an icon
that is about square (sides within ``SQUARE``) with no other text within one of its
sides loses such a read centred on it, and the icon labeller names it. A key among keys
and a mode button with its name under it have texts near them and keep theirs.

Where the detector found no button there, the read hides the arrow from the search
for icons the detector missed (which looks where no text is): :func:`title_glyphs`
names such reads (one character leading a title within ``TITLE_GAP`` of its sides), the
pipeline lets that search look under them, and :func:`settle_title_glyphs` leaves out
a read whose centre lies on an icon found there (else the read stays, and an icon
overlapping it goes).

Where the detector found nothing, a cross, a plus or a "C" with an arrowhead read alone
(no other text within one of its sides: NewPipe's mini player's close read "X", its
feed's refresh glyph read "C"; a contact list's letter "C" has no arrowhead) is a glyph
it missed: :func:`lone_marks` makes it an icon, which the glyph rules or the icon model
name.

A picture the detector missed is now and then read as one character: TrackerControl's
drawing of a laptop as "回", a logo's "W". No line of text on a phone is one letter or
sign ``BIG_GLYPH`` dp tall or more (a clock's or a calculator's digits may be), so
:func:`pictured_reads` makes such a read a picture, where no widget already covers it.

    >>> texts = drop_monograms(texts, pictures)   # doctest: +SKIP
    >>> texts = drop_glyph_reads(texts, drawn)   # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.answers import has_arrowhead
from screenpilot.vision.checkboxes import check_mark
from screenpilot.vision.chevrons import READS as CHEVRON_READS
from screenpilot.vision.chevrons import chevron_label
from screenpilot.vision.image import RGB, glyph_ink
from screenpilot.vision.overflow import READS as DOTS_READS
from screenpilot.vision.overflow import is_dots_glyph
from screenpilot.vision.radios import ring_only

#: Initials: at most this many letters.
MAX_LETTERS = 2
#: The letters' centre is within this share of the picture's side from its centre.
CENTRED = 0.2
#: An avatar's sides differ by at most this factor.
SQUARE = 1.25
#: A cross or plus read alone (:func:`lone_marks`), or a "C" with an arrowhead (round
#: arrows), its box's sides within this factor.
MARKS = frozenset({"X", "x", "×", "✕", "✖", "+", "﹢"})
ROUND_READS = frozenset({"C", "c"})
#: What a tick read alone may be read as (LoopHabits' ticks read "L"); the icon model
#: must then say ``check`` (``vision.glyphrules.LETTER_GLYPHS``) or it is a text again.
TICK_READS = frozenset({"L", "V", "v", "J", "√", "✓", "✔"})
#: A tick is one stroke: other ink may hold at most this share of the box's ink.
TICK_OTHER_INK = 0.1
SQUARE_MARK = 1.6
#: A drawing's read covers at least this share of the widget's box.
COVERS = 0.5
#: Widgets that lose a one-character read centred on them when no other text is near:
#: a floating action button's "+" read as "X" or "+".
LONE_KINDS = (ElementKind.BUTTON, ElementKind.ICON)
#: One sign that is not a letter or a digit ("←", "•") centred on one of these is its
#: drawing read (a toolbar's back arrow with no title beside it); a button's stays (a
#: habit's "●" day is its state).
PICTURE_KINDS = (ElementKind.ICON, ElementKind.IMAGE)
#: What OCR reads a radio button's ring as.
RING_READS = frozenset("OoQ0○◯◎◉●⊙")
#: A button leads a title: a text of at least this many characters right of it.
TITLE_CHARS = 3
#: One character (no digit) read at least this many dp tall is a picture (headings are
#: under 40 dp; the drawings read so were 58 and 102 dp).
BIG_GLYPH = 48
#: ... unless a widget covers this share of it (the read is part of that picture).
PART = 0.25
#: A read leads a title starting within this many of its sides right of it (a
#: toolbar's back arrow and its title: 1.3 arrow widths apart).
TITLE_GAP = 2.0


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


def _leads_row(picture: Box, texts: Sequence[Element], chars: int = 1, gap: float = 1.0) -> bool:
    """Whether a text (of at least ``chars`` characters) starts right of ``picture``, on
    its row, within ``gap`` of its sides."""
    side = min(picture.width, picture.height)
    return any(
        0 <= t.box.x1 - picture.x2 <= gap * side
        and min(t.box.y2, picture.y2) - max(t.box.y1, picture.y1) >= 0.5 * t.box.height
        and len((t.text or "").strip()) >= chars
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


def _one_glyph(text: Element) -> bool:
    """One character that a drawing may be read as: a Latin letter or a symbol."""
    t = (text.text or "").strip()
    return len(t) == 1 and not t.isdigit() and (t.isascii() or not t.isalpha())


def _glyph_read(text: Element, drawn: Box) -> bool:
    return (
        _one_glyph(text)
        and drawn.contains(*text.box.center)
        and text.box.intersection(drawn) >= COVERS * drawn.area
    )


def _lone(widget: Box, texts: Sequence[Element]) -> bool:
    """Whether ``widget`` is about square and no text but one read on it lies within one
    of its sides (a floating action button; not a key among keys, nor a mode button
    with its name under it)."""
    side = min(widget.width, widget.height)
    if not side or max(widget.width, widget.height) > SQUARE * side:
        return False
    near = Box(widget.x1 - side, widget.y1 - side, widget.x2 + side, widget.y2 + side)
    return not any(
        near.intersection(t.box) > 0 and not widget.contains(*t.box.center) for t in texts
    )


def pictured_reads(
    texts: Sequence[Element], widgets: Sequence[Element], dp: float
) -> tuple[list[Element], list[Element]]:
    """(``texts``, pictures): a read of one character (no digit) ``BIG_GLYPH`` dp tall or
    more is a drawing, an image element with the read's box, unless a widget of
    ``widgets`` already lies on its centre or covers ``PART`` of it (a video thumbnail's
    lettering, the read's right end out of the picture's box): then it is left out."""
    kept: list[Element] = []
    pictures: list[Element] = []
    for t in texts:
        word = (t.text or "").strip()
        if len(word) != 1 or word.isdigit() or t.box.height < BIG_GLYPH * dp:
            kept.append(t)
        elif not any(
            w.box.contains(*t.box.center) or w.box.intersection(t.box) >= PART * t.box.area
            for w in widgets
        ):
            pictures.append(Element(0, ElementKind.IMAGE, t.box, confidence=t.confidence))
    return kept, pictures


def lone_marks(
    pixels: RGB, texts: Sequence[Element], widgets: Sequence[Element]
) -> tuple[list[Element], list[Element]]:
    """(``texts``, icons): a read of one cross or plus sign (:data:`MARKS`), a "C"
    whose ink has an arrowhead (``vision.answers.has_arrowhead``), or an "L" or "V"
    whose ink is a tick (:func:`is_tick`: LoopHabits' ticks), with no widget of
    ``widgets`` on its centre and no other text within one of its sides, is a glyph the
    detector missed: an icon with the read's box and text; so is a "V", ">" or "L" whose
    ink is a chevron (``vision.chevrons``: NewPipe's expand button beside a video's
    title, read "V"; MaterialFiles' breadcrumb chevron between two folders' names, read
    "L"), texts beside it or not, and so is a "…" whose ink is three dots in a line
    (``vision.overflow``: Markor's editor bar's "⋯", its box as wide as it is). The
    glyph rules then name a thin "×" ``close`` (NewPipe's mini player's close was a
    text "X"), a chevron and the dots, the icon model a refresh glyph read "C" or a
    tick (a text again where the model sees no round arrows or no check:
    ``vision.glyphrules.LETTER_GLYPHS``)."""
    kept: list[Element] = []
    icons: list[Element] = []
    for t in texts:
        word = (t.text or "").strip()
        # a chevron's shape is its own evidence: a breadcrumb's ">" between two folders
        chevron = word in CHEVRON_READS and bool(word) and bool(chevron_label(pixels, t.box))
        dots = word in DOTS_READS and bool(word) and is_dots_glyph(pixels, t.box)
        lone = (
            (
                chevron
                or dots
                or word in MARKS
                or (word in ROUND_READS and has_arrowhead(pixels, t.box))
                or (word in TICK_READS and is_tick(pixels, t.box))
            )
            and (
                dots  # three dots in a row make a wide box
                or max(t.box.width, t.box.height) <= SQUARE_MARK * min(t.box.width, t.box.height)
            )
            and not any(w.box.contains(*t.box.center) for w in widgets)
            and (chevron or not any(o is not t and _near(o.box, t.box) for o in texts))
        )
        if lone:
            icons.append(
                Element(
                    0, ElementKind.ICON, t.box, text=word, clickable=True, confidence=t.confidence
                )
            )
        else:
            kept.append(t)
    return kept, icons


def is_tick(pixels: RGB, box: Box) -> bool:
    """Whether the ink of ``box`` is one tick (``vision.checkboxes.check_mark``: its long
    stroke reaches the top right and its top left stays empty, as no "L" or "V" of a
    font leaves it)."""
    stroke = glyph_ink(pixels, box).alone(TICK_OTHER_INK)
    return stroke is not None and stroke.size > 0 and check_mark(stroke)


def _near(other: Box, box: Box) -> bool:
    """Whether ``other`` lies within one of ``box``'s sides of it, across and down."""
    side = max(box.width, box.height)
    gap_x = max(other.x1, box.x1) - min(other.x2, box.x2)
    gap_y = max(other.y1, box.y1) - min(other.y2, box.y2)
    return gap_x <= side and gap_y <= side


def _centred_read(text: Element, button: Box) -> bool:
    side = min(button.width, button.height)
    (tx, ty), (bx, by) = text.box.center, button.center
    return (
        _one_glyph(text)
        and abs(tx - bx) <= CENTRED * side
        and abs(ty - by) <= CENTRED * side
        and text.box.intersection(button) >= 0.9 * text.box.area
    )


def drop_glyph_reads(texts: Sequence[Element], drawn: Sequence[Element]) -> list[Element]:
    """``texts`` without a widget's drawing read as one character (see the module
    docstring): a check box's or a switch's, a picture's that leads a row, a button's
    that leads a title, a radio option's ring read as "O", or a sign centred on an
    icon or image."""
    options = [d.box for d in drawn if d.kind is ElementKind.RADIO_GROUP]
    boxes = [
        d.box
        for d in drawn
        if d.kind in (ElementKind.CHECK_BOX, ElementKind.SWITCH)
        or (d.kind is ElementKind.RADIO_GROUP and ring_only(d.box))
        or (
            d.kind not in (ElementKind.BUTTON, ElementKind.RADIO_GROUP) and _leads_row(d.box, texts)
        )
    ]
    buttons = [
        d.box
        for d in drawn
        if (d.kind is ElementKind.BUTTON and _leads_row(d.box, texts, TITLE_CHARS))
        or (d.kind in LONE_KINDS and _lone(d.box, texts))
    ]
    pictures = [d.box for d in drawn if d.kind in PICTURE_KINDS]
    return [
        t
        for t in texts
        if not any(_glyph_read(t, b) or (is_symbol(t.text) and _centred_read(t, b)) for b in boxes)
        and not any(_centred_read(t, b) for b in buttons)
        and not any(_ring_read(t, o) for o in options)
        and not (is_symbol(t.text) and any(_centred_read(t, p) for p in pictures))
    ]


def _ring_read(text: Element, option: Box) -> bool:
    """Whether ``text`` is a radio option's ring read as a letter ("O"): one ring-shaped
    character, about square, at one end of the option's box."""
    t, box = text.text.strip(), text.box
    if len(t) != 1 or t not in RING_READS or not option.contains(*box.center):
        return False
    if max(box.width, box.height) > SQUARE * min(box.width, box.height):
        return False
    return box.x1 - option.x1 < box.height or option.x2 - box.x2 < box.height


def is_symbol(text: str) -> bool:
    """One character that is not a letter or a digit ("←", "☆", "●"): centred on a
    picture that leads a row it is the picture read, however little of it it covers
    (a toolbar's back arrow read at a small scale, on a wide screen); on a seek bar, its
    knob (:func:`screenpilot.vision.sliders.is_knob_read`)."""
    t = (text or "").strip()
    return len(t) == 1 and not t.isalnum()


def title_glyphs(texts: Sequence[Element]) -> list[Element]:
    """The one-character reads of ``texts`` (a Latin letter or a symbol) that lead a
    title (see the module docstring): an arrow read as "K" beside a toolbar's title."""
    return [t for t in texts if _one_glyph(t) and _leads_row(t.box, texts, TITLE_CHARS, TITLE_GAP)]


def settle_title_glyphs(
    texts: Sequence[Element], glyphs: Sequence[Element], icons: Sequence[Element]
) -> tuple[list[Element], list[Element]]:
    """(``texts``, ``icons``): a read of ``glyphs`` whose centre lies on one of ``icons``
    is left out of the texts (the icon was read as a letter); an icon overlapping a read
    of ``glyphs`` that stays is left out of the icons (the letter was found as an icon)."""
    drop = [g for g in glyphs if any(i.box.contains(*g.box.center) for i in icons)]
    kept = [g.box for g in glyphs if g not in drop]
    return (
        [t for t in texts if t not in drop],
        [i for i in icons if not any(k.intersection(i.box) > 0.1 * i.box.area for k in kept)],
    )
