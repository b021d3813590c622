"""The HTML report: self-contained, secrets hidden, and it renders in headless Chromium."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from screenpilot.model import (
    Action,
    ActionKind,
    Box,
    Element,
    ElementKind,
    Outcome,
    Screen,
    Step,
    Trajectory,
)
from screenpilot.report import render_html, write_report

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def trajectory(tmp_path: Path) -> Trajectory:
    shot = tmp_path / "step_00.png"
    Image.new("RGB", (1080, 2400), (240, 240, 250)).save(shot)
    field = Element(
        0,
        ElementKind.EDIT_TEXT,
        Box(60, 400, 1020, 520),
        text="Password",
        hint=True,
        password=True,
        editable=True,
    )
    ok = Element(1, ElementKind.BUTTON, Box(700, 700, 1000, 820), text="Sign in")
    screen = Screen(1080, 2400, elements=(field, ok), image_path=str(shot))
    steps = (
        Step(
            0,
            screen,
            Action(ActionKind.TYPE, element=0, text="hunter2", secret=True),
            reason="the person's password",
            timings=(("plan", 0.2),),
        ),
        Step(1, screen, Action(ActionKind.TAP, element=1), reason="submit <the> form"),
    )
    return Trajectory(
        task="sign in to <Shop>",
        steps=steps,
        outcome=Outcome.SUCCESS,
        device="127.0.0.1:5999",
        planner="heuristic",
    )


def test_report_is_self_contained_and_hides_secrets(tmp_path: Path) -> None:
    html = render_html(trajectory(tmp_path))
    assert "hunter2" not in html
    assert "&lt;secret&gt;" in html
    assert "sign in to &lt;Shop&gt;" in html  # task text is escaped
    assert html.count("data:image/jpeg;base64,") == 2
    assert "Tap the &#x27;Sign in&#x27; button" in html
    assert 'src="http' not in html and "<script" not in html


@pytest.mark.skipif(
    CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)"
)
def test_report_renders_in_headless_chromium(tmp_path: Path) -> None:
    path = write_report(trajectory(tmp_path), tmp_path / "report.html")
    shot = tmp_path / "shot.png"
    assert CHROMIUM is not None
    flags = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--window-size=1000,1400",
    ]
    dom = subprocess.run(
        [CHROMIUM, *flags, "--dump-dom", path.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    assert "Sign in" in dom and "hunter2" not in dom
    subprocess.run(
        [CHROMIUM, *flags, f"--screenshot={shot}", path.as_uri()],
        capture_output=True,
        timeout=120,
        check=True,
    )
    pixels = np.asarray(Image.open(shot).convert("L"))
    assert pixels.std() > 5  # something was drawn, not a blank page
