"""Synthetic widget-detector data: random screens from the virtual phone's renderer.

Three kinds of screen, mixed by ``mix`` (default ``app`` 0.3, ``layout`` 0.45,
``rare`` 0.25), each drawn at one of the four phone sizes (``render.SIZES``,
density jittered by +-15 %):

``app``
    A page of the real apps of :class:`~screenpilot.simulator.phone.VirtualPhone`
    (Settings, the launcher, and every app registered in ``simulator.apps``)
    in a random state: theme, locale (en/zh), accent, navigation mode, font
    scale, clock, battery, then a walk of 0-5 taps on random hit targets,
    sometimes text typed into a focused field and a scroll.
``layout``
    A page composed here from the declarative widgets: lists, forms, cards,
    grids, carousels, product pages, chats, with random chrome (app bar and its
    actions, overflow menu, tab bar, FAB), dialogs, keyboards, toasts, scroll
    offsets, page colours, English and Chinese text, random Material Design
    icons, and pictures drawn here (photo-like noise, gradients, patterns) plus
    unlabelled clutter (progress bars, bands, dots).
``rare``
    The approach's augmentation: a random-colour canvas (flat or gradient)
    with a status bar and a navigation bar (rendered at another size and
    stretched to the canvas width) at top and bottom, then 4-12 widgets of the
    rare classes (page indicator, rating bar, seek bar, spinner, check box,
    switch, radio group, plus a few buttons / fields / images) placed without
    overlap where the renderer's pages place them (:data:`PLACEMENT`: switches
    at the right edge, check boxes and radios at the left, page indicators
    centred, seek bars wide...), each with brightness, contrast, colour-balance
    and transparency jitter applied to its own pixels only.

Labels come from the renderer's ground truth (``Frame.elements``) by
:func:`truth_boxes`: the 12 widget classes are kept as drawn, except that a
radio group becomes one box per option (radio circle to the end of its label,
the convention of the DroidBot/RICO converters); text is dropped; an icon is an
``image`` (VINS' convention, and ImageView in view hierarchies), boxed by its
touch target when it is an icon button (a small target around it), except
icons inside the status bar, navigation bar or keyboard, which belong to them.

Everything is deterministic by ``(seed, index)``: screen ``i`` is the same
whatever the number of workers (for one version of the simulator: a newly
installed app changes the ``app`` screens). Images are written as JPEG with the long side
at most ``max_side`` through :func:`screenpilot.datasets.yolo.write_yolo`
(YOLO labels, COCO JSON, data.yaml).

One module per part: ``generate`` (screen ``i`` of a run), ``layouts``, ``apps`` and
``rare`` (the three kinds), ``labels`` (truth -> boxes), ``texts``, ``pictures`` and
``env`` (what the screens are made of), ``screen`` (the record) and ``run`` (the
dataset a run writes, behind ``screenpilot dataset synth``).
"""

from screenpilot.datasets.synth.apps import app_screen
from screenpilot.datasets.synth.generate import DEFAULT_MIX, KINDS, generate_screen
from screenpilot.datasets.synth.labels import frame_boxes, icon_box, radio_options, truth_boxes
from screenpilot.datasets.synth.layouts import layout_screen
from screenpilot.datasets.synth.pictures import Picture
from screenpilot.datasets.synth.rare import PLACEMENT, RARE_CLASSES, place_widget, rare_screen
from screenpilot.datasets.synth.run import (
    DROIDBOT_TRAIN_APPS,
    SynthConfig,
    SynthReport,
    counts_table,
    make_sample,
    parse_mix,
    synthesize,
)
from screenpilot.datasets.synth.screen import SynthScreen
from screenpilot.datasets.synth.texts import Texts

__all__ = [
    "DEFAULT_MIX",
    "DROIDBOT_TRAIN_APPS",
    "KINDS",
    "PLACEMENT",
    "RARE_CLASSES",
    "Picture",
    "SynthConfig",
    "SynthReport",
    "SynthScreen",
    "Texts",
    "app_screen",
    "counts_table",
    "frame_boxes",
    "generate_screen",
    "icon_box",
    "layout_screen",
    "make_sample",
    "parse_mix",
    "place_widget",
    "radio_options",
    "rare_screen",
    "synthesize",
    "truth_boxes",
]
