"""Counts of items in a shop's commands, quantity steppers in the pixels and the
offline planner's stepper rule (language/quantity.py, vision/discs.py,
vision/steppers.py, planner/offline/stepper.py and places.py)."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw

from screenpilot.language import parse_command
from screenpilot.language.quantity import Count, count_of
from screenpilot.language.taskparse import parse_task
from screenpilot.model import Action, ActionKind, Box, Element, ElementKind, Screen, Step
from screenpilot.planner.offline.places import is_destination, is_place, place_of
from screenpilot.planner.offline.stepper import set_quantity, steppers
from screenpilot.vision.discs import add_discs, find_discs, glyph_crop
from screenpilot.vision.group import match_texts
from screenpilot.vision.steppers import name_steppers


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("Add 3 coffee mugs to my cart", Count(3, "coffee mugs")),
        ("Change the quantity of the backpack in my cart to 2", Count(2, "backpack")),
        ("Set the Backpack quantity to 2", Count(2, "Backpack")),
        ("make it 2 backpacks in my basket", Count(2, "backpacks")),
        ("buy 2x backpack", Count(2, "backpack")),
        ("put 2 more pens in the cart", Count(2, "pens")),
        ("set the quantity to 3 please", Count(3, "")),
        ("把购物车里背包的数量改成2", Count(2, "背包")),
        ("买三个杯子", Count(3, "杯子")),
    ],
)
def test_counts_of_items_as_people_say_them(text: str, count: Count) -> None:
    assert count_of(text) == count


@pytest.mark.parametrize(
    "text",
    [
        "Set a 5 minute timer",  # a unit, not a count
        "Add 2 cities to the world clock",  # no shop's words
        "Add the Running Shoes in size 10 to my cart",  # a size is a name
        "Apply the promo code SAVE10 in my cart",
        "Pay $45 for my order",
        "Turn the brightness to 50 percent",
    ],
)
def test_numbers_that_are_no_count_of_items(text: str) -> None:
    assert count_of(text) is None


def test_a_parsed_command_carries_its_count() -> None:
    intent = parse_task(parse_command("Put three Coffee Mugs in my cart").canonical)
    assert (intent.count, intent.counted.lower()) == (3, "coffee mugs")
    assert parse_task("Turn on wifi").count is None


def test_the_place_a_command_adds_to_or_finds_in() -> None:
    adding = parse_task(parse_command("Add 3 coffee mugs to my cart").canonical)
    assert is_destination(adding, "cart") and is_destination(adding, "Shopping cart")
    assert not is_destination(adding, "Add to cart") and not is_destination(adding, "Coffee Mug")
    assert place_of(adding) == ""
    inside = parse_task(
        parse_command("Change the quantity of the backpack in my cart to 2").canonical
    )
    assert place_of(inside) == "cart" and is_place(inside, "cart outline")
    # a count to change with no place named lives in the cart, one to add does not
    assert place_of(parse_task("Set the Backpack quantity to 2")) == "cart"
    assert place_of(parse_task("Remove the coffee mug")) == ""


def el(
    i: int, kind: ElementKind, box: tuple[int, int, int, int], text: str = "", **kw: object
) -> Element:
    return Element(i, kind, Box(*box), text=text, **kw)  # type: ignore[arg-type]


def product_page(qty: int, title: str = "Coffee Mug") -> Screen:
    return Screen(
        1080,
        2400,
        elements=(
            el(1, ElementKind.TEXT, (30, 960, 350, 1040), title),
            el(2, ElementKind.TEXT, (30, 1300, 200, 1370), "Quantity"),
            el(3, ElementKind.ICON, (700, 1286, 808, 1390), icon_label="decrease"),
            el(4, ElementKind.BUTTON, (816, 1262, 921, 1391), str(qty)),
            el(5, ElementKind.IMAGE, (934, 1286, 1038, 1390), icon_label="increase"),
            el(6, ElementKind.BUTTON, (6, 1425, 1059, 1519), "Add to cart"),
        ),
    )


def cart_page(qtys: dict[str, int]) -> Screen:
    items: list[Element] = [el(1, ElementKind.TEXT, (180, 130, 310, 200), "Cart")]
    for k, (name, qty) in enumerate(qtys.items()):
        y = 280 + 400 * k
        i = 10 + 10 * k
        items += [
            el(i, ElementKind.TEXT, (286, y, 486, y + 56), name),
            el(i + 1, ElementKind.ICON, (42, y + 240, 136, y + 334), icon_label="decrease"),
            el(i + 2, ElementKind.TEXT, (178, y + 264, 207, y + 306), str(qty)),
            el(i + 3, ElementKind.ICON, (252, y + 240, 346, y + 334), icon_label="increase"),
            el(i + 4, ElementKind.TEXT, (864, y + 264, 1012, y + 310), "Remove"),
        ]
    return Screen(1080, 2400, elements=tuple(items))


def tap(screen: Screen, element: int) -> Step:
    return Step(0, screen, Action(ActionKind.TAP, element=element))


def test_a_product_page_is_stepped_to_the_count_then_added() -> None:
    intent = parse_task(parse_command("Add 3 coffee mugs to my cart").canonical)
    one, two, three = product_page(1), product_page(2), product_page(3)
    d = set_quantity(intent, one, [])
    assert d is not None and d.action.element == 5  # "+"
    d = set_quantity(intent, two, [tap(one, 5)])
    assert d is not None and d.action.element == 5
    history = [tap(one, 5), tap(two, 5)]
    d = set_quantity(intent, three, history)
    assert d is not None and d.action.element == 6  # then "Add to cart"
    # once the act is tapped, its own rule ends the task
    assert set_quantity(intent, three, [*history, tap(three, 6)]) is None
    # another product's page is not stepped
    assert set_quantity(intent, product_page(1, "Backpack"), []) is None


def test_the_cart_row_of_the_named_item_is_stepped_down_and_done() -> None:
    intent = parse_task(parse_command("Set the coffee mug quantity in my cart to 1").canonical)
    cart = cart_page({"Cotton T-Shirt": 1, "Coffee Mug": 2})
    assert len(steppers(cart)) == 2
    d = set_quantity(intent, cart, [])
    assert d is not None and d.action.element == 21  # the mug's "-", not the shirt's
    done = cart_page({"Cotton T-Shirt": 1, "Coffee Mug": 1})
    d = set_quantity(intent, done, [tap(cart, 21)])
    assert d is not None and d.action.kind is ActionKind.STOP and d.action.done


def test_a_number_that_does_not_move_stops_without_claiming_done() -> None:
    intent = parse_task(
        parse_command("Change the quantity of the backpack in my cart to 3").canonical
    )
    cart = cart_page({"Backpack": 1})
    d = set_quantity(intent, cart, [tap(cart, 13)])
    assert d is not None and d.action.kind is ActionKind.STOP and not d.action.done


def test_a_product_page_is_not_the_cart_a_command_names() -> None:
    intent = parse_task(
        parse_command("Change the quantity of the backpack in my cart to 2").canonical
    )
    assert set_quantity(intent, product_page(1, "Backpack"), []) is None


def _stepper_png(tmp_w: int = 1080) -> np.ndarray:
    """A light page with a '-' and a '+' in light grey discs (Material tonal buttons):
    the top of a phone's screen in portrait (sizes are shares of its short side)."""
    img = Image.new("RGB", (tmp_w, 1600), (252, 249, 253))
    d = ImageDraw.Draw(img)
    for cx, glyph in ((150, "-"), (450, "+")):
        d.ellipse((cx - 52, 248, cx + 52, 352), fill=(232, 228, 236))
        d.line((cx - 18, 300, cx + 18, 300), fill=(30, 30, 30), width=6)
        if glyph == "+":
            d.line((cx, 282, cx, 318), fill=(30, 30, 30), width=6)
    d.text((295, 285), "1", fill=(30, 30, 30))
    return np.asarray(img)


def test_tonal_disc_buttons_are_found_and_cut_to_their_glyph() -> None:
    px = _stepper_png()
    discs = find_discs(px, [], [])
    assert len(discs) == 2
    assert all(abs(b.width - 104) <= 6 and abs(b.center[1] - 300) <= 4 for b in discs)
    inner = glyph_crop(px, discs[0])
    assert inner.width < discs[0].width and inner.center == pytest.approx(discs[0].center, abs=2)
    # a disc a text covers (an avatar's letter) is left out; so is one inside a photo
    assert find_discs(px, [discs[0]], []) == [discs[1]]
    assert find_discs(px, [], [Box(0, 0, 1080, 600)]) == []
    # a plain page has none
    assert find_discs(np.full((1600, 1080, 3), 250, np.uint8), [], []) == []


def test_a_detected_disc_takes_the_disc_box_and_a_missed_one_is_added() -> None:
    px = _stepper_png()
    discs = sorted(find_discs(px, [], []), key=lambda b: b.x1)
    loose = el(
        0,
        ElementKind.BUTTON,
        (discs[0].x1 - 15, discs[0].y1 - 15, discs[0].x2 + 5, discs[0].y2 + 5),
    )
    out = add_discs([loose], discs)
    assert out[0].box == discs[0] and len(out) == 2 and out[1].kind is ElementKind.ICON


def test_stepper_buttons_are_named_beside_a_number_only() -> None:
    els = [
        el(1, ElementKind.ICON, (42, 520, 136, 614), icon_label="remove"),
        el(2, ElementKind.TEXT, (178, 544, 207, 586), "1"),
        el(3, ElementKind.ICON, (252, 520, 346, 614), icon_label="add"),
        el(4, ElementKind.ICON, (900, 520, 994, 614), icon_label="add"),  # a FAB far away
    ]
    named = name_steppers(els)
    assert [e.icon_label for e in named] == ["decrease", "", "increase", "add"]


def test_a_rating_bar_does_not_take_the_item_name_above_it() -> None:
    bar = el(0, ElementKind.RATING_BAR, (87, 1685, 231, 1736))
    name = el(0, ElementKind.TEXT, (60, 1600, 300, 1650), "Coffee Mug")
    widgets, free = match_texts([bar], [name], max_dist=38)
    assert free == [name] and widgets[0].caption == ""


def test_the_star_of_add_to_favorites_is_the_act_not_a_destination() -> None:
    fav = parse_task(parse_command("Add Grace Park to my favorites.").canonical)
    assert not is_destination(fav, "star")
