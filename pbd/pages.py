"""Page identity: which elements are a page's content, the labels that identify a page,
whether two screens show the same page, and a short name for one.

Exploration matches pages by these labels, and knowledge keeps its transition graph
and penalties by them, so both sides must read a page alike.
"""

from __future__ import annotations

from screenpilot.language.taskparse import norm
from screenpilot.model import BlockKind, Element, ElementKind, Screen

_SKIP_BLOCKS = {BlockKind.STATUS_BAR, BlockKind.NAVIGATION_BAR, BlockKind.KEYBOARD}
_SKIP_KINDS = {ElementKind.STATUS_BAR, ElementKind.NAVIGATION_BAR}
#: Pages whose labels agree this much (``jaccard``) are the same page.
SAME_PAGE = 0.7


def content(screen: Screen) -> list[Element]:
    """Elements of the app's content: no status, navigation bar or keyboard."""
    skip = {b.id for b in screen.blocks if b.kind in _SKIP_BLOCKS}
    top = screen.height * 0.035
    return [
        e
        for e in screen.reading_order()
        if e.kind not in _SKIP_KINDS and e.block_id not in skip and e.box.y2 > top
    ]


_LABELS: dict[int, tuple[Screen, frozenset[str]]] = {}


def page_labels(screen: Screen) -> frozenset[str]:
    """What identifies a page: the normalised labels of its content (no field contents,
    no single characters such as keyboard keys). Remembered for the last screens seen."""
    known = _LABELS.get(id(screen))
    if known is not None and known[0] is screen:
        return known[1]
    out = set()
    for e in content(screen):
        if e.kind is ElementKind.EDIT_TEXT and not e.hint:
            continue
        label = norm(e.label)
        if len(label) > 1:
            out.add(label)
    labels = frozenset(out)
    if len(_LABELS) > 512:
        _LABELS.clear()
    _LABELS[id(screen)] = (screen, labels)
    return labels


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    """Share of the labels two pages have in common (1 for two empty pages)."""
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


def same_page(
    a: Screen | frozenset[str], b: Screen | frozenset[str], *, threshold: float = SAME_PAGE
) -> bool:
    """Whether two screens show the same page (their labels mostly agree)."""
    la = a if isinstance(a, frozenset) else page_labels(a)
    lb = b if isinstance(b, frozenset) else page_labels(b)
    return jaccard(la, lb) >= threshold


def title(screen: Screen, n: int = 2) -> str:
    """A short name for a page: its first labels from the top."""
    labels = [
        e.label
        for e in content(screen)
        if len(norm(e.label)) > 1 and not (e.kind is ElementKind.EDIT_TEXT and not e.hint)
    ]
    return " / ".join(dict.fromkeys(labels[:n])) or "an unlabelled page"
