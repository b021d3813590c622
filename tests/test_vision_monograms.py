"""vision/monograms.py: an avatar's initials are the picture's, not a text."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from screenpilot.core.fonts import text_font
from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.monograms import BIG_GLYPH, drop_monograms, lone_marks, pictured_reads

AVATAR = Element(1, ElementKind.IMAGE, Box(42, 388, 147, 494))


def _text(text: str, box: Box) -> Element:
    return Element(0, ElementKind.TEXT, box, text=text)


def test_initials_centred_on_an_avatar_are_dropped_and_the_name_beside_it_stays() -> None:
    initial = _text("C", Box(72, 415, 116, 464))
    name = _text("Carmen Diaz", Box(182, 415, 434, 461))
    assert drop_monograms([initial, name], [AVATAR]) == [name]
    assert drop_monograms([_text("CD", Box(66, 415, 122, 464)), name], [AVATAR]) == [name]


def test_numbers_words_and_letters_off_centre_stay() -> None:
    day = _text("12", Box(72, 415, 116, 464))  # a calendar's selected day in a disc
    word = _text("Call", Box(50, 415, 140, 464))
    corner = _text("C", Box(44, 390, 60, 410))  # a badge in the picture's corner
    texts = [day, word, corner]
    assert drop_monograms(texts, [AVATAR]) == texts


def test_a_wide_picture_is_no_avatar() -> None:
    banner = Element(1, ElementKind.IMAGE, Box(0, 388, 600, 494))
    letter = _text("C", Box(278, 415, 322, 464))
    assert drop_monograms([letter], [banner]) == [letter]


def test_an_icon_read_as_one_character_is_dropped_but_not_a_badge_or_a_label() -> None:
    from screenpilot.vision.monograms import drop_glyph_reads

    icon = Element(2, ElementKind.ICON, Box(63, 872, 126, 934))
    glyph = _text("X", Box(59, 868, 127, 935))
    badge = _text("3", Box(100, 868, 127, 895))  # a count over the icon's corner
    small = _text("A", Box(85, 893, 104, 912))  # a letter drawn small inside it
    title = _text("Airplane mode", Box(178, 874, 468, 934))
    kept = drop_glyph_reads([glyph, badge, small, title], [icon])
    assert kept == [badge, small, title]
    assert drop_glyph_reads([glyph], [icon]) == [glyph]  # an icon that leads no row
    box = Element(3, ElementKind.CHECK_BOX, Box(933, 893, 993, 954))
    drawn = _text("□", Box(928, 886, 999, 955))
    assert drop_glyph_reads([drawn], [box]) == []  # a check box read as a character


def test_a_symbol_read_small_on_a_picture_that_leads_a_row_is_dropped() -> None:
    """A toolbar's back arrow read as "←" at a wide screen's smaller OCR scale: the read
    covers a quarter of the detected picture, centred on it; it is the picture's."""
    from screenpilot.vision.monograms import drop_glyph_reads

    back = Element(2, ElementKind.IMAGE, Box(11, 106, 137, 233))
    arrow = _text("←", Box(42, 137, 104, 197))
    title = _text("Sound & vibration", Box(190, 130, 640, 205))
    assert drop_glyph_reads([arrow, title], [back]) == [title]
    letter = _text("K", Box(42, 137, 104, 197))  # a letter so small may be the picture's own
    assert drop_glyph_reads([letter, title], [back]) == [letter, title]
    off = _text("←", Box(11, 106, 50, 145))  # in its corner: a badge, not the drawing
    assert drop_glyph_reads([off, title], [back]) == [off, title]


def test_a_symbol_centred_on_a_picture_that_leads_no_row_is_dropped() -> None:
    """Seal's toolbar has no title: its back arrow, read "←", is still the picture's;
    a button's sign (a habit's "●" day) and a letter stay."""
    from screenpilot.vision.monograms import drop_glyph_reads

    back = Element(2, ElementKind.IMAGE, Box(5, 57, 72, 124))
    arrow = _text("←", Box(21, 74, 53, 105))
    assert drop_glyph_reads([arrow], [back]) == []
    icon = Element(3, ElementKind.ICON, Box(5, 57, 72, 124))
    assert drop_glyph_reads([arrow], [icon]) == []
    day = Element(4, ElementKind.BUTTON, Box(5, 57, 72, 124))
    dot = _text("●", Box(21, 74, 53, 105))
    neighbour = _text("Mon", Box(5, 130, 72, 160))  # the next day under it
    assert drop_glyph_reads([dot, neighbour], [day]) == [dot, neighbour]
    letter = _text("K", Box(21, 74, 53, 105))
    assert drop_glyph_reads([letter], [back]) == [letter]


def test_a_letter_on_a_picture_that_leads_no_row_stays() -> None:
    """A mode button's big "A" over its name "Automatic" is no avatar's initial, and a
    CJK character has no case: neither is dropped."""
    letter = _text("A", Box(72, 415, 116, 464))
    under = _text("Automatic", Box(20, 510, 170, 550))
    assert drop_monograms([letter, under], [AVATAR]) == [letter, under]
    name = _text("Carmen Diaz", Box(182, 415, 434, 461))
    cjk = _text("评", Box(72, 415, 116, 464))
    assert drop_monograms([cjk, name], [AVATAR]) == [cjk, name]


def test_a_toolbar_button_read_as_one_letter_is_dropped_but_not_a_keyboard_key() -> None:
    """NetGuard's back arrow read as "K" (a button that leads the title "Settings")
    loses the read; a key that leads only another key's letter keeps its own."""
    from screenpilot.vision.monograms import drop_glyph_reads

    back = Element(4, ElementKind.BUTTON, Box(0, 74, 159, 241))
    k = _text("K", Box(58, 136, 100, 180))
    title = _text("Settings", Box(166, 119, 412, 203))
    assert drop_glyph_reads([k, title], [back]) == [title]
    key_q = Element(5, ElementKind.BUTTON, Box(0, 1700, 108, 1850))
    q = _text("Q", Box(36, 1750, 72, 1800))
    w = _text("W", Box(144, 1750, 180, 1800))
    assert drop_glyph_reads([q, w], [key_q]) == [q, w]
    word = _text("OK", Box(40, 136, 120, 180))  # a label of two letters stays
    assert drop_glyph_reads([word, title], [back]) == [word, title]


def test_an_arrow_read_as_a_letter_beside_a_title_gives_way_to_the_icon_found_there() -> None:
    """With no button from the detector, "K" beside "Settings" is let through to the
    search for icons; an icon found under it replaces it, else the read stays and an
    icon overlapping it goes."""
    from screenpilot.vision.monograms import settle_title_glyphs, title_glyphs

    k = _text("K", Box(58, 136, 100, 180))
    title = _text("Settings", Box(166, 119, 412, 203))
    far = _text("Settings", Box(400, 119, 646, 203))  # a title far away: no toolbar pair
    assert title_glyphs([k, title]) == [k]
    assert title_glyphs([k, far]) == [] and title_glyphs([_text("7", k.box), title]) == []
    arrow = Element(9, ElementKind.ICON, Box(60, 138, 98, 178))
    assert settle_title_glyphs([k, title], [k], [arrow]) == ([title], [arrow])
    beside = Element(9, ElementKind.ICON, Box(80, 140, 130, 178))  # overlaps, not under
    assert settle_title_glyphs([k, title], [k], [beside]) == ([k, title], [])


def test_a_floating_buttons_plus_read_as_a_letter_is_dropped_but_not_a_named_buttons() -> None:
    """The virtual phone's Clock: the alarm list's floating "+" read as "X" at 0.9+ loses
    the read (the icon labeller then names it "add"); a square button with its name under
    it, or a key among keys, keeps its letter."""
    from screenpilot.vision.monograms import drop_glyph_reads

    fab = Element(6, ElementKind.BUTTON, Box(889, 1874, 1035, 2020))
    x = _text("X", Box(935, 1920, 991, 1974))
    tab = _text("Stopwatch", Box(861, 2196, 1026, 2242))  # the tab bar, more than a side away
    assert drop_glyph_reads([x, tab], [fab]) == [tab]
    mode = Element(7, ElementKind.BUTTON, Box(40, 400, 150, 510))
    a = _text("A", Box(80, 435, 110, 475))
    name = _text("Automatic", Box(20, 530, 170, 570))  # its name, under it
    assert drop_glyph_reads([a, name], [mode]) == [a, name]
    key = Element(8, ElementKind.BUTTON, Box(0, 1700, 108, 1808))  # a square key
    q = _text("Q", Box(36, 1730, 72, 1780))
    w = _text("W", Box(144, 1730, 180, 1780))
    assert drop_glyph_reads([q, w], [key]) == [q, w]
    two = _text("OK", Box(925, 1920, 1000, 1974))  # a label of two letters stays
    assert drop_glyph_reads([two], [fab]) == [two]


def test_a_picture_read_as_one_huge_character_is_a_picture() -> None:
    """TrackerControl's drawing of a laptop was read as "回" (58 dp tall): one character
    (no digit) BIG_GLYPH dp tall or more is an image with the read's box; a clock's huge
    digit and a heading stay texts, and a read on a found widget is left out."""
    dp = 2.625
    tall = round(BIG_GLYPH * dp) + 10
    drawing = Element(1, ElementKind.TEXT, Box(840, 1311, 1018, 1311 + tall), text="回")
    digit = Element(2, ElementKind.TEXT, Box(100, 300, 240, 300 + tall), text="9")
    heading = Element(3, ElementKind.TEXT, Box(60, 600, 700, 700), text="Contact")
    small = Element(4, ElementKind.TEXT, Box(60, 800, 100, 850), text="W")
    logo = Element(5, ElementKind.TEXT, Box(300, 1000, 560, 1000 + tall), text="W")
    found = Element(6, ElementKind.IMAGE, Box(280, 980, 600, 1300))
    lettering = Element(7, ElementKind.TEXT, Box(192, 1400, 272, 1400 + tall), text="化")
    thumbnail = Element(8, ElementKind.IMAGE, Box(112, 1390, 218, 1540))  # a third of it
    reads = [drawing, digit, heading, small, logo, lettering]
    texts, pictures = pictured_reads(reads, [found, thumbnail], dp)
    assert texts == [digit, heading, small]
    assert [(p.kind, p.box) for p in pictures] == [(ElementKind.IMAGE, drawing.box)]


PAGE = np.full((1920, 1080, 3), 250, np.uint8)


def test_a_cross_read_alone_is_an_icon() -> None:
    """NewPipe's mini player: its close glyph read "X", 64 x 62 px, far from the title."""
    mark = _text("X", Box(963, 1653, 1027, 1715))
    title = _text("Sprite Fright - Blender Open Movie", Box(180, 1640, 815, 1690))
    texts, icons = lone_marks(PAGE, [mark, title], [])
    assert texts == [title]
    assert [(i.kind, i.text, i.box) for i in icons] == [(ElementKind.ICON, "X", mark.box)]


def test_a_cross_read_with_company_or_on_a_widget_stays_a_text() -> None:
    mark = _text("X", Box(963, 1653, 1027, 1715))
    beside = _text("Close", Box(1040, 1660, 1075, 1710))  # a word within one side
    assert lone_marks(PAGE, [mark, beside], []) == ([mark, beside], [])
    button = Element(0, ElementKind.BUTTON, Box(940, 1630, 1050, 1740))
    assert lone_marks(PAGE, [mark], [button]) == ([mark], [])
    letter = _text("A", Box(963, 1653, 1027, 1715))  # a section's letter
    assert lone_marks(PAGE, [letter], []) == ([letter], [])
    wide = _text("+", Box(900, 1653, 1027, 1690))  # a box no glyph has
    assert lone_marks(PAGE, [wide], []) == ([wide], [])


def _glyph_and_letter(glyph: Callable[[ImageDraw.ImageDraw], None], letter: str) -> np.ndarray:
    """A 1080 x 1920 page with ``glyph`` drawn on it and ``letter`` typed at (40, 740)."""
    image = Image.new("RGB", (1080, 1920), (250, 250, 250))
    d = ImageDraw.Draw(image)
    glyph(d)
    d.text((40, 740), letter, font=ImageFont.truetype(str(text_font()), 56), fill=(20, 20, 20))
    return np.asarray(image)


def test_a_c_read_alone_is_an_icon_only_with_an_arrowhead() -> None:
    """NewPipe's refresh glyph (an arc with a filled arrowhead) read "C" is an icon; a
    contact list's section letter "C" is a letter."""

    def glyph(d: ImageDraw.ImageDraw) -> None:
        d.arc((980, 410, 1036, 466), start=60, end=350, fill=(20, 20, 20), width=6)
        d.polygon([(1012, 400), (1042, 436), (1004, 440)], fill=(20, 20, 20))  # arrowhead

    pixels = _glyph_and_letter(glyph, "C")
    refresh = _text("C", Box(976, 398, 1046, 470))
    letter = _text("C", Box(36, 745, 80, 800))
    texts, icons = lone_marks(pixels, [refresh, letter], [])
    assert texts == [letter]
    assert [(i.kind, i.text) for i in icons] == [(ElementKind.ICON, "C")]


def test_an_ellipsis_read_alone_is_an_icon_where_its_ink_is_three_dots() -> None:
    """Markor's editor bar on a 530 px screenshot: "⋯" of three 5 px square dots, read
    "…" in a box 1.6 times as wide as tall; one after a word ("Loading …") stays a
    text, and so does an "X" read on dots."""

    def glyph(d: ImageDraw.ImageDraw) -> None:
        for x in (988, 995, 1002):
            d.rectangle((x, 972, x + 4, 976), fill=(60, 60, 60))

    pixels = _glyph_and_letter(glyph, "…")
    dots = _text("…", Box(982, 965, 1011, 983))
    typed = _text("…", Box(36, 745, 120, 800))
    word = _text("Loading", Box(-100 + 36, 745, 30, 800))
    texts, icons = lone_marks(pixels, [dots, typed, word], [])
    assert texts == [typed, word]
    assert [(i.kind, i.text, i.box) for i in icons] == [(ElementKind.ICON, "…", dots.box)]
    assert lone_marks(pixels, [_text("X", dots.box)], [])[1] == []


def test_a_v_read_alone_is_an_icon_only_where_its_ink_is_a_chevron() -> None:
    """NewPipe's expand button beside a video's title, read "V", is an icon (the glyph
    rules then name it ``expand``); a "V" typed in a font (a grade, a roman five) stays a
    text."""

    def glyph(d: ImageDraw.ImageDraw) -> None:
        d.line([(1004, 734), (1017, 748), (1030, 734)], fill=(60, 60, 60), width=4)

    pixels = _glyph_and_letter(glyph, "V")
    chevron = _text("V", Box(1000, 728, 1035, 756))
    letter = _text("V", Box(36, 745, 80, 800))
    texts, icons = lone_marks(pixels, [chevron, letter], [])
    assert texts == [letter]
    assert [(i.kind, i.text, i.box) for i in icons] == [(ElementKind.ICON, "V", chevron.box)]


def test_an_l_read_alone_is_an_icon_where_its_ink_is_a_tick_or_a_chevron() -> None:
    """LoopHabits' tick read "L" is an icon (the icon model must then say ``check``);
    MaterialFiles' breadcrumb chevron read "L" between two folders' names is an icon
    though texts stand beside it; a font's "L" stays a letter."""

    def glyphs(d: ImageDraw.ImageDraw) -> None:
        d.line([(488, 925), (500, 937), (522, 913)], fill=(90, 170, 250), width=7)  # tick
        d.line([(606, 256), (624, 271), (606, 286)], fill=(60, 60, 60), width=5)  # chevron

    pixels = _glyph_and_letter(glyphs, "L")
    tick = _text("L", Box(480, 907, 531, 949))
    chevron = _text("L", Box(596, 248, 632, 294))
    folders = [
        _text("storage", Box(420, 250, 585, 292)),
        _text("Download", Box(650, 250, 850, 292)),
    ]
    letter = _text("L", Box(36, 745, 80, 800))
    texts, icons = lone_marks(pixels, [tick, chevron, *folders, letter], [])
    assert texts == [*folders, letter]
    assert [i.box for i in icons] == [tick.box, chevron.box]
