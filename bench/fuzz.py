"""Hostile-input fuzz (figures, not a test): every failure must end cleanly and truly.

Replays the cases of issue 20 and generated ones, and counts how each ended:

- ``ok``: a result; ``clean``: one of our errors (one line, a hint, its exit code);
- ``traceback``: any other exception (in-process), or a traceback / an exit code that
  is not ours (CLI), or an ``Exception in thread`` printed by the phone's adbd;
- ``hang``: no end within the case's limit (its deadline plus a margin);
- ``untrue``: ended, but the record is wrong (a trajectory whose outcome does not
  name the failure, a batch that lost files, a phone that stopped answering).

Families (``--cases N`` generated cases in all, split among them):

- ``describe``: images of generated sizes and contents (1x1 to 1080x3000, strips a
  few pixels wide) and generated broken files, through ``vision.pipeline.analyse``;
  then the CLI on /dev/zero, a FIFO, a huge sparse file, a folder, a batch, and
  (``--full``) a 1080x60000 long screenshot;
- ``llm``: an HTTP server that answers generated statuses, content types, bodies
  (HTML, binary, truncated or deep JSON, other shapes) and behaviours (hang, trickle,
  early close), through ``OpenAIChat``, one in five also through a whole ``Agent``
  run; generated LLM settings through ``check_settings``; the CLI ``run`` against
  a closed port, 5xx, HTML and a hung endpoint, and with no key; and the time a
  hung endpoint takes to give up with the default settings;
- ``adbd``: the virtual phone as its own process (``screenpilot phone``), abused:
  400 MB written to a ``shell:sleep 60`` stream, 1,000 shells from one client,
  connections past the cap, silent and half-sent connections, then generated
  packet sequences; its peak memory (VmHWM) and whether it still answers;
- ``record``: the phone driven by ``input tap`` / ``input text`` while ``record``-ing.

    .venv/bin/python bench/fuzz.py [--cases 1200] [--seed 0] [--full] [--skip record,...]

Writes bench/results/fuzz.json.

The families live beside this script (bench/fuzz_*.py, imported by name as
bench/explore.py imports bench/tasks.py); run them through this one.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fuzz_adbd import fuzz_adbd
from fuzz_common import KINDS
from fuzz_describe import fuzz_describe
from fuzz_llm import fuzz_llm, hung_with_defaults, llm_cli_cases
from fuzz_record import record_case
from fuzz_settings import fuzz_settings

OUT = Path(__file__).resolve().parent / "results" / "fuzz.json"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--cases",
        type=int,
        default=1200,
        help="generated cases in all (split: 25%% describe, 40%% llm, 10%% settings, 25%% adbd)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--full", action="store_true", help="also describe a 1080x60000 image")
    parser.add_argument(
        "--skip",
        default="",
        help="families to skip, comma-separated: "
        "describe, llm, llm-cli, hung-default, settings, adbd, record",
    )
    args = parser.parse_args()
    import logging

    logging.basicConfig(level=logging.ERROR)  # retries and rejected answers are expected
    os.environ.setdefault("YOLO_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    skip = set(filter(None, args.skip.split(",")))
    rng = random.Random(args.seed)
    n = args.cases
    split = {"describe": n * 25 // 100, "llm": n * 40 // 100, "settings": n * 10 // 100}
    split["adbd"] = n - sum(split.values())
    results: dict[str, Any] = {"seed": args.seed, "generated_cases": n}
    started = time.monotonic()
    hung: dict[str, Any] = {}
    hung_thread = threading.Thread(target=hung_with_defaults, args=(hung,), daemon=True)
    if "hung-default" not in skip:
        hung_thread.start()
    with tempfile.TemporaryDirectory(prefix="screenpilot-fuzz-") as tmp:
        work = Path(tmp)
        steps: list[tuple[str, Callable[[], Any]]] = [
            ("settings", lambda: fuzz_settings(rng, split["settings"])),
            ("llm", lambda: fuzz_llm(rng, split["llm"], work)),
            ("adbd", lambda: fuzz_adbd(rng, split["adbd"])),
            ("describe", lambda: fuzz_describe(rng, split["describe"], work, args.full)),
            ("llm-cli", lambda: llm_cli_cases(work)),
            ("record", record_case),
        ]
        for name, step in steps:
            if name in skip:
                continue
            t0 = time.monotonic()
            print(f"== {name}", flush=True)
            results[name] = step()
            results[name]["seconds"] = round(time.monotonic() - t0, 1)
            print(json.dumps(results[name], indent=1, default=str)[:3000], flush=True)
    if hung_thread.is_alive() or hung:
        hung_thread.join(120)
        results["hung-default"] = hung
    results["seconds"] = round(time.monotonic() - started, 1)
    totals: Counter[str] = Counter()
    for part in results.values():
        if not isinstance(part, dict):
            continue
        for sub in (part, part.get("generated"), part.get("cli")):
            if isinstance(sub, dict) and "cases" in sub:
                for k in KINDS:
                    totals[k] += int(sub.get(k, 0))
                totals["cases"] += int(sub["cases"])
    if "record" in results:
        totals["cases"] += 1
        totals["untrue" if results["record"]["end"] != "ok" else "ok"] += 1
    results["totals"] = dict(totals)
    print("\n== totals")
    print(
        f"cases {totals['cases']}: ok {totals['ok']}, clean errors {totals['clean']}, "
        f"tracebacks {totals['traceback']}, hangs {totals['hang']}, "
        f"untrue records {totals['untrue']}"
    )
    if hung:
        print(
            f"hung endpoint, default settings: gave up after {hung.get('gave_up_after_s')} s "
            f"(llm.deadline {hung.get('llm.deadline')} s): {hung.get('end', '')[:100]}"
        )
    if "adbd" in results:
        a = results["adbd"]
        print(
            f"adbd under abuse: RSS {a.get('rss_start_mb')} -> {a.get('rss_end_mb')} MB, "
            f"peak {a.get('peak_rss_mb')} MB; 1,000 shells: {a.get('shells_1000')}"
        )
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(results, indent=1, default=str) + "\n")
    print(f"wrote {OUT}")
    return 0 if totals["traceback"] == totals["hang"] == totals["untrue"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
