"""Screen-level filters for real screen/hierarchy pairs (counted, documented).

The node filters of :mod:`screenpilot.datasets.convert` decide which boxes of a
screen are kept; these decide which screens are kept at all:

1. **no views**: the hierarchy is empty (the dump failed);
2. **web page**: the screen is a browser's (Firefox, Chrome: the apps opened web
   pages in them), or a visible WebView covers at least ``max_web_view`` (0.5) of
   the screen, or at least ``max_web_share`` (0.8) of the visible leaf views
   are plain ``android.view.View`` nodes (a WebView's accessibility tree: the
   classes say nothing about widgets, so the boxes would teach noise);
3. **partial hierarchy**: much of what is drawn has no view: the hierarchy
   was dumped before the screen finished loading, or it holds only the
   foreground window (a dialog or popup menu over a page whose widgets then
   have no boxes; looked at: most such screens are dialogs and menus). Of the
   screenshot's edge pixels between the status bar and the navigation bar
   (grey gradient over ``edge_level``, on a 4x smaller copy), less than
   ``min_coverage`` (0.45) lie inside a visible leaf view's box; screens with
   almost no edges are kept;
4. **duplicate state**: a screen of an app whose DroidBot ``state_str`` was
   already kept, or, for sources without ``state_str`` (uiautomator, RICO),
   whose 256-bit difference hash of the pixels is within ``max_hash_distance``
   (6) bits of a kept screen of the same app (the same state, a blinking
   cursor or clock apart).

Emulator overlays: ActivityDiary's screenshots carry the emulator's
pointer-location strip over the status bar. The hierarchy has no view there,
so no box is affected; those screens get no status-bar box (see
:mod:`screenpilot.datasets.harvest`).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from screenpilot.datasets.convert import (
    Node,
    bounds_scale,
    droidbot_nodes,
    is_visible,
    rico_nodes,
    simple_name,
)
from screenpilot.datasets.yolo import LabeledBox, Sample
from screenpilot.model import ElementKind

BROWSERS = frozenset(
    {
        "org.mozilla.firefox",
        "com.android.chrome",
        "com.android.browser",
        "org.chromium.webview_shell",
    }
)


@dataclass(frozen=True, slots=True)
class ScreenFilters:
    """Thresholds of the screen filters (see the module docstring)."""

    max_web_share: float = 0.8
    max_web_view: float = 0.5
    min_coverage: float = 0.45
    edge_level: float = 24.0
    min_edges: int = 300
    max_hash_distance: int = 6


@dataclass(slots=True)
class ScreenReport:
    """Screens kept and dropped, by reason and by source."""

    kept: Counter[str] = field(default_factory=Counter)
    dropped: Counter[str] = field(default_factory=Counter)
    dropped_by_source: Counter[tuple[str, str]] = field(default_factory=Counter)

    def drop(self, source: str, reason: str) -> None:
        self.dropped[reason] += 1
        self.dropped_by_source[(source, reason)] += 1


def hierarchy_nodes(fmt: str, path: Path, width: int) -> tuple[list[Node], str]:
    """The nodes of a screen's hierarchy (screen pixels) and its ``state_str``."""
    if fmt == "uiautomator":
        from screenpilot.datasets.convert.uiautomator import dump_nodes, read_dump

        return dump_nodes(read_dump(path), width), ""
    doc: Any = json.loads(path.read_text(encoding="utf-8"))
    if fmt == "rico":
        root = doc["activity"]["root"]
        return rico_nodes(root, width / float(root.get("bounds", [0, 0, 1440])[2] or width)), ""
    views = doc.get("views") or []
    scale = bounds_scale(max((v["bounds"][1][0] for v in views), default=width), width)
    return droidbot_nodes(views, scale), str(doc.get("state_str") or "")


def leaves(nodes: Sequence[Node], width: int, height: int) -> list[Node]:
    """Visible nodes with no visible child, of non-zero size, smaller than the screen."""
    out = []
    for node in nodes:
        x1, y1, x2, y2 = node.box
        if x2 - x1 < 2 or y2 - y1 < 2 or (x2 - x1) * (y2 - y1) > 0.9 * width * height:
            continue
        if any(nodes[c].visible for c in node.children) or not is_visible(nodes, node.index):
            continue
        out.append(node)
    return out


def web_share(nodes: Sequence[Node], width: int, height: int) -> float:
    """The share of visible leaves that are plain ``View`` nodes."""
    found = leaves(nodes, width, height)
    if not found:
        return 0.0
    return sum(simple_name(n.cls) == "View" for n in found) / len(found)


def web_view_share(nodes: Sequence[Node], width: int, height: int) -> float:
    """The largest share of the screen a visible ``WebView`` covers."""
    best = 0.0
    for node in nodes:
        if simple_name(node.cls).endswith("WebView") and is_visible(nodes, node.index):
            x1, y1, x2, y2 = node.box
            area = max(0.0, min(x2, width) - max(x1, 0)) * max(0.0, min(y2, height) - max(y1, 0))
            best = max(best, area / (width * height))
    return best


def system_bars(nodes: Sequence[Node], width: int, height: int) -> list[LabeledBox]:
    """Status and navigation bar boxes read from where the app's window ends.

    The app's full-width views start below the status bar and end above the
    (three-button) navigation bar; a gap of 1.5-6 % of the height at the top,
    3-9 % at the bottom, is that bar. Landscape screens get none.
    """
    if width > height:
        return []
    rows = [
        n.box for n in nodes if n.box[2] - n.box[0] >= 0.9 * width and is_visible(nodes, n.index)
    ]
    tops = [y1 for _x1, y1, _x2, _y2 in rows if y1 > 0]
    bottoms = [y2 for _x1, _y1, _x2, y2 in rows if y2 < height]
    bars = []
    if tops and 0.015 * height <= min(tops) <= 0.06 * height:
        bars.append(LabeledBox(ElementKind.STATUS_BAR, 0.0, 0.0, float(width), min(tops)))
    if bottoms and 0.03 * height <= height - max(bottoms) <= 0.09 * height:
        bars.append(
            LabeledBox(ElementKind.NAVIGATION_BAR, 0.0, max(bottoms), float(width), float(height))
        )
    return bars


def leaf_coverage(nodes: Sequence[Node], gray: Any, filters: ScreenFilters) -> float | None:
    """The share of the screen's edge pixels inside a leaf's box (``None``: few edges)."""
    import numpy as np

    small = np.asarray(gray, dtype=np.float32)[::4, ::4]
    h, w = small.shape
    grad = np.zeros_like(small, dtype=bool)
    grad[:, 1:] |= np.abs(np.diff(small, axis=1)) > filters.edge_level
    grad[1:, :] |= np.abs(np.diff(small, axis=0)) > filters.edge_level
    top, bottom = int(0.05 * h), int(0.93 * h)
    grad[:top] = False
    grad[bottom:] = False
    total = int(grad.sum())
    if total < filters.min_edges:
        return None
    mask = np.zeros_like(grad)
    for node in leaves(nodes, w * 4, h * 4):
        x1, y1, x2, y2 = (int(v / 4) for v in node.box)
        mask[max(0, y1) : max(0, y2) + 1, max(0, x1) : max(0, x2) + 1] = True
    return float((grad & mask).sum()) / total


def dhash(gray: Any) -> int:
    """A 256-bit difference hash of a grey image (17x16, bilinear)."""
    import numpy as np
    from PIL import Image

    small = Image.fromarray(np.asarray(gray, dtype=np.uint8)).resize(
        (17, 16), Image.Resampling.BILINEAR
    )
    a = np.asarray(small, dtype=np.int16)
    bits = (a[:, 1:] > a[:, :-1]).flatten()
    return int(sum(1 << i for i, b in enumerate(bits) if b))


@dataclass(slots=True)
class Deduper:
    """Remembers kept screens per app: ``state_str`` and pixel hashes."""

    max_distance: int = 6
    states: set[tuple[str, str]] = field(default_factory=set)
    hashes: dict[str, list[int]] = field(default_factory=dict)

    def seen(self, app: str, state_str: str, image_hash: int) -> bool:
        if state_str:
            if (app, state_str) in self.states:
                return True
            self.states.add((app, state_str))
            return False
        near = self.hashes.setdefault(app, [])
        if any(bin(image_hash ^ h).count("1") <= self.max_distance for h in near):
            return True
        near.append(image_hash)
        return False


def screen_drop_reason(
    sample: Sample, fmt: str, gray: Any, deduper: Deduper, filters: ScreenFilters = ScreenFilters()
) -> str:
    """Why a converted screen is dropped ('' when it is kept)."""
    nodes, state_str = hierarchy_nodes(fmt, Path(sample.meta["state"]), sample.width)
    if not nodes:
        return "no views"
    if (
        sample.app in BROWSERS
        or web_share(nodes, sample.width, sample.height) >= filters.max_web_share
        or web_view_share(nodes, sample.width, sample.height) >= filters.max_web_view
    ):
        return "web page"
    coverage = leaf_coverage(nodes, gray, filters)
    if coverage is not None and coverage < filters.min_coverage:
        return "partial hierarchy"
    if deduper.seen(sample.app, state_str, dhash(gray)):
        return "duplicate state"
    return ""
