"""The declarative widget tree apps build their pages from, and its ground truth.

A page is a tree of small dataclasses, in dp and sp like an Android layout:

    Column([
        list_item("Wi-Fi", "HomeNet", icon="wifi", trailing=Switch(on, key="wifi")),
        Divider(),
        Row([Text("Brightness", weight=1), Spinner("Auto", key="mode")], padding=16),
    ], block=BlockKind.LIST)

Layout is one pass of ``measure(rc, max_w)`` (width constraint in, size out) and
one of ``render(rc, x, y, w, h)``. ``Column`` stacks vertically and stretches its
children to its width; ``Row`` lays out horizontally, giving ``weight`` children
the width left over; ``Grid`` makes equal cells. Sizes (``width``, ``height``,
``padding``, ``spacing``) are dp; font sizes are sp; ``RenderCtx.dp`` converts.

Every widget with a ``key`` is clickable: a tap on it sends an ``Event`` with
that key to the app (see ``apps/base.py``). While rendering, widgets report the
ground truth to ``RenderCtx``: ``TruthElement`` (kind, box, text, icon, flags,
block), ``TruthBlock`` (toolbar, list, card, dialog...) and ``Target`` (the hit
areas the phone tests taps against; last drawn is topmost).

One module per family: ``truth`` (what a render reports), ``context`` (``RenderCtx``),
``base`` (``Widget``), ``layout``, ``text``, ``controls``, ``pictures``,
``navigation``, ``overlays`` and ``composites``; all are importable from here.
"""

from screenpilot.simulator.widgets.base import Widget
from screenpilot.simulator.widgets.composites import card, list_item, list_view, section
from screenpilot.simulator.widgets.context import RenderCtx
from screenpilot.simulator.widgets.controls import (
    Button,
    CheckBox,
    EditText,
    RadioGroup,
    RatingBar,
    SeekBar,
    Spinner,
    Switch,
)
from screenpilot.simulator.widgets.layout import Column, Divider, Grid, Row, Spacer
from screenpilot.simulator.widgets.navigation import PageIndicator, Tab, TabBar
from screenpilot.simulator.widgets.overlays import Dialog, Fab
from screenpilot.simulator.widgets.pictures import Avatar, Image
from screenpilot.simulator.widgets.text import Icon, Text
from screenpilot.simulator.widgets.truth import Target, TruthBlock, TruthElement

__all__ = [
    "Avatar",
    "Button",
    "CheckBox",
    "Column",
    "Dialog",
    "Divider",
    "EditText",
    "Fab",
    "Grid",
    "Icon",
    "Image",
    "PageIndicator",
    "RadioGroup",
    "RatingBar",
    "RenderCtx",
    "Row",
    "SeekBar",
    "Spacer",
    "Spinner",
    "Switch",
    "Tab",
    "TabBar",
    "Target",
    "Text",
    "TruthBlock",
    "TruthElement",
    "Widget",
    "card",
    "list_item",
    "list_view",
    "section",
]
