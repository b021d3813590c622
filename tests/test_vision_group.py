"""Text-widget matching, captions and the active tab on crafted elements and pixels."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from screenpilot.core.fonts import text_font
from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.group import (
    active_tab,
    bare_number,
    block_caption,
    find_tab_rows,
    match_texts,
    tab_cells,
)

K = ElementKind


def el(kind: ElementKind, box: tuple[int, int, int, int], text: str = "") -> Element:
    return Element(0, kind, Box(*box), text=text)


def test_text_inside_button_and_caption_of_switch() -> None:
    widgets = [el(K.BUTTON, (100, 1000, 500, 1100)), el(K.SWITCH, (900, 300, 1020, 360))]
    texts = [
        el(K.TEXT, (200, 1030, 400, 1070), "Save"),
        el(K.TEXT, (40, 305, 400, 350), "Wi-Fi"),
        el(K.TEXT, (40, 600, 400, 650), "Unrelated"),
    ]
    out, free = match_texts(widgets, texts, max_dist=38)
    assert out[0].text == "Save"
    assert out[1].caption == "Wi-Fi" and out[1].text == ""
    assert [t.text for t in free] == ["Unrelated"]


def test_widget_takes_several_aligned_texts() -> None:
    widgets = [el(K.BUTTON, (100, 100, 900, 300))]
    texts = [
        el(K.TEXT, (150, 120, 600, 170), "Sign in"),
        el(K.TEXT, (150, 200, 700, 250), "with Google"),
    ]
    out, free = match_texts(widgets, texts, max_dist=38)
    assert out[0].text == "Sign in with Google" and free == []


def test_a_pictures_name_is_centred_under_it_or_aligned_with_it() -> None:
    """A tile's caption names its picture; a drawer's first item under the drawer's
    header picture (neither centred on it nor starting where it starts) stays a text, and
    so does a date as tall as the event dots above it."""
    widgets = [
        el(K.IMAGE, (30, 19, 397, 303)),  # a drawer's header picture
        el(K.ICON, (500, 100, 600, 200)),  # a launcher icon
        el(K.IMAGE, (620, 100, 900, 300)),  # a photo of a grid
        el(K.ICON, (622, 814, 644, 842)),  # a calendar's event dots
        el(K.IMAGE, (510, 1300, 573, 1363)),  # a tab's icon ...
    ]
    texts = [
        el(K.TEXT, (90, 330, 220, 362), "Select Activity"),
        el(K.TEXT, (490, 210, 610, 240), "Camera"),
        el(K.TEXT, (622, 310, 760, 340), "Holidays"),
        el(K.TEXT, (618, 858, 650, 884), "14"),  # the date below them
        el(K.TEXT, (498, 1370, 585, 1410), "Timer"),  # ... and its label: the tab's name
    ]
    out, free = match_texts(widgets, texts, max_dist=38)
    assert [t.text for t in free] == ["Select Activity", "14"]
    assert (out[0].text, out[1].text, out[2].text) == ("", "Camera", "Holidays")
    assert out[4].text == "Timer"


def test_labels_side_by_side_in_one_widget_stay_texts() -> None:
    """A toolbar read as one button: its title and actions are separate labels."""
    widgets = [el(K.BUTTON, (0, 80, 1080, 230))]
    texts = [
        el(K.TEXT, (40, 130, 500, 180), "Script editor"),
        el(K.TEXT, (800, 130, 900, 180), "SAVE"),
        el(K.TEXT, (950, 130, 1060, 180), "LOAD"),
    ]
    out, free = match_texts(widgets, texts, max_dist=38)
    assert out[0].text == ""
    assert sorted(t.text for t in free) == ["LOAD", "SAVE", "Script editor"]


def test_a_button_box_over_a_row_of_dialog_buttons_keeps_its_own_label() -> None:
    """A detector's boxes for "Cancel" and "Delete" overlap; the one given "Delete" also
    holds "Cancel": it is cut down to "Delete", so that a tap lands on it."""
    widgets = [el(K.BUTTON, (146, 1239, 819, 1382)), el(K.BUTTON, (470, 1232, 983, 1370))]
    texts = [
        el(K.TEXT, (615, 1276, 742, 1324), "Cancel"),
        el(K.TEXT, (808, 1274, 932, 1327), "Delete"),
    ]
    out, free = match_texts(widgets, texts, max_dist=38)
    delete = next(e for e in out if e.text == "Delete")
    assert delete.box.contains(*texts[1].box.center)
    assert not delete.box.contains(*texts[0].box.center)
    assert 808 <= delete.box.center[0] <= 932
    cancel = next(e for e in out if e.text == "Cancel")
    assert cancel.box == Box(146, 1239, 819, 1382)  # it holds no other label
    assert free == []


def test_a_dialogs_two_buttons_read_as_one_widget_stay_two_labels() -> None:
    widgets = [el(K.BUTTON, (128, 1213, 938, 1351))]
    texts = [
        el(K.TEXT, (615, 1258, 742, 1306), "Cancel"),
        el(K.TEXT, (808, 1256, 932, 1309), "Delete"),
    ]
    out, free = match_texts(widgets, texts, max_dist=38)
    assert out[0].text == ""
    assert sorted(t.text for t in free) == ["Cancel", "Delete"]


def test_a_row_of_labels_over_a_line_is_not_a_seek_bars_caption() -> None:
    widgets = [el(K.SEEK_BAR, (0, 200, 1080, 230))]
    texts = [
        el(K.TEXT, (60, 190, 300, 225), "TODAY"),
        el(K.TEXT, (420, 190, 660, 225), "STATISTICS"),
    ]
    out, free = match_texts(widgets, texts, max_dist=38)
    assert out[0].caption == "" and len(free) == 2


def test_a_weekday_header_names_none_of_the_buttons_above_it() -> None:
    """EtarCalendar's month: "SAT" and "SUN" under the toolbar's today and overflow
    buttons head the calendar's columns, and LoopHabits' "Sat" alone heads a row of its
    history under the overflow button; a bottom bar's labels still name their icons."""
    widgets = [el(K.BUTTON, (858, 77, 968, 193)), el(K.IMAGE, (975, 74, 1079, 198))]
    days = ["MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN"]
    header = [
        el(K.TEXT, (x, 208, x + 60, 251), day)
        for x, day in zip((58, 226, 372, 530, 700, 853, 985), days, strict=True)
    ]
    out, free = match_texts(widgets, header, max_dist=38)
    assert [t.text for t in free] == days and [w.text for w in out] == ["", ""]
    alone = el(K.TEXT, (980, 208, 1040, 251), "Sat")
    assert match_texts(widgets, [alone], max_dist=38)[1] == [alone]
    icons = [el(K.ICON, (x, 2000, x + 60, 2060)) for x in (100, 370, 640, 910)]
    labels = [
        el(K.TEXT, (x - 10, 2070, x + 70, 2100), name)
        for x, name in zip((100, 370, 640, 910), ("Home", "Search", "Saved", "Me"), strict=True)
    ]
    out, free = match_texts(icons, labels, max_dist=38)
    assert free == [] and [w.text for w in out] == ["Home", "Search", "Saved", "Me"]


def test_a_picture_s_name_lies_on_its_surface() -> None:
    """A toolbar's button names no text on the page under the toolbar; a bottom bar's
    icon names its label on the bar (the selected one's icon on a pill), a launcher icon
    its name on a wallpaper, and a photo its caption on the page, whatever the photo's
    bottom rows hold."""
    pixels = np.full((600, 400, 3), 250, np.uint8)
    pixels[:200] = (0, 150, 136)  # a teal toolbar over a light page
    button = el(K.BUTTON, (300, 80, 390, 190))
    day = el(K.TEXT, (300, 208, 390, 250), "Today")
    assert match_texts([button], [day], max_dist=38, pixels=pixels)[1] == [day]
    assert match_texts([button], [day], max_dist=38)[0][0].text == "Today"  # no pixels
    pixels[:] = (0, 150, 136)  # the label on the bar's own colour
    out, free = match_texts([button], [day], max_dist=38, pixels=pixels)
    assert free == [] and out[0].text == "Today"
    pill = np.full((600, 400, 3), 30, np.uint8)  # a dark bottom bar ...
    pill[60:200, 250:400] = (70, 90, 160)  # ... the selected tab's icon on a pill
    out, free = match_texts([button], [day], max_dist=38, pixels=pill)
    assert free == [] and out[0].text == "Today"
    photo = np.full((600, 400, 3), 250, np.uint8)
    photo[60:192, 300:390] = 30  # a dark photo, its box stopping short of its bottom
    out, free = match_texts([button], [day], max_dist=38, pixels=photo)
    assert free == [] and out[0].text == "Today"
    wallpaper = np.random.default_rng(0).integers(0, 255, (600, 400, 3), dtype=np.uint8)
    out, free = match_texts([button], [day], max_dist=38, pixels=wallpaper)
    assert free == [] and out[0].text == "Today"


def test_a_number_names_no_picture() -> None:
    """Loop Habit Tracker's history: the day "2" of the strip just under the toolbar is
    no name of the back arrow above it, nor a calendar cell's the number of the cell
    under it; a word under a picture still is its name."""
    arrow = el(K.IMAGE, (10, 78, 133, 196))
    for number in ("2", "29", "1,024", "+10%", "7:30"):
        read = el(K.TEXT, (64, 217, 85, 244), number)
        out, free = match_texts([arrow], [read], max_dist=38)
        assert free == [read] and out[0].text == ""
    word = el(K.TEXT, (30, 210, 115, 244), "Back")
    assert match_texts([arrow], [word], max_dist=38)[0][0].text == "Back"
    assert not bare_number("2nd") and not bare_number("Wi-Fi 6") and bare_number(" 12 ")


def test_a_seek_bars_name_and_value_either_side_stay_its_caption() -> None:
    widgets = [el(K.SEEK_BAR, (300, 400, 800, 440))]
    texts = [
        el(K.TEXT, (40, 400, 250, 440), "Volume"),
        el(K.TEXT, (850, 400, 950, 440), "50%"),
    ]
    out, free = match_texts(widgets, texts, max_dist=38)
    assert out[0].caption == "Volume 50%" and free == []


def test_a_switchs_label_and_state_stay_its_caption() -> None:
    widgets = [el(K.SWITCH, (900, 300, 1020, 360))]
    texts = [
        el(K.TEXT, (40, 305, 300, 350), "Wi-Fi"),
        el(K.TEXT, (500, 305, 800, 350), "Connected"),
    ]
    out, free = match_texts(widgets, texts, max_dist=38)
    assert out[0].caption == "Wi-Fi Connected" and free == []


def test_a_check_box_centred_on_a_two_line_item_takes_its_title() -> None:
    """A list item's title and summary stacked left, a check box centred on the pair: the
    title names the box even when it overlaps the box's row by a little under half (line
    boxes move by a few pixels between OCR models); the summary stays a text, and a line
    that does not stack under the title (another item's, further down) lends no item."""
    widgets = [el(K.CHECK_BOX, (929, 898, 997, 946)), el(K.CHECK_BOX, (929, 1290, 997, 1338))]
    texts = [
        el(K.TEXT, (32, 864, 230, 921), "New York"),  # overlaps the box by 23 of 48 px
        el(K.TEXT, (33, 928, 156, 976), "GMT-4"),
        el(K.TEXT, (32, 1250, 230, 1307), "Paris"),  # alone: its summary is far below
        el(K.TEXT, (33, 1360, 156, 1408), "GMT+2"),
    ]
    out, free = match_texts(widgets, texts, max_dist=38)
    assert out[0].caption == "New York"
    assert out[1].caption == ""  # "Paris" overlaps by 17 px and has no item under it
    assert [t.text for t in free] == ["GMT-4", "Paris", "GMT+2"]


def test_a_summary_taller_than_its_title_still_makes_an_item() -> None:
    """Etar Calendar's "Use home time zone": the summary's ink box ("Displays", a capital
    and a descender) is taller than the title's, and the check box sits beside the
    summary; the title still names it, with the summary, as a two-line item."""
    widgets = [el(K.CHECK_BOX, (953, 1945, 1033, 2027))]
    texts = [
        el(K.TEXT, (183, 1915, 576, 1964), "Use home time zone"),
        el(K.TEXT, (182, 1970, 894, 2023), "Displays calendars and event times"),
    ]
    out, _ = match_texts(widgets, texts, max_dist=38)
    assert out[0].caption.startswith("Use home time zone")


def test_home_screen_icon_keeps_only_the_widget() -> None:
    widgets = [el(K.IMAGE, (100, 500, 250, 650)), el(K.IMAGE, (400, 500, 550, 650))]
    texts = [
        el(K.TEXT, (110, 660, 240, 700), "Clock"),
        el(K.TEXT, (395, 660, 555, 700), "Contacts"),
    ]
    out, free = match_texts(widgets, texts, max_dist=38)
    assert [w.text for w in out] == ["Clock", "Contacts"] and free == []


def test_far_text_is_not_matched() -> None:
    out, free = match_texts(
        [el(K.SWITCH, (900, 300, 1020, 360))], [el(K.TEXT, (40, 800, 400, 850), "Far")], max_dist=38
    )
    assert out[0].caption == "" and len(free) == 1


def test_a_wide_rows_label_at_the_far_edge_names_its_switch() -> None:
    """A foldable's or a tablet's settings row: the label at the left edge, the switch
    at the right, further apart than a phone's row; nothing stands between them."""
    widgets = [el(K.SWITCH, (1610, 1256, 1749, 1339)), el(K.CHECK_BOX, (1695, 1119, 1757, 1179))]
    texts = [
        el(K.TEXT, (38, 1275, 320, 1320), "Do Not Disturb"),
        el(K.TEXT, (38, 1125, 340, 1172), "Vibrate for calls"),
    ]
    out, free = match_texts(widgets, texts, max_dist=0.035 * 1812)
    assert [w.caption for w in out] == ["Do Not Disturb", "Vibrate for calls"] and free == []


def test_a_far_label_with_something_between_stays_a_text() -> None:
    """Two panes: a text of the left pane on the row of a switch in the right pane,
    whose own label stands between them, or an icon between them: not the switch's."""
    switch = el(K.SWITCH, (1610, 1256, 1749, 1339))
    left = el(K.TEXT, (38, 1275, 320, 1320), "Network")
    own = el(K.TEXT, (900, 1275, 1100, 1320), "Wi-Fi")
    out, free = match_texts([switch], [left, own], max_dist=0.035 * 1812)
    assert out[0].caption == "Wi-Fi" and [t.text for t in free] == ["Network"]
    icon = el(K.ICON, (700, 1260, 780, 1335))
    out, free = match_texts([switch, icon], [left], max_dist=0.035 * 1812)
    assert out[0].caption == "" and [t.text for t in free] == ["Network"]


def test_a_far_two_line_item_names_its_check_box_by_its_title() -> None:
    """The check box centred on a two-line item at the far edge takes the title, not
    the summary on its row."""
    box = el(K.CHECK_BOX, (1695, 898, 1763, 946))
    title = el(K.TEXT, (32, 864, 230, 921), "Tokyo")
    summary = el(K.TEXT, (33, 928, 190, 976), "GMT+9")
    out, free = match_texts([box], [title, summary], max_dist=0.035 * 1812)
    assert out[0].caption == "Tokyo" and [t.text for t in free] == ["GMT+9"]


def test_block_caption() -> None:
    block = Box(0, 400, 1080, 1200)
    header = el(K.TEXT, (40, 420, 400, 470), "Network options")
    row = [el(K.TEXT, (40, 500, 400, 550), "Allow tethering"), el(K.SWITCH, (900, 500, 1020, 550))]
    assert block_caption(block, [header, *row]) is header
    assert block_caption(block, row) is None  # a text beside a widget is not pure
    indented = el(K.TEXT, (500, 420, 700, 470), "x")
    assert block_caption(block, [indented, *row]) is None


def _tab_bar(active: int, labels: list[str], width: int = 1080) -> tuple[np.ndarray, list[Element]]:
    image = Image.new("RGB", (width, 400), (250, 250, 250))
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(str(text_font()), 40)
    cell = width // len(labels)
    elements = []
    for i, label in enumerate(labels):
        x = i * cell + cell // 2
        colour = (26, 115, 232) if i == active else (95, 99, 104)
        draw.text((x, 300), label, font=font, fill=colour, anchor="mm")
        if i == active:
            draw.rectangle([i * cell + 20, 340, (i + 1) * cell - 20, 346], fill=colour)
        left, top, right, bottom = draw.textbbox((x, 300), label, font=font, anchor="mm")
        elements.append(el(K.TEXT, (int(left), int(top), int(right), int(bottom)), label))
    return np.asarray(image), elements


def test_active_tab_is_the_odd_colour_out() -> None:
    for active in range(4):
        image, tabs = _tab_bar(active, ["Home", "Search", "Library", "Profile"])
        rows = find_tab_rows(tabs, 1080, 2400)
        assert len(rows) == 1 and len(rows[0]) == 4
        assert active_tab(image, tab_cells(rows[0], 1080)) == active


def test_two_tabs_and_no_active_tab() -> None:
    image, tabs = _tab_bar(1, ["Chats", "Calls"])
    assert active_tab(image, tab_cells(tabs, 1080)) == 1
    image, tabs = _tab_bar(-1, ["A", "B", "C"])
    assert active_tab(image, tab_cells(tabs, 1080)) is None


def test_a_title_and_an_icon_are_not_tabs() -> None:
    row = [el(K.TEXT, (150, 100, 400, 160), "Settings"), el(K.TEXT, (1000, 100, 1040, 160), "⋮")]
    assert find_tab_rows(row, 1080, 2400) == []


def test_labelled_tabs_make_one_bar_even_with_their_icons_detected() -> None:
    xs = (135, 405, 675, 945)
    icons = [
        Element(i, ElementKind.IMAGE, Box(x - 30, 2150, x + 30, 2210)) for i, x in enumerate(xs)
    ]
    labels = [
        Element(10 + i, ElementKind.TEXT, Box(x - 50, 2225, x + 50, 2265), text=t)
        for i, (x, t) in enumerate(zip(xs, ("Alarm", "Clock", "Timer", "Stopwatch"), strict=True))
    ]
    rows = find_tab_rows([*icons, *labels], 1080, 2400)
    assert [[e.id for e in r] for r in rows] == [[10, 11, 12, 13]]
    assert [[e.id for e in r] for r in find_tab_rows(icons, 1080, 2400)] == [[0, 1, 2, 3]]


def test_a_launchers_row_of_app_names_is_no_tab_bar() -> None:
    """The virtual phone's home screen: four apps named under their pictures in the top
    third, a fifth under the first; their names are a grid's, not tabs (a bottom bar's
    labels, above, have nothing in their columns below them)."""
    xs = (150, 410, 670, 930)
    pictures = [el(K.IMAGE, (x - 60, 380, x + 60, 500)) for x in xs]
    names = [
        el(K.TEXT, (x - 70, 544, x + 70, 590), name)
        for x, name in zip(xs, ("Settings", "Contacts", "Clock", "Messages"), strict=True)
    ]
    assert len(find_tab_rows(names, 1080, 2400)) == 1  # the names alone look like tabs
    shop = [el(K.IMAGE, (90, 650, 210, 770)), el(K.TEXT, (105, 812, 195, 862), "Shop")]
    assert find_tab_rows([*pictures, *names, *shop], 1080, 2400) == []


def test_a_setting_with_a_switch_is_no_pair_of_tabs() -> None:
    """TrackerControl: a heading "Essential" on the left and "Block" beside its switch on
    the right, in the bottom sixth, are centred on the screen's halves like two tabs."""
    row = [
        el(K.TEXT, (88, 1950, 355, 2010), "Essential"),
        el(K.TEXT, (720, 1955, 868, 1995), "Block"),
    ]
    assert len(find_tab_rows(row, 1080, 2280)) == 1
    switch = el(K.SWITCH, (880, 1945, 980, 2000))
    assert find_tab_rows([*row, switch], 1080, 2280) == []


def test_an_icon_read_as_a_letter_beside_a_buttons_label_is_not_its_text() -> None:
    """A location pin read "Q" as a line of its own before "Use my location"; a lone
    one-character label ("+") and a digit beside a label ("2 items") stay."""
    widgets = [
        el(K.BUTTON, (40, 379, 501, 481)),
        el(K.BUTTON, (600, 379, 700, 481)),
        el(K.BUTTON, (40, 600, 501, 700)),
    ]
    texts = [
        el(K.TEXT, (95, 397, 160, 461), "Q"),
        el(K.TEXT, (165, 404, 444, 457), "Use my location"),
        el(K.TEXT, (630, 404, 670, 457), "+"),
        el(K.TEXT, (95, 620, 130, 680), "2"),
        el(K.TEXT, (135, 620, 300, 680), "items"),
    ]
    out, free = match_texts(widgets, texts, max_dist=38)
    assert [w.text for w in out] == ["Use my location", "+", "2 items"]
    assert free == []


def test_a_toolbars_title_is_its_caption_beside_a_back_arrow_found_as_a_button() -> None:
    from screenpilot.model import Block, BlockKind
    from screenpilot.vision.group import caption_blocks

    bar = Block(1, Box(0, 63, 1080, 220), BlockKind.TOOLBAR)
    back = Element(1, K.BUTTON, Box(0, 70, 160, 215), icon_label="back", block_id=1)
    title = Element(2, K.TEXT, Box(180, 110, 420, 170), text="Settings", block_id=1)
    search = Element(3, K.ICON, Box(900, 90, 1000, 195), icon_label="search", block_id=1)
    assert caption_blocks([bar], [back, title, search])[0].caption == "Settings"
    # an action button with a text right of the title ("Save") does not hide it
    save = Element(5, K.BUTTON, Box(880, 90, 1060, 195), text="Save", block_id=1)
    assert caption_blocks([bar], [back, title, save])[0].caption == "Settings"
    # a row list's first row is no heading: a block whose id is skipped gets none
    rows = Block(2, Box(0, 220, 1080, 2200), BlockKind.LIST)
    first = Element(4, K.TEXT, Box(40, 260, 400, 310), text="Device name", block_id=2)
    assert caption_blocks([rows], [first])[0].caption == "Device name"
    assert caption_blocks([rows], [first], skip={2})[0].caption == ""


def test_pictures_holding_numbers_in_a_row_are_a_calendars_cells() -> None:
    """Loop Habit Tracker's history: cells each holding its day, three or more to a row,
    are cells the icon model is not asked to name; a lone button holding the date
    (EtarCalendar's today button) and a picture holding a word are not."""
    from screenpilot.vision.group import numbered_cells

    cells = [el(K.IMAGE, (100 + 55 * i, 1186, 150 + 55 * i, 1234)) for i in range(4)]
    days = [el(K.TEXT, (112 + 55 * i, 1197, 137 + 55 * i, 1224), str(3 + 7 * i)) for i in range(4)]
    today = el(K.BUTTON, (858, 75, 967, 182))
    date = el(K.TEXT, (872, 108, 949, 164), "23")
    tile = el(K.IMAGE, (100, 1500, 300, 1700))
    word = el(K.TEXT, (120, 1580, 280, 1620), "Gym")
    elements = [*cells, *days, today, date, tile, word]
    assert numbered_cells(elements) == {0, 1, 2, 3}
    assert numbered_cells([*cells[:2], *days[:2], today, date]) == set()
    numbered = [
        el(K.BUTTON, (100 + 55 * i, 1186, 150 + 55 * i, 1234), str(i + 1)) for i in range(2)
    ]
    assert numbered_cells([*numbered, cells[3], days[3]]) == {0, 1, 2}  # buttons took theirs
    loose = [el(K.TEXT, (300 + 55 * i, 1197, 325 + 55 * i, 1224), str(9 + i)) for i in range(2)]
    assert numbered_cells([cells[0], days[0], *loose]) == {0}  # the row's other days as texts
