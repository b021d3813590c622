"""Real icon crops from real screens with view hierarchies, labelled by their content
description.

Input: screen records (app, split, hierarchy format, hierarchy path, original
screenshot), normally the ``manifest.jsonl`` of ``screenpilot dataset harvest``
(``screens_from_manifest``), so the icon split is the detector's split by app.
Every format (DroidBot, uiautomator, RICO) is parsed by
:func:`screenpilot.datasets.screens.hierarchy_nodes` into nodes in screen pixels.

A node becomes an icon crop when (``IconFilters``, counted in ``CropReport``):

- **class**: an image view (``ImageButton``, ``ImageView``, ``FloatingActionButton``
  and their AppCompat/custom subclasses, by class name or, in RICO, by an ancestor
  class), or an ``ActionMenuItemView`` (a toolbar action) with no text; or a
  **clickable container holding only images**: a clickable view of another class
  whose visible descendants include an image view and no text, when none of those
  image views is itself taken;
- **description**: a non-empty content description (its own);
- **visible**: the node and all its ancestors are visible, and at least 90 % of its
  box lies on the screen (the crop is clipped to the screen);
- **icon-sized**: each side at least ``min_side`` (2.5 %) and at most ``max_side``
  (20 %) of the screen width (10-80 dp on a 411 dp wide phone), and the long side at
  most ``max_aspect`` (3) times the short one: icons and icon buttons, not
  pictures, banners or list rows;
- **not blank**: the crop's grey levels have a standard deviation of at least
  ``min_std`` (3): the hierarchy names a view the screenshot does not show yet;
- **not a duplicate**: per app, one crop per (description, 64-bit difference hash
  of the pixels): the same icon on many screens of one app counts once.

A view of package ``com.android.systemui`` (DroidBot states name each view's
package: the notification shade or quick settings pulled down over an app) is
credited to System UI, not to the app under it: a system app, so never held out
with the app.

The description is then mapped to the icon vocabulary by
:class:`DescriptionTable` (``vision/data/icon_descriptions.json``, one entry a
description with the reason of its label, ``null`` for descriptions that name no
button function), falling back to the vocabulary's own synonym matching
(``Vocabulary.map_description``) for descriptions the table does not list; each
crop records which of the two labelled it.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from PIL import Image

from screenpilot.datasets.convert import Node, is_visible, simple_name
from screenpilot.errors import DataError
from screenpilot.vision.icon_vocab import Vocabulary, load_vocabulary

IMAGE_CLASSES = ("ImageButton", "ImageView", "FloatingActionButton")
ACTION_CLASSES = ("ActionMenuItemView",)
TABLE_FORMAT = "screenpilot-icon-descriptions/1"
SYSTEM_UI = "com.android.systemui"


@dataclass(frozen=True, slots=True)
class IconFilters:
    """Thresholds of the crop filters (see the module docstring)."""

    min_side: float = 0.025
    max_side: float = 0.20
    max_aspect: float = 3.0
    min_on_screen: float = 0.9
    min_std: float = 3.0
    hash_dedupe: bool = True


@dataclass(frozen=True, slots=True)
class ScreenRecord:
    """One real screen: its app, split and where its files are."""

    app: str
    split: str
    fmt: str
    state: Path
    original: Path


@dataclass(frozen=True)
class RealIcon:
    """An icon cut from a real screenshot."""

    image: Image.Image
    description: str
    label: str | None
    how: str
    app: str
    split: str
    screen: str
    view_class: str
    box: tuple[int, int, int, int]
    screen_size: tuple[int, int]


@dataclass
class CropReport:
    """Candidate nodes kept and dropped, by reason; descriptions mapped and not."""

    screens: int = 0
    screens_unreadable: int = 0
    candidates: int = 0
    dropped: Counter[str] = field(default_factory=Counter)
    kept_by_kind: Counter[str] = field(default_factory=Counter)
    how: Counter[str] = field(default_factory=Counter)
    unmapped: Counter[str] = field(default_factory=Counter)
    mapped: Counter[str] = field(default_factory=Counter)

    def to_json(self) -> dict[str, Any]:
        """Counts for a report."""
        return {
            "screens": self.screens,
            "screens_unreadable": self.screens_unreadable,
            "candidates": self.candidates,
            "dropped": dict(self.dropped.most_common()),
            "kept_by_kind": dict(self.kept_by_kind),
            "labelled_by": dict(self.how),
            "mapped_descriptions": dict(self.mapped.most_common()),
            "unmapped_descriptions": dict(self.unmapped.most_common()),
        }


# --------------------------------------------------------------------------- table


def normalise(text: str) -> str:
    """Lower case, punctuation to spaces, whitespace collapsed (CJK kept)."""
    text = re.sub(
        r"[^\w\u3040-\u30ff\u4e00-\u9fff\u0400-\u04ff\u0600-\u06ff]+",
        " ",
        text.lower().replace("_", " "),
    )
    return " ".join(text.split())


@dataclass(frozen=True, slots=True)
class TableEntry:
    """One description (or pattern) -> label (``None``: no button function)."""

    label: str | None
    reason: str
    apps: tuple[str, ...] = ()


class DescriptionTable:
    """Content description -> vocabulary label, with a reason per entry.

    The JSON has ``descriptions`` (exact match after ``normalise``; an entry with
    ``apps`` applies to those apps only and wins over one without) and ``patterns``
    (regular expressions on the normalised text, tried in order).
    """

    def __init__(self, doc: dict[str, Any], vocab: Vocabulary | None = None) -> None:
        self.vocab = vocab or load_vocabulary()
        self.exact: dict[str, list[TableEntry]] = {}
        self.patterns: list[tuple[re.Pattern[str], TableEntry]] = []
        try:
            for raw in doc["descriptions"]:
                entry = self._entry(raw)
                self.exact.setdefault(normalise(str(raw["text"])), []).append(entry)
            for raw in doc.get("patterns", []):
                self.patterns.append((re.compile(str(raw["regex"])), self._entry(raw)))
        except (KeyError, TypeError, re.error) as exc:
            raise DataError(f"icon description table is malformed: {exc}") from exc

    def _entry(self, raw: dict[str, Any]) -> TableEntry:
        label = raw.get("label")
        if label is not None and label not in self.vocab:
            raise DataError(f"icon description table: {label!r} is not in the vocabulary")
        if not str(raw.get("reason") or "").strip():
            raise DataError(f"icon description table: entry {raw!r} has no reason")
        return TableEntry(
            None if label is None else str(label),
            str(raw["reason"]),
            tuple(str(a) for a in raw.get("apps", ())),
        )

    @classmethod
    def load(cls, path: Path | None = None, vocab: Vocabulary | None = None) -> DescriptionTable:
        """The shipped table (``vision/data/icon_descriptions.json``) or ``path``."""
        try:
            if path is None:
                text = (
                    resources.files("screenpilot.vision") / "data" / "icon_descriptions.json"
                ).read_text(encoding="utf-8")
            else:
                text = Path(path).read_text(encoding="utf-8")
            doc = json.loads(text)
        except (OSError, ValueError) as exc:
            raise DataError(f"cannot read the icon description table: {exc}") from exc
        if doc.get("format") != TABLE_FORMAT:
            raise DataError(
                f"icon description table has format {doc.get('format')!r}, "
                f"expected {TABLE_FORMAT!r}"
            )
        return cls(doc, vocab)

    def lookup(self, description: str, app: str = "") -> tuple[str | None, str]:
        """(label or ``None``, how): how is ``table`` (an entry gave a label),
        ``excluded`` (an entry says it names no function), ``vocabulary`` (the
        vocabulary's synonym matching) or ``unmapped``."""
        norm = normalise(description)
        entries = self.exact.get(norm, [])
        entry = next((e for e in entries if app in e.apps), None) or next(
            (e for e in entries if not e.apps), None
        )
        if entry is None:
            entry = next(
                (e for rx, e in self.patterns if rx.search(norm) and (not e.apps or app in e.apps)),
                None,
            )
        if entry is not None:
            return entry.label, "table" if entry.label else "excluded"
        label = self.vocab.map_description(description)
        return label, "vocabulary" if label else "unmapped"


# --------------------------------------------------------------------------- screens


def screens_from_manifest(folder: Path) -> list[ScreenRecord]:
    """The screens of a ``dataset harvest`` output (``manifest.jsonl``)."""
    path = folder / "manifest.jsonl"
    if not path.is_file():
        raise DataError(f"{path} does not exist", hint="`screenpilot dataset harvest` writes it")
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        out.append(
            ScreenRecord(
                app=str(row["app"]),
                split=str(row["split"]),
                fmt=str(row["fmt"]),
                state=Path(row["state"]),
                original=Path(row.get("original") or row["image"]),
            )
        )
    return out


def held_out_apps(folder: Path) -> list[str]:
    """``val_apps`` of a ``dataset harvest`` report."""
    path = folder / "harvest_report.json"
    try:
        return [str(a) for a in json.loads(path.read_text(encoding="utf-8"))["val_apps"]]
    except (OSError, ValueError, KeyError) as exc:
        raise DataError(f"cannot read val_apps from {path}: {exc}") from exc


# --------------------------------------------------------------------------- nodes


def _is_image(node: Node) -> bool:
    names = (simple_name(node.cls), *(simple_name(a) for a in node.ancestors))
    return any(n.endswith(IMAGE_CLASSES) for n in names)


def _is_action(node: Node) -> bool:
    return simple_name(node.cls).endswith(ACTION_CLASSES) and not node.text


def _descendants(nodes: Sequence[Node], node: Node) -> Iterator[Node]:
    stack = list(node.children)
    while stack:
        child = nodes[stack.pop()]
        if not child.visible:
            continue
        yield child
        stack.extend(child.children)


def icon_candidates(nodes: Sequence[Node]) -> list[tuple[Node, str]]:
    """(node, kind) of every node that may be an icon, before the size filters:
    ``image``, ``action`` or ``container`` (see the module docstring)."""
    out: list[tuple[Node, str]] = []
    taken: set[int] = set()
    for node in nodes:
        if not node.desc:
            continue
        if _is_image(node):
            out.append((node, "image"))
            taken.add(node.index)
        elif _is_action(node):
            out.append((node, "action"))
            taken.add(node.index)
    for node in nodes:
        if not node.desc or not node.clickable or node.index in taken or _is_image(node):
            continue
        inside = list(_descendants(nodes, node))
        if (
            inside
            and any(_is_image(n) for n in inside)
            and not any(n.text for n in inside)
            and not any(n.index in taken for n in inside)
        ):
            out.append((node, "container"))
    return out


def _box_reason(
    box: tuple[float, float, float, float], size: tuple[int, int], filters: IconFilters
) -> str | tuple[int, int, int, int]:
    w_screen, h_screen = size
    x1, y1, x2, y2 = box
    area = max(0.0, x2 - x1) * max(0.0, y2 - y1)
    if area <= 0:
        return "zero size"
    cx1, cy1 = max(0.0, x1), max(0.0, y1)
    cx2, cy2 = min(float(w_screen), x2), min(float(h_screen), y2)
    inside = max(0.0, cx2 - cx1) * max(0.0, cy2 - cy1)
    if inside < filters.min_on_screen * area:
        return "off screen"
    w, h = cx2 - cx1, cy2 - cy1
    if min(w, h) < filters.min_side * w_screen:
        return "too small"
    if max(w, h) > filters.max_side * w_screen:
        return "too large"
    if max(w, h) > filters.max_aspect * min(w, h):
        return "too elongated"
    return (round(cx1), round(cy1), round(cx2), round(cy2))


def dhash(image: Image.Image) -> int:
    """64-bit difference hash of the grey pixels."""
    small = np.asarray(image.convert("L").resize((9, 8), Image.Resampling.BILINEAR), dtype=np.int16)
    bits = (small[:, 1:] > small[:, :-1]).flatten()
    return int(sum(1 << i for i, b in enumerate(bits) if b))


def _load_nodes(record: ScreenRecord, width: int) -> tuple[list[Node], list[str]]:
    """The screen's nodes and, for DroidBot states, each node's package ('' otherwise)."""
    from screenpilot.datasets.convert import paint_order
    from screenpilot.datasets.screens import hierarchy_nodes

    nodes, _ = hierarchy_nodes(record.fmt, record.state, width)
    packages = [""] * len(nodes)
    if record.fmt == "droidbot":
        views = json.loads(record.state.read_text(encoding="utf-8")).get("views") or []
        by_id = {int(v["temp_id"]): v for v in views}
        order = paint_order(views)
        if len(order) == len(nodes):
            packages = [str(by_id[i].get("package") or "") for i in order]
    return nodes, packages


def extract(
    records: Iterable[ScreenRecord],
    *,
    table: DescriptionTable | None = None,
    filters: IconFilters = IconFilters(),
    splits: Sequence[str] | None = None,
    report: CropReport | None = None,
) -> list[RealIcon]:
    """The icon crops of ``records`` (those of ``splits`` only, if given); see the module
    docstring. Unmapped and excluded crops are returned too, with ``label`` ``None``."""
    table = table or DescriptionTable.load()
    report = report if report is not None else CropReport()
    seen: set[tuple[str, str, int]] = set()
    out: list[RealIcon] = []
    for record in records:
        if splits is not None and record.split not in splits:
            continue
        report.screens += 1
        try:
            with Image.open(record.original) as opened:
                screen = opened.convert("RGB")
            nodes, packages = _load_nodes(record, screen.width)
        except (OSError, ValueError, KeyError, TypeError, DataError):
            report.screens_unreadable += 1
            continue
        out.extend(_icons_of_screen(record, screen, nodes, packages, table, filters, report, seen))
    return out


def _icons_of_screen(
    record: ScreenRecord,
    screen: Image.Image,
    nodes: Sequence[Node],
    packages: Sequence[str],
    table: DescriptionTable,
    filters: IconFilters,
    report: CropReport,
    seen: set[tuple[str, str, int]],
) -> Iterator[RealIcon]:
    for node, kind in icon_candidates(nodes):
        # the notification shade over an app belongs to System UI, not to the app
        app = SYSTEM_UI if packages[node.index] == SYSTEM_UI else record.app
        report.candidates += 1
        if not is_visible(nodes, node.index):
            report.dropped["invisible"] += 1
            continue
        box = _box_reason(node.box, screen.size, filters)
        if isinstance(box, str):
            report.dropped[box] += 1
            continue
        crop = screen.crop(box)
        if float(np.asarray(crop.convert("L"), dtype=np.float32).std()) < filters.min_std:
            report.dropped["blank"] += 1
            continue
        key = (
            app,
            normalise(node.desc),
            dhash(crop) if filters.hash_dedupe else hash(crop.tobytes()),
        )
        if key in seen:
            report.dropped["duplicate in app"] += 1
            continue
        seen.add(key)
        label, how = table.lookup(node.desc, app)
        report.kept_by_kind[kind] += 1
        report.how[how] += 1
        (report.mapped if label else report.unmapped)[node.desc] += 1
        yield RealIcon(
            image=crop,
            description=node.desc,
            label=label,
            how=how,
            app=app,
            split=record.split,
            screen=str(record.original),
            view_class=simple_name(node.cls),
            box=box,
            screen_size=screen.size,
        )


# --------------------------------------------------------------------------- arrays


def jittered(
    screen: Image.Image,
    box: tuple[int, int, int, int],
    rng: np.random.Generator,
    jitter: float = 0.12,
) -> Image.Image:
    """``box`` with each edge moved by up to ``jitter`` of its side, cut from ``screen``."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    dx = rng.uniform(-jitter, jitter, 2) * w
    dy = rng.uniform(-jitter, jitter, 2) * h
    nx1, nx2 = max(0, round(x1 + dx[0])), min(screen.width, round(x2 + dx[1]))
    ny1, ny2 = max(0, round(y1 + dy[0])), min(screen.height, round(y2 + dy[1]))
    if nx2 - nx1 < 4 or ny2 - ny1 < 4:
        return screen.crop(box)
    return screen.crop((nx1, ny1, nx2, ny2))


def to_array(image: Image.Image, size: int) -> npt.NDArray[np.uint8]:
    """A crop as the labeller sees it: ``squarish``, resized to ``size`` (uint8 HxWx3)."""
    from screenpilot.vision.icons import squarish

    resized = squarish(image.convert("RGB")).resize((size, size), Image.Resampling.BILINEAR)
    return np.asarray(resized, dtype=np.uint8)


def augmented_arrays(
    icons: Sequence[RealIcon], size: int, copies: int, seed: int = 0, jitter: float = 0.12
) -> npt.NDArray[np.uint8]:
    """(len(icons), 1 + copies, size, size, 3): each crop as cut, then ``copies``
    jittered cuts from its screenshot (opened once per screen)."""
    rng = np.random.default_rng(seed)
    out = np.zeros((len(icons), 1 + copies, size, size, 3), np.uint8)
    by_screen: dict[str, list[int]] = {}
    for i, icon in enumerate(icons):
        by_screen.setdefault(icon.screen, []).append(i)
    for path, indices in by_screen.items():
        with Image.open(path) as opened:
            screen = opened.convert("RGB")
        for i in indices:
            out[i, 0] = to_array(icons[i].image, size)
            for c in range(copies):
                out[i, 1 + c] = to_array(jittered(screen, icons[i].box, rng, jitter), size)
    return out
