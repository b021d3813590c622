"""A random device to render on: size (density jittered), theme, accent, status bar."""

from __future__ import annotations

from typing import TYPE_CHECKING

from screenpilot.datasets.synth.screen import Rng

if TYPE_CHECKING:
    from screenpilot.simulator.render import RenderEnv


def hex_color(rng: Rng, lo: int = 0, hi: int = 255) -> str:
    return "#" + "".join(f"{rng.randint(lo, hi):02X}" for _ in range(3))


def rand_env(rng: Rng, *, dark: bool | None = None) -> RenderEnv:
    """A random device: one of the four sizes (density jittered), theme, accent, bars."""
    from screenpilot.simulator.render import SIZES, RenderEnv, ScreenSpec, StatusInfo
    from screenpilot.simulator.theme import ACCENTS, make_theme

    base = rng.choice(list(SIZES.values()))
    spec = ScreenSpec(base.width, base.height, round(base.dpi * rng.uniform(0.85, 1.15)))
    accent = rng.choice(list(ACCENTS)) if rng.random() < 0.6 else hex_color(rng, 30, 220)
    dark = rng.random() < 0.35 if dark is None else dark
    status = StatusInfo(
        time=f"{rng.randint(0, 23)}:{rng.randint(0, 59):02d}",
        battery=rng.randint(5, 100),
        wifi=rng.random() < 0.8,
        bluetooth=rng.random() < 0.4,
        airplane=rng.random() < 0.05,
        show_percent=rng.random() < 0.3,
        dnd=rng.random() < 0.1,
    )
    return RenderEnv(
        spec=spec,
        theme=make_theme(dark, accent),
        status=status,
        nav_mode="gesture" if rng.random() < 0.4 else "3button",
        font_scale=rng.choice([0.85, 1.0, 1.0, 1.0, 1.15, 1.3]),
    )
