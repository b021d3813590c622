"""The closed vocabularies of the records: element, block, sensitivity, action, direction, outcome.

Each is a ``StrEnum`` whose values are what the JSON documents hold.
"""

from __future__ import annotations

from enum import StrEnum


class ElementKind(StrEnum):
    """What an element is: the 12 widget classes of the detector, plus text and icon."""

    STATUS_BAR = "status_bar"
    NAVIGATION_BAR = "navigation_bar"
    BUTTON = "button"
    EDIT_TEXT = "edit_text"
    IMAGE = "image"
    PAGE_INDICATOR = "page_indicator"
    SEEK_BAR = "seek_bar"
    RATING_BAR = "rating_bar"
    CHECK_BOX = "check_box"
    RADIO_GROUP = "radio_group"
    SPINNER = "spinner"
    SWITCH = "switch"
    TEXT = "text"
    ICON = "icon"

    @property
    def words(self) -> str:
        """The kind as describe, the overlay's legend and the planners name it: the value
        in words, except ``radio_group`` (the detector's class name, one option each,
        with its label), which is a "radio button"."""
        return "radio button" if self is ElementKind.RADIO_GROUP else self.value.replace("_", " ")


#: The detector's classes, in the order of their YOLO class ids.
WIDGET_CLASSES: tuple[ElementKind, ...] = tuple(ElementKind)[:12]


class BlockKind(StrEnum):
    """What a block of the screen is."""

    GENERIC = "generic"
    STATUS_BAR = "status_bar"
    TOOLBAR = "toolbar"
    LIST = "list"
    GRID = "grid"
    CARD = "card"
    TAB_BAR = "tab_bar"
    DIALOG = "dialog"
    KEYBOARD = "keyboard"
    NAVIGATION_BAR = "navigation_bar"
    #: the page under a dialog's or a drawer's scrim, or around a popup menu: shown, but
    #: a tap there closes the dialog, drawer or menu (its caption says which)
    BEHIND = "behind"
    #: a popup menu (an overflow menu, a spinner's drop-down) over the page
    MENU = "menu"


class SensitiveCategory(StrEnum):
    """Why a screen needs the person (or ``NONE`` when it does not)."""

    NONE = "none"
    AUTHENTICATION = "authentication"
    PERSONAL_DATA = "personal_data"
    ACCOUNT = "account_management"
    PAYMENT = "payment"
    PERMISSION = "permission"


class ActionKind(StrEnum):
    """Everything the agent can do on the phone."""

    TAP = "tap"
    LONG_PRESS = "long_press"
    TYPE = "type"
    SWIPE = "swipe"
    SCROLL = "scroll"
    BACK = "back"
    HOME = "home"
    LAUNCH = "launch"
    WAIT = "wait"
    STOP = "stop"
    HANDOVER = "handover"


class Direction(StrEnum):
    """Scroll direction: the way the *content* moves into view ("down" shows what is below)."""

    UP = "up"
    DOWN = "down"
    LEFT = "left"
    RIGHT = "right"


class Outcome(StrEnum):
    """How a run ended."""

    RUNNING = "running"
    SUCCESS = "success"
    FAILURE = "failure"
    GAVE_UP = "gave_up"
    SAFETY_STOP = "safety_stop"
    ABORTED = "aborted"
    ERROR = "error"
