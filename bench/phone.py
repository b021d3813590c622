"""Virtual phone benchmark: render time per frame over every page of every app,
and what the phone holds (apps, pages, tasks). Writes bench/results/phone.json.

    .venv/bin/python bench/phone.py [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from screenpilot.errors import ConfigError
from screenpilot.simulator.phone import VirtualPhone
from screenpilot.simulator.tasks import all_tasks

OUT = Path(__file__).resolve().parent / "results" / "phone.json"
SIZES = [(1080, 2400), (1080, 1920), (720, 1600), (1200, 2000)]


def render_seconds(phone: VirtualPhone, repeats: int) -> list[float]:
    times = []
    for _ in range(repeats):
        phone.restore(phone.snapshot())  # forces a fresh render
        t0 = time.perf_counter()
        phone.frame()
        times.append(time.perf_counter() - t0)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    phone = VirtualPhone()
    phone.frame()
    per_page: dict[str, float] = {}
    apps = [phone.find_app(p) for p in phone.packages() if _installed(phone, p)]
    for app in apps:
        for page in app.pages:
            phone.reset()
            try:
                phone.open_page(app.package, page)
            except ConfigError:
                continue
            per_page[f"{app.label}/{page}"] = statistics.median(render_seconds(phone, args.repeats))
    by_size = {}
    for w, h in SIZES:
        sized = VirtualPhone(size=(w, h))
        sized.open_page("settings")
        by_size[f"{w}x{h}"] = statistics.median(render_seconds(sized, args.repeats))
    renders = sorted(per_page.values())
    results = {
        "apps": len(apps),
        "pages": sum(len(a.pages) for a in apps),
        "tasks": len(all_tasks()),
        "render_p50_s": statistics.median(renders),
        "render_p90_s": renders[int(0.9 * (len(renders) - 1))],
        "render_max_page": max(per_page, key=lambda k: per_page[k]),
        "render_settings_by_size_s": by_size,
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"summary": results, "per_page_s": per_page}, indent=1))
    for key, value in results.items():
        print(f"{key:28s} {value}")
    print(f"wrote {OUT}")
    return 0


def _installed(phone: VirtualPhone, package: str) -> bool:
    try:
        phone.find_app(package)
    except ConfigError:
        return False
    return True


if __name__ == "__main__":
    sys.exit(main())
