"""Screen ``index`` of a run: its kind drawn from the mix, deterministic by (seed, index).

Screen ``i`` is the same whatever the number of workers (for one version of the
simulator). An ``app`` screen whose app code fails falls back to a ``layout`` screen.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from screenpilot.datasets.synth.apps import app_screen
from screenpilot.datasets.synth.layouts import layout_screen
from screenpilot.datasets.synth.rare import rare_screen
from screenpilot.datasets.synth.screen import Rng, SynthScreen
from screenpilot.errors import DataError

KINDS: tuple[str, ...] = ("app", "layout", "rare")
DEFAULT_MIX: dict[str, float] = {"app": 0.3, "layout": 0.45, "rare": 0.25}


def screen_rng(seed: int, index: int) -> Rng:
    """The random source of screen ``index`` of a run (independent of worker layout)."""
    return random.Random(f"screenpilot-synth:{seed}:{index}")


def pick_kind(rng: Rng, mix: Sequence[tuple[str, float]]) -> str:
    kinds = [k for k, wgt in mix if wgt > 0]
    return rng.choices(kinds, weights=[wgt for _, wgt in mix if wgt > 0])[0]


GENERATORS: dict[str, Callable[[Rng], SynthScreen]] = {
    "app": app_screen,
    "layout": layout_screen,
    "rare": rare_screen,
}


def generate_screen(
    index: int,
    seed: int = 0,
    *,
    kind: str | None = None,
    mix: Sequence[tuple[str, float]] = tuple(DEFAULT_MIX.items()),
) -> SynthScreen:
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
