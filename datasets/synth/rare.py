"""``rare`` screens: the approach's augmentation for the rare widget classes.

A random-colour canvas (flat or gradient) with a status bar and a navigation bar
(rendered at another size and stretched to the canvas width) at top and bottom,
then 4-12 widgets of the rare classes (page indicator, rating bar, seek bar,
spinner, check box, switch, radio group, plus a few buttons / fields / images)
placed without overlap where the renderer's pages place them (:data:`PLACEMENT`),
each with brightness, contrast, colour-balance and transparency jitter applied to
its own pixels only.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Literal

import numpy as np
import numpy.typing as npt

from screenpilot.datasets.synth.env import hex_color, rand_env
from screenpilot.datasets.synth.labels import clip_box, truth_boxes
from screenpilot.datasets.synth.pictures import Picture
from screenpilot.datasets.synth.screen import Rng, SynthScreen
from screenpilot.datasets.synth.texts import Texts
from screenpilot.datasets.yolo import LabeledBox
from screenpilot.model import ElementKind
from screenpilot.simulator.widgets import Widget

if TYPE_CHECKING:
    from PIL import Image as PILImage

K = ElementKind
RARE_CLASSES: tuple[ElementKind, ...] = (
    K.PAGE_INDICATOR,
    K.RATING_BAR,
    K.SEEK_BAR,
    K.SPINNER,
    K.CHECK_BOX,
    K.SWITCH,
    K.RADIO_GROUP,
)
Anchor = Literal["left", "right", "center", "wide", "any"]
#: Where the rare classes sit on the renderer's pages (x anchor, y range as a
#: fraction of the body between the bars): what the ``rare`` screens draw from.
PLACEMENT: dict[ElementKind, tuple[Anchor, tuple[float, float]]] = {
    K.PAGE_INDICATOR: ("center", (0.15, 0.95)),
    K.RATING_BAR: ("left", (0.05, 0.95)),
    K.SEEK_BAR: ("wide", (0.05, 0.95)),
    K.SPINNER: ("any", (0.0, 1.0)),
    K.CHECK_BOX: ("left", (0.0, 1.0)),
    K.SWITCH: ("right", (0.0, 1.0)),
    K.RADIO_GROUP: ("left", (0.0, 1.0)),
    K.BUTTON: ("any", (0.0, 1.0)),
    K.EDIT_TEXT: ("wide", (0.0, 1.0)),
    K.IMAGE: ("any", (0.0, 1.0)),
}


def rare_widget(rng: Rng, t: Texts, kind: ElementKind) -> Widget:
    """A widget of ``kind`` with random parameters."""
    from screenpilot.simulator import widgets as w

    makers: dict[ElementKind, Callable[[], Widget]] = {
        K.PAGE_INDICATOR: lambda: w.PageIndicator(
            count=(n := rng.randint(2, 8)), index=rng.randrange(n)
        ),
        K.RATING_BAR: lambda: w.RatingBar(
            rating=rng.randint(0, 10) / 2,
            size=rng.choice([14, 18, 24, 28, 36]),
            stars=rng.choice([5, 5, 5, 4, 10]),
        ),
        K.SEEK_BAR: lambda: w.SeekBar(value=rng.random(), width=rng.randint(120, 380)),
        K.SPINNER: lambda: w.Spinner(text=t.words(1, 3), width=rng.choice([None, 140, 220])),
        K.CHECK_BOX: lambda: w.CheckBox(
            checked=rng.random() < 0.5, label=t.words(1, 4) if rng.random() < 0.6 else ""
        ),
        K.SWITCH: lambda: w.Switch(checked=rng.random() < 0.5),
        K.RADIO_GROUP: lambda: w.RadioGroup(
            options=[t.words(1, 3) for _ in range(rng.randint(1, 4))],
            selected=rng.randrange(-1, 3),
            width=260,
        ),
        K.BUTTON: lambda: w.Button(
            text=t.words(1, 2), style=rng.choice(["filled", "tonal", "outlined"])
        ),
        K.EDIT_TEXT: lambda: w.EditText(
            field="x",
            hint=t.words(1, 3),
            style=rng.choice(["outlined", "filled", "search"]),
            width=rng.randint(160, 380),
        ),
        K.IMAGE: lambda: Picture(
            seed=rng.randrange(10**6), width=rng.randint(40, 200), aspect=rng.uniform(0.5, 1.5)
        ),
    }
    return makers[kind]()


def _canvas(rng: Rng, w: int, h: int) -> npt.NDArray[np.uint8]:
    a = np.array([rng.randrange(256) for _ in range(3)], dtype=np.float32)
    if rng.random() < 0.6:
        return np.broadcast_to(a, (h, w, 3)).astype(np.uint8).copy()
    b = np.array([rng.randrange(256) for _ in range(3)], dtype=np.float32)
    ramp = np.linspace(0, 1, h, dtype=np.float32)[:, None, None]
    return np.broadcast_to(a + (b - a) * ramp, (h, w, 3)).astype(np.uint8).copy()


def system_bars(rng: Rng, width: int) -> tuple[PILImage.Image, PILImage.Image]:
    """A status bar and a navigation bar rendered at a random size, stretched to ``width``."""
    from PIL import Image

    from screenpilot.simulator.render import (
        Page,
        nav_bar_height,
        render_page,
        status_bar_height,
    )
    from screenpilot.simulator.widgets import Spacer

    env = rand_env(rng)
    frame = render_page(Page(body=Spacer(), toolbar=False), env)
    spec = env.spec
    sh, nh = status_bar_height(spec), nav_bar_height(spec, env.nav_mode)
    scale = width / spec.width
    status = frame.image.crop((0, 0, spec.width, sh))
    nav = frame.image.crop((0, spec.height - nh, spec.width, spec.height))
    size = Image.Resampling.BILINEAR
    return (
        status.resize((width, max(4, round(sh * scale))), size),
        nav.resize((width, max(4, round(nh * scale))), size),
    )


def rare_screen(rng: Rng) -> SynthScreen:
    """The approach's augmentation: random canvas, stretched bars, placed rare widgets."""
    from PIL import Image

    from screenpilot.simulator.render import SIZES

    base = rng.choice(list(SIZES.values()))
    width, height = base.width, base.height
    pixels = _canvas(rng, width, height)
    status, nav = system_bars(rng, width)
    canvas = Image.fromarray(pixels)
    canvas.paste(status, (0, 0))
    canvas.paste(nav, (0, height - nav.height))
    boxes = [
        LabeledBox(K.STATUS_BAR, 0, 0, width, status.height),
        LabeledBox(K.NAVIGATION_BAR, 0, height - nav.height, width, height),
    ]
    lum = float(
        np.asarray(
            canvas.crop((0, status.height, width, height - nav.height)), dtype=np.float32
        ).mean()
    )
    scale = base.dpi * rng.uniform(0.85, 1.15) / 160
    t = Texts(rng, zh=rng.random() < 0.3)
    placed: list[tuple[float, float, float, float]] = []
    for _ in range(rng.randint(4, 12)):
        kind = (
            rng.choice(RARE_CLASSES)
            if rng.random() < 0.8
            else rng.choice([K.BUTTON, K.EDIT_TEXT, K.IMAGE])
        )
        boxes += place_widget(
            canvas, rng, t, kind, scale, lum < 110, (status.height, height - nav.height), placed
        )
    return SynthScreen(
        canvas,
        tuple(b for b in boxes if clip_box(b, canvas.size)),
        "rare",
        {"size": f"{width}x{height}"},
    )


def place_widget(
    canvas: PILImage.Image,
    rng: Rng,
    t: Texts,
    kind: ElementKind,
    scale: float,
    dark: bool,
    band: tuple[int, int],
    placed: list[tuple[float, float, float, float]],
) -> list[LabeledBox]:
    """Draw one widget at a free position drawn from :data:`PLACEMENT`, with jitter.
    Appends its footprint to ``placed``; returns its boxes (none when it did not fit)."""
    from screenpilot.simulator.draw import Painter
    from screenpilot.simulator.theme import ACCENTS, make_theme
    from screenpilot.simulator.widgets import RenderCtx

    accent = rng.choice(list(ACCENTS)) if rng.random() < 0.6 else hex_color(rng, 30, 220)
    theme = make_theme(dark, accent)
    widget = rare_widget(rng, t, kind)
    probe = RenderCtx(Painter(canvas), theme, scale)
    w, h = (math.ceil(v) for v in widget.measure(probe, canvas.width * 0.9))
    spot = _free_spot(rng, kind, w, h, canvas.width, band, placed)
    if spot is None:
        return []
    x, y = spot
    region = canvas.crop((x, y, x + w, y + h))
    before = np.asarray(region, dtype=np.float32)
    rc = RenderCtx(Painter(region), theme, scale)
    widget.render(rc, 0, 0, w, h)
    after = _jitter(rng, region)
    changed = (np.abs(np.asarray(region, dtype=np.float32) - before).sum(axis=2) > 0)[..., None]
    alpha = rng.uniform(0.6, 1.0)
    mixed = before + (after - before) * changed * alpha
    from PIL import Image

    canvas.paste(Image.fromarray(np.clip(mixed, 0, 255).astype(np.uint8)), (x, y))
    placed.append((x, y, x + w, y + h))
    return [
        LabeledBox(b.kind, b.x1 + x, b.y1 + y, b.x2 + x, b.y2 + y)
        for b in truth_boxes(rc.elements, rc.targets, (w, h))
    ]


def _jitter(rng: Rng, region: PILImage.Image) -> npt.NDArray[np.float32]:
    """Brightness, contrast and colour-balance jitter of a widget's pixels."""
    from PIL import ImageEnhance

    out = ImageEnhance.Brightness(region).enhance(rng.uniform(0.7, 1.3))
    out = ImageEnhance.Contrast(out).enhance(rng.uniform(0.7, 1.3))
    gains = np.array([rng.uniform(0.85, 1.15) for _ in range(3)], dtype=np.float32)
    return np.asarray(out, dtype=np.float32) * gains


def _free_spot(
    rng: Rng,
    kind: ElementKind,
    w: int,
    h: int,
    width: int,
    band: tuple[int, int],
    placed: Sequence[tuple[float, float, float, float]],
    tries: int = 25,
) -> tuple[int, int] | None:
    """A top-left corner for a ``w`` x ``h`` widget that overlaps nothing placed."""
    anchor, (ylo, yhi) = PLACEMENT.get(kind, ("any", (0.0, 1.0)))
    top, bottom = band
    if w >= width or h >= bottom - top:
        return None
    margin = 6
    for _ in range(tries):
        x = _anchor_x(rng, anchor, w, width)
        span = bottom - top - h
        y = top + round(span * rng.uniform(ylo, yhi))
        box = (x - margin, y - margin, x + w + margin, y + h + margin)
        if not any(_overlap(box, other) for other in placed):
            return x, y
    return None


def _anchor_x(rng: Rng, anchor: Anchor, w: int, width: int) -> int:
    edge = round(width * rng.uniform(0.02, 0.08))
    if anchor == "left":
        x = edge
    elif anchor == "right":
        x = width - edge - w
    elif anchor == "center":
        x = round((width - w) / 2 + rng.uniform(-0.05, 0.05) * width)
    elif anchor == "wide":
        x = round((width - w) * rng.uniform(0.3, 0.7))
    else:
        x = rng.randint(0, max(0, width - w))
    return min(max(0, x), max(0, width - w))


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
