"""Screen geometry: sizes and densities (px = dp * dpi / 160) and the system bars' heights."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from screenpilot.errors import ConfigError

NavMode = Literal["3button", "gesture"]


@dataclass(frozen=True, slots=True)
class ScreenSpec:
    """Screen geometry: pixels (portrait) and density in dpi."""

    width: int = 1080
    height: int = 2400
    dpi: int = 420

    def __post_init__(self) -> None:
        if not (200 <= self.width <= 4000 and 200 <= self.height <= 5000):
            raise ConfigError(
                f"unusable screen size {self.width}x{self.height}", hint="use e.g. 1080x2400"
            )
        if not 80 <= self.dpi <= 800:
            raise ConfigError(f"unusable density {self.dpi} dpi", hint="use e.g. 420")

    @property
    def scale(self) -> float:
        """Pixels per dp."""
        return self.dpi / 160

    @classmethod
    def parse(cls, size: str, dpi: int | None = None) -> ScreenSpec:
        """``"1080x2400"`` (density defaults to that size's usual one)."""
        try:
            w, h = (int(v) for v in size.lower().split("x"))
        except ValueError as exc:
            raise ConfigError(f"bad screen size {size!r}", hint="use WIDTHxHEIGHT") from exc
        return cls(w, h, dpi or default_density(w, h))


#: Named sizes the phone is tested at: (width, height, dpi).
SIZES: dict[str, ScreenSpec] = {
    "phone": ScreenSpec(1080, 2400, 420),
    "phone_fhd": ScreenSpec(1080, 1920, 420),
    "phone_hd": ScreenSpec(720, 1600, 320),
    "tablet": ScreenSpec(1200, 2000, 240),
}


def default_density(width: int, height: int) -> int:
    for spec in SIZES.values():
        if (spec.width, spec.height) == (width, height):
            return spec.dpi
    return 420 if min(width, height) >= 1000 else 320


def status_bar_height(spec: ScreenSpec) -> int:
    return round(32 * spec.scale)


def nav_bar_height(spec: ScreenSpec, mode: NavMode) -> int:
    return round((48 if mode == "3button" else 24) * spec.scale)


def keyboard_height(spec: ScreenSpec) -> int:
    return round((44 + 4 * 54 + 8) * spec.scale)
