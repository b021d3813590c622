"""Executor benchmark on the virtual phone over real adb (figures, not a test).

Measures, in one run: screencap round trip p50/p90 through adb (as the device
captures by default, and side by side, in turns: raw pixels, PNG, and PNG read the way
adbutils' ``shell(encoding=None)`` reads it, screenpilot's capture until stop 48),
tap-to-settled latency with raw and with PNG captures, the time of a long
screenshot of a ~4-screen page and its stitch error against the phone's true scroll
offset. Writes bench/results/executor.json.

    .venv/bin/python bench/executor.py [--runs 20]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from screenpilot.executor.adb import AdbDevice
from screenpilot.executor.longshot import capture_long
from screenpilot.executor.settle import wait_until_settled
from screenpilot.simulator.apps import default_apps
from screenpilot.simulator.apps.longlist import LongListApp
from screenpilot.simulator.phone import VirtualPhone
from screenpilot.simulator.serve import serve_phone

OUT = Path(__file__).resolve().parent / "results" / "executor.json"


@contextlib.contextmanager
def served(phone: VirtualPhone) -> Iterator[AdbDevice]:
    with serve_phone(phone) as serial:
        yield AdbDevice(serial)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def capture_formats(serial: str, runs: int) -> dict[str, float]:
    """Median seconds of a capture in each format, taken in turns (same load for all)."""
    import io

    from PIL import Image

    devices = {mode: AdbDevice(serial, capture=mode) for mode in ("raw", "png")}
    shell = devices["png"]._dev

    def adbutils_png() -> None:
        Image.open(io.BytesIO(shell.shell("screencap -p", encoding=None))).convert("RGB")

    takes = {
        "raw": devices["raw"].capture,
        "png": devices["png"].capture,
        "png_adbutils_shell": adbutils_png,
    }
    times: dict[str, list[float]] = {name: [] for name in takes}
    for _ in range(runs):
        for name, take in takes.items():
            t0 = time.perf_counter()
            take()
            times[name].append(time.perf_counter() - t0)
    return {f"capture_{name}_p50_s": statistics.median(t) for name, t in times.items()}


def settle_time(phone: VirtualPhone, dev: AdbDevice, runs: int) -> float:
    """Median seconds from a tap on Settings to the settled frame."""
    settles = []
    for _ in range(runs):
        phone.reset()
        before = dev.capture()
        icon = phone.frame().find("Settings")
        assert icon is not None
        t0 = time.perf_counter()
        dev.tap(*icon.box.center)
        wait_until_settled(dev, timeout=3.0, interval=0.05, before=before)
        settles.append(time.perf_counter() - t0)
    return statistics.median(settles)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    phone = VirtualPhone(apps=[*default_apps(), LongListApp()])
    results: dict[str, float | int] = {}
    with served(phone) as dev:
        dev.capture()
        caps = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            dev.capture()
            caps.append(time.perf_counter() - t0)
        results["capture_p50_s"] = statistics.median(caps)
        results["capture_p90_s"] = pct(caps, 0.9)
        results["capture_auto_chose_raw"] = int(dev.formats.chosen == "raw")
        results.update(capture_formats(dev.serial, args.runs))
        for mode in ("raw", "png"):
            results[f"tap_to_settled_{mode}_p50_s"] = settle_time(
                phone, AdbDevice(dev.serial, capture=mode), max(3, args.runs // 4)
            )
        longs, errors, screens = [], [], 0
        for _ in range(3):
            phone.reset()
            phone.open_page("long list")
            t0 = time.perf_counter()
            long = capture_long(dev, max_screens=10)
            longs.append(time.perf_counter() - t0)
            true = phone.state["tasks"]["com.example.longlist"][-1]["scroll"]
            errors.append(abs(long.offsets[-1] - true))
            screens = len(long.offsets)
        results["long_screenshot_s"] = statistics.median(longs)
        results["long_screenshot_frames"] = screens
        results["long_page_height_px"] = long.image.height
        results["long_page_screens"] = round(long.image.height / long.screen_size[1], 2)
        results["stitch_error_px_max"] = max(errors)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(results, indent=2))
    for key, value in results.items():
        print(f"{key:34s} {value:.3f}" if isinstance(value, float) else f"{key:34s} {value}")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
