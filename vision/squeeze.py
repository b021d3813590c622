"""Plain bands taken out of a screen before the text detector sees it.

The text detector's time grows with the pixels it is given, and a phone screen is often
a third empty: the page's colour between a toolbar and a list, under the last row, around
a dialog. :func:`squeeze_rows` removes the inside of every long run of plain rows (each
row one colour across the image, within ``tolerance`` grey levels), keeping ``margin``
rows of it at each end, so what the detector sees near any ink is what it saw before:
the page's colour. :meth:`Squeezed.unsqueeze_y` maps a y found on the squeezed image back
to the screen's.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from screenpilot.vision.image import RGB

#: a row is plain when every channel spans at most this many levels across it
TOLERANCE = 6
#: plain rows kept at each end of a removed run (at the detector's scale)
MARGIN = 24
#: a run is shortened only when it is longer than this (at the detector's scale)
MIN_RUN = 96


@dataclass(frozen=True)
class Squeezed:
    """The squeezed image and, for each of its rows, the row of the original it is."""

    image: RGB
    rows: npt.NDArray[np.int64]

    @property
    def removed(self) -> int:
        """How many rows were taken out."""
        return int(self.rows[-1]) + 1 - len(self.rows) if len(self.rows) else 0

    def unsqueeze_y(self, ys: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """``ys`` on the squeezed image as y on the original: a y between two rows keeps
        its distance to the row above it (exact inside a kept run; text never reaches a
        cut, which lies ``margin`` plain rows away from any ink)."""
        if not self.removed:
            return ys
        index = np.clip(np.floor(ys).astype(np.int64), 0, len(self.rows) - 1)
        return (self.rows[index] + (ys - index)).astype(np.float32)


def plain_rows(image: RGB, tolerance: int = TOLERANCE) -> npt.NDArray[np.bool_]:
    """Whether each row of ``image`` is one colour (every channel within ``tolerance``)."""
    import cv2

    h, w = image.shape[:2]
    if not h or not w:
        return np.zeros(h, dtype=bool)
    hi = cv2.reduce(image, 1, cv2.REDUCE_MAX).reshape(h, -1).astype(np.int16)
    lo = cv2.reduce(image, 1, cv2.REDUCE_MIN).reshape(h, -1).astype(np.int16)
    return np.asarray((hi - lo).max(axis=1) <= tolerance)


def squeeze_rows(
    image: RGB, *, margin: int = MARGIN, min_run: int = MIN_RUN, tolerance: int = TOLERANCE
) -> Squeezed:
    """``image`` without the inside of each run of more than ``min_run`` plain rows
    (``margin`` rows of the run kept at each end; a run at the top or the bottom edge
    keeps ``margin`` rows on its inner side only)."""
    h = image.shape[0]
    keep = np.ones(h, dtype=bool)
    plain = plain_rows(image, tolerance)
    if plain.any():
        edges = np.diff(np.concatenate(([0], plain.view(np.int8), [0])))
        starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
        for start, end in zip(starts.tolist(), ends.tolist(), strict=True):
            if end - start <= min_run:
                continue
            cut_from = start + margin if start > 0 else start
            cut_to = end - margin if end < h else end
            if cut_to > cut_from:
                keep[cut_from:cut_to] = False
    if keep.all() or not keep.any():
        return Squeezed(image, np.arange(h, dtype=np.int64))
    rows = np.flatnonzero(keep).astype(np.int64)
    return Squeezed(np.ascontiguousarray(image[rows]), rows)
