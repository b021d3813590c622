"""Benchmark of ``screenpilot console`` (a script, not a test): writes
bench/results/console.json.

On the virtual phone over real adb, with the console served on 127.0.0.1 as the
command serves it:

- answer time: ``--requests`` requests in a row (one kept-alive client, the token in
  a header) to the page itself, ``/api/state`` and ``/api/frame.jpg`` (the newest
  live frame, while the live view runs); median and 95th percentile in milliseconds;
- live view: frames per second a page receives over the event stream during
  ``--seconds`` seconds, at the console's default cap (``--fps``) and uncapped
  (what capture, scaling and JPEG encoding allow here); the virtual phone's
  screenshots are rendered and PNG-encoded on this machine, so this is also the
  phone's cost;
- taps: ``--taps`` clicks on the home screen's wallpaper through ``/api/tap`` (capture,
  describe with the configured pipeline, the safety check, the tap): seconds each.

    .venv/bin/python bench/console.py [--requests 200] [--seconds 10] [--fps 4] [--taps 5]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def timed(client: Any, path: str, n: int) -> dict[str, float]:
    """Median and p95 (ms) of ``n`` GETs of ``path``."""
    seconds = []
    for _ in range(n):
        began = time.perf_counter()
        answer = client.get(path)
        answer.raise_for_status()
        seconds.append(time.perf_counter() - began)
    ms = [s * 1000 for s in seconds]
    return {
        "median_ms": round(statistics.median(ms), 2),
        "p95_ms": round(percentile(ms, 0.95), 2),
        "n": n,
    }


def frames_per_second(base: str, token: str, seconds: float) -> float:
    """Frame events a page receives per second over the event stream."""
    import httpx

    times: list[float] = []
    stop = threading.Event()

    def listen() -> None:
        with httpx.stream(
            "GET", base + "api/events", headers={"X-Screenpilot-Token": token}, timeout=None
        ) as stream:
            for line in stream.iter_lines():
                if stop.is_set():
                    return
                if line.startswith("data: ") and '"type": "frame"' in line:
                    times.append(time.perf_counter())

    thread = threading.Thread(target=listen, daemon=True)
    thread.start()
    time.sleep(seconds)
    stop.set()
    if len(times) < 2:
        return 0.0
    return round((len(times) - 1) / (times[-1] - times[0]), 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--fps", type=float, default=4.0, help="the console's default cap")
    parser.add_argument("--taps", type=int, default=5)
    args = parser.parse_args()

    import httpx

    from screenpilot import build
    from screenpilot.agent import RunOptions
    from screenpilot.config import load_config
    from screenpilot.console import Console, Parts
    from screenpilot.console.app import served
    from screenpilot.core.offline import enforce_offline
    from screenpilot.executor.adb import AdbDevice
    from screenpilot.planner.safety import KeywordSafety
    from screenpilot.simulator.serve import serve_phone

    enforce_offline()
    cfg = load_config({})
    phone = build.phone(cfg)
    result: dict[str, Any] = {"cpus": os.cpu_count(), "load_before": os.getloadavg()[0]}

    def no_planner(task: str) -> Any:
        raise RuntimeError("the benchmark starts no run")

    with serve_phone(phone) as serial:
        device = AdbDevice(serial, capture=cfg["device.capture"])
        size = device.size()
        for cap in (args.fps, 60.0):
            parts = Parts(
                device=device,
                describer=build.describer(cfg),
                safety=KeywordSafety(),
                planner=no_planner,
                options=lambda t, f: RunOptions(out=f),
                runs=ROOT / "runs",
                run_folder=build.run_folder,
            )
            console = Console(parts, fps=cap)
            with served(console) as url:
                base = url.split("?", 1)[0]
                headers = {"X-Screenpilot-Token": console.token}
                key = "fps_default_cap" if cap == args.fps else "fps_uncapped"
                result[key] = frames_per_second(base, console.token, args.seconds)
                print(
                    f"live view ({'cap ' + str(cap) if cap == args.fps else 'uncapped'}): "
                    f"{result[key]} frames/s",
                    flush=True,
                )
                if cap != args.fps:
                    continue
                console.live.keep = True  # frames as a watching page gets them
                with httpx.Client(base_url=base, headers=headers, timeout=60) as client:
                    for name, path in (
                        ("page", "/"),
                        ("state", "/api/state"),
                        ("frame", "/api/frame.jpg"),
                    ):
                        result[f"answer_{name}"] = timed(client, path, args.requests)
                        print(f"answer {path}: {result[f'answer_{name}']}", flush=True)
                    taps = []
                    for i in range(args.taps):  # the wallpaper, below the app icons
                        x, y = size[0] // 2, int(size[1] * (0.6 + 0.02 * i))
                        began = time.perf_counter()
                        answer = client.post("/api/tap", json={"x": x, "y": y})
                        answer.raise_for_status()
                        taps.append(time.perf_counter() - began)
                    if taps:
                        result["tap_s"] = {
                            "median": round(statistics.median(taps), 2),
                            "max": round(max(taps), 2),
                            "n": len(taps),
                        }
                        print(f"tap through /api/tap: {result['tap_s']}", flush=True)
    result["load_after"] = os.getloadavg()[0]
    result["fps_cap"] = args.fps
    RESULTS.mkdir(parents=True, exist_ok=True)
    out = RESULTS / "console.json"
    out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
