"""Where a shop's command puts or finds a thing: "add X to my cart" ends in the cart
(the cart icon is not the way to X); "the backpack in my cart" is found in the cart
(the cart is the way, and a product's page is not the place)."""

from __future__ import annotations

import re

from screenpilot.language.taskparse import TaskIntent
from screenpilot.language.words import stems
from screenpilot.model import ElementKind, Screen
from screenpilot.planner.offline.acts import ADD_TO, is_act

#: Words a label of a place may carry besides its name ("Shopping cart", "View cart").
_PLACE_WORDS = frozenset(stems("shop shopping my your view open go to the"))
#: "in my cart", "in the Shop cart", "from my basket", "购物车里".
_IN_PLACE = re.compile(
    r"\b(?:in|inside|from|on)\s+(?:my|the|your)\s+(?:\w+\s+)?"
    r"(cart|basket|bag|trolley|wish ?list|favou?rites|playlist)\b|(购物车)",
    re.I,
)
#: Verbs of commands that add a count of a thing (a product page's stepper, then its
#: "Add to cart"), rather than change the count already in the cart.
_ADDING = frozenset({"add", "buy", "order", "purchase", "get", "put", "need", "want"})
#: A page's title is in this top share of the screen.
TITLE_BAND = 0.15


def _only(label: str, place: str) -> bool:
    words = stems(label) - _PLACE_WORDS
    return bool(words) and words <= stems(place)


def is_destination(intent: TaskIntent, label: str) -> bool:
    """Whether ``label`` names only the place an "add X to my cart" puts X (the cart
    icon): that page is where the command ends, not the way to X."""
    onto = ADD_TO.search(intent.text)
    if onto is None or is_act(intent, label):
        return False  # "add X to my favorites": the star is the act itself
    return _only(label, onto.group(1))


def place_of(intent: TaskIntent) -> str:
    """The place the command finds its thing in ("cart" for "the backpack in my cart"),
    or "" (none named, or the command adds the thing there)."""
    if ADD_TO.search(intent.text):
        return ""
    m = _IN_PLACE.search(intent.text)
    if m is not None:
        return "cart" if m.group(2) else m.group(1).lower()
    if intent.count is not None and intent.verb not in _ADDING:
        return "cart"  # "set the backpack quantity to 2": an item's count lives in the cart
    return ""


def is_place(intent: TaskIntent, label: str) -> bool:
    """Whether ``label`` names the place the command finds its thing in."""
    place = place_of(intent)
    return bool(place) and _only(label, place)


def place_open(intent: TaskIntent, screen: Screen) -> bool:
    """Whether the screen is the place the command names (its title says so), or no
    place is named."""
    place = place_of(intent)
    if not place:
        return True
    want = stems(place)
    return any(
        e.kind is ElementKind.TEXT
        and e.box.y2 <= TITLE_BAND * screen.height
        and want <= stems(e.text)
        for e in screen.elements
    )
