"""Numbers the text detector missed, read where a blob of ink was found.

A text detector of the DB kind (rapidocr's) finds lines, and misses a lone narrow
character: a stepper's quantity "1", a badge's "3". ``find_icons`` then reports its ink
as an unnamed icon, and the planner sees a "-" and a "+" with nothing between them (the
int8 text detector missed the Shop app's quantity and the offline planner added one
mug instead of three). :func:`read_glyphs` runs the recogniser alone on each unnamed
blob that is text-sized (``MIN_H``-``MAX_H`` of the screen's width high, no wider than
``MAX_RATIO`` heights) over the blob's box grown by ``PAD`` heights, and a blob read as
one to four digits with a score of at least ``SCORE``, no wider than ``DIGIT_RATIO``
heights a digit (a ring read as "0" is rounder than any digit), becomes a text.

    >>> texts, blobs = read_glyphs(pixels, blobs, engine)   # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Protocol, cast

from screenpilot.model import Box, Element, ElementKind
from screenpilot.vision.density import short_side
from screenpilot.vision.image import RGB
from screenpilot.vision.ocr import TextLine

#: A blob read is this high, as a share of the screen's width (16-65 px at 1080).
MIN_H, MAX_H = 0.015, 0.06
#: ... and at most this many heights wide.
MAX_RATIO = 3.0
#: Each side of the blob's box grows by this many heights before it is read.
PAD = 0.3
#: The least recogniser score taken.
SCORE = 0.9
#: A digit's ink is at most this many heights wide (Roboto's widest, "4", ~0.65).
DIGIT_RATIO = 0.75
NUMBER = re.compile(r"^[0-9]{1,4}$")


class BoxReader(Protocol):
    """What reads given boxes: ``RapidOcrBackend.read_boxes``."""

    def read_boxes(self, image: RGB, boxes: Sequence[Box]) -> list[TextLine]: ...


def box_reader(engine: object) -> BoxReader | None:
    """``engine`` when it can read given boxes (rapidocr's backend can; others, None)."""
    return cast(BoxReader, engine) if callable(getattr(engine, "read_boxes", None)) else None


def _candidate(e: Element, width: int) -> bool:
    b = e.box
    return (
        e.kind is ElementKind.ICON
        and not e.text
        and not e.icon_label
        and MIN_H * width <= b.height <= MAX_H * width
        and b.width <= MAX_RATIO * b.height
    )


def read_glyphs(
    pixels: RGB, blobs: Sequence[Element], reader: BoxReader | None
) -> tuple[list[Element], list[Element]]:
    """(texts read, the blobs left) of ``blobs`` (see the module docstring)."""
    h, w = pixels.shape[:2]
    todo = [e for e in blobs if _candidate(e, short_side(w, h))] if reader is not None else []
    if not todo or reader is None:
        return [], list(blobs)
    grown = []
    for e in todo:
        pad = round(PAD * e.box.height)
        b = e.box
        grown.append(
            Box(max(0, b.x1 - pad), max(0, b.y1 - pad), min(w, b.x2 + pad), min(h, b.y2 + pad))
        )
    lines = reader.read_boxes(pixels, grown)
    texts: list[Element] = []
    read: set[int] = set()
    for e, line in zip(todo, lines, strict=True):
        digits = line.text.strip()
        if (
            line.score >= SCORE
            and NUMBER.match(digits)
            and e.box.width <= DIGIT_RATIO * len(digits) * e.box.height
        ):
            texts.append(
                dataclasses.replace(
                    e, kind=ElementKind.TEXT, text=digits, clickable=False, confidence=line.score
                )
            )
            read.add(id(e))
    return texts, [e for e in blobs if id(e) not in read]
