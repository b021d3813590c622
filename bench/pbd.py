"""Programming-by-demonstration benchmark (figures, not a test).

1. Retrieval: one demonstration per task of the virtual phone's suite (its command and
   minimal solution) in a fresh store; each of 50 paraphrases written for this
   benchmark (below; none is in the suite) is searched. precision@1: the top hit is
   the paraphrased task; "same solution": the top hit's steps are the task's steps
   (Turn wifi on / off share theirs). For each threshold: the share of queries whose
   right demonstration is top-1 and above it, and the share of queries that, with
   their own task's demonstration left out, still get one above it (a wrong hint).
2. Latency: p50 of ``search`` (embedding the query + ChromaDB) and of the index alone
   (``search_vector``) with 10k and 100k entries. The entries are synthetic: real
   embeddings of the suite's commands and paraphrases, each copy moved by a little
   random noise and re-normalised (random but realistic vectors, not real tasks).
3. End to end: for tasks the offline planner fails, one demonstration each is
   recorded on the virtual phone (1080x2400, light): the task's solution steps are
   performed as touches (typing with ``input text``) while ``pbd.recorder`` listens
   through adb and reads each screen with vision, exactly as it would a person. Then
   a paraphrase of the task runs on another phone (720x1600, dark) with the offline
   planner, without and with the demonstration retrieved from the store.

    .venv/bin/python bench/pbd.py [--e2e N] [--big 100000] [--skip-latency]

Writes bench/results/pbd.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from screenpilot.core.offline import enforce_offline

enforce_offline()

from screenpilot.agent import Agent, RunOptions  # noqa: E402
from screenpilot.errors import ScreenpilotError  # noqa: E402
from screenpilot.executor.adb import AdbDevice  # noqa: E402
from screenpilot.model import ElementKind  # noqa: E402
from screenpilot.pbd.embed import load_embedder  # noqa: E402
from screenpilot.pbd.recorder import Recorder, Recording  # noqa: E402
from screenpilot.pbd.store import DemoRecord, DemoStore, Entry  # noqa: E402
from screenpilot.planner.base import PlanHints  # noqa: E402
from screenpilot.planner.offline import HeuristicPlanner  # noqa: E402
from screenpilot.planner.safety import KeywordSafety  # noqa: E402
from screenpilot.simulator.phone import VirtualPhone  # noqa: E402
from screenpilot.simulator.render import icon_label  # noqa: E402
from screenpilot.simulator.serve import serve_phone  # noqa: E402
from screenpilot.simulator.tasks import Task, all_tasks, get_task  # noqa: E402
from screenpilot.vision.incremental import IncrementalDescriber  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
MODEL = "all-MiniLM-L6-v2"
THRESHOLDS = (0.4, 0.5, 0.6, 0.7)

#: 50 paraphrases written for this benchmark (task id -> how a person might say it).
PARAPHRASES: dict[str, str] = {
    "settings_wifi_off": "kill the wireless internet connection",
    "settings_wifi_on": "get my phone back on the wifi",
    "settings_bluetooth_off": "shut bluetooth down",
    "settings_bluetooth_on": "bluetooth needs to be on",
    "settings_airplane_on": "I'm boarding a plane, switch on flight mode",
    "settings_dark_theme_on": "use the dark colour scheme",
    "settings_brightness_max": "brightest screen possible please",
    "settings_brightness_min": "lower the display brightness to zero",
    "settings_media_volume_max": "crank the media volume to the top",
    "settings_alarm_volume_mute": "silence the alarm volume completely",
    "settings_vibrate_off": "no vibration when someone calls me",
    "settings_battery_percentage": "I want to see how many percent of battery I have left",
    "settings_dnd_on": "don't let notifications disturb me",
    "settings_screen_timeout_5min": "keep the screen on for five minutes before it sleeps",
    "settings_location_off": "turn off GPS location access",
    "settings_24_hour": "show the time in 24 hour format",
    "settings_app_pinning_on": "allow pinning an app to the screen",
    "settings_android_version": "what version of Android do I have?",
    "settings_developer_options": "turn on the hidden developer settings",
    "contacts_add_alice": "add Alice Walker with phone 2122000000 to my address book",
    "contacts_add_john": "new contact named John, number 12345678",
    "contacts_add_with_email": "save John Smith, 12345678, 123456@gmail.com as a contact",
    "contacts_delete_frank": "erase Frank Miller from the address book",
    "contacts_edit_david_number": "update the phone number of David Kim to 408-555-0100",
    "contacts_import_vcf": "bring in the contacts from the contacts.vcf download",
    "contacts_search_smith": "search the address book for Smith",
    "contacts_open_hannah": "look at Hannah Smith's contact details",
    "contacts_call_bob": "ring Bob Lee",
    "contacts_star_grace": "mark Grace Park as a favourite",
    "clock_alarm_1030am": "alarm for half past ten in the morning",
    "clock_alarm_3pm_meeting": "set a 3 pm alarm named meeting",
    "clock_alarm_weekdays_7am": "7 am alarm on working days",
    "clock_alarm_off_630": "switch off my 6:30 alarm",
    "clock_alarm_delete_9am": "remove the nine o'clock alarm",
    "clock_timer_5min": "start a countdown of five minutes",
    "clock_stopwatch_start": "begin the stopwatch",
    "clock_world_tokyo": "put Tokyo on the world clock",
    "messages_send_existing": "SMS Carol Diaz 'Here are the slides'",
    "messages_delete_conversation": "delete all my messages with Bob Lee",
    "messages_new_number": "send 'Hi, this is Sam' to 650-555-0199",
    "messages_search": "open the conversation that mentions concert tickets",
    "messages_read_code": "read the text from 650-555-0177",
    "messages_mark_all_read": "mark every message as read",
    "shop_search": "search the Shop for a yoga mat",
    "shop_add_to_cart": "put the smart watch into the shopping cart",
    "shop_promo_code": "enter discount code SAVE10 in the cart",
    "shop_order_history": "list my previous Shop orders",
    "shop_find_store": "where is the closest Shop store?",
    "shop_notifications": "let the Shop app send me notifications",
    "shop_sign_out": "log me out of the Shop",
}

#: Tasks the offline planner fails (bench/tasks.py --planner heuristic), none sensitive.
E2E_TASKS = (
    "settings_android_version",
    "contacts_star_grace",
    "clock_stopwatch_start",
    "messages_mark_all_read",
    "shop_sign_out",
    "settings_location_off",
    "contacts_call_bob",
    "shop_order_details",
)


# --- 1. retrieval ---------------------------------------------------------------------------
def retrieval(embedder: Any, root: Path) -> dict[str, Any]:
    tasks = all_tasks()
    store = DemoStore.open(root / "retrieval", embedder=embedder)
    ids = store.add_many(
        [DemoRecord(t.command, t.solution, app=t.app, source="task-suite") for t in tasks]
    )
    by_id = dict(zip(ids, tasks, strict=True))
    queries = [(get_task(tid), text) for tid, text in PARAPHRASES.items()]
    suite_queries = [(t, p) for t in tasks for p in t.paraphrases]
    out: dict[str, Any] = {"demonstrations": len(tasks), "queries": len(queries)}
    for name, qs in (("written", queries), ("suite_paraphrases", suite_queries)):
        top1 = same = 0
        above = dict.fromkeys(THRESHOLDS, 0)
        wrong_hint = dict.fromkeys(THRESHOLDS, 0)
        right_scores, other_scores = [], []
        for task, text in qs:
            hits = store.demos.search(text, k=8)
            best = by_id[hits[0].id]
            top1 += best.id == task.id
            same += best.solution == task.solution
            right = [h.score for h in hits if by_id[h.id].id == task.id]
            others = [h.score for h in hits if by_id[h.id].solution != task.solution]
            if right:
                right_scores.append(float(right[0] or 0))
            if others:
                other_scores.append(float(others[0] or 0))
            for th in THRESHOLDS:
                above[th] += best.id == task.id and (hits[0].score or 0) >= th
                wrong_hint[th] += bool(others) and float(others[0] or 0) >= th
        n = len(qs)
        out[name] = {
            "queries": n,
            "precision_at_1": round(top1 / n, 3),
            "precision_at_1_same_solution": round(same / n, 3),
            "median_score_right": round(statistics.median(right_scores), 3),
            "median_best_score_other_task": round(statistics.median(other_scores), 3),
            "by_threshold": {
                str(th): {
                    "right_and_above": round(above[th] / n, 3),
                    "wrong_task_above": round(wrong_hint[th] / n, 3),
                }
                for th in THRESHOLDS
            },
        }
    store.close()
    return out


# --- 2. latency ----------------------------------------------------------------------------
def latency(embedder: Any, root: Path, sizes: Sequence[int]) -> dict[str, Any]:
    tasks = all_tasks()
    texts = (
        [t.command for t in tasks]
        + [p for t in tasks for p in t.paraphrases]
        + list(PARAPHRASES.values())
    )
    base = embedder.encode(texts)
    rng = np.random.default_rng(0)
    store = DemoStore.open(root / "latency", embedder=embedder)
    col = store.demos
    out: dict[str, Any] = {
        "synthetic": "real embeddings of the suite's texts plus N(0, 0.05) noise, re-normalised"
    }
    have = 0
    queries = list(PARAPHRASES.values())
    qvec = embedder.encode(queries)
    for size in sorted(sizes):
        t0 = time.perf_counter()
        while have < size:
            n = min(10000, size - have)
            pick = rng.integers(0, len(base), n)
            vec = base[pick] + rng.normal(0, 0.05, (n, base.shape[1])).astype(np.float32)
            vec /= np.linalg.norm(vec, axis=1, keepdims=True)
            entries = [
                Entry(
                    f"syn{have + i}",
                    texts[j],
                    {"steps": ["tap 'X'"]},
                    {"app": "synthetic", "source": "synthetic"},
                )
                for i, j in enumerate(pick)
            ]
            col.add(entries, vec)
            have += n
        build = time.perf_counter() - t0
        col.search(queries[0], k=3)  # open the index once before timing
        full, index = [], []
        for text, v in zip(queries, qvec, strict=True):
            t = time.perf_counter()
            col.search(text, k=3)
            full.append(time.perf_counter() - t)
            t = time.perf_counter()
            col.search_vector(v, k=3)
            index.append(time.perf_counter() - t)
        out[str(size)] = {
            "entries": col.count(),
            "build_s": round(build, 1),
            "search_p50_ms": round(1000 * statistics.median(full), 2),
            "index_only_p50_ms": round(1000 * statistics.median(index), 2),
        }
        print(
            f"  {size:>6} entries: search p50 {out[str(size)]['search_p50_ms']} ms, "
            f"index only {out[str(size)]['index_only_p50_ms']} ms "
            f"(added in {build:.0f} s)",
            flush=True,
        )
    store.close()
    return out


# --- 3. end to end ---------------------------------------------------------------------------
def _truth_find(phone: VirtualPhone, label: str, qualifier: str | None = None) -> Any:
    elements = phone.frame().elements
    if qualifier in ("switch", "check box"):
        kind = ElementKind.SWITCH if qualifier == "switch" else ElementKind.CHECK_BOX
        hits = [e for e in elements if e.kind is kind and e.caption == label]
    else:
        hits = [e for e in elements if e.text == label]
        hits += [e for e in elements if e.icon and label in (e.icon, icon_label(e.icon))]
    if not hits:
        raise RuntimeError(f"nothing shows {label!r} on the virtual phone")
    return hits[0]


def _target(phone: VirtualPhone, key: str) -> tuple[int, int]:
    for t in phone.frame().targets:
        if t.key == key:
            return t.box.center
    raise RuntimeError(f"no {key} on the virtual phone")


def perform(phone: VirtualPhone, text: str) -> None:
    """One solution step as a person's touches (typing with ``input text``)."""
    import re

    if m := re.match(
        r"^(tap|long press) (?:the )?'(.+?)'(?: (switch|check box|icon|button|tab))?"
        r"(?: next to '(.+)')?$",
        text,
    ):
        x, y = _truth_find(phone, m.group(2), m.group(3)).box.center
        if m.group(1) == "tap":
            phone.tap(x, y)
        else:
            phone.swipe(x, y, x, y, 700)
    elif m := re.match(r"^type '(.*)' into (?:the )?'(.+)'$", text):
        field = next(
            e
            for e in phone.frame().elements
            if e.editable and m.group(2) in (e.caption, e.text, e.field)
        )
        phone.tap(*field.box.center)
        time.sleep(0.2)
        phone.input_text(m.group(1))
    elif m := re.match(r"^drag the '(.+)' slider to (\d+)%$", text):
        frame = phone.frame()
        bar = next(
            e for e in frame.elements if e.kind is ElementKind.SEEK_BAR and e.caption == m.group(1)
        )
        target = next(
            t for t in frame.targets if t.role == "seek" and t.box.contains(*bar.box.center)
        )
        assert target.track is not None
        x1, x2 = target.track
        phone.tap(round(x1 + (x2 - x1) * int(m.group(2)) / 100), bar.box.center[1])
    elif text in ("scroll down", "scroll up"):
        view = phone.frame().viewport
        x = (view.x1 + view.x2) // 2
        top, bottom = view.y1 + view.height // 4, view.y2 - view.height // 4
        down = text == "scroll down"
        phone.swipe(x, bottom if down else top, x, top if down else bottom, 300)
    elif text == "press back":
        phone.tap(*_target(phone, "sys:back"))
    elif text == "press enter":
        phone.tap(*_target(phone, "kbd:enter"))
    else:
        raise RuntimeError(f"cannot perform {text!r}")


def demonstrate(task: Task, folder: Path) -> tuple[Recording, bool, float]:
    """Record ``task`` done by its solution's touches on a 1080x2400 light phone."""
    phone = VirtualPhone()
    task.setup(phone)
    start = time.perf_counter()
    with serve_phone(phone) as serial:
        recorder = Recorder(AdbDevice(serial), IncrementalDescriber(), idle_s=60, out=folder)
        stop = threading.Event()
        result: list[Recording] = []
        thread = threading.Thread(
            target=lambda: result.append(recorder.record(task.command, stop=stop)), daemon=True
        )
        thread.start()
        recorder.ready.wait(30)
        time.sleep(0.3)
        for step in task.solution:
            perform(phone, step)
            time.sleep(0.15)
            recorder.wait_captured()  # a person looks before the next touch:
            time.sleep(0.3)  # the recorder has the screen they saw
        stop.set()
        thread.join(300)
    return result[0], task.check(phone), time.perf_counter() - start


def run_on_other_phone(
    task: Task, command: str, planner: HeuristicPlanner, hints: PlanHints, out: Path
) -> tuple[bool, int, str]:
    phone = VirtualPhone(size=(720, 1600), theme="dark")
    task.setup(phone)
    with serve_phone(phone) as serial:
        agent = Agent(
            AdbDevice(serial),
            IncrementalDescriber(),
            planner,
            options=RunOptions(
                out=out, max_steps=15, settle_timeout=2.0, settle_interval=0.05, hints=hints
            ),
            safety=KeywordSafety(),
            handover=None,
        )
        try:
            traj = agent.run(command)
            outcome, steps = traj.outcome.value, len(traj.steps)
        except ScreenpilotError as exc:
            outcome, steps = type(exc).__name__, -1
    return task.check(phone), steps, outcome


def end_to_end(embedder: Any, root: Path, count: int, threshold: float) -> dict[str, Any]:
    store = DemoStore.open(root / "e2e", embedder=embedder)
    rows: list[dict[str, Any]] = []
    for task_id in E2E_TASKS[:count]:
        task = get_task(task_id)
        command = task.paraphrases[0]
        rec, demo_ok, demo_s = demonstrate(task, root / "record" / task.id)
        store.add(rec.demo(source="bench"))
        found = tuple(store.search(command, k=2, threshold=threshold))
        base_ok, base_steps, base_out = run_on_other_phone(
            task,
            command,
            HeuristicPlanner(embedder.encode),
            PlanHints(),
            root / "runs" / f"{task.id}-without",
        )
        with_ok, with_steps, with_out = run_on_other_phone(
            task,
            command,
            HeuristicPlanner(embedder.encode),
            PlanHints(demonstrations=found),
            root / "runs" / f"{task.id}-with",
        )
        row = {
            "task": task.id,
            "command": command,
            "recorded_steps": list(rec.steps),
            "solution": list(task.solution),
            "demonstration_done": demo_ok,
            "record_s": round(demo_s, 1),
            "retrieved": [(d.instruction, d.score) for d in found],
            "without": {"success": base_ok, "steps": base_steps, "outcome": base_out},
            "with": {"success": with_ok, "steps": with_steps, "outcome": with_out},
        }
        rows.append(row)
        print(
            f"  {task.id:28s} recorded {len(rec.steps)}/{task.min_steps} steps "
            f"({demo_s:.0f} s); without: {'ok' if base_ok else 'NO'} ({base_out}); "
            f"with: {'ok' if with_ok else 'NO'} ({with_out})",
            flush=True,
        )
    store.close()
    n = len(rows)
    return {
        "tasks": n,
        "phone": "720x1600 dark (demonstrated on 1080x2400 light)",
        "success_without": sum(r["without"]["success"] for r in rows) / n if n else 0.0,
        "success_with": sum(r["with"]["success"] for r in rows) / n if n else 0.0,
        "recorded_exactly": sum(r["recorded_steps"] == r["solution"] for r in rows),
        "rows": rows,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description="Programming-by-demonstration figures.")
    parser.add_argument("--e2e", type=int, default=6, help="End-to-end tasks (0 = none).")
    parser.add_argument("--big", type=int, default=100000, help="Largest store for latency.")
    parser.add_argument("--skip-latency", action="store_true")
    parser.add_argument("--threshold", type=float, default=0.6)
    parser.add_argument(
        "--threads",
        type=int,
        default=1,
        help="torch threads (1: on a shared 2-core machine, 2 threads were "
        "8x slower per query from contention).",
    )
    args = parser.parse_args()
    import torch

    torch.set_num_threads(args.threads)
    embedder = load_embedder(MODEL)
    results: dict[str, Any] = {
        "model": embedder.name,
        "threshold": args.threshold,
        "torch_threads": args.threads,
    }
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="pbd-bench-") as tmp:
        root = Path(tmp)
        print("retrieval", flush=True)
        results["retrieval"] = retrieval(embedder, root)
        r, suite = results["retrieval"]["written"], results["retrieval"]["suite_paraphrases"]
        print(
            f"  precision@1 {r['precision_at_1']:.2f} (same solution "
            f"{r['precision_at_1_same_solution']:.2f}) over {r['queries']} paraphrases; "
            f"suite paraphrases {suite['precision_at_1']:.2f}",
            flush=True,
        )
        results["retrieval"]["seconds"] = round(time.perf_counter() - started, 1)
        if not args.skip_latency:
            print("latency", flush=True)
            t = time.perf_counter()
            results["latency"] = latency(embedder, root, sorted({10000, args.big}))
            results["latency"]["seconds"] = round(time.perf_counter() - t, 1)
        if args.e2e:
            print("end to end", flush=True)
            t = time.perf_counter()
            results["end_to_end"] = end_to_end(embedder, root, args.e2e, args.threshold)
            results["end_to_end"]["seconds"] = round(time.perf_counter() - t, 1)
            e = results["end_to_end"]
            print(
                f"  success without the demonstration {e['success_without']:.2f}, with it "
                f"{e['success_with']:.2f} ({e['tasks']} tasks, {e['phone']})",
                flush=True,
            )
    results["seconds"] = round(time.perf_counter() - started, 1)
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / "pbd.json"
    path.write_text(json.dumps(results, indent=1, ensure_ascii=False))
    print(f"wrote {path} ({results['seconds']:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
