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
"""

from __future__ import annotations

import functools
import math
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

from screenpilot.datasets.yolo import LabeledBox, Sample, write_yolo
from screenpilot.errors import DataError
from screenpilot.model import WIDGET_CLASSES, Box, ElementKind
from screenpilot.simulator.widgets import Widget

if TYPE_CHECKING:
    from PIL import Image as PILImage

    from screenpilot.simulator.render import Frame, RenderEnv
    from screenpilot.simulator.widgets import RenderCtx, Target, TruthElement

K = ElementKind
KINDS: tuple[str, ...] = ("app", "layout", "rare")
DEFAULT_MIX: dict[str, float] = {"app": 0.3, "layout": 0.45, "rare": 0.25}
RARE_CLASSES: tuple[ElementKind, ...] = (K.PAGE_INDICATOR, K.RATING_BAR, K.SEEK_BAR,
                                         K.SPINNER, K.CHECK_BOX, K.SWITCH, K.RADIO_GROUP)
Anchor = Literal["left", "right", "center", "wide", "any"]
#: Where the rare classes sit on the renderer's pages (x anchor, y range as a
#: fraction of the body between the bars): what the ``rare`` screens draw from.
PLACEMENT: dict[ElementKind, tuple[Anchor, tuple[float, float]]] = {
    K.PAGE_INDICATOR: ("center", (0.15, 0.95)), K.RATING_BAR: ("left", (0.05, 0.95)),
    K.SEEK_BAR: ("wide", (0.05, 0.95)), K.SPINNER: ("any", (0.0, 1.0)),
    K.CHECK_BOX: ("left", (0.0, 1.0)), K.SWITCH: ("right", (0.0, 1.0)),
    K.RADIO_GROUP: ("left", (0.0, 1.0)), K.BUTTON: ("any", (0.0, 1.0)),
    K.EDIT_TEXT: ("wide", (0.0, 1.0)), K.IMAGE: ("any", (0.0, 1.0)),
}
MIN_SIDE = 3.0
#: The DroidBot apps (../shared/data/droidbot) the shipped detector trains on; every
#: other app there is kept out of training and measured (app-level split).
DROIDBOT_TRAIN_APPS: tuple[str, ...] = (
    "com.android.browser", "com.android.launcher", "com.android.launcher3",
    "com.google.android.apps.nexuslauncher")
Rng = random.Random
RGB = tuple[int, int, int]


# --------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class SynthScreen:
    """One generated screen: its pixels and its widget boxes (image pixels)."""

    image: PILImage.Image
    boxes: tuple[LabeledBox, ...]
    kind: str
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SynthConfig:
    """What :func:`synthesize` makes (see the module docstring)."""

    n: int = 1000
    seed: int = 0
    val_share: float = 0.1
    max_side: int = 1280
    mix: tuple[tuple[str, float], ...] = tuple(DEFAULT_MIX.items())

    def __post_init__(self) -> None:
        if self.n < 1:
            raise DataError(f"--n must be at least 1, not {self.n}")
        if not 0.0 <= self.val_share < 1.0:
            raise DataError(f"--val-share {self.val_share} must be in [0, 1)")
        if self.max_side < 64:
            raise DataError(f"--max-side {self.max_side} is too small (at least 64)")
        unknown = [k for k, _ in self.mix if k not in KINDS]
        if unknown or not any(w > 0 for _, w in self.mix):
            raise DataError(f"bad screen mix {dict(self.mix)}",
                            hint=f"positive weights for some of {', '.join(KINDS)}")


@dataclass(slots=True)
class SynthReport:
    """What a run produced: counts per screen kind, split and class, and the time."""

    data_yaml: Path | None = None
    kinds: Counter[str] = field(default_factory=Counter)
    splits: Counter[str] = field(default_factory=Counter)
    boxes: Counter[str] = field(default_factory=Counter)
    fallbacks: int = 0
    seconds: float = 0.0

    def add(self, sample: Sample) -> None:
        self.kinds[str(sample.meta.get("kind", sample.app))] += 1
        self.splits[sample.split] += 1
        self.boxes.update(b.kind.value for b in sample.boxes)
        self.fallbacks += int(bool(sample.meta.get("fallback")))

    def class_counts(self) -> dict[str, int]:
        """Boxes per class, all 12 classes in YOLO id order (zeros included)."""
        return {k.value: self.boxes.get(k.value, 0) for k in WIDGET_CLASSES}


# --------------------------------------------------------------------------- truth -> labels


def truth_boxes(elements: Sequence[TruthElement], targets: Sequence[Target] = (),
                size: tuple[int, int] | None = None, *,
                exclude: Sequence[Box] = ()) -> list[LabeledBox]:
    """The renderer's truth mapped to the 12 widget classes (see the module docstring).

    ``exclude``: regions whose icons are not boxes of their own (the keyboard);
    the status and navigation bars found among ``elements`` are added to it."""
    bars = [e.box for e in elements if e.kind in (K.STATUS_BAR, K.NAVIGATION_BAR)]
    covered = [*bars, *exclude]
    texts = [e for e in elements if e.kind is K.TEXT]
    out: list[LabeledBox] = []
    for e in elements:
        if e.kind is K.RADIO_GROUP:
            out += radio_options(e.box, [t.box for t in texts])
        elif e.kind in WIDGET_CLASSES:
            out.append(_labeled(e.kind, e.box.as_tuple()))
        elif e.kind is K.ICON and not any(_inside(e.box, c) for c in covered):
            out.append(_labeled(K.IMAGE, icon_box(e.box, targets)))
    return [b for b in (_clip_box(b, size) for b in out) if b is not None]


def frame_boxes(frame: Frame) -> list[LabeledBox]:
    """Widget boxes of a rendered frame."""
    exclude = [frame.keyboard_box] if frame.keyboard_box is not None else []
    return truth_boxes(frame.elements, frame.targets, frame.size, exclude=exclude)


def radio_options(group: Box, texts: Sequence[Box]) -> list[LabeledBox]:
    """A radio group as one box per option: its row, from the circle to the label's end."""
    labels = sorted((t for t in texts if group.contains(*t.center)), key=lambda t: t.y1)
    if not labels:
        return [_labeled(K.RADIO_GROUP, group.as_tuple())]
    row = group.height / len(labels)
    out = []
    for label in labels:
        cy = (label.y1 + label.y2) / 2
        x2 = min(float(group.x2), label.x2 + row * 0.15)
        out.append(_labeled(K.RADIO_GROUP, (group.x1, cy - row / 2, x2, cy + row / 2)))
    return out


def icon_box(icon: Box, targets: Sequence[Target]) -> tuple[float, float, float, float]:
    """An icon's box: its touch target when that is small (an icon button), else the glyph."""
    side = max(icon.width, icon.height, 1)
    cx, cy = icon.center
    fits = [t.box for t in targets if t.box.contains(cx, cy)
            and max(t.box.width, t.box.height) <= 3.2 * side]
    if fits:
        best = min(fits, key=lambda b: b.area)
        return best.as_tuple()
    return icon.as_tuple()


def _labeled(kind: ElementKind, box: Sequence[float]) -> LabeledBox:
    x1, y1, x2, y2 = (float(v) for v in box)
    return LabeledBox(kind, x1, y1, max(x2, x1 + 1), max(y2, y1 + 1))


def _inside(inner: Box, outer: Box) -> bool:
    return inner.intersection(outer) >= 0.8 * max(1, inner.area)


def _clip_box(box: LabeledBox, size: tuple[int, int] | None) -> LabeledBox | None:
    x1, y1, x2, y2 = box.xyxy
    if size is not None:
        x1, y1 = max(0.0, x1), max(0.0, y1)
        x2, y2 = min(float(size[0]), x2), min(float(size[1]), y2)
    if x2 - x1 < MIN_SIDE or y2 - y1 < MIN_SIDE:
        return None
    return LabeledBox(box.kind, x1, y1, x2, y2)


# --------------------------------------------------------------------------- text and icons

EN_WORDS: tuple[str, ...] = (
    "account", "add", "address", "alarm", "album", "all", "apply", "archive", "back", "backup",
    "battery", "book", "cancel", "cart", "camera", "card", "chat", "check", "city", "clear",
    "close", "cloud", "code", "color", "confirm", "contact", "continue", "copy", "create",
    "daily", "data", "date", "delete", "details", "device", "done", "download", "draft", "edit",
    "email", "event", "explore", "favorite", "file", "filter", "follow", "friend", "gallery",
    "general", "group", "help", "history", "home", "image", "inbox", "info", "invite", "item",
    "language", "later", "library", "like", "list", "live", "location", "login", "logout",
    "map", "media", "member", "menu", "message", "more", "music", "name", "network", "new",
    "news", "next", "note", "notification", "offer", "open", "order", "password", "payment",
    "phone", "photo", "play", "playlist", "price", "privacy", "profile", "rate", "recent",
    "refresh", "reply", "report", "reset", "review", "save", "search", "security", "select",
    "send", "settings", "share", "shop", "show", "sign", "size", "skip", "sort", "start",
    "status", "storage", "submit", "subscribe", "summary", "sync", "theme", "today", "top",
    "track", "trending", "update", "upload", "user", "video", "view", "volume", "wallet",
    "weather", "week", "welcome", "wifi", "write", "year", "your")
ZH_CHARS = ("的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工"
            "也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小"
            "物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形"
            "相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建"
            "月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长"
            "求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战"
            "先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受"
            "联什认六共权收证改清美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声"
            "报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究"
            "观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般"
            "史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按"
            "格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严")


@functools.cache
def icon_names() -> tuple[str, ...]:
    """Every Material Design Icons glyph name the renderer can draw."""
    from screenpilot import fonts

    return tuple(sorted(fonts.mdi_codepoints()))


@functools.cache
def _zh_phrases() -> tuple[str, ...]:
    from screenpilot.simulator.apps.settings import ZH

    return tuple(ZH.values())


@functools.cache
def _en_phrases() -> tuple[str, ...]:
    from screenpilot.simulator.apps.settings import ZH

    return tuple(ZH)


@dataclass(frozen=True, slots=True)
class Texts:
    """Random strings in one language (``zh`` mixes in some English, as real apps do)."""

    rng: Rng
    zh: bool

    def words(self, lo: int = 1, hi: int = 3) -> str:
        n = self.rng.randint(lo, hi)
        if self.zh and self.rng.random() < 0.85:
            if self.rng.random() < 0.4:
                return self.rng.choice(_zh_phrases())
            return "".join(self.rng.choice(ZH_CHARS) for _ in range(n * 2))
        if self.rng.random() < 0.25:
            return self.rng.choice(_en_phrases())
        text = " ".join(self.rng.choice(EN_WORDS) for _ in range(n))
        return text.capitalize() if self.rng.random() < 0.8 else text

    def sentence(self) -> str:
        return self.words(4, 12) if not self.zh else self.words(5, 14)

    def number(self) -> str:
        r = self.rng
        return r.choice([f"{r.randint(1, 999)}", f"${r.randint(1, 500)}.{r.randint(0, 99):02d}",
                         f"{r.randint(0, 23)}:{r.randint(0, 59):02d}", f"{r.randint(1, 99)}%",
                         f"({r.randint(2, 9999)})", f"{r.randint(1, 28)} May"])

    def icon(self) -> str:
        return self.rng.choice(icon_names())


# --------------------------------------------------------------------------- drawn pictures


def picture_pixels(seed: int, w: int, h: int) -> npt.NDArray[np.uint8]:
    """A photo-like picture: smooth noise, a gradient, a pattern, or blobs on a colour."""
    g = np.random.default_rng(seed)
    style = int(g.integers(0, 4))
    if style == 0:
        cells = int(g.integers(3, 9))
        coarse = g.uniform(0, 255, (cells, cells, 3)).astype(np.float32)
        fine = g.normal(0, 30, (cells * 4, cells * 4, 3)).astype(np.float32)
        out = _upsample(coarse, w, h) + _upsample(fine, w, h) + g.normal(0, 5, (h, w, 3))
    elif style == 1:
        a, b = g.uniform(0, 255, 3), g.uniform(0, 255, 3)
        t = np.linspace(0, 1, h)[:, None, None] * 0.6 + np.linspace(0, 1, w)[None, :, None] * 0.4
        out = a + (b - a) * t + g.normal(0, 4, (h, w, 3))
    elif style == 2:
        period = max(2, int(g.integers(4, 40)))
        yy, xx = np.mgrid[0:h, 0:w]
        mask = ((xx // period + yy // period) % 2)[..., None]
        a, b = g.uniform(0, 255, 3), g.uniform(0, 255, 3)
        out = np.where(mask == 1, a, b) + g.normal(0, 3, (h, w, 3))
    else:
        out = np.ones((h, w, 3)) * g.uniform(0, 255, 3)
        yy, xx = np.mgrid[0:h, 0:w]
        for _ in range(int(g.integers(2, 7))):
            cx, cy, r = g.uniform(0, w), g.uniform(0, h), g.uniform(0.1, 0.5) * max(w, h)
            inside = ((xx - cx) ** 2 + (yy - cy) ** 2) < r * r
            out[inside] = g.uniform(0, 255, 3)
    return np.clip(out, 0, 255).astype(np.uint8)


def _upsample(small: npt.NDArray[np.float32], w: int, h: int) -> npt.NDArray[np.float32]:
    from PIL import Image

    channels = [np.asarray(Image.fromarray(small[..., c]).resize((w, h), Image.Resampling.BICUBIC))
                for c in range(3)]
    return np.stack(channels, axis=-1).astype(np.float32)


@dataclass(eq=False)
class Picture(Widget):
    """An image widget drawn by :func:`picture_pixels` (recorded as ``image``)."""

    seed: int = 0
    aspect: float = 0.56
    radius: float = 12.0

    def natural(self, rc: RenderCtx, max_w: float) -> tuple[float, float]:
        w = max_w if self.width is None else min(max_w, rc.dp(self.width))
        return (w, w * self.aspect)

    def paint(self, rc: RenderCtx, x: float, y: float, w: float, h: float) -> None:
        from PIL import Image

        from screenpilot.simulator import draw

        iw, ih = max(1, round(w)), max(1, round(h))
        pic = Image.fromarray(picture_pixels(self.seed, iw, ih))
        radius = min(round(rc.dp(self.radius)), iw // 2, ih // 2)
        rc.painter.paste(pic, x, y, draw.shape_mask("rrect", iw, ih, radius, 0))
        rc.add(K.IMAGE, (x, y, x + w, y + h))


@dataclass(eq=False)
class Clutter(Widget):
    """Unlabelled decoration: a progress bar (a seek bar's hard negative), a colour band
    or a thin rule."""

    seed: int = 0

    def natural(self, rc: RenderCtx, max_w: float) -> tuple[float, float]:
        return (max_w, rc.dp(4 + self.seed % 5 * 6))

    def paint(self, rc: RenderCtx, x: float, y: float, w: float, h: float) -> None:
        g = random.Random(self.seed)
        color = tuple(g.randrange(256) for _ in range(3))
        rgb: RGB = (color[0], color[1], color[2])
        style = g.randrange(3)
        p = rc.painter
        if style == 0:
            cy, t = y + h / 2, rc.dp(4)
            p.rounded((x + rc.dp(16), cy - t / 2, x + w - rc.dp(16), cy + t / 2), t / 2,
                      rc.color("accent_container"))
            p.rounded((x + rc.dp(16), cy - t / 2, x + rc.dp(16) + (w - rc.dp(32)) * g.random(),
                       cy + t / 2), t / 2, rc.color("accent"))
        elif style == 1:
            p.rect((x, y, x + w, y + h), rgb)
        else:
            p.line(x + rc.dp(16), y + h / 2, x + w - rc.dp(16), y + h / 2, rgb, rc.dp(1))


# --------------------------------------------------------------------------- random layouts


def _key(rng: Rng) -> str:
    return f"k{rng.randrange(10**6)}"


def rand_trailing(rng: Rng, t: Texts) -> Widget | None:
    """What sits at the right end of a list row."""
    from screenpilot.simulator import widgets as w

    pick = rng.randrange(9)
    if pick == 0:
        return w.Switch(checked=rng.random() < 0.5, key=_key(rng))
    if pick == 1:
        return w.CheckBox(checked=rng.random() < 0.5, key=_key(rng))
    if pick == 2:
        return w.Icon(name=t.icon(), box=48, key=_key(rng))
    if pick == 3:
        return w.Text(text=t.number(), color="secondary")
    if pick == 4:
        style = rng.choice(["tonal", "outlined", "text", "filled"])
        return w.Button(text=t.words(1, 1), style=style, key=_key(rng))  # type: ignore[arg-type]
    if pick == 5:
        return Picture(seed=rng.randrange(10**6), width=rng.choice([48, 64, 80]), aspect=1.0,
                       radius=rng.choice([0, 8, 40]))
    return None


def rand_leading(rng: Rng, t: Texts) -> dict[str, Any]:
    """List-row leading content as ``list_item`` keyword arguments."""
    from screenpilot.simulator import widgets as w

    pick = rng.randrange(5)
    if pick == 0:
        return {"icon": t.icon()}
    if pick == 1:
        return {"icon": t.icon(), "icon_color": _hex(rng)}
    if pick == 2:
        return {"leading": w.Avatar(name=t.words(1, 1), size=rng.choice([32, 40, 56]))}
    if pick == 3:
        return {"leading": Picture(seed=rng.randrange(10**6), width=rng.choice([40, 56, 72]),
                                   aspect=1.0, radius=rng.choice([4, 12, 36]))}
    return {}


def rand_list(rng: Rng, t: Texts) -> Widget:
    from screenpilot.simulator import widgets as w

    rows: list[Widget] = []
    for _ in range(rng.randint(3, 12)):
        subtitle = t.words(2, 6) if rng.random() < 0.6 else ""
        rows.append(w.list_item(t.words(1, 4), subtitle, trailing=rand_trailing(rng, t),
                                key=_key(rng) if rng.random() < 0.7 else "",
                                enabled=rng.random() < 0.95, **rand_leading(rng, t)))
    if rng.random() < 0.4:
        rows.insert(0, w.section(t.words(1, 3)))
    return w.list_view(rows, dividers=rng.random() < 0.4, inset=rng.choice([0, 16, 72]))


def rand_form(rng: Rng, t: Texts) -> Widget:
    from screenpilot.simulator import widgets as w

    parts: list[Widget] = []
    makers: list[Callable[[], Widget]] = [
        lambda: w.EditText(field=f"f{rng.randrange(10**6)}", hint=t.words(1, 4),
                           style=rng.choice(["outlined", "filled", "search"]),
                           icon=t.icon() if rng.random() < 0.3 else "",
                           password=rng.random() < 0.1),
        lambda: w.Spinner(text=t.words(1, 3), key=_key(rng),
                          width=rng.choice([None, 160, 240])),
        lambda: w.CheckBox(checked=rng.random() < 0.5, label=t.words(1, 5), key=_key(rng)),
        lambda: w.RadioGroup(options=[t.words(1, 4) for _ in range(rng.randint(2, 5))],
                             selected=rng.randrange(-1, 3), key=_key(rng)),
        lambda: w.SeekBar(value=rng.random(), key=_key(rng)),
        lambda: w.Row(children=[w.Text(text=t.words(1, 4), weight=1),
                                w.Switch(checked=rng.random() < 0.5, key=_key(rng))]),
        lambda: w.RatingBar(rating=rng.randint(0, 10) / 2, size=rng.choice([16, 24, 28, 36]),
                            key=_key(rng)),
        lambda: w.Text(text=t.sentence(), max_lines=3, color="secondary"),
        lambda: w.Row(children=[w.Button(text=t.words(1, 2), style=s, key=_key(rng))  # type: ignore
                                for s in rng.sample(["text", "outlined", "tonal", "filled"],
                                                    rng.randint(1, 3))],
                      justify=rng.choice(["end", "start", "between"]), spacing=8),
    ]
    for _ in range(rng.randint(3, 9)):
        if rng.random() < 0.35:
            parts.append(w.Text(text=t.words(1, 3), size=rng.choice([12, 14, 16]),
                                color=rng.choice(["secondary", "accent", "primary"])))
        parts.append(rng.choice(makers)())
    return w.Column(children=parts, padding=rng.choice([12, 16, 24]),
                    spacing=rng.choice([8, 12, 16]))


def rand_cards(rng: Rng, t: Texts) -> Widget:
    from screenpilot.simulator import widgets as w

    cards: list[Widget] = []
    for _ in range(rng.randint(1, 4)):
        inner: list[Widget] = []
        if rng.random() < 0.7:
            inner.append(Picture(seed=rng.randrange(10**6), aspect=rng.uniform(0.35, 0.8)))
        inner.append(w.Text(text=t.words(1, 5), size=rng.choice([16, 18, 22]), font_weight=500))
        if rng.random() < 0.6:
            inner.append(w.Text(text=t.sentence(), color="secondary", max_lines=3))
        if rng.random() < 0.3:
            inner.append(w.RatingBar(rating=rng.randint(0, 10) / 2, size=rng.choice([16, 20])))
        if rng.random() < 0.6:
            inner.append(w.Row(children=[w.Button(text=t.words(1, 2), key=_key(rng),
                                                  style=rng.choice(["text", "tonal", "filled"]))
                                         for _ in range(rng.randint(1, 2))],
                               justify="end", spacing=8))
        cards.append(w.card(inner, key=_key(rng) if rng.random() < 0.5 else ""))
    return w.Column(children=cards, padding=16, spacing=12)


def rand_grid(rng: Rng, t: Texts) -> Widget:
    from screenpilot.simulator import widgets as w

    cols = rng.randint(2, 5)
    cells: list[Widget] = []
    icons = rng.random() < 0.4
    for _ in range(cols * rng.randint(1, 4)):
        top: Widget = (
            w.Icon(name=t.icon(), size=28, box=56, color="white", background=_hex(rng)) if icons
            else Picture(seed=rng.randrange(10**6), aspect=rng.choice([1.0, 1.3]),
                         radius=rng.choice([0, 8, 16])))
        parts: list[Widget] = [top]
        if rng.random() < 0.8:
            parts.append(w.Text(text=t.words(1, 2), size=12, align="center"))
        cells.append(w.Column(children=parts, align="center" if icons else "stretch", spacing=4,
                              key=_key(rng)))
    return w.Grid(children=cells, columns=cols, spacing=8, row_spacing=12, padding=16)


def rand_hero(rng: Rng, t: Texts) -> Widget:
    from screenpilot.simulator import widgets as w

    count = rng.randint(2, 7)
    parts: list[Widget] = [Picture(seed=rng.randrange(10**6), aspect=rng.uniform(0.4, 1.1),
                                   radius=rng.choice([0, 16])),
                           w.PageIndicator(count=count, index=rng.randrange(count)),
                           w.Text(text=t.words(2, 6), size=22, align="center", max_lines=2),
                           w.Text(text=t.sentence(), color="secondary", align="center",
                                  max_lines=3)]
    if rng.random() < 0.7:
        parts.append(w.Button(text=t.words(1, 2), key=_key(rng)))
    return w.Column(children=parts, padding=16, spacing=12)


def rand_product(rng: Rng, t: Texts) -> Widget:
    from screenpilot.simulator import widgets as w

    count = rng.randint(2, 6)
    return w.Column(children=[
        Picture(seed=rng.randrange(10**6), aspect=rng.uniform(0.7, 1.0), radius=0),
        w.PageIndicator(count=count, index=rng.randrange(count)),
        w.Text(text=t.words(2, 6), size=20, max_lines=2),
        w.Row(children=[w.RatingBar(rating=rng.randint(0, 10) / 2, size=rng.choice([16, 20])),
                        w.Text(text=t.number(), color="secondary")], spacing=8),
        w.Text(text=t.number(), size=24, font_weight=500),
        w.Spinner(text=t.words(1, 2), key=_key(rng), width=rng.choice([120, 200])),
        w.Row(children=[w.Button(text=t.words(1, 2), style="outlined", key=_key(rng), weight=1),
                        w.Button(text=t.words(1, 2), key=_key(rng), weight=1)], spacing=12),
    ], padding=16, spacing=12)


def rand_chat(rng: Rng, t: Texts) -> Widget:
    from screenpilot.simulator import widgets as w

    rows: list[Widget] = []
    for _ in range(rng.randint(3, 9)):
        mine = rng.random() < 0.5
        bubble = w.Column(children=[w.Text(text=t.sentence(), max_lines=4)], padding=12,
                          background="accent_container" if mine else "surface_variant",
                          radius=16, wrap=True)
        kids: list[Widget] = [w.Spacer(weight=1), bubble] if mine else \
            [w.Avatar(name=t.words(1, 1), size=36), bubble]
        rows.append(w.Row(children=kids, spacing=8, align="start"))
    rows.append(w.Row(children=[w.EditText(field=f"m{rng.randrange(10**6)}", hint=t.words(1, 3),
                                           style="search", weight=1),
                                w.Icon(name="send", box=48, color="accent", key=_key(rng))],
                      spacing=8))
    return w.Column(children=rows, padding=12, spacing=10)


def rand_clutter(rng: Rng, t: Texts) -> Widget:
    from screenpilot.simulator import widgets as w

    return w.Column(children=[Clutter(seed=rng.randrange(10**6)) if rng.random() < 0.6 else
                              w.Text(text=t.sentence(), max_lines=2, size=rng.choice([12, 14]))
                              for _ in range(rng.randint(1, 4))], padding=8, spacing=8)


SECTIONS: tuple[Callable[[Rng, Texts], Widget], ...] = (
    rand_list, rand_form, rand_cards, rand_grid, rand_hero, rand_product, rand_chat,
    rand_clutter)


def rand_dialog(rng: Rng, t: Texts) -> Any:
    from screenpilot.simulator import widgets as w

    body: str | Widget = t.sentence()
    pick = rng.randrange(4)
    if pick == 1:
        body = w.RadioGroup(options=[t.words(1, 3) for _ in range(rng.randint(2, 5))],
                            selected=rng.randrange(0, 2), key=_key(rng))
    elif pick == 2:
        body = w.Column(children=[w.CheckBox(checked=rng.random() < 0.5, label=t.words(1, 3),
                                             key=_key(rng)) for _ in range(rng.randint(1, 4))])
    elif pick == 3:
        body = w.EditText(field=f"d{rng.randrange(10**6)}", hint=t.words(1, 3))
    buttons = [(t.words(1, 1), _key(rng)) for _ in range(rng.randint(1, 3))]
    return w.Dialog(title=t.words(1, 4) if rng.random() < 0.8 else "", body=body,
                    buttons=buttons, icon=t.icon() if rng.random() < 0.2 else "")


def _hex(rng: Rng, lo: int = 0, hi: int = 255) -> str:
    return "#" + "".join(f"{rng.randint(lo, hi):02X}" for _ in range(3))


def rand_env(rng: Rng, *, dark: bool | None = None) -> RenderEnv:
    """A random device: one of the four sizes (density jittered), theme, accent, bars."""
    from screenpilot.simulator.render import SIZES, RenderEnv, ScreenSpec, StatusInfo
    from screenpilot.simulator.theme import ACCENTS, make_theme

    base = rng.choice(list(SIZES.values()))
    spec = ScreenSpec(base.width, base.height, round(base.dpi * rng.uniform(0.85, 1.15)))
    accent = rng.choice(list(ACCENTS)) if rng.random() < 0.6 else _hex(rng, 30, 220)
    dark = rng.random() < 0.35 if dark is None else dark
    status = StatusInfo(time=f"{rng.randint(0, 23)}:{rng.randint(0, 59):02d}",
                        battery=rng.randint(5, 100), wifi=rng.random() < 0.8,
                        bluetooth=rng.random() < 0.4, airplane=rng.random() < 0.05,
                        show_percent=rng.random() < 0.3, dnd=rng.random() < 0.1)
    return RenderEnv(spec=spec, theme=make_theme(dark, accent), status=status,
                     nav_mode="gesture" if rng.random() < 0.4 else "3button",
                     font_scale=rng.choice([0.85, 1.0, 1.0, 1.0, 1.15, 1.3]))


def rand_page(rng: Rng, t: Texts, dark: bool) -> Any:
    """A random page: 1-4 body sections and random chrome."""
    from screenpilot.simulator import widgets as w
    from screenpilot.simulator.render import MenuItem, Page, ToolbarAction

    sections = [rng.choice(SECTIONS)(rng, t) for _ in range(rng.randint(1, 4))]
    body = w.Column(children=sections, spacing=rng.choice([0, 8, 16]))
    tabs = None
    if rng.random() < 0.35:
        n = rng.randint(3, 5)
        tabs = w.TabBar(tabs=[w.Tab(t.words(1, 1), t.icon(), _key(rng)) for _ in range(n)],
                        active=rng.randrange(n))
    fab = w.Fab(icon=t.icon(), label=t.words(1, 1) if rng.random() < 0.3 else "",
                key=_key(rng)) if rng.random() < 0.25 else None
    background = "background"
    if rng.random() < 0.3:
        background = _hex(rng, 0, 50) if dark else _hex(rng, 215, 255)
    return Page(body=body, title=t.words(1, 3) if rng.random() < 0.85 else "",
                back=rng.random() < 0.6, toolbar=rng.random() < 0.85,
                actions=[ToolbarAction(t.icon(), _key(rng)) for _ in range(rng.randint(0, 3))],
                menu=[MenuItem(t.words(1, 2), _key(rng)) for _ in range(rng.randint(0, 4))],
                tabs=tabs, fab=fab, background=background)


def _fields(widget: Any) -> list[str]:
    """Names of the edit fields in a widget tree."""
    out = [str(widget.field)] if type(widget).__name__ == "EditText" else []
    for child in getattr(widget, "children", ()) or ():
        out += _fields(child)
    return out


def layout_screen(rng: Rng) -> SynthScreen:
    """A random composed page rendered at a random size (see the module docstring)."""
    from screenpilot.simulator.render import UiState, render_page

    env = rand_env(rng)
    t = Texts(rng, zh=rng.random() < 0.3)
    page = rand_page(rng, t, env.theme.dark)
    names = _fields(page.body)
    fields = {n: t.words(1, 4) for n in names if rng.random() < 0.4}
    focus = rng.choice(names) if names and rng.random() < 0.15 else None
    ui = UiState(scroll=rng.choice([0, 0, rng.randint(0, 4000)]), fields=fields, focus=focus,
                 keyboard=focus is not None, kbd_mode=rng.choice(["abc", "ABC", "123"]),
                 menu_open=bool(page.menu) and rng.random() < 0.08,
                 toast=t.words(2, 6) if rng.random() < 0.08 else "")
    dialog = rand_dialog(rng, t) if rng.random() < 0.12 else None
    frame = render_page(page, env, ui, dialog=dialog, app="synthetic")
    return SynthScreen(frame.image, tuple(frame_boxes(frame)), "layout",
                       {"size": f"{env.spec.width}x{env.spec.height}"})


# --------------------------------------------------------------------------- real apps


def app_screen(rng: Rng) -> SynthScreen:
    """A page of the virtual phone's apps in a random state after a random walk."""
    from screenpilot.simulator.phone import VirtualPhone
    from screenpilot.simulator.render import SIZES
    from screenpilot.simulator.theme import ACCENTS

    spec = rng.choice(list(SIZES.values()))
    phone = VirtualPhone(size=(spec.width, spec.height),
                         density=round(spec.dpi * rng.uniform(0.85, 1.15)),
                         theme="dark" if rng.random() < 0.35 else "light",
                         locale="zh" if rng.random() < 0.3 else "en",
                         accent=rng.choice(list(ACCENTS)),
                         nav_mode="gesture" if rng.random() < 0.4 else "3button",
                         clock=f"{rng.randint(0, 23)}:{rng.randint(0, 59):02d}",
                         battery=rng.randint(5, 100))
    _tweak_settings(phone, rng)
    packages = [a.package for a in phone.installed()]
    phone.launch(rng.choice(packages))
    for _ in range(rng.randint(0, 5)):
        _walk_step(phone, rng)
    frame = phone.frame()
    return SynthScreen(frame.image, tuple(frame_boxes(frame)), "app",
                       {"app": frame.app, "size": f"{spec.width}x{spec.height}"})


def _tweak_settings(phone: Any, rng: Rng) -> None:
    if rng.random() < 0.3:
        phone.settings_put("system", "font_scale", str(rng.choice([0.85, 1.15, 1.3])))
    if rng.random() < 0.3:
        phone.settings_put("system", "status_bar_show_battery_percent", "1")
    if rng.random() < 0.3:
        phone.settings_put("system", "time_12_24", "24")


def _walk_step(phone: Any, rng: Rng) -> None:
    """One random user action: tap a target, type, scroll, or go back."""
    frame = phone.frame()
    pick = rng.random()
    w, h = frame.size
    if pick < 0.15 and frame.max_scroll > 0:
        y0 = frame.viewport.y1 + frame.viewport.height * 0.8
        phone.swipe(w // 2, round(y0), w // 2, round(y0 - rng.uniform(0.2, 0.7) * h), 300)
        return
    if pick < 0.22:
        phone.keyevent(4)
        return
    if pick < 0.3 and frame.keyboard_box is not None:
        phone.input_text(Texts(rng, zh=False).words(1, 3))
        return
    targets = [t for t in frame.targets if not t.key.startswith("sys:") or t.key == "sys:menu"]
    if targets:
        target = rng.choice(targets)
        phone.tap(*target.box.center)


# --------------------------------------------------------------------------- rare classes


def rare_widget(rng: Rng, t: Texts, kind: ElementKind) -> Widget:
    """A widget of ``kind`` with random parameters."""
    from screenpilot.simulator import widgets as w

    makers: dict[ElementKind, Callable[[], Widget]] = {
        K.PAGE_INDICATOR: lambda: w.PageIndicator(count=(n := rng.randint(2, 8)),
                                                  index=rng.randrange(n)),
        K.RATING_BAR: lambda: w.RatingBar(rating=rng.randint(0, 10) / 2,
                                          size=rng.choice([14, 18, 24, 28, 36]),
                                          stars=rng.choice([5, 5, 5, 4, 10])),
        K.SEEK_BAR: lambda: w.SeekBar(value=rng.random(), width=rng.randint(120, 380)),
        K.SPINNER: lambda: w.Spinner(text=t.words(1, 3), width=rng.choice([None, 140, 220])),
        K.CHECK_BOX: lambda: w.CheckBox(checked=rng.random() < 0.5,
                                        label=t.words(1, 4) if rng.random() < 0.6 else ""),
        K.SWITCH: lambda: w.Switch(checked=rng.random() < 0.5),
        K.RADIO_GROUP: lambda: w.RadioGroup(options=[t.words(1, 3)
                                                     for _ in range(rng.randint(1, 4))],
                                            selected=rng.randrange(-1, 3), width=260),
        K.BUTTON: lambda: w.Button(text=t.words(1, 2),
                                   style=rng.choice(["filled", "tonal", "outlined"])),
        K.EDIT_TEXT: lambda: w.EditText(field="x", hint=t.words(1, 3),
                                        style=rng.choice(["outlined", "filled", "search"]),
                                        width=rng.randint(160, 380)),
        K.IMAGE: lambda: Picture(seed=rng.randrange(10**6), width=rng.randint(40, 200),
                                 aspect=rng.uniform(0.5, 1.5)),
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
    return (status.resize((width, max(4, round(sh * scale))), size),
            nav.resize((width, max(4, round(nh * scale))), size))


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
    boxes = [LabeledBox(K.STATUS_BAR, 0, 0, width, status.height),
             LabeledBox(K.NAVIGATION_BAR, 0, height - nav.height, width, height)]
    lum = float(np.asarray(canvas.crop((0, status.height, width, height - nav.height)),
                           dtype=np.float32).mean())
    scale = base.dpi * rng.uniform(0.85, 1.15) / 160
    t = Texts(rng, zh=rng.random() < 0.3)
    placed: list[tuple[float, float, float, float]] = []
    for _ in range(rng.randint(4, 12)):
        kind = rng.choice(RARE_CLASSES) if rng.random() < 0.8 else \
            rng.choice([K.BUTTON, K.EDIT_TEXT, K.IMAGE])
        boxes += place_widget(canvas, rng, t, kind, scale, lum < 110,
                              (status.height, height - nav.height), placed)
    return SynthScreen(canvas, tuple(b for b in boxes if _clip_box(b, canvas.size)), "rare",
                       {"size": f"{width}x{height}"})


def place_widget(canvas: PILImage.Image, rng: Rng, t: Texts, kind: ElementKind, scale: float,
                 dark: bool, band: tuple[int, int],
                 placed: list[tuple[float, float, float, float]]) -> list[LabeledBox]:
    """Draw one widget at a free position drawn from :data:`PLACEMENT`, with jitter.
    Appends its footprint to ``placed``; returns its boxes (none when it did not fit)."""
    from screenpilot.simulator.draw import Painter
    from screenpilot.simulator.theme import ACCENTS, make_theme
    from screenpilot.simulator.widgets import RenderCtx

    accent = rng.choice(list(ACCENTS)) if rng.random() < 0.6 else _hex(rng, 30, 220)
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
    return [LabeledBox(b.kind, b.x1 + x, b.y1 + y, b.x2 + x, b.y2 + y)
            for b in truth_boxes(rc.elements, rc.targets, (w, h))]


def _jitter(rng: Rng, region: PILImage.Image) -> npt.NDArray[np.float32]:
    """Brightness, contrast and colour-balance jitter of a widget's pixels."""
    from PIL import ImageEnhance

    out = ImageEnhance.Brightness(region).enhance(rng.uniform(0.7, 1.3))
    out = ImageEnhance.Contrast(out).enhance(rng.uniform(0.7, 1.3))
    gains = np.array([rng.uniform(0.85, 1.15) for _ in range(3)], dtype=np.float32)
    return np.asarray(out, dtype=np.float32) * gains


def _free_spot(rng: Rng, kind: ElementKind, w: int, h: int, width: int, band: tuple[int, int],
               placed: Sequence[tuple[float, float, float, float]],
               tries: int = 25) -> tuple[int, int] | None:
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


# --------------------------------------------------------------------------- one screen


def screen_rng(seed: int, index: int) -> Rng:
    """The random source of screen ``index`` of a run (independent of worker layout)."""
    return random.Random(f"screenpilot-synth:{seed}:{index}")


def pick_kind(rng: Rng, mix: Sequence[tuple[str, float]]) -> str:
    kinds = [k for k, wgt in mix if wgt > 0]
    return rng.choices(kinds, weights=[wgt for _, wgt in mix if wgt > 0])[0]


GENERATORS: dict[str, Callable[[Rng], SynthScreen]] = {
    "app": app_screen, "layout": layout_screen, "rare": rare_screen}


def generate_screen(index: int, seed: int = 0, *, kind: str | None = None,
                    mix: Sequence[tuple[str, float]] = tuple(DEFAULT_MIX.items())) -> SynthScreen:
    """Screen ``index`` of the run with ``seed`` (``kind`` forces its kind).

    An ``app`` screen whose app code fails (apps are written by others and may
    be in flux) falls back to a ``layout`` screen, marked ``fallback``."""
    rng = screen_rng(seed, index)
    chosen = kind or pick_kind(rng, mix)
    if chosen not in GENERATORS:
        raise DataError(f"unknown screen kind {chosen!r}", hint=f"one of {', '.join(KINDS)}")
    if chosen != "app":
        return GENERATORS[chosen](rng)
    try:
        return app_screen(rng)
    except Exception as exc:  # third-party app code: any error means "use another screen"
        screen = layout_screen(screen_rng(seed, index))
        screen.meta.update(fallback=f"{type(exc).__name__}: {exc}"[:200])
        return screen


def scaled(screen: SynthScreen, max_side: int) -> SynthScreen:
    """The screen with its long side at most ``max_side`` (boxes scaled, tiny ones dropped)."""
    from PIL import Image

    w, h = screen.image.size
    factor = min(1.0, max_side / max(w, h))
    if factor >= 1.0:
        return screen
    size = (max(1, round(w * factor)), max(1, round(h * factor)))
    image = screen.image.convert("RGB").resize(size, Image.Resampling.BILINEAR)
    boxes = [LabeledBox(b.kind, b.x1 * factor, b.y1 * factor, b.x2 * factor, b.y2 * factor)
             for b in screen.boxes]
    kept = tuple(b for b in (_clip_box(b, size) for b in boxes) if b is not None)
    return SynthScreen(image, kept, screen.kind, screen.meta)


def make_sample(index: int, config: SynthConfig, out: Path) -> Sample:
    """Generate screen ``index``, save its JPEG into ``out``'s split folder, return its Sample."""
    screen = scaled(generate_screen(index, config.seed, mix=config.mix), config.max_side)
    split_rng = random.Random(f"screenpilot-split:{config.seed}:{index}")
    split = "val" if split_rng.random() < config.val_share else "train"
    name = f"synth_{config.seed}_{index:06d}"
    path = Path(out) / "images" / split / f"{name}.jpg"
    path.parent.mkdir(parents=True, exist_ok=True)
    quality = split_rng.randint(75, 95)
    screen.image.convert("RGB").save(path, format="JPEG", quality=quality)
    w, h = screen.image.size
    return Sample(path, w, h, screen.boxes, app="synthetic", split=split, name=name,
                  meta={"kind": screen.kind, **screen.meta})


def _make_sample_star(args: tuple[int, SynthConfig, Path]) -> Sample:
    return make_sample(*args)


# --------------------------------------------------------------------------- the run


def synthesize(out: Path, config: SynthConfig = SynthConfig(), *, workers: int = 2,
               extra: Iterable[Sample] = (),
               progress: Callable[[int, int], None] | None = None) -> SynthReport:
    """Write ``config.n`` synthetic screens (plus ``extra`` samples, copied as they are)
    as a YOLO dataset under ``out``; returns the counts and the data.yaml path."""
    started = time.monotonic()
    out = Path(out)
    report = SynthReport()
    samples = list(_generate(out, config, workers, progress))
    samples += list(extra)
    for sample in samples:
        report.add(sample)
    report.data_yaml = write_yolo(samples, out)
    report.seconds = time.monotonic() - started
    return report


def _generate(out: Path, config: SynthConfig, workers: int,
              progress: Callable[[int, int], None] | None) -> Iterable[Sample]:
    jobs = [(i, config, out) for i in range(config.n)]
    if workers <= 1:
        results: Iterable[Sample] = map(_make_sample_star, jobs)
        yield from _tick(results, config.n, progress)
        return
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    with context.Pool(workers) as pool:
        yield from _tick(pool.imap(_make_sample_star, jobs, chunksize=4), config.n, progress)


def _tick(results: Iterable[Sample], total: int,
          progress: Callable[[int, int], None] | None) -> Iterable[Sample]:
    for done, sample in enumerate(results, start=1):
        if progress is not None:
            progress(done, total)
        yield sample


def parse_mix(text: str) -> tuple[tuple[str, float], ...]:
    """``"app=0.3,layout=0.45,rare=0.25"`` -> the mix tuple (``DataError`` if malformed)."""
    pairs: list[tuple[str, float]] = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, value = part.partition("=")
        try:
            pairs.append((name.strip(), float(value)))
        except ValueError as exc:
            raise DataError(f"bad mix entry {part!r}", hint="e.g. app=0.3,layout=0.5,rare=0.2") \
                from exc
    return tuple(pairs)


def counts_table(counts: Mapping[str, int]) -> str:
    """``name count`` lines, the 12 classes in order."""
    return "\n".join(f"{name:16s}{count:8d}" for name, count in counts.items())


__all__ = [
    "DEFAULT_MIX", "DROIDBOT_TRAIN_APPS", "KINDS", "PLACEMENT", "RARE_CLASSES", "Picture",
    "SynthConfig", "SynthReport", "SynthScreen", "Texts", "app_screen", "frame_boxes",
    "generate_screen", "icon_box", "layout_screen", "make_sample", "parse_mix", "radio_options",
    "rare_screen", "synthesize", "truth_boxes",
]
