"""Screenshot -> ``Screen``: OCR, widget detection, icon labels, blocks, grouping.

:func:`describe` returns the ``Screen``; :func:`analyse` also returns what each
stage did (:class:`StageReport`: ran, skipped, unavailable or failed, with its
time and a note), so a caller can say when the description was made without a
detector or icon model. Stages:

- ``ocr``: text lines (:mod:`screenpilot.vision.ocr`), on the calling thread;
- ``detect``: widgets from any object with ``detect(image) -> [element-like]``
  (``kind`` as ``ElementKind`` or its name, ``box`` as ``Box`` or ``xyxy``,
  ``confidence``), run on a worker thread *while* OCR runs; by default the
  shipped ``models/detector.onnx`` when it exists;
- ``icons``: labels for image/icon/button elements with no text, from any
  object with ``label(crops) -> [(label, score)]``;
- ``blocks``: bars, lists, cards, dialogs (:mod:`screenpilot.vision.blocks`),
  also on a worker thread.

Grouping (:mod:`screenpilot.vision.group`) always runs, with the states read from
pixels (:mod:`screenpilot.vision.states`) and the blocks (:mod:`screenpilot.vision.layout`).
Elements get ids from 1 in reading order (top to bottom, left to right), blocks from 1
top to bottom. The shipped models are found by :mod:`screenpilot.vision.shipped`.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import os
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from screenpilot.errors import ScreenpilotError, VisionError
from screenpilot.model import BlockKind, Box, Element, ElementKind, Screen
from screenpilot.vision import blocks as blocks_mod
from screenpilot.vision import group
from screenpilot.vision import weak as weak_mod
from screenpilot.vision.answers import checked_answer
from screenpilot.vision.backdrop import find_backdrop_pictures
from screenpilot.vision.blobs import content_area, find_icons, ink_of, page_of, trim_dots
from screenpilot.vision.caret import strip_carets
from screenpilot.vision.charts import chart_areas, on_chart
from screenpilot.vision.checkboxes import same_square, with_check_boxes
from screenpilot.vision.checkgrid import complete_grid
from screenpilot.vision.density import PHONE_DP, density_scope, in_context, short_side
from screenpilot.vision.detect import Detector as OnnxDetector
from screenpilot.vision.discs import (
    add_discs,
    add_round_buttons,
    find_discs,
    find_round_buttons,
)
from screenpilot.vision.drawings import find_drawings, in_drawings
from screenpilot.vision.fields import confirmed_fields, found_fields
from screenpilot.vision.framing import model_view
from screenpilot.vision.glyphread import BoxReader, box_reader, read_glyphs
from screenpilot.vision.glyphrules import (
    LETTER_GLYPHS,
    MAX_SIDE,
    glyph_read,
    name_drawn_glyphs,
)
from screenpilot.vision.glyphs import search_glyphs
from screenpilot.vision.gridcells import is_grid_cell
from screenpilot.vision.image import RGB, ImageInput, load_image, off_median
from screenpilot.vision.inkbox import settle_boxes
from screenpilot.vision.layout import (
    across,
    build_screen,
    is_blacked_out,
    merge_bars,
    one_per_kind,
)
from screenpilot.vision.markcharts import mark_charts, on_marks
from screenpilot.vision.menulines import bar_blocks, cut_at_menu, menu_between
from screenpilot.vision.monograms import (
    drop_glyph_reads,
    drop_monograms,
    lone_marks,
    pictured_reads,
    settle_title_glyphs,
    title_glyphs,
)
from screenpilot.vision.navkeys import keys_of_bar
from screenpilot.vision.ocr import DEFAULT_THRESHOLD, OcrBackend, TextLine, get_backend, read_tiled
from screenpilot.vision.overlays import drop_misreads, find_overlays
from screenpilot.vision.panels import drawer_edge
from screenpilot.vision.pills import as_buttons, outline_ends
from screenpilot.vision.radios import with_radio_buttons
from screenpilot.vision.shapes import RULE_INK, blob_switch, by_shape, is_rule, switch_drawn
from screenpilot.vision.shipped import (
    MODELS_DIR,
    Detector,
    IconLabeller,
    default_detector,
    default_icons,
)
from screenpilot.vision.sliders import crosses_text, is_knob_read, with_sliders
from screenpilot.vision.stars import star_rows
from screenpilot.vision.states import with_state
from screenpilot.vision.statusglyphs import status_glyphs
from screenpilot.vision.steppers import name_steppers
from screenpilot.vision.targets import with_targets
from screenpilot.vision.textgaps import split_wide_gaps
from screenpilot.vision.twins import drop_twins

log = logging.getLogger("screenpilot.vision")

#: Widgets whose drawing OCR may read as one character ("X", "%", "□", a back arrow "K").
DRAWN = (
    ElementKind.ICON,
    ElementKind.IMAGE,
    ElementKind.CHECK_BOX,
    ElementKind.SWITCH,
    ElementKind.BUTTON,
    ElementKind.RADIO_GROUP,
)
STAGES: tuple[str, ...] = ("ocr", "detect", "icons", "blocks")
Status = Literal["ran", "skipped", "unavailable", "failed"]
T = TypeVar("T")
#: Re-exported: callers import the shipped models and the secure-screen test from here.
__all__ = [
    "MODELS_DIR",
    "STAGES",
    "Description",
    "Detector",
    "IconLabeller",
    "Observations",
    "StageReport",
    "analyse",
    "as_element",
    "assemble",
    "default_detector",
    "default_icons",
    "describe",
    "is_blacked_out",
    "observe",
    "run_detector",
]


@dataclass(frozen=True, slots=True)
class StageReport:
    """What one stage did: ``ran``, ``skipped`` (not asked for), ``unavailable`` or ``failed``."""

    name: str
    status: Status
    seconds: float = 0.0
    note: str = ""


@dataclass(frozen=True, slots=True)
class Description:
    """A described screen and the report of every stage."""

    screen: Screen
    stages: tuple[StageReport, ...]
    seconds: float

    @property
    def notices(self) -> list[str]:
        """One line per stage that was asked for but did not run."""
        return [f"{s.name}: {s.note}" for s in self.stages if s.status in ("unavailable", "failed")]

    @property
    def timings(self) -> dict[str, float]:
        return {s.name: s.seconds for s in self.stages if s.status == "ran"} | {
            "total": self.seconds
        }

    def stage(self, name: str) -> StageReport:
        return next(s for s in self.stages if s.name == name)


@dataclass(frozen=True, slots=True)
class Observations:
    """The model outputs a screen is assembled from (what incremental describe reuses)."""

    lines: tuple[TextLine, ...]
    widgets: tuple[Element, ...]


# --------------------------------------------------------------------------- stages

#: The icon model reads a picture only when its short side is at most this share of
#: the screen's short side (82 dp of a 411 dp phone): it learnt icons of 16-48 dp drawn
#: and 10-80 dp cut from real screens, and names a video's thumbnail as if it were one.
ICON_MAX_SHORT = 0.2

#: Widgets inside which the blob finder looks for icons (a field's leading and
#: trailing icons, a drop-down's check or arrow); not buttons (their glyph is theirs).
INSIDE_SEARCHED = frozenset({ElementKind.EDIT_TEXT, ElementKind.SPINNER})


#: Kinds a picture found on a backdrop may be boxed twice as (``vision.twins``).
BOXED_TWICE = frozenset({ElementKind.IMAGE, ElementKind.ICON, ElementKind.BUTTON})


#: Detected kinds that must hold more than a line across them (``shapes.is_rule``).
RULED = (ElementKind.BUTTON, ElementKind.IMAGE, ElementKind.ICON)
#: ... and more than a ruled grid's lines (``gridcells.is_grid_cell``).
GRIDDED = (*RULED, ElementKind.EDIT_TEXT, ElementKind.SPINNER)


def _lines_only(pixels: RGB, element: Element) -> bool:
    """Whether a detected ``element`` holds nothing but a divider (``shapes.is_rule``,
    for the kinds in ``RULED``) or a ruled grid's lines on the page (``gridcells.is_grid_cell``,
    for those in ``GRIDDED``): its ink on its median colour is found once for both."""
    if element.kind not in GRIDDED:
        return False
    ink = off_median(pixels, element.box, RULE_INK)
    return (element.kind in RULED and is_rule(pixels, element.box, ink)) or is_grid_cell(
        pixels, element.box, ink
    )


def _timed(fn: Callable[[], T]) -> tuple[T, float]:
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


def as_element(item: Any) -> Element | None:
    """A detector's element-like record as an ``Element`` (None for unknown kinds)."""
    if isinstance(item, Element):
        return item
    kind = getattr(item, "kind", None)
    try:
        kind = ElementKind(kind) if kind is not None else None
    except ValueError:
        kind = None
    box = getattr(item, "box", None)
    if box is None and hasattr(item, "xyxy"):
        box = Box.of(*item.xyxy)
    elif isinstance(box, tuple | list):
        box = Box.of(*box)
    if kind is None or not isinstance(box, Box):
        return None
    conf = float(getattr(item, "confidence", getattr(item, "score", 1.0)))
    return Element(
        0, kind, box, confidence=min(1.0, max(0.0, conf)), checked=getattr(item, "checked", None)
    )


def run_detector(detector: Detector, image: RGB) -> list[Element]:
    """``detector.detect(image)`` as elements, plus the seek bars and check boxes only
    the pixels show (``vision.sliders``, ``vision.checkboxes``, ``vision.checkgrid``);
    the detector's failures leave as ``VisionError``. An ONNX detector at the threshold
    ``assemble`` knows (``vision.weak.STRONG_CONF``) is asked down to ``WEAK_CONF``: its
    boxes under that threshold come last, as they are (``assemble`` keeps those nothing
    else covers); a detector at any other threshold is asked at its own."""
    strong = weak_mod.STRONG_CONF
    found: Sequence[Any]
    try:
        if isinstance(detector, OnnxDetector) and detector.conf == strong:
            found = detector.detect(image, conf=weak_mod.WEAK_CONF)
        else:
            found = detector.detect(image)
    except ScreenpilotError:
        raise
    except Exception as exc:  # onnxruntime and friends: translated at this boundary
        raise VisionError(f"widget detector failed: {exc}") from exc
    h, w = image.shape[:2]
    out: list[Element] = []
    weak: list[Element] = []
    for item in found:
        e = as_element(item)
        if e is not None and e.kind is not ElementKind.TEXT:
            box = Box.of(max(0, e.box.x1), max(0, e.box.y1), min(w, e.box.x2), min(h, e.box.y2))
            (out if e.confidence >= strong else weak).append(dataclasses.replace(e, box=box))
    found = with_radio_buttons(image, with_check_boxes(image, with_sliders(image, out)))
    return complete_grid(image, found) + weak


def _resolve_stages(stages: Iterable[str]) -> tuple[str, ...]:
    chosen = tuple(dict.fromkeys(s.strip() for s in stages if s.strip()))
    unknown = [s for s in chosen if s not in STAGES]
    if unknown:
        raise VisionError(
            f"unknown stage(s) {', '.join(unknown)}", hint=f"choose from {', '.join(STAGES)}"
        )
    if not chosen:
        raise VisionError("no stage chosen", hint=f"choose from {', '.join(STAGES)}")
    return chosen


# --------------------------------------------------------------------------- describe


def describe(
    image: ImageInput,
    *,
    stages: Iterable[str] = STAGES,
    detector: Detector | None = None,
    icons: IconLabeller | None = None,
    ocr_threshold: float = DEFAULT_THRESHOLD,
    ocr: OcrBackend | None = None,
    density: float | None = None,
) -> Screen:
    """What is on ``image``, as a ``Screen`` (see :func:`analyse`)."""
    return analyse(
        image,
        stages=stages,
        detector=detector,
        icons=icons,
        ocr_threshold=ocr_threshold,
        ocr=ocr,
        density=density,
    ).screen


def analyse(
    image: ImageInput,
    *,
    stages: Iterable[str] = STAGES,
    detector: Detector | None = None,
    icons: IconLabeller | None = None,
    ocr_threshold: float = DEFAULT_THRESHOLD,
    ocr: OcrBackend | None = None,
    density: float | None = None,
) -> Description:
    """Describe ``image`` and report each stage; ``None`` models mean the shipped ones
    (``density``: the phone's dpi, which sizes a tablet's screen; ``vision.density``)."""
    start = time.perf_counter()
    chosen = _resolve_stages(stages)
    pixels = load_image(image)
    reports: dict[str, StageReport] = {}
    with density_scope(density):
        obs = observe(pixels, chosen, detector=detector, ocr=ocr, reports=reports)
        lines = tuple(line for line in obs.lines if line.score >= ocr_threshold)
        reader = box_reader(ocr or get_backend()) if "ocr" in chosen else None
        screen = assemble(
            pixels,
            Observations(lines, obs.widgets),
            chosen,
            icons=icons,
            reports=reports,
            reader=reader,
        )
    if isinstance(image, str | os.PathLike):
        screen = dataclasses.replace(screen, image_path=str(image))
    ordered = tuple(reports.get(s, StageReport(s, "skipped")) for s in (*STAGES, "group"))
    return Description(screen, ordered, time.perf_counter() - start)


def observe(
    pixels: RGB,
    stages: Sequence[str],
    *,
    detector: Detector | None,
    ocr: OcrBackend | None,
    reports: dict[str, StageReport],
    region: Box | None = None,
    span: int | None = None,
) -> Observations:
    """OCR (this thread) and detection (a worker thread, at the same time) on ``pixels``
    (``span``: the screen's short side when ``pixels`` is a crop of it, as OCR takes it)."""
    det, note = (detector, "") if detector is not None else (None, "")
    if "detect" in stages and det is None:
        det, note = default_detector()
    with ThreadPoolExecutor(max_workers=1) as pool:
        future: Future[tuple[list[Element], float]] | None = None
        if "detect" in stages and det is not None:
            future = pool.submit(_timed, in_context(functools.partial(run_detector, det, pixels)))
        elif "detect" in stages:
            reports["detect"] = StageReport("detect", "unavailable", note=note)
        lines: list[TextLine] = []
        if "ocr" in stages:
            engine = ocr or get_backend()
            lines, secs = _timed(functools.partial(read_tiled, engine, pixels, span=span))
            reports["ocr"] = StageReport("ocr", "ran", secs, f"{len(lines)} lines")
        widgets: list[Element] = []
        if future is not None:
            widgets, secs = future.result()
            reports["detect"] = StageReport("detect", "ran", secs, f"{len(widgets)} widgets")
    return Observations(tuple(lines), tuple(widgets))


def assemble(
    pixels: RGB,
    obs: Observations,
    stages: Sequence[str],
    *,
    icons: IconLabeller | None,
    reports: dict[str, StageReport],
    reader: BoxReader | None = None,
) -> Screen:
    """Group observations into a ``Screen``: match texts, label icons, divide blocks, ids
    (``reader``: the OCR engine, which reads numbers the text detector missed)."""
    h, w = pixels.shape[:2]
    span = short_side(w, h)  # sizes from the short side (a phone on its side)
    obs = Observations(tuple(settle_boxes(pixels, obs.lines)), obs.widgets)
    menu: Box | None = None
    if "blocks" in stages:  # a popup menu is one of the blocks: lines cut at its edge
        sure = [e for e in obs.widgets if e.confidence >= weak_mod.STRONG_CONF]
        menu = menu_between(pixels, bar_blocks([(e.box, e.kind.value) for e in sure]))
        obs = Observations(tuple(cut_at_menu(pixels, obs.lines, reader, menu)), obs.widgets)
    with ThreadPoolExecutor(max_workers=1) as pool:
        regions_future = (
            pool.submit(_timed, in_context(functools.partial(blocks_mod.divide, pixels)))
            if "blocks" in stages
            else None
        )
        start = time.perf_counter()
        texts = [
            Element(
                0,
                ElementKind.TEXT,
                line.box,
                text=group.strip_glyph(line.text),
                confidence=min(1.0, line.score),
            )
            for line in strip_carets(pixels, split_wide_gaps(pixels, obs.lines))
        ]
        line_boxes = [line.box for line in obs.lines]
        words = [line.box for line in obs.lines if not is_knob_read(line.text, line.box)]
        seen = [  # a "seek bar" through a text line is the text's strike-through or rule
            switch_drawn(pixels, by_shape(e))  # and a square "switch" is a picture (a round
            # button), a picture of a track with a thumb at one end a switch
            for e in obs.widgets
            if not (e.kind is ElementKind.SEEK_BAR and crosses_text(e.box, words))
        ]
        seen = [  # a drawer's divider found as a button holds nothing but its line,
            e  # a calendar's empty hours found as a field nothing but the grid's lines
            for e in seen
            if not _lines_only(pixels, e)
        ]
        charts = chart_areas(texts, w)  # a chart's bands found as buttons and fields
        dots = mark_charts(texts, seen, w)  # and a chart's marks by weekday
        seen = [e for e in seen if not on_chart(e, charts, texts) and not on_marks(e, dots)]
        texts = [t for t in texts if not on_marks(t, dots)]  # a dot read "●"
        bars = [e.box for e in seen if e.kind is ElementKind.SEEK_BAR]
        texts = [  # the knob read as a symbol is the bar's, not a text
            t
            for t in texts
            if not (is_knob_read(t.text, t.box) and any(b.contains(*t.box.center) for b in bars))
        ]
        sure = [e for e in seen if e.confidence >= weak_mod.STRONG_CONF]
        sure = confirmed_fields(pixels, sure, line_boxes)  # a title is no field
        bar_regions = one_per_kind(  # two parts of one bar stretched across are one bar
            [
                blocks_mod.Region(across(e.box, w, h), BlockKind(e.kind.value), "detect")
                for e in sure
                if e.kind.value in ("status_bar", "navigation_bar")
            ]
        )
        widgets = drop_twins(  # one picture boxed twice by the detector is one
            pixels, [e for e in sure if e.kind.value not in ("status_bar", "navigation_bar")]
        )
        doubtful = [  # under the detector's threshold: kept where nothing else was found
            e
            for e in seen
            if e.confidence < weak_mod.STRONG_CONF
            and e.kind.value not in ("status_bar", "navigation_bar")
            # nor a loose box round a found check box (the check box it is)
            and not any(c.kind is ElementKind.CHECK_BOX and same_square(c.box, e) for c in sure)
            and not weak_mod.is_blank(pixels, e.box)  # nor a box with nothing drawn in it
        ]
        widgets += weak_mod.keep_weak(doubtful, [e.box for e in (*texts, *sure)], span)
        page = page_of(pixels)  # the rows' backgrounds, for icon blobs and discs
        if "detect" in stages:  # icons the detector missed, as blobs of ink
            # (inside a field too: a search bar's back arrow, a clear or voice button)
            lone = title_glyphs(texts)  # an arrow read as "K" hides no icon from the search
            known = [e.box for e in texts if e not in lone] + [r.box for r in bar_regions]
            known += [e.box for e in widgets if e.kind not in INSIDE_SEARCHED]
            ink = ink_of(pixels, page)
            blobs = find_icons(
                pixels, known, [content_area(w, h)], [e.box for e in texts], page=page, ink=ink
            )
            # a map drawn in thin lines: one picture, not its islands as icons
            sure_boxes = [e.box for e in widgets if e.confidence >= weak_mod.STRONG_CONF]
            drawings = find_drawings(
                pixels, [e.box for e in texts] + sure_boxes + [r.box for r in bar_regions], ink=ink
            )
            blobs = [b for b in blobs if not in_drawings(b, drawings)]
            widgets = [
                e
                for e in widgets
                if e.confidence >= weak_mod.STRONG_CONF or not in_drawings(e, drawings)
            ] + drawings
            blobs = [blob_switch(pixels, b) for b in blobs]  # a switch's thumb on its track
            texts, blobs = settle_title_glyphs(texts, lone, blobs)
            texts = trim_dots(texts, blobs)
            numbers, blobs = read_glyphs(pixels, blobs, reader)  # a lone "1" the OCR missed
            texts, widgets = texts + numbers, widgets + blobs
            for bar in (r.box for r in bar_regions if r.kind is BlockKind.NAVIGATION_BAR):
                widgets += keys_of_bar(pixels, bar, [*texts, *widgets])  # no blob looked there
            widgets = star_rows(pixels, widgets)  # a row of star blobs is a rating bar
            # glyphs drawn over every picture of a grid (a photo picker's badges)
            pictures = [e.box for e in widgets if e.kind is ElementKind.IMAGE]
            overlays = find_overlays(pixels, pictures, texts)
            texts, widgets = drop_misreads(texts, overlays), widgets + overlays
            avatars = [e for e in widgets if e.kind is ElementKind.IMAGE]
            texts = drop_monograms(texts, avatars)  # a contact's initials in its avatar
            drawn = [e for e in sure if e.kind in DRAWN]
            texts = drop_glyph_reads(texts, drawn)  # an icon read as "X", a check box as "□"
        texts, drawings = pictured_reads(texts, widgets, span / PHONE_DP)  # a picture read
        widgets += drawings  # as one huge letter ("回")
        texts, marks = lone_marks(pixels, texts, widgets)  # a close glyph read "X", alone
        widgets += marks
        discs = find_discs(
            pixels,
            [e.box for e in texts],
            [e.box for e in widgets if e.kind is ElementKind.IMAGE],
            page=page,
        )
        widgets = add_discs(widgets, discs)
        if "detect" in stages:  # round buttons by their outline: on a map or photo too
            round_buttons = find_round_buttons(pixels, [e.box for e in texts])
            widgets = add_round_buttons(widgets, [c for c in round_buttons if c not in discs])
            # pictures on a wallpaper or a camera's view (a launcher's dock icons)
            buttons = [e for e in widgets if e.kind is ElementKind.BUTTON]
            others = [e for e in (*texts, *widgets) if e.kind is not ElementKind.BUTTON]
            known = [e.box for e in others] + [r.box for r in bar_regions]
            backdrop = find_backdrop_pictures(pixels, known, panels=[e.box for e in buttons])
            widgets = drop_twins(pixels, widgets + backdrop, kinds=BOXED_TWICE, new=backdrop)
        texts, widgets = search_glyphs(texts, widgets, w, h)
        # rows first, so that a switch or a tile named by a text takes its row / tile
        fills: dict[Box, Box | None] = {}  # the filled shapes found, for the second pass
        drawer = drawer_edge(pixels)  # an open drawer's edge, where its rows end
        texts = with_targets(
            texts,
            w,
            h,
            neighbours=[e.box for e in widgets],
            pixels=pixels,
            fills=fills,
            drawer=drawer,
        )
        fields = found_fields(pixels, texts, widgets, fills)  # outlined fields it missed
        widgets += [f for f in fields if not on_chart(f, charts, texts)]  # not grid bands
        widgets = [e for e in widgets if not on_marks(e, dots)]  # blobs, discs on the marks
        texts = [t for t in texts if not on_marks(t, dots)]
        widgets, free = _match_texts(pixels, widgets, texts, menu, 0.035 * span)
        buttons, free = as_buttons(pixels, free, fills)  # a label centred on its shape
        widgets = outline_ends(widgets + buttons)  # no blob of a chip's rounded end
        text_boxes = [t.box for t in texts]
        widgets = [with_state(pixels, e, text_boxes) for e in widgets]
        elements = _ordered(widgets + free, h)
        group_secs = time.perf_counter() - start
        if "icons" in stages:
            elements = name_steppers(_label_icons(pixels, elements, icons, reports))
        regions: list[blocks_mod.Region] = []
        if regions_future is not None:
            regions, secs = regions_future.result()
            reports["blocks"] = StageReport("blocks", "ran", secs, f"{len(regions)} regions")
    start = time.perf_counter()
    merged_bars = merge_bars(regions, bar_regions)
    # a status bar's glyphs read as letters ("à", "中") are icons
    status = [r.box for r in merged_bars if r.kind is BlockKind.STATUS_BAR]
    elements = status_glyphs(elements, status)
    elements = with_targets(elements, w, h, regions, pixels=pixels, fills=fills, drawer=drawer)
    screen = build_screen(
        pixels,
        elements,
        merged_bars,
        collections="blocks" in stages,
        drawer=drawer,
    )
    reports["group"] = StageReport("group", "ran", group_secs + time.perf_counter() - start)
    return screen


def _match_texts(
    pixels: RGB,
    widgets: list[Element],
    texts: list[Element],
    menu: Box | None,
    max_dist: float,
) -> tuple[list[Element], list[Element]]:
    """``group.match_texts``, the inside of an open popup menu apart from the page around
    it: a check box of the menu takes no label from the page behind it."""
    if menu is None:
        return group.match_texts(widgets, texts, max_dist=max_dist, pixels=pixels)
    matched: list[Element] = []
    free: list[Element] = []
    for inside in (True, False):
        side_widgets = [e for e in widgets if menu.contains(*e.box.center) is inside]
        side_texts = [e for e in texts if menu.contains(*e.box.center) is inside]
        got, left = group.match_texts(side_widgets, side_texts, max_dist=max_dist, pixels=pixels)
        matched, free = matched + got, free + left
    return matched, free


def _ordered(elements: list[Element], height: int) -> list[Element]:
    """Elements in reading order with ids 1, 2, ... (rows as ``Screen.reading_order``)."""
    row = max(8, height // 120)
    items = sorted(elements, key=lambda e: (e.box.center[1] // row, e.box.x1, e.box.y1))
    return [dataclasses.replace(e, id=i) for i, e in enumerate(items, start=1)]


def _label_icons(
    pixels: RGB,
    elements: list[Element],
    icons: IconLabeller | None,
    reports: dict[str, StageReport],
) -> list[Element]:
    out = name_drawn_glyphs(pixels, elements)
    labeller, note = (icons, "") if icons is not None else default_icons()
    if labeller is None:
        reports["icons"] = StageReport("icons", "unavailable", note=note)
        return out
    short = short_side(pixels.shape[1], pixels.shape[0])
    largest = MAX_SIDE * short
    cells = group.numbered_cells(out)  # a calendar's day cells are no glyphs
    todo = [
        i
        for i, e in enumerate(out)
        if not e.icon_label
        and i not in cells
        and e.kind in group.PICTURES
        and min(e.box.width, e.box.height) <= ICON_MAX_SHORT * short
        and (
            not e.text
            or (
                (glyph_read(e.text) or e.text.strip() in LETTER_GLYPHS)
                and max(e.box.width, e.box.height) <= largest
            )
        )
    ]
    boxes = [model_view(pixels, out[i].box) for i in todo]
    crops = [pixels[b.y1 : b.y2, b.x1 : b.x2] for b in boxes]
    start = time.perf_counter()
    try:
        labels = list(labeller.label(crops)) if crops else []
    except ScreenpilotError:
        raise
    except Exception as exc:
        raise VisionError(f"icon labeller failed: {exc}") from exc
    for i, box, answer in zip(todo, boxes, labels, strict=False):
        label = str(answer[0] if isinstance(answer, tuple) else getattr(answer, "label", ""))
        label = checked_answer(pixels, box, label)
        allowed = LETTER_GLYPHS.get(out[i].text.strip())
        if allowed is not None and label not in allowed:
            if out[i].kind is ElementKind.ICON:  # a lone read made an icon
                out[i] = dataclasses.replace(out[i], kind=ElementKind.TEXT, clickable=False)
            continue  # a letter stays a letter unless the model sees its glyph
        if label and label != "unknown":
            out[i] = dataclasses.replace(out[i], text="", icon_label=label)
    reports["icons"] = StageReport(
        "icons", "ran", time.perf_counter() - start, f"{len(crops)} crops"
    )
    return out
