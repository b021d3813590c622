"""OCR lines split at wide gaps: "Fri      Sat      Sun" is three texts, not one line.

The text detector joins words of one baseline into a line even when they stand
far apart (the labels of a grid of check boxes, a row of chips). Normal word
spacing is a third of the text's height; a gap wider than ``GAP`` times the
line's height is a layout gap. The pixels decide where the gaps are: inside the
line's box, a column holds ink when one of its pixels differs from the box's
background (its median grey) by more than ``INK``; runs of empty columns wider
than the gap split the box into segments. The words of the line are then shared
out to the segments in order, by their share of the line's characters; a line
whose words do not fit its segments (fewer words than segments, or widths that
disagree with the character counts) stays as it is.

    >>> split_wide_gaps(pixels, lines)   # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from screenpilot.model import Box
from screenpilot.vision.image import RGB, channel_mean
from screenpilot.vision.ocr import TextLine

#: A gap wider than this many line heights separates two texts.
GAP = 1.0
#: Grey-level difference from the background that counts as ink.
INK = 48.0
#: A segment's share of the ink width may differ from its words' share of the
#: characters by at most this factor either way.
SHARE_FACTOR = 2.5


def _segments(grey: np.ndarray, min_gap: int) -> list[tuple[int, int]]:
    """Column ranges ``[start, end)`` of ink separated by more than ``min_gap`` empty columns."""
    background = float(np.median(grey))
    inked = np.flatnonzero((np.abs(grey - background) > INK).any(axis=0))
    if inked.size == 0:
        return []
    cuts = np.flatnonzero(np.diff(inked) > min_gap + 1)
    starts = [int(inked[0]), *(int(inked[c + 1]) for c in cuts)]
    ends = [*(int(inked[c]) + 1 for c in cuts), int(inked[-1]) + 1]
    return list(zip(starts, ends, strict=True))


def _share_out(words: Sequence[str], widths: Sequence[int]) -> list[list[str]] | None:
    """``words`` in order as ``len(widths)`` non-empty groups whose character shares
    follow the segments' width shares; None when they cannot agree."""
    k = len(widths)
    if len(words) < k:
        return None
    chars = np.cumsum([len(w) for w in words])
    total_chars, total_width = float(chars[-1]), float(sum(widths))
    bounds: list[int] = []
    done = 0
    for i in range(k - 1):
        target = sum(widths[: i + 1]) / total_width
        lo, hi = done + 1, len(words) - (k - 1 - i)
        j = min(range(lo, hi + 1), key=lambda n: abs(chars[n - 1] / total_chars - target))
        bounds.append(j)
        done = j
    groups = [list(words[a:b]) for a, b in zip([0, *bounds], [*bounds, len(words)], strict=True)]
    for group, width in zip(groups, widths, strict=True):
        share_chars = sum(len(w) for w in group) / total_chars
        share_width = width / total_width
        if not 1 / SHARE_FACTOR <= share_chars / share_width <= SHARE_FACTOR:
            return None
    return groups


def split_line(pixels: RGB, line: TextLine) -> list[TextLine]:
    """``line`` as one text per wide-gap segment (itself when it has no such gap)."""
    words = line.text.split()
    b = line.box
    if len(words) < 2 or b.height < 6 or b.width < 3 * b.height:
        return [line]
    crop = channel_mean(pixels[b.y1 : b.y2, b.x1 : b.x2])
    segments = _segments(crop, int(GAP * b.height))
    if len(segments) < 2:
        return [line]
    groups = _share_out(words, [e - s for s, e in segments])
    if groups is None:
        return [line]
    return [
        TextLine(" ".join(group), Box(b.x1 + s, b.y1, b.x1 + e, b.y2), line.score)
        for group, (s, e) in zip(groups, segments, strict=True)
    ]


def split_wide_gaps(pixels: RGB, lines: Sequence[TextLine]) -> list[TextLine]:
    """Every line of ``lines`` split at its wide gaps (see the module docstring)."""
    out: list[TextLine] = []
    for line in lines:
        out.extend(split_line(pixels, line))
    return out
