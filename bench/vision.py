"""Benchmark of vision/describe (a script, not a test): writes bench/results/vision.json.

- speed: describe p50 on a 1080x2400 screen and its ratio to ``--stages ocr`` on the
  same image, measured side by side (alternating) in one run, each run with the OCR
  recognition cache emptied first (a screen seen for the first time); incremental
  re-describe after one row of the screen changes, and after the virtual phone's
  Wi-Fi switch is tapped (Settings > Network: the switch, its summary line and the
  status-bar icon change), the cache holding only the previous screen's lines;
- OCR threshold trade-off on ../shared/data/droidbot (view-hierarchy text as
  ground truth): for each threshold, the lines kept, their precision (text equals
  a view's text) and the recall of the views' texts.

    .venv/bin/python bench/vision.py [--runs 7] [--no-droidbot]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
SCREEN = ROOT / "tests" / "data" / "screens" / "trackercontrol-3.png"
DROIDBOT = ROOT.parent / "shared" / "data" / "droidbot"
THRESHOLDS = (0.5, 0.8, 0.9, 0.95, 0.98)


def phone_screen() -> np.ndarray:
    """A real 1080x2280 screenshot stretched to 1080x2400."""
    import cv2

    from screenpilot.vision.image import load_image

    return np.ascontiguousarray(
        cv2.resize(load_image(SCREEN), (1080, 2400), interpolation=cv2.INTER_LINEAR)
    )


def cold() -> None:
    """Empty the shared OCR engine's recognition cache (if it has one)."""
    from screenpilot.vision.ocr import get_backend

    cache = getattr(get_backend(), "cache", None)
    if cache is not None:
        cache.clear()


def speed(runs: int) -> dict[str, Any]:
    from screenpilot.vision.pipeline import analyse

    image = phone_screen()
    analyse(image)  # warm: engines load once
    ocr, full = [], []
    for _ in range(runs):
        cold()
        ocr.append(analyse(image, stages=["ocr"]).seconds)
        cold()
        full.append(analyse(image).seconds)
    p50_ocr, p50_full = statistics.median(ocr), statistics.median(full)
    return {
        "image": "1080x2400",
        "runs": runs,
        "ocr_p50_s": round(p50_ocr, 3),
        "describe_p50_s": round(p50_full, 3),
        "ratio": round(p50_full / p50_ocr, 3),
        "stages": analyse(image).timings,
    }


def incremental(runs: int) -> dict[str, Any]:
    from PIL import Image, ImageDraw

    from screenpilot.vision.incremental import IncrementalDescriber

    first = phone_screen()
    pil = Image.fromarray(first.copy())
    ImageDraw.Draw(pil).rectangle([900, 700, 1040, 760], fill=(0, 150, 136))  # a "toggle"
    second = np.asarray(pil)

    def redescribe(before: Any, after: Any) -> tuple[list[float], IncrementalDescriber]:
        """Seconds to re-describe ``after`` once ``before`` was described, per run."""
        seconds = []
        for _ in range(runs):
            cold()
            describer = IncrementalDescriber()
            describer.describe(before)
            start = time.perf_counter()
            describer.describe(after)
            seconds.append(time.perf_counter() - start)
        return seconds, describer

    times, inc = redescribe(first, second)
    toggle, sim = redescribe(*switch_toggle())
    return {
        "incremental_p50_s": round(statistics.median(times), 3),
        "changed_rows": sum(b - t for t, b in inc.last_bands),
        "switch_toggle_p50_s": round(statistics.median(toggle), 3),
        "switch_toggle_changed_rows": sum(b - t for t, b in sim.last_bands),
    }


def switch_toggle() -> tuple[np.ndarray, np.ndarray]:
    """The virtual phone's Settings > Network before and after its first switch is tapped."""
    from screenpilot.model import ElementKind
    from screenpilot.simulator.phone import VirtualPhone

    phone = VirtualPhone()
    phone.open_page("settings", "network")
    before = np.asarray(phone.frame().image.convert("RGB"))
    switch = next(e for e in phone.screen().elements if e.kind is ElementKind.SWITCH)
    phone.tap(*switch.box.center)
    return before, np.asarray(phone.frame().image.convert("RGB"))


def _truth(state: Path) -> set[str]:
    data = json.loads(state.read_text(encoding="utf-8"))
    out = set()
    for v in data.get("views", []):
        text = (v.get("text") or "").strip()
        (x1, y1), (x2, y2) = v.get("bounds", [[0, 0], [0, 0]])
        if text and v.get("visible", True) and x2 > x1 and y2 > y1 and y1 >= 0:
            out.add(text.lower())
    return out


def _pairs() -> list[tuple[Path, Path]]:
    pairs = []
    for screen in sorted(DROIDBOT.glob("*/screen_*")):
        state = screen.with_name(screen.name.replace("screen_", "state_")).with_suffix(".json")
        if state.is_file():
            pairs.append((screen, state))
    return pairs


def threshold_tradeoff() -> dict[str, Any]:
    from screenpilot.vision.ocr import recognize

    pairs = _pairs()
    raw = [(recognize(s, threshold=0.0), _truth(t)) for s, t in pairs]
    out: dict[str, Any] = {"screens": len(pairs)}
    for th in THRESHOLDS:
        kept = hit = found = total = 0
        for lines, truth in raw:
            texts = {line.text.lower() for line in lines if line.score >= th}
            kept += len(texts)
            hit += len(texts & truth)
            found += len(truth & texts)
            total += len(truth)
        out[str(th)] = {
            "lines": kept,
            "precision": round(hit / max(kept, 1), 3),
            "recall": round(found / max(total, 1), 3),
        }
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--no-droidbot", action="store_true")
    args = parser.parse_args()
    result: dict[str, Any] = {"speed": speed(args.runs), "incremental": incremental(3)}
    if not args.no_droidbot and DROIDBOT.is_dir():
        result["ocr_threshold"] = threshold_tradeoff()
    out = ROOT / "bench" / "results" / "vision.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    json.dump(result, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
