"""View classes and dataset labels -> the detector's 12 widget classes.

Class mapping (to the 12 classes of :data:`screenpilot.model.WIDGET_CLASSES`)
-----------------------------------------------------------------------------
Android view classes (DroidBot states, RICO view hierarchies) are matched on
the class, then on RICO's ``ancestors`` (the superclasses), by simple name:

==========================================  ==============
RadioButton (+ AppCompat/Material)          radio_group (one box per option)
RadioGroup                                  radio_group, only when no option inside is kept
CheckBox, CheckedTextView (checkable)       check_box
Switch, SwitchCompat, SwitchMaterial,
ToggleButton                                switch
SeekBar, Slider (material)                  seek_bar
RatingBar                                   rating_bar
Spinner                                     spinner
EditText, AutoCompleteTextView,
TextInputEditText, SearchView's text field  edit_text
ImageButton, FloatingActionButton           button
Button (+ AppCompat/Material)               button
ImageView, android.widget.Image (WebView)   image
*PageIndicator*, *PagerIndicator*,
*DotsIndicator*, TabPageIndicator           page_indicator
==========================================  ==============

Every other class (layouts, TextView, WebView, lists...) is not a widget box,
with one exception when ``Filters.clickable_share`` is set (the harvest of real
screens sets 0.25): a clickable or long-clickable view of no widget class with
no text of its own or inside it, no widget inside it but images, and covering
at most that share of the screen becomes a ``button`` (a tappable icon, avatar,
card or picture whose extent is what a person taps; the images inside it are
then nested, not boxes of their own). A clickable view with text is read by
OCR (its text is what a person taps), one holding a switch or check box is that
widget, and a larger one is a page. With ``Filters.glyph_boxes`` a check box view
wider than twice its height (the square and its text) is boxed as its square.
RICO semantic annotations map ``componentLabel``: Text Button -> button, Icon
-> the Android mapping of its class, else image; Image -> image; Input ->
edit_text; Checkbox -> check_box; Radio Button -> radio_group; On/Off Switch ->
switch; Slider -> seek_bar; Pager Indicator -> page_indicator; Date Picker and
Number Stepper are skipped. VINS labels: TextButton -> button; Icon, Image ->
image; EditText -> edit_text; CheckBox, Checkbox, CheckedTextView, Remember ->
check_box; Switch -> switch; Spinner -> spinner; PageIndicator ->
page_indicator; UpperTaskBar -> status_bar; the rest (Text, Card, Modal,
Toolbar, Drawer, BackgroundImage, Multi_Tab, Map, Bottom_Navigation) skipped.

View hierarchies hold no system bars, so DroidBot and RICO data carry no
status_bar / navigation_bar boxes: those two classes cannot be measured there.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from screenpilot.datasets.convert.records import Node
from screenpilot.model import ElementKind

K = ElementKind

#: Simple Android class names -> widget class (checked most specific first).
ANDROID_CLASSES: dict[str, ElementKind] = {
    "RadioButton": K.RADIO_GROUP,
    "AppCompatRadioButton": K.RADIO_GROUP,
    "MaterialRadioButton": K.RADIO_GROUP,
    "RadioGroup": K.RADIO_GROUP,
    "CheckBox": K.CHECK_BOX,
    "AppCompatCheckBox": K.CHECK_BOX,
    "MaterialCheckBox": K.CHECK_BOX,
    "Switch": K.SWITCH,
    "SwitchCompat": K.SWITCH,
    "SwitchMaterial": K.SWITCH,
    "MaterialSwitch": K.SWITCH,
    "ToggleButton": K.SWITCH,
    "SeekBar": K.SEEK_BAR,
    "AppCompatSeekBar": K.SEEK_BAR,
    "Slider": K.SEEK_BAR,
    "RatingBar": K.RATING_BAR,
    "AppCompatRatingBar": K.RATING_BAR,
    "Spinner": K.SPINNER,
    "AppCompatSpinner": K.SPINNER,
    "EditText": K.EDIT_TEXT,
    "AppCompatEditText": K.EDIT_TEXT,
    "TextInputEditText": K.EDIT_TEXT,
    "AutoCompleteTextView": K.EDIT_TEXT,
    "AppCompatAutoCompleteTextView": K.EDIT_TEXT,
    "MultiAutoCompleteTextView": K.EDIT_TEXT,
    "SearchAutoComplete": K.EDIT_TEXT,
    "ImageButton": K.BUTTON,
    "AppCompatImageButton": K.BUTTON,
    "FloatingActionButton": K.BUTTON,
    "ExtendedFloatingActionButton": K.BUTTON,
    "Button": K.BUTTON,
    "AppCompatButton": K.BUTTON,
    "MaterialButton": K.BUTTON,
    "ImageView": K.IMAGE,
    "AppCompatImageView": K.IMAGE,
    "Image": K.IMAGE,
}
PAGE_INDICATOR_RE = re.compile(r"(Page|Pager|Dots|Circle)Indicator", re.IGNORECASE)

RICO_LABELS: dict[str, ElementKind | None] = {
    "Text Button": K.BUTTON,
    "Image": K.IMAGE,
    "Input": K.EDIT_TEXT,
    "Checkbox": K.CHECK_BOX,
    "Radio Button": K.RADIO_GROUP,
    "On/Off Switch": K.SWITCH,
    "Slider": K.SEEK_BAR,
    "Pager Indicator": K.PAGE_INDICATOR,
}
VINS_LABELS: dict[str, ElementKind] = {
    "TextButton": K.BUTTON,
    "Icon": K.IMAGE,
    "Image": K.IMAGE,
    "EditText": K.EDIT_TEXT,
    "CheckBox": K.CHECK_BOX,
    "Checkbox": K.CHECK_BOX,
    "CheckedTextView": K.CHECK_BOX,
    "Remember": K.CHECK_BOX,
    "Switch": K.SWITCH,
    "Spinner": K.SPINNER,
    "PageIndicator": K.PAGE_INDICATOR,
    "UpperTaskBar": K.STATUS_BAR,
}


def simple_name(cls: str) -> str:
    """``android.widget.Button`` -> ``Button``; ``a.b.Outer$Inner`` -> ``Inner``."""
    return cls.rsplit(".", 1)[-1].rsplit("$", 1)[-1]


def android_kind(
    cls: str, *, ancestors: Sequence[str] = (), checkable: bool = False
) -> ElementKind | None:
    """The widget class of an Android view class (or ``None``: not a widget box)."""
    for name in (cls, *ancestors):
        short = simple_name(name)
        if PAGE_INDICATOR_RE.search(short):
            return K.PAGE_INDICATOR
        if short == "CheckedTextView":
            return K.CHECK_BOX if checkable else None
        if short in ANDROID_CLASSES:
            return ANDROID_CLASSES[short]
    return None


def node_kind(node: Node) -> ElementKind | None:
    """The widget class of a node: its semantic label when it has one, else its class."""
    if node.label:
        if node.label == "Icon":
            return android_kind(node.cls, ancestors=node.ancestors) or K.IMAGE
        return RICO_LABELS.get(node.label)
    return android_kind(node.cls, ancestors=node.ancestors, checkable=node.checkable)
