"""DroidBot output -> samples: screens paired with their states, views in paint order."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from screenpilot.datasets.convert.files import bounds_scale, load_json, read_image, slug
from screenpilot.datasets.convert.filters import label_nodes
from screenpilot.datasets.convert.records import ConvertReport, Filters, Node
from screenpilot.datasets.yolo import IMAGE_SUFFIXES, Sample
from screenpilot.errors import DataError

STAMP_RE = re.compile(r"(\d{4}-\d{2}-\d{2}_\d{6})")


def stamp(path: Path) -> datetime | None:
    """The timestamp in a DroidBot file name, or ``None``."""
    found = STAMP_RE.search(path.name)
    return datetime.strptime(found.group(1), "%Y-%m-%d_%H%M%S") if found else None


def match_states(
    screens: Sequence[Path], states: Sequence[Path], *, max_gap_s: float = 3.0
) -> dict[Path, Path]:
    """Each screen -> its state: the one of the same name (``screen_X.png`` <->
    ``state_X.json``), else the one nearest in time within ``max_gap_s``; each
    state is used once."""
    by_name = {s.stem.removeprefix("state_"): s for s in states}
    matched: dict[Path, Path] = {}
    for screen in screens:
        same = by_name.get(screen.stem.removeprefix("screen_"))
        if same is not None:
            matched[screen] = same
    used: set[Path] = set(matched.values())
    stamped = [(t, s) for s in states if s not in used and (t := stamp(s)) is not None]
    pairs: list[tuple[float, Path, Path]] = []
    for screen in (s for s in screens if s not in matched):
        t_screen = stamp(screen)
        if t_screen is None:
            continue
        for t_state, state in stamped:
            gap = abs((t_state - t_screen).total_seconds())
            if gap <= max_gap_s:
                pairs.append((gap, screen, state))
    for _gap, screen, state in sorted(pairs, key=lambda p: (p[0], str(p[1]))):
        if screen not in matched and state not in used:
            matched[screen] = state
            used.add(state)
    return matched


def paint_order(views: Sequence[Mapping[str, Any]]) -> list[int]:
    """temp_ids of DroidBot ``views[]`` in paint order (depth first, children in order)."""
    by_id = {int(v["temp_id"]): v for v in views}
    roots = [i for i, v in by_id.items() if int(v.get("parent", -1)) not in by_id]
    order: list[int] = []
    stack = sorted(roots, reverse=True)
    while stack:
        current = stack.pop()
        order.append(current)
        stack.extend(
            reversed([int(c) for c in by_id[current].get("children") or [] if int(c) in by_id])
        )
    return order


def droidbot_nodes(views: Sequence[Mapping[str, Any]], scale: float = 1.0) -> list[Node]:
    """DroidBot ``views[]`` (indexed by temp_id, parent links) -> nodes in paint order."""
    by_id = {int(v["temp_id"]): v for v in views}
    order = paint_order(views)
    position = {view_id: i for i, view_id in enumerate(order)}
    nodes = []
    for view_id in order:
        v = by_id[view_id]
        (x1, y1), (x2, y2) = v["bounds"]
        nodes.append(
            Node(
                position[view_id],
                str(v.get("class") or ""),
                (x1 * scale, y1 * scale, x2 * scale, y2 * scale),
                bool(v.get("visible", True)),
                position.get(int(v.get("parent", -1)), -1),
                clickable=bool(v.get("clickable") or v.get("long_clickable")),
                checkable=bool(v.get("checkable")),
                checked=bool(v.get("checked")),
                text=str(v.get("text") or "").strip(),
                desc=str(v.get("content_description") or "").strip(),
                rid=str(v.get("resource_id") or "").strip(),
            )
        )
    for node in nodes:
        if node.parent >= 0:
            nodes[node.parent].children.append(node.index)
    return nodes


def droidbot_app(state: Mapping[str, Any]) -> str:
    """The app a state shows: the most common package of its views (not system UI)."""
    packages = Counter(
        str(v.get("package"))
        for v in state.get("views", [])
        if v.get("package") and v.get("package") != "com.android.systemui"
    )
    if packages:
        return packages.most_common(1)[0][0]
    return str(state.get("foreground_activity", "")).split("/")[0] or "unknown"


def convert_droidbot(
    src: Path,
    *,
    filters: Filters = Filters(),
    max_gap_s: float = 3.0,
    report: ConvertReport | None = None,
) -> Iterator[Sample]:
    """Every matched screen/state pair under ``src`` (searched recursively)."""
    report = report if report is not None else ConvertReport()
    folders = sorted({p.parent for p in Path(src).rglob("state_*.json")})
    if not folders:
        raise DataError(f"no DroidBot state_*.json under {src}")
    for folder in folders:
        screens = sorted(p for p in folder.glob("screen_*") if p.suffix.lower() in IMAGE_SUFFIXES)
        matched = match_states(screens, sorted(folder.glob("state_*.json")), max_gap_s=max_gap_s)
        report.skipped_screens += [str(s) for s in screens if s not in matched]
        for screen, state_path in matched.items():
            sample = droidbot_sample(screen, state_path, folder.name, filters, report)
            report.add(sample)
            yield sample


def droidbot_sample(
    screen: Path, state_path: Path, group: str, filters: Filters, report: ConvertReport
) -> Sample:
    state = load_json(state_path)
    views = state.get("views") or []
    width, height, gray = read_image(screen)
    root_width = max((v["bounds"][1][0] for v in views), default=width)
    nodes = droidbot_nodes(views, bounds_scale(root_width, width))
    boxes = label_nodes(nodes, width, height, filters=filters, gray=gray, report=report)
    name = f"{slug(group)}__{screen.stem}"
    return Sample(
        screen,
        width,
        height,
        tuple(boxes),
        app=droidbot_app(state),
        name=name,
        meta={"state": str(state_path), "source": group},
    )
