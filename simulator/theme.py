"""Colours of the virtual phone: Material 3 light and dark palettes with an accent.

Widgets never hold RGB values; they name a colour *role* (``"primary"``,
``"secondary"``, ``"accent"``, ``"surface"``...) or give ``"#RRGGBB"``, and
``Theme.color`` resolves it, so one widget tree renders in every theme.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from screenpilot.errors import ConfigError

RGB = tuple[int, int, int]

#: Accent colours the phone can be built with (``VirtualPhone(accent=...)``).
ACCENTS: dict[str, str] = {
    "blue": "#1A73E8",
    "purple": "#6750A4",
    "teal": "#00796B",
    "green": "#188038",
    "orange": "#E8710A",
    "red": "#D93025",
    "pink": "#C2185B",
}

_LIGHT: dict[str, str] = {
    "background": "#FEFBFF",
    "surface": "#FFFFFF",
    "surface_variant": "#F1EEF6",
    "surface_high": "#ECE6F0",
    "primary": "#1C1B1F",
    "secondary": "#5F6368",
    "hint": "#8A8D93",
    "outline": "#79747E",
    "divider": "#E3E1E6",
    "disabled": "#BDBDBD",
    "status_text": "#1C1B1F",
    "nav_bar": "#F3F0F7",
    "nav_icon": "#3C3B40",
    "keyboard": "#E8EAED",
    "key": "#FFFFFF",
    "key_special": "#C8CCD2",
    "key_text": "#202124",
    "toast": "#303034",
    "toast_text": "#F2F0F4",
    "switch_off_track": "#E6E0E9",
    "switch_off_thumb": "#79747E",
    "error": "#B3261E",
    "star": "#F4B400",
    "white": "#FFFFFF",
    "black": "#000000",
}

_DARK: dict[str, str] = {
    "background": "#121316",
    "surface": "#1D1E22",
    "surface_variant": "#26272C",
    "surface_high": "#2D2E33",
    "primary": "#E6E1E5",
    "secondary": "#A9ADB3",
    "hint": "#80848A",
    "outline": "#938F99",
    "divider": "#34353A",
    "disabled": "#5C5C60",
    "status_text": "#E6E1E5",
    "nav_bar": "#18191C",
    "nav_icon": "#D8D6DC",
    "keyboard": "#202124",
    "key": "#3C4043",
    "key_special": "#2C2F33",
    "key_text": "#E8EAED",
    "toast": "#E6E1E5",
    "toast_text": "#1C1B1F",
    "switch_off_track": "#36343B",
    "switch_off_thumb": "#938F99",
    "error": "#F2B8B5",
    "star": "#FDD663",
    "white": "#FFFFFF",
    "black": "#000000",
}


def hex_rgb(value: str) -> RGB:
    """``"#RRGGBB"`` -> (r, g, b)."""
    v = value.lstrip("#")
    if len(v) != 6:
        raise ConfigError(f"bad colour {value!r}", hint="use #RRGGBB")
    try:
        return (int(v[0:2], 16), int(v[2:4], 16), int(v[4:6], 16))
    except ValueError as exc:
        raise ConfigError(f"bad colour {value!r}", hint="use #RRGGBB") from exc


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """Linear blend: ``t`` = 0 gives ``a``, 1 gives ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


@dataclass(frozen=True, slots=True)
class Theme:
    """A resolved palette: light or dark, with one accent colour."""

    dark: bool
    accent_name: str
    roles: dict[str, RGB] = field(default_factory=dict, compare=False)

    def color(self, role: str) -> RGB:
        """Resolve a role name or ``#RRGGBB``."""
        if role.startswith("#"):
            return hex_rgb(role)
        try:
            return self.roles[role]
        except KeyError as exc:
            raise ConfigError(
                f"unknown colour role {role!r}", hint=f"one of {', '.join(sorted(self.roles))}"
            ) from exc


def make_theme(dark: bool = False, accent: str = "blue") -> Theme:
    """The palette for a theme: ``accent`` is a name from ``ACCENTS`` or ``#RRGGBB``."""
    accent_hex = ACCENTS.get(accent, accent)
    if not accent_hex.startswith("#"):
        raise ConfigError(
            f"unknown accent colour {accent!r}", hint=f"one of {', '.join(ACCENTS)} or #RRGGBB"
        )
    base = {k: hex_rgb(v) for k, v in (_DARK if dark else _LIGHT).items()}
    acc = hex_rgb(accent_hex)
    if dark:
        acc = mix(acc, (255, 255, 255), 0.35)
    base["accent"] = acc
    base["on_accent"] = (0x10, 0x10, 0x14) if dark else (255, 255, 255)
    base["accent_container"] = mix(base["background"], acc, 0.28 if dark else 0.16)
    base["on_accent_container"] = mix(acc, (255, 255, 255) if dark else (0, 0, 0), 0.35)
    return Theme(dark=dark, accent_name=accent, roles=base)
