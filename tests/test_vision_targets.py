"""Tap extents (vision/targets.py) and the icons found as blobs anywhere below the status bar."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np

from screenpilot.model import BlockKind, Box, Element, ElementKind
from screenpilot.vision.blobs import content_area, find_icons
from screenpilot.vision.blocks import Region
from screenpilot.vision.targets import LEAD_MAX_DP, TOUCH_DP, with_targets

W, H = 1080, 2400
DP = W / 411


def _text(box: tuple[int, int, int, int], text: str = "t") -> Element:
    return Element(0, ElementKind.TEXT, Box(*box), text=text)


def test_a_title_and_its_subtitle_share_one_row_band_across_the_screen() -> None:
    above = _text((60, 300, 400, 350), "Section")
    title = _text((180, 500, 500, 550), "Wi-Fi")
    subtitle = _text((180, 560, 700, 600), "Connected")
    below = _text((180, 800, 500, 850), "Bluetooth")
    out = with_targets([above, title, subtitle, below], W, H)
    band = out[1].target
    assert band is not None and band == out[2].target
    assert (band.x1, band.x2) == (0, W)
    assert band.y1 < title.box.y1 and band.y2 > subtitle.box.y2
    assert band.y1 >= (350 + 500) / 2 and band.y2 <= (600 + 800) / 2
    assert out[3].target is not None and out[3].target.y1 >= band.y2 - 1


def test_items_side_by_side_split_the_width_and_a_card_bounds_it() -> None:
    left = _text((100, 1000, 300, 1050), "New task")
    right = _text((700, 1000, 950, 1050), "New event")
    card = Region(Box(40, 900, 1040, 1200), BlockKind.CARD, "lines")
    out = with_targets([left, right], W, H, [card])
    a, b = out[0].target, out[1].target
    assert a is not None and b is not None
    assert a.x1 == 40 and b.x2 == 1040
    assert a.x2 == b.x1 == 500  # the middle of the gap between the two items


def test_a_small_icon_gets_a_touch_square_that_stops_half_way_to_its_neighbour() -> None:
    icon = Element(0, ElementKind.ICON, Box(100, 100, 160, 160))
    neighbour = Element(0, ElementKind.ICON, Box(200, 100, 260, 160))
    out = with_targets([icon, neighbour], W, H)
    square = out[0].target
    assert square is not None
    assert square.x2 == 180  # half-way to the neighbour, not the full 48 dp
    side = TOUCH_DP * DP
    assert abs(square.height - side) <= 2
    assert square.x1 < icon.box.x1 and square.contains(*icon.box.center)


def test_large_widgets_keep_their_box_as_what_is_tapped() -> None:
    button = Element(0, ElementKind.BUTTON, Box(100, 1000, 980, 1150), text="Sign in")
    field = Element(0, ElementKind.EDIT_TEXT, Box(100, 800, 980, 950))
    out = with_targets([button, field], W, H)
    assert out[0].target is None and out[1].target is None


def test_the_target_survives_the_json_round_trip() -> None:
    e = with_targets([_text((180, 500, 500, 550))], W, H)[0]
    assert e.target is not None
    assert Element.from_json(e.to_json()) == e
    assert Element.from_json(_text((1, 1, 5, 5)).to_json()).target is None


def _screen_with_glyph(x: int, y: int, side: int = 60) -> np.ndarray:
    pixels = np.full((H, W, 3), 250, np.uint8)
    pixels[y : y + side, x : x + side] = 30
    pixels[y + 15 : y + side - 15, x + 15 : x + side - 15] = 250  # a hollow square glyph
    return pixels


def test_an_icon_anywhere_below_the_status_bar_is_found_as_a_blob() -> None:
    found = find_icons(_screen_with_glyph(500, 1200), [], [content_area(W, H)])
    assert len(found) == 1
    assert found[0].kind is ElementKind.ICON and found[0].confidence < 0.5
    assert found[0].box.contains(530, 1230)


def test_status_bar_glyphs_and_covered_glyphs_are_not_icons() -> None:
    assert content_area(W, H).y1 > 40
    assert find_icons(_screen_with_glyph(900, 0, 50), [], [content_area(W, H)]) == []
    covered = [Box(480, 1180, 580, 1280)]
    assert find_icons(_screen_with_glyph(500, 1200), covered, [content_area(W, H)]) == []


def test_a_recorded_tap_in_a_rows_empty_end_means_the_rows_text() -> None:
    from screenpilot.model import Screen
    from screenpilot.pbd.recorder.reading import element_at

    wifi, bluetooth = with_targets(
        [_text((180, 500, 400, 550), "Wi-Fi"), _text((180, 700, 480, 750), "Bluetooth")], W, H
    )
    screen = Screen(W, H, (dataclasses.replace(wifi, id=1), dataclasses.replace(bluetooth, id=2)))
    # far right of the Wi-Fi row: outside every box, inside the Wi-Fi row's band only
    assert element_at(screen, 1000, 590, reach=60) == screen.element(1)
    assert element_at(screen, 1000, 690, reach=60) == screen.element(2)


def test_a_switch_named_by_its_row_takes_the_rows_band_and_a_tile_its_name() -> None:
    from screenpilot.vision.group import match_texts

    label = _text((60, 500, 400, 550), "Wi-Fi")
    switch = Element(0, ElementKind.SWITCH, Box(900, 495, 1010, 555))
    icon = Element(0, ElementKind.IMAGE, Box(140, 1000, 300, 1160))
    name = _text((150, 1180, 290, 1230), "Phone")
    texts = with_targets([label, name], W, H, neighbours=[switch.box, icon.box])
    widgets, free = match_texts([switch, icon], texts, max_dist=0.035 * W)
    assert free == []
    row = widgets[0].target
    assert row is not None and widgets[0].caption == "Wi-Fi"
    assert row.x1 == 0 and row.x2 == W and row.contains(955, 525) and row.contains(60, 500)
    tile = widgets[1].target
    assert widgets[1].text == "Phone" and tile is not None
    assert (
        tile.intersection(icon.box) == icon.box.area
        and tile.intersection(name.box) == name.box.area
    )


def test_a_text_on_a_filled_button_takes_the_buttons_extent() -> None:
    pixels = np.full((H, W, 3), 250, np.uint8)
    pixels[1400:1560, 300:780] = (30, 140, 60)  # a green button on a light page
    pixels[1460:1500, 440:640] = 255  # its label's ink
    label = _text((440, 1460, 640, 1500), "UPGRADE")
    out = with_targets([label], W, H, pixels=pixels)
    assert out[0].target == Box(300, 1400, 780, 1560)
    plain = np.full((H, W, 3), 250, np.uint8)
    band = with_targets([label], W, H, pixels=plain)[0].target
    assert band is not None and (band.x1, band.x2) == (0, W)  # no fill: the row's band


def test_the_overlay_draws_tap_extents_only_when_asked() -> None:
    from screenpilot.model import Screen
    from screenpilot.vision.overlay import render

    pixels = np.full((H, W, 3), 250, np.uint8)
    row = with_targets([_text((180, 500, 400, 550), "Wi-Fi")], W, H)[0]
    screen = Screen(W, H, (dataclasses.replace(row, id=1),))
    plain = np.asarray(render(pixels, screen))
    drawn = np.asarray(render(pixels, screen, targets=True))
    assert row.target is not None
    edge = drawn[row.target.y1 + 1, 900]  # the band's top edge, far right of the text
    assert (plain[row.target.y1 + 1, 900] == 250).all() and not (edge == 250).all()


def test_describe_targets_without_an_overlay_is_refused_before_any_work(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from screenpilot.cli import app

    shot = tmp_path / "shot.png"
    shot.write_bytes(b"not read")  # refused before it is opened
    result = CliRunner().invoke(app, ["describe", str(shot), "--targets"])
    assert result.exit_code == 2
    assert "--overlay" in result.output


def test_list_items_separated_by_a_wider_gap_than_their_lines_are_separate_rows() -> None:
    # two items of a tutorial list: a two-line paragraph, then a one-line item 18 dp lower
    first = _text((150, 540, 860, 594), "You can import a list")
    second = _text((150, 597, 900, 651), "or chose its folder")
    third = _text((150, 700, 840, 754), "Switch lists by clicking on them")
    out = with_targets([first, second, third], W, H)
    assert out[0].target == out[1].target
    assert out[2].target is not None and out[0].target is not None
    assert out[2].target != out[0].target
    assert out[2].target.y1 >= out[0].target.y2 - 1  # its own band, below the paragraph's


def test_tabs_of_a_bottom_bar_take_their_columns() -> None:
    elements: list[Element] = []
    for k, name in enumerate(["Home", "Search", "Library", "Profile"]):
        cx = 135 + 270 * k
        elements.append(Element(0, ElementKind.ICON, Box(cx - 32, 2150, cx + 32, 2214)))
        elements.append(_text((cx - 70, 2230, cx + 70, 2270), name))
    out = with_targets(elements, W, H)
    for k in range(4):
        icon, label = out[2 * k].target, out[2 * k + 1].target
        assert icon is not None and icon == label
        assert (icon.x1, icon.x2) == (270 * k, 270 * (k + 1))  # half-way to the next tab
        assert icon.y1 < 2150 and icon.y2 > 2270


def test_a_lone_picture_with_a_name_is_not_a_column() -> None:
    icon = Element(0, ElementKind.ICON, Box(508, 1000, 572, 1064))
    name = _text((470, 1080, 610, 1120), "Camera")
    out = with_targets([icon, name], W, H)
    assert out[0].target is not None and out[0].target.width < 0.5 * W


def test_a_dialogs_capital_labels_are_text_buttons_and_a_centred_one_is_a_row() -> None:
    cancel = _text((600, 1500, 760, 1540), "CANCEL")
    ok = _text((860, 1500, 920, 1540), "OK")
    out = with_targets([cancel, ok], W, H)
    a, b = out[0].target, out[1].target
    assert a is not None and b is not None
    assert abs(b.height - TOUCH_DP * DP) <= 2  # a 48 dp button, not a row band
    assert a.x2 <= b.x1 == (760 + 860) / 2  # no closer to the other than half the gap
    lone = with_targets([_text((900, 1500, 960, 1540), "OK")], W, H)[0].target
    assert lone is not None and lone.width >= 64 * DP - 1  # Material's minimum width
    alone = with_targets([_text((460, 1500, 620, 1540), "ALLOW")], W, H)[0].target
    assert alone is not None and (alone.x1, alone.x2) == (0, W)  # a full-width button's row


def test_a_capital_title_a_picture_leads_is_a_rows_not_a_text_button() -> None:
    """MaterialFiles' folder "DCIM" (a folder picture 21 dp left of it) was a 48-dp text
    button, which cut the list of folders in two: a picture at the screen's left ending
    14-40 dp before a capital label makes it a row's title; a button's own icon 8 dp
    before its label ("+ ADD") leaves it a text button."""
    folder = Element(0, ElementKind.IMAGE, Box(62, 953, 128, 1041))
    dcim = _text((184, 974, 297, 1021), "DCIM")
    out = with_targets([folder, dcim], W, H)
    band = out[1].target
    assert band is not None and (band.x1, band.x2) == (0, W)
    plus = Element(0, ElementKind.ICON, Box(600, 1500, 640, 1540))
    add = _text((660, 1500, 760, 1540), "ADD")  # 20 px = 7.6 dp after its icon
    button = with_targets([plus, add], W, H)[1].target
    assert button is not None and abs(button.height - TOUCH_DP * DP) <= 2


def _screen_with_dots(centres: list[tuple[int, int]], radius: int = 6) -> np.ndarray:
    pixels = np.full((H, W, 3), 250, np.uint8)
    yy, xx = np.mgrid[0:H, 0:W]
    for cx, cy in centres:
        pixels[(xx - cx) ** 2 + (yy - cy) ** 2 <= radius**2] = 40
    return pixels


def test_three_dots_in_a_column_are_an_overflow_menu_and_scattered_dots_are_not() -> None:
    column = find_icons(
        _screen_with_dots([(990, 700), (990, 724), (990, 748)]), [], [content_area(W, H)]
    )
    assert len(column) == 1 and column[0].icon_label == "more_options"
    assert column[0].box.contains(990, 724)
    row = find_icons(
        _screen_with_dots([(500, 900), (524, 900), (548, 900)]), [], [content_area(W, H)]
    )
    assert len(row) == 1 and row[0].icon_label == "more_options"
    scattered = find_icons(
        _screen_with_dots([(990, 700), (1000, 724), (975, 748)]), [], [content_area(W, H)]
    )
    assert all(e.icon_label != "more_options" for e in scattered)


def test_a_calendars_days_take_their_cells_and_scattered_numbers_keep_their_bands() -> None:
    days: list[Element] = []
    for row in range(4):
        for col in range(7):
            if row == 0 and col < 3:
                continue  # the month starts on a Thursday
            cx, cy = 120 + 140 * col, 1000 + 120 * row
            days.append(_text((cx - 25, cy - 20, cx + 25, cy + 20), str(row * 7 + col - 2)))
    out = with_targets(days, W, H)
    first = out[0].target
    assert first is not None and (first.x1, first.x2) == (120 + 140 * 3 - 70, 120 + 140 * 3 + 70)
    assert (first.y1, first.y2) == (940, 1060)
    assert all(e.target is not None and e.target.width == 140 for e in out)
    scattered = [_text((100, 500, 150, 540), "12"), _text((700, 900, 760, 940), "7")]
    assert all(e.target is not None and e.target.width > 140 for e in with_targets(scattered, W, H))


def test_an_icon_on_a_filled_square_takes_the_square() -> None:
    pixels = np.full((H, W, 3), 250, np.uint8)
    pixels[600:960, 900:1080] = (250, 150, 40)  # an orange column at the row's end
    pixels[760:800, 970:1010] = 255  # a white minus glyph on it
    minus = Element(0, ElementKind.ICON, Box(970, 760, 1010, 800))
    out = with_targets([minus], W, H, pixels=pixels)
    assert out[0].target == Box(900, 600, 1080, 960)
    plain = with_targets([minus], W, H, pixels=np.full((H, W, 3), 250, np.uint8))[0].target
    assert plain is not None and abs(plain.width - TOUCH_DP * DP) <= 2  # a touch square


def test_a_hint_in_an_outlined_field_takes_the_outline() -> None:
    pixels = np.full((H, W, 3), 30, np.uint8)  # a dark page
    pixels[1100:1104, 300:1000] = 230  # the field's outline: top, bottom, left, right
    pixels[1196:1200, 300:1000] = 230
    pixels[1100:1200, 300:304] = 230
    pixels[1100:1200, 996:1000] = 230
    pixels[1130:1170, 360:640] = 200  # the hint's ink
    hint = _text((360, 1130, 640, 1170), "Enter Password")
    field = with_targets([hint], W, H, pixels=pixels)[0].target
    assert field is not None
    edges = zip(field.as_tuple(), (300, 1100, 1000, 1200), strict=True)
    assert all(abs(a - b) <= 4 for a, b in edges)  # the outline's stroke is 4 px
    open_page = np.full((H, W, 3), 30, np.uint8)
    band = with_targets([hint], W, H, pixels=open_page)[0].target
    assert band is not None and (band.x1, band.x2) == (0, W)  # no outline: the row's band


def _chip(pixels: np.ndarray, box: tuple[int, int, int, int]) -> None:
    """A filter chip as Material draws it: a pill's grey outline on a white page."""
    from PIL import Image, ImageDraw

    im = Image.fromarray(pixels)
    ImageDraw.Draw(im).rounded_rectangle(
        box, radius=(box[3] - box[1]) // 2, outline=(200,) * 3, width=3
    )
    pixels[:] = np.asarray(im)


def test_a_label_in_a_chip_with_a_leading_icon_takes_the_whole_chip() -> None:
    pixels = np.full((H, W, 3), 255, np.uint8)
    _chip(pixels, (40, 1000, 400, 1100))
    pixels[1030:1070, 90:130] = (220, 60, 50)  # the chip's icon, before its label
    pixels[1032:1068, 160:340] = 90  # the label's ink
    label = _text((160, 1032, 340, 1068), "Images")
    chip = with_targets([label], W, H, pixels=pixels)[0].target
    assert chip is not None
    edges = zip(chip.as_tuple(), (40, 1000, 401, 1101), strict=True)
    assert all(abs(a - b) <= 3 for a, b in edges)
    _chip(pixels, (440, 1000, 800, 1100))  # a pill with no icon: its round ends bound it
    pixels[1032:1068, 520:720] = 90
    pill = with_targets([_text((520, 1032, 720, 1068), "Audio")], W, H, pixels=pixels)[0].target
    assert pill is not None and abs(pill.x1 - 440) <= 3 and abs(pill.x2 - 801) <= 3


def test_a_label_in_a_tables_cell_takes_the_cell_not_the_row_of_cells() -> None:
    pixels = np.full((H, W, 3), 255, np.uint8)
    pixels[1000:1003, 40:1040] = 120  # the row's top and bottom lines
    pixels[1097:1100, 40:1040] = 120
    for x in (40, 380, 720, 1037):  # the cells' walls join them into one grid
        pixels[1000:1100, x : x + 3] = 120
    pixels[1032:1068, 450:650] = 90
    cell = with_targets([_text((450, 1032, 650, 1068), "Total")], W, H, pixels=pixels)[0].target
    assert cell is not None and abs(cell.x1 - 380) <= 3 and abs(cell.x2 - 723) <= 3


def test_a_rows_leading_icon_takes_the_rows_title_and_a_trailing_one_does_not() -> None:
    # the simulator's settings row: icon, "Network & internet" over its summary, and a
    # delete icon at the row's end, which is a button of its own
    lead = Element(0, ElementKind.IMAGE, Box(64, 484, 122, 542), icon_label="wifi")
    title = _text((183, 459, 542, 508), "Network & internet")
    summary = _text((182, 522, 548, 570), "Mobile, Wi-Fi, hotspot")
    trail = Element(0, ElementKind.ICON, Box(960, 484, 1018, 542), icon_label="delete")
    out = with_targets([lead, title, summary, trail], W, H)
    band = out[1].target
    assert band is not None and out[0].caption == "Network & internet"
    assert out[0].label == "Network & internet" and out[0].target is not None
    assert out[0].target.width < band.width / 4  # its own touch square
    assert out[0].icon_label == "wifi" and out[1].text == "Network & internet"
    assert out[3].caption == "" and out[3].target is not None
    assert out[3].target.width < band.width / 4
    # a picture over LEAD_MAX_DP is no row's icon (a thumbnail, a card's image) ...
    side = int(LEAD_MAX_DP * DP) + 2
    big = Element(0, ElementKind.IMAGE, Box(20, 430, 20 + side, 430 + side))
    assert with_targets([big, title, summary], W, H)[0].caption == ""
    # ... but Material's 56-dp list image is (and a glyph in a detector box 49 dp tall:
    # MaterialFiles' folder "Download")
    side = int(56 * DP)
    avatar = Element(0, ElementKind.IMAGE, Box(20, 515 - side // 2, 20 + side, 515 + side // 2))
    assert with_targets([avatar, title, summary], W, H)[0].caption == "Network & internet"


def test_an_app_bars_navigation_icon_is_not_named_by_the_screens_title() -> None:
    # NewPipe's drawer button left of "What's New" near the top, and a back arrow
    # before a title further down (in a toolbar block, or recognised as "back")
    menu = Element(0, ElementKind.ICON, Box(56, 136, 112, 174))
    title = _text((210, 123, 532, 188), "What's New")
    assert with_targets([menu, title], W, H)[0].caption == ""
    back = Element(0, ElementKind.ICON, Box(40, 640, 100, 700), icon_label="back")
    page = _text((140, 640, 500, 700), "Network & internet")
    assert with_targets([back, page], W, H)[0].caption == ""
    arrow = dataclasses.replace(back, icon_label="")
    bar = Region(Box(0, 600, W, 740), BlockKind.TOOLBAR, "bar")
    assert with_targets([arrow, page], W, H, [bar])[0].caption == ""
    assert with_targets([arrow, page], W, H)[0].caption == "Network & internet"


def test_an_icon_in_a_dense_list_takes_the_line_beside_it_not_the_lists_first() -> None:
    # Markor's file list at 530 px wide: name over date, rows so close that the lines
    # form one item; each folder icon is named by the name beside it
    w = 530
    lines = [
        _text((68, 98, 346, 125), "/storage/emulated/0/Documents"),
        _text((62, 132, 127, 173), "blog"),
        _text((65, 163, 204, 194), "4.8.2019,20:50"),
        _text((62, 198, 164, 239), "cooking"),
        _text((65, 231, 203, 261), "4.8.2019,20:51"),
    ]
    icons = [
        Element(0, ElementKind.IMAGE, Box(20, 147, 52, 177)),
        Element(0, ElementKind.IMAGE, Box(20, 216, 52, 244)),
    ]
    out = with_targets([*icons, *lines], w, 1000)
    assert [out[0].caption, out[1].caption] == ["blog", "cooking"]


def test_rows_as_evenly_spaced_as_their_lines_are_told_apart_by_their_leading_pictures() -> None:
    # AeonDroid's moon phases: a name over a date, each row led by the moon's picture;
    # the gap from a date to the next name is the gap from a name to its date
    rows = []
    for k, (name, date) in enumerate([("New Moon", "2023-10-15"), ("Full Moon", "2023-10-29")]):
        y = 307 + 162 * k
        rows.append(Element(0, ElementKind.IMAGE, Box(0, y, 143, y + 142)))
        rows.append(_text((136, y, 469, y + 71), name))
        rows.append(_text((136, y + 86, 631, y + 145), date))
    third = _text((136, 631, 700, 702), "First Quarter Moon")
    out = with_targets([*rows, third], W, H)
    first, second = out[1].target, out[4].target
    assert first is not None and second is not None
    assert out[2].target == first and out[5].target == second and first != second
    assert first.y2 <= second.y1 + 1
    assert first.y1 <= 307 and first.y2 >= 307 + 145 and second.y2 >= 469 + 145
    # one picture beside a stack of lines (a paragraph by an avatar) keeps them together
    one = with_targets([rows[0], rows[1], rows[2], _text((136, 469, 600, 540), "more")], W, H)
    assert one[1].target == one[2].target == one[3].target


def test_tabs_beside_a_floating_button_keep_columns_as_wide_as_the_others() -> None:
    # Habitica's bottom bar: four tabs, a floating "+" between the second and third
    elements: list[Element] = []
    for k, name in enumerate(["Habits", "Dailies", "To Do's", "Rewards"]):
        cx = 119 + 237 * k + (128 if k >= 2 else 0)
        elements.append(Element(0, ElementKind.ICON, Box(cx - 40, 1785, cx + 40, 1866)))
        elements.append(_text((cx - 60, 1880, cx + 60, 1910), name))
    out = with_targets(elements, W, 2028)
    columns = [out[2 * k].target for k in range(4)]
    assert all(c is not None for c in columns)
    want = [(0, 238), (238, 475), (605, 842), (842, 1080)]  # the button's slot is no tab's
    for c, (x1, x2) in zip(columns, want, strict=True):
        assert c is not None and abs(c.x1 - x1) <= 4 and abs(c.x2 - x2) <= 4


def test_a_rows_trailing_value_and_its_title_both_take_the_whole_row() -> None:
    title = _text((180, 500, 480, 550), "Games")
    subtitle = _text((180, 560, 420, 600), "2 apps")
    value = _text((900, 500, 1040, 550), "17 GB")
    out = with_targets([title, subtitle, value], W, H)
    band, own = out[0].target, out[2].target
    assert band is not None and own is not None
    assert (band.x1, band.x2) == (own.x1, own.x2) == (0, W)
    star = with_targets([title, subtitle, _text((960, 500, 1020, 560), "☆")], W, H)
    assert star[0].target is not None and star[0].target.x2 == W  # a glyph read as a symbol
    # a second label without a digit, or one that does not end the row, still splits it
    for right in (_text((900, 500, 1040, 550), "Share"), _text((600, 500, 700, 550), "17 GB")):
        split = with_targets([title, subtitle, right], W, H)
        a = split[0].target
        assert a is not None and a.x2 <= right.box.x1
