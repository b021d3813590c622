"""The screen's size as describe's rules take it: its short side, or a phone's on a tablet.

Describe sizes what it looks for (icon blobs, check boxes, knobs, OCR's reading scale, a
dp) from the screen's short side, taken as a phone's ~411 dp. A tablet is wider in dp
than that (600-900 dp), so at the same pixel size its widgets are half as large against
its short side, and describe's rules miss them. The pixels cannot tell a tablet from a
large phone; the phone's density (``adb shell wm density``) can. Inside
:func:`screen_density`, a screen wider than ``TABLET_DP`` at that density is sized as a
phone's 411 dp at that density; a phone's screen (up to ~480 dp across) is sized by its
short side as without the hint, so phones are described the same either way.

The density is a context variable: set it around a describe call; work that describe
hands to a thread pool runs in a copy of the context (:func:`in_context`).
"""

from __future__ import annotations

import contextvars
import logging
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import TypeVar

from screenpilot.errors import ScreenpilotError

log = logging.getLogger("screenpilot.vision")

#: A typical phone's short side in dp; describe's sizes are shares of it.
PHONE_DP = 411.0
#: Short sides wider than this (in dp) are a tablet's: sized as a phone's ``PHONE_DP``.
TABLET_DP = 520.0
#: Android's baseline density: a dp is ``dpi / 160`` pixels.
BASELINE_DPI = 160.0

_DENSITY: contextvars.ContextVar[float | None] = contextvars.ContextVar(
    "screenpilot_screen_density", default=None
)

T = TypeVar("T")

#: Where a describer gets the density: a number of dpi, a function that reads it (a
#: phone's ``density``, asked when a screen is described), or ``None`` (unknown).
DensitySource = float | Callable[[], float] | None


@contextmanager
def screen_density(dpi: float | None) -> Iterator[None]:
    """Describe screens inside this block as a phone of ``dpi`` shows them (``None``:
    unknown, sizes from the short side)."""
    if dpi is not None and not dpi > 0:
        raise ValueError(f"a screen density is a positive number of dpi, not {dpi!r}")
    token = _DENSITY.set(dpi)
    try:
        yield
    finally:
        _DENSITY.reset(token)


def density_scope(source: DensitySource) -> AbstractContextManager[None]:
    """:func:`screen_density` at ``source``'s density; where it is ``None`` or cannot be
    read (the phone did not answer), the density around the call stays as it is."""
    if callable(source):
        try:
            source = source()
        except ScreenpilotError as exc:
            log.warning("screen density unread (%s): sizes from the short side", exc)
            source = None
    return nullcontext() if source is None else screen_density(source)


def current_density() -> float | None:
    """The density set by :func:`screen_density`, if any."""
    return _DENSITY.get()


def dp_across(width: int, height: int, dpi: float) -> float:
    """The screen's short side in dp at ``dpi``."""
    return min(width, height) / (dpi / BASELINE_DPI)


def is_tablet(width: int, height: int, dpi: float) -> bool:
    """Whether the screen is wider than ``TABLET_DP`` at ``dpi`` (sized as a phone's)."""
    return dp_across(width, height, dpi) > TABLET_DP


def short_side(width: int, height: int) -> int:
    """The span describe sizes things by: the short side in pixels, or on a tablet of
    known density the pixels of a phone's ``PHONE_DP``."""
    dpi = _DENSITY.get()
    if dpi is None or not is_tablet(width, height, dpi):
        return min(width, height)
    return max(1, round(PHONE_DP * (dpi / BASELINE_DPI)))


def in_context(fn: Callable[[], T]) -> Callable[[], T]:
    """``fn`` bound to a copy of this thread's context, for a worker thread to run."""
    ctx = contextvars.copy_context()
    return lambda: ctx.run(fn)


def scaled_side(small_height: int, small_width: int, width: int, height: int) -> int:
    """The span of a copy of a ``width`` x ``height`` screen scaled to ``small_width`` x
    ``small_height``: its short side, in proportion to :func:`short_side` on a tablet."""
    side = min(small_height, small_width)
    full = short_side(width, height)
    return side if full == min(width, height) else max(1, round(side * full / min(width, height)))
