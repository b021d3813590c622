"""Buttons drawn as a label on a shape, which the detector left as a text.

A button is a short line of text centred in a filled shape (a pill, a rounded
rectangle) or an outline, with room around it. Detector v4 scores many simulator
buttons under 0.1 ("Cancel", "Sign in with Google": 26 of 123 missed on the 236
screens of ``bench/vision_truth.py``), and their label stays a text.
:mod:`screenpilot.vision.targets` has already found the shape each text sits on
(its tap target); :func:`as_buttons` makes such a text a ``button`` with the shape's
box when:

- the text is one line of at least ``MIN_CHARS`` characters (an avatar's initial in
  a disc is a picture), centred in the shape (within ``CENTRED`` of its width and
  height from the middle);
- the shape is ``PAD_HEIGHT`` times the line's height and wider than the
  line by a line's height (a shape that hugs the text is a photo's or a
  highlight's), at most ``MAX_HEIGHT_DP`` tall, at least ``MIN_ASPECT`` times as wide
  as tall and under ``MAX_WIDTH`` of the screen (a full-width shape is a row's);
- an outline holds ink of full contrast (``states.faint`` is false): a faint line
  centred in an outline is a field's hint ("Enter username"), which the planner must
  still see as a field's.

On those 236 screens this takes button recall from 0.789 to 0.862 and precision
from 0.693 to 0.711 (no text became a button that is not one); on 200 real screens
of the harvest's train apps the tap targets hit stay 0.907, matched go 0.714 -> 0.712
and the share matched by the box alone 0.364 -> 0.370.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.blocks import dp_size
from screenpilot.vision.image import RGB
from screenpilot.vision.states import faint
from screenpilot.vision.targets import filled_shape

MIN_CHARS = 2
CENTRED = (0.1, 0.15)
PAD_HEIGHT = (1.3, 3.0)
MAX_HEIGHT_DP = 80.0
MIN_ASPECT = 1.8
MAX_WIDTH = 0.9


def as_buttons(
    pixels: RGB, texts: Sequence[Element], shapes: Mapping[Box, Box | None]
) -> tuple[list[Element], list[Element]]:
    """(the buttons whose labels are among ``texts``, with the shape's box; the other
    texts). ``shapes``: the shape each text line sits on, by its box, from
    ``targets.with_targets``."""
    h, w = pixels.shape[:2]
    dp = dp_size(w, h)
    buttons, rest = [], []
    for e in texts:
        shape = shapes.get(e.box)
        if (
            e.kind is ElementKind.TEXT
            and shape is not None
            and e.target == shape
            and _pill(e, shape, w, dp)
            and (not _faint_line(pixels, e.box) or filled_shape(pixels, e.box, dp) == shape)
        ):
            buttons.append(dataclasses.replace(e, kind=ElementKind.BUTTON, box=shape, target=None))
        else:
            rest.append(e)
    return buttons, rest


def _pill(e: Element, shape: Box, width: int, dp: float) -> bool:
    """Whether ``shape`` has a button's proportions around the line ``e``."""
    line = e.box
    return (
        len(e.text.strip()) >= MIN_CHARS
        and abs(line.center[0] - shape.center[0]) < CENTRED[0] * shape.width
        and abs(line.center[1] - shape.center[1]) < CENTRED[1] * shape.height
        and PAD_HEIGHT[0] * line.height <= shape.height <= PAD_HEIGHT[1] * line.height
        and shape.height <= MAX_HEIGHT_DP * dp
        and shape.width >= max(line.width + line.height, MIN_ASPECT * shape.height)
        and shape.width < MAX_WIDTH * width
    )


def _faint_line(pixels: RGB, line: Box) -> bool:
    return faint(pixels[line.y1 : line.y2, line.x1 : line.x2])


#: An outline's rounded end found as a blob: at least this share of its button's height ...
END_TALL = 0.85
#: ... at most this share of its own height wide ...
END_NARROW = 0.6


def outline_ends(widgets: Sequence[Element]) -> list[Element]:
    """``widgets`` without the unnamed icons that are a button's outline's rounded end:
    a blob across the button's left or right side, as tall as the button (``END_TALL``)
    and narrow (``END_NARROW``). A chip's outline is drawn darker at its ends than along
    its top and bottom (Seal's command shortcuts), so its "(" and ")" were found as
    blobs of ink beside the chip."""
    buttons = [e.box for e in widgets if e.kind is ElementKind.BUTTON]
    return [
        e for e in widgets if not (_unnamed_blob(e) and any(_end_of(e.box, b) for b in buttons))
    ]


def _unnamed_blob(e: Element) -> bool:
    return e.kind is ElementKind.ICON and not e.icon_label and not e.text


def _end_of(arc: Box, button: Box) -> bool:
    if arc.height < END_TALL * button.height or arc.width > END_NARROW * arc.height:
        return False
    if min(arc.y2, button.y2) - max(arc.y1, button.y1) < END_TALL * button.height:
        return False
    return arc.x1 < button.x1 < arc.x2 or arc.x1 < button.x2 < arc.x2
