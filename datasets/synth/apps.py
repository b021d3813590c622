"""``app`` screens: a page of the virtual phone's real apps in a random state.

Theme, locale (en/zh), accent, navigation mode, font scale, clock and battery are
drawn at random, then a walk of 0-5 random user actions (taps on hit targets, text
typed into a focused field, a scroll, BACK).
"""

from __future__ import annotations

from typing import Any

from screenpilot.datasets.synth.labels import frame_boxes
from screenpilot.datasets.synth.screen import Rng, SynthScreen
from screenpilot.datasets.synth.texts import Texts


def app_screen(rng: Rng) -> SynthScreen:
    """A page of the virtual phone's apps in a random state after a random walk."""
    from screenpilot.simulator.phone import VirtualPhone
    from screenpilot.simulator.render import SIZES
    from screenpilot.simulator.theme import ACCENTS

    spec = rng.choice(list(SIZES.values()))
    phone = VirtualPhone(
        size=(spec.width, spec.height),
        density=round(spec.dpi * rng.uniform(0.85, 1.15)),
        theme="dark" if rng.random() < 0.35 else "light",
        locale="zh" if rng.random() < 0.3 else "en",
        accent=rng.choice(list(ACCENTS)),
        nav_mode="gesture" if rng.random() < 0.4 else "3button",
        clock=f"{rng.randint(0, 23)}:{rng.randint(0, 59):02d}",
        battery=rng.randint(5, 100),
    )
    _tweak_settings(phone, rng)
    packages = [a.package for a in phone.installed()]
    phone.launch(rng.choice(packages))
    for _ in range(rng.randint(0, 5)):
        _walk_step(phone, rng)
    frame = phone.frame()
    return SynthScreen(
        frame.image,
        tuple(frame_boxes(frame)),
        "app",
        {"app": frame.app, "size": f"{spec.width}x{spec.height}"},
    )


def _tweak_settings(phone: Any, rng: Rng) -> None:
    if rng.random() < 0.3:
        phone.settings_put("system", "font_scale", str(rng.choice([0.85, 1.15, 1.3])))
    if rng.random() < 0.3:
        phone.settings_put("system", "status_bar_show_battery_percent", "1")
    if rng.random() < 0.3:
        phone.settings_put("system", "time_12_24", "24")


def _walk_step(phone: Any, rng: Rng) -> None:
    """One random user action: tap a target, type, scroll, or go back."""
    frame = phone.frame()
    pick = rng.random()
    w, h = frame.size
    if pick < 0.15 and frame.max_scroll > 0:
        y0 = frame.viewport.y1 + frame.viewport.height * 0.8
        phone.swipe(w // 2, round(y0), w // 2, round(y0 - rng.uniform(0.2, 0.7) * h), 300)
        return
    if pick < 0.22:
        phone.keyevent(4)
        return
    if pick < 0.3 and frame.keyboard_box is not None:
        phone.input_text(Texts(rng, zh=False).words(1, 3))
        return
    targets = [t for t in frame.targets if not t.key.startswith("sys:") or t.key == "sys:menu"]
    if targets:
        target = rng.choice(targets)
        phone.tap(*target.box.center)
