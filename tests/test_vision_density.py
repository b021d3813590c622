"""A tablet's screen sized by the phone's density (``vision.density``): the rules that
size what they look for from the screen's short side take a tablet's 800 dp as a
phone's 411 dp when the density is known; phones are described the same either way."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from screenpilot.errors import ConfigError, DeviceError
from screenpilot.model import ElementKind, Screen
from screenpilot.simulator.phone import VirtualPhone
from screenpilot.vision.density import (
    current_density,
    density_scope,
    in_context,
    scaled_side,
    screen_density,
    short_side,
)
from screenpilot.vision.pipeline import describe

TABLET = (1600, 2560)  # a 10-inch tablet: 800 dp across at 320 dpi


def test_the_short_side_is_a_phones_411_dp_only_on_a_tablet() -> None:
    assert short_side(1080, 2400) == 1080  # no density: the short side
    assert short_side(1600, 2560) == 1600
    with screen_density(420):
        assert short_side(1080, 2400) == 1080  # a phone (411 dp): unchanged
        assert short_side(2400, 1080) == 1080  # on its side too
        assert short_side(1812, 2176) == round(411 * 420 / 160)  # a foldable: 690 dp
    with screen_density(320):
        assert short_side(1600, 2560) == short_side(2560, 1600) == 822
        assert short_side(720, 1600) == 720  # a small phone at 320 dpi: 360 dp
        # a copy scaled by 2: its short side in proportion
        assert scaled_side(1280, 800, 1600, 2560) == 411
    assert scaled_side(540, 1200, 1080, 2400) == 540


def test_a_density_is_positive_and_scoped() -> None:
    with pytest.raises(ValueError, match="positive"), screen_density(0):
        pass
    with screen_density(320):
        with density_scope(None):  # unknown: what was set around stays
            assert current_density() == 320
        with density_scope(lambda: 480):
            assert current_density() == 480
        assert current_density() == 320
    assert current_density() is None


def test_a_phone_that_does_not_answer_leaves_sizes_from_the_short_side(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def unread() -> float:
        raise DeviceError("device offline")

    with density_scope(unread):
        assert current_density() is None
        assert short_side(1600, 2560) == 1600
    assert "screen density unread" in caplog.text


def test_worker_threads_see_the_density_they_were_handed() -> None:
    seen: list[tuple[bool, float | None]] = []
    main = threading.current_thread()

    def look() -> None:
        seen.append((threading.current_thread() is main, current_density()))

    with screen_density(320), ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(in_context(look)).result()
        pool.submit(look).result()  # a bare submit runs outside the describe's context
    assert seen == [(False, 320), (False, None)]


def _render(size: tuple[int, int], dpi: int, app: str, page: str) -> tuple[np.ndarray, Screen]:
    phone = VirtualPhone(size=size, density=dpi)
    phone.open_page(app, page)
    return np.asarray(phone.frame().image.convert("RGB")), phone.screen()


def test_a_tablets_settings_page_is_read_at_a_phones_scale_with_its_density() -> None:
    pixels, truth = _render(TABLET, 320, "settings", "sound")
    screen = describe(pixels, density=320)
    caption = {k: sorted(e.caption for e in screen.elements if e.kind is k) for k in ElementKind}
    truth_bars = sorted(e.caption for e in truth.elements if e.kind is ElementKind.SEEK_BAR)
    assert caption[ElementKind.SEEK_BAR] == truth_bars and len(truth_bars) == 4
    assert caption[ElementKind.CHECK_BOX] == ["Vibrate for calls"]  # 18 dp: 36 px here
    assert caption[ElementKind.SWITCH] == ["Do Not Disturb"]
    pictures = [e for e in screen.elements if e.kind in (ElementKind.IMAGE, ElementKind.ICON)]
    low = 0.9 * pixels.shape[0]  # the navigation bar's keys, found in the detector's bar
    assert sorted(e.icon_label for e in pictures if e.box.y1 >= low) == [
        "back",
        "home",
        "recent apps",
    ]
    # above them, no dots made of a knob or a box: the toolbar's back arrow alone
    assert [e.icon_label for e in pictures if e.box.y1 < low] == ["back"]


def test_a_phone_is_described_the_same_with_its_density() -> None:
    pixels, _ = _render((1080, 2400), 420, "settings", "sound")
    assert describe(pixels, density=420).elements == describe(pixels).elements


def test_describe_takes_the_density_on_the_command_line(tmp_path: Path) -> None:
    from screenpilot.cli import app

    pixels, _ = _render(TABLET, 320, "settings", "sound")
    from PIL import Image

    shot = tmp_path / "tablet.png"
    Image.fromarray(pixels).save(shot)
    done = CliRunner().invoke(app, ["describe", str(shot), "--density", "320"])
    assert done.exit_code == 0, done.output
    assert "check box labelled 'Vibrate for calls'" in done.output
    refused = CliRunner().invoke(app, ["describe", str(shot), "--density", "5"])
    assert refused.exit_code != 0 and "--density" in refused.output


def test_the_virtual_phones_density_is_checked() -> None:
    from screenpilot import build
    from screenpilot.config import load_config

    cfg = load_config(overrides={"phone.size": "1600x2560", "phone.density": "320"})
    assert build.phone(cfg).density() == 320
    with pytest.raises(ConfigError, match=r"phone\.density"):
        build.phone(load_config(overrides={"phone.density": "5"}))


def test_the_describer_asks_the_phone_for_its_density() -> None:
    from screenpilot import build
    from screenpilot.config import load_config

    class Tablet:
        asked = 0

        def density(self) -> int:
            Tablet.asked += 1
            return 320

    describer = build.describer(load_config(), Tablet())
    pixels, _ = _render(TABLET, 320, "settings", "sound")
    screen = describer.describe(pixels)
    assert Tablet.asked == 1
    assert [e.caption for e in screen.elements if e.kind is ElementKind.CHECK_BOX] == [
        "Vibrate for calls"
    ]


def test_the_virtual_phone_is_rendered_as_a_tablet_on_the_command_line(tmp_path: Path) -> None:
    from PIL import Image

    from screenpilot.cli import app

    out = tmp_path / "tablet.png"
    args = ["phone", "render", "settings/sound", "--size", "1600x2560", "--out", str(out)]
    done = CliRunner().invoke(app, [*args, "--density", "320"])
    assert done.exit_code == 0, done.output
    with Image.open(out) as im:
        assert im.size == (1600, 2560)
    pixels, _ = _render(TABLET, 320, "settings", "sound")
    assert np.array_equal(np.asarray(Image.open(out).convert("RGB")), pixels)
    refused = CliRunner().invoke(app, [*args, "--density", "5"])
    assert refused.exit_code != 0 and isinstance(refused.exception, ConfigError)
    assert "phone.density" in str(refused.exception)


def test_a_low_density_tablets_small_check_box_is_found() -> None:
    """At 240 dpi an 18-dp check box is 27 px: its ring's band is 2 px, and the contour's
    box takes a pixel of the page round it; the band one pixel in is judged too."""
    pixels, _ = _render((1200, 1920), 240, "settings", "sound")
    screen = describe(pixels, density=240)
    boxes = [e for e in screen.elements if e.kind is ElementKind.CHECK_BOX]
    assert [(e.caption, e.checked) for e in boxes] == [("Vibrate for calls", True)]
