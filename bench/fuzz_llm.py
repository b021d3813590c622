"""bench/fuzz.py's ``llm`` families: generated replies through ``OpenAIChat`` (one in five
through a whole ``Agent`` run, whose trajectory must name the failure), the CLI ``run``
against a closed port, 5xx, HTML, a hung endpoint and no key (``llm-cli``), and the time
a hung endpoint takes to give up with the default settings (``hung-default``).

A part of bench/fuzz.py (run that), not a benchmark of its own.
"""

from __future__ import annotations

import contextlib
import functools
import json
import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

from fuzz_common import Tally, classify, cli, cli_kind, in_thread, part_of_fuzz
from fuzz_endpoint import Endpoint, Reply, gen_reply


class FakePhone:
    serial = "fuzz-phone"

    def capture(self) -> Any:
        from PIL import Image

        return Image.new("RGB", (1080, 2400), "white")


class FakeDescriber:
    def describe(self, image: Any) -> Any:
        from screenpilot.model import Box, Element, ElementKind, Screen

        return Screen(
            1080, 2400, (Element(1, ElementKind.TEXT, Box(40, 200, 400, 260), "Settings"),)
        )


def agent_run(llm: Any, out: Path) -> tuple[BaseException | None, dict[str, Any]]:
    from screenpilot.agent import Agent, RunOptions
    from screenpilot.planner.chain import ChainPlanner

    agent = Agent(
        FakePhone(),  # type: ignore[arg-type]
        FakeDescriber(),
        ChainPlanner(llm),
        options=RunOptions(out=out, max_steps=2, settle_timeout=0.05),
    )
    raised: BaseException | None = None
    try:
        agent.run("turn on wifi")
    except BaseException as exc:
        raised = exc
    return raised, json.loads((out / "trajectory.json").read_text())


def true_record(raised: BaseException | None, saved: dict[str, Any]) -> str:
    """'' when the trajectory tells the truth about how the run ended."""
    from screenpilot.errors import LLMError, LLMResponseError

    note = str(saved.get("note", ""))
    if isinstance(raised, LLMError):
        ok = saved["outcome"] == "error" and note.startswith(f"llm {raised.kind}: ")
    elif isinstance(raised, LLMResponseError):
        ok = saved["outcome"] == "error" and note.startswith("llm answer unusable: ")
    elif raised is not None:
        ok = saved["outcome"] == "error" and bool(note)
    else:
        ok = saved["outcome"] in ("success", "gave_up")
    return "" if ok else f"outcome {saved['outcome']} note {note[:120]!r} for {raised!r}"[:300]


def fuzz_llm(rng: random.Random, n: int, work: Path) -> dict[str, Any]:
    from screenpilot.errors import ScreenpilotError
    from screenpilot.planner.llm import OpenAIChat

    endpoint = Endpoint()
    tally = Tally()
    deadline = 1.5
    ends: Counter[str] = Counter()
    try:
        for i in range(n):
            endpoint.reply = gen_reply(rng)
            llm = OpenAIChat(
                base_url=endpoint.url,
                model="m",
                api_key="k",
                timeout=1.0,
                deadline=deadline,
                max_retries=2,
                backoff=0.01,
                max_backoff=0.05,
            )
            through_agent = i % 5 == 0
            if through_agent:
                out = work / f"llm-run-{i}"
                status, value = in_thread(
                    functools.partial(agent_run, llm, out), 3 * (deadline + 3)
                )
            else:
                status, value = in_thread(
                    functools.partial(llm.complete, [{"role": "user", "content": "hi"}]),
                    deadline + 3,
                )
            r = endpoint.reply
            what = f"{r.status} {r.ctype!r} {r.behave} {r.body[:40]!r}"
            if status == "ok" and through_agent:
                raised, saved = value
                wrong = true_record(raised, saved)
                if wrong:
                    tally.add("untrue", f"{what}: {wrong}")
                elif raised is not None and not isinstance(raised, ScreenpilotError):
                    tally.add("traceback", f"{what}: {raised!r}")
                else:
                    tally.add("clean" if raised is not None else "ok")
                ends[str(saved.get("note", "")).split(":")[0] or saved["outcome"]] += 1
            else:
                kind = classify(status, value)
                tally.add(kind, f"{what}: {type(value).__name__}: {value}")
                if status == "raised":
                    ends[f"llm {getattr(value, 'kind', type(value).__name__)}"] += 1
            with contextlib.suppress(Exception):
                if llm._client is not None:
                    llm._client.close()
    finally:
        endpoint.close()
    return {**tally.as_dict(), "deadline_s": deadline, "how_they_ended": dict(ends.most_common())}


def hung_with_defaults(result: dict[str, Any]) -> None:
    """A hung endpoint with every LLM setting at its default: how long until it gives up."""
    from screenpilot.config import DEFAULTS
    from screenpilot.errors import LLMError
    from screenpilot.planner.llm import OpenAIChat

    endpoint = Endpoint()
    endpoint.reply = Reply(behave="hang")
    llm = OpenAIChat(
        base_url=endpoint.url,
        model="m",
        api_key="k",
        timeout=DEFAULTS["llm.timeout"].default,
        deadline=DEFAULTS["llm.deadline"].default,
        max_retries=DEFAULTS["llm.max_retries"].default,
    )
    started = time.monotonic()
    try:
        llm.complete([{"role": "user", "content": "hi"}])
        result["end"] = "answered?"
    except LLMError as exc:
        result["end"] = f"llm {exc.kind}: {exc.message}"
    except BaseException as exc:
        result["end"] = f"traceback: {exc!r}"
    result["gave_up_after_s"] = round(time.monotonic() - started, 1)
    result["llm.deadline"] = DEFAULTS["llm.deadline"].default
    endpoint.close()


def llm_cli_cases(work: Path) -> dict[str, Any]:
    """The issue's run cases through the real CLI and the virtual phone."""
    tally = Tally()
    seen: dict[str, Any] = {}
    endpoint = Endpoint()
    base = ["--set", "safety.exemplars=false", "--set", f"store.path={work / 'store'}"]
    cases = [
        ("no API key for api.openai.com", [], None, 2, ""),
        (
            "unreachable (closed port)",
            ["--set", "llm.base_url=http://127.0.0.1:9/v1"],
            None,
            5,
            "llm unreachable",
        ),
        (
            "HTTP 503 every time",
            ["--set", f"llm.base_url={endpoint.url}"],
            Reply(503, body=b'{"error": {"message": "overloaded"}}'),
            5,
            "llm server error",
        ),
        (
            "HTML page with HTTP 200",
            ["--set", f"llm.base_url={endpoint.url}"],
            Reply(200, "text/html", b"<html><body>Sign in</body></html>"),
            5,
            "llm not a chat answer",
        ),
        (
            "binary body as JSON",
            ["--set", f"llm.base_url={endpoint.url}"],
            Reply(200, "application/json", bytes(range(256)) * 4),
            5,
            "llm not a chat answer",
        ),
        (
            "hung endpoint, llm.deadline=5",
            ["--set", f"llm.base_url={endpoint.url}", "--set", "llm.deadline=5"],
            Reply(behave="hang"),
            5,
            "llm timed out",
        ),
    ]
    try:
        for name, sets, reply, want, note in cases:
            if reply is not None:
                endpoint.reply = reply
            out = work / f"cli-{len(seen)}"
            key = {"SCREENPILOT_LLM_API_KEY": "sk-fuzz"} if want == 5 else {}
            started = time.monotonic()
            rc, stdout, err = cli(
                [
                    *base,
                    *sets,
                    "run",
                    "turn on wifi",
                    "--virtual",
                    "--planner",
                    "llm",
                    "--yes",
                    "--no-demos",
                    "--out",
                    str(out),
                ],
                timeout=240,
                env=key,
            )
            seconds = round(time.monotonic() - started, 1)
            kind, why = cli_kind(rc, err, want_rc=want)
            record = ""
            if want == 5 and kind == "clean":
                found = list(out.glob("*/trajectory.json"))
                saved = json.loads(found[0].read_text()) if found else {}
                record = f"{saved.get('outcome')}: {str(saved.get('note', ''))[:80]}"
                if not (
                    saved.get("outcome") == "error" and str(saved.get("note", "")).startswith(note)
                ):
                    kind, why = "untrue", f"trajectory says {record!r}"
            if want == 2 and kind == "clean" and "task:" in stdout:
                kind, why = "untrue", "the phone was started before the settings were checked"
            tally.add(kind, f"{name}: {why}")
            seen[name] = {
                "end": kind,
                "exit": rc,
                "seconds": seconds,
                "trajectory": record,
                "stderr": [
                    line for line in err.splitlines() if line.startswith(("error:", "  hint:"))
                ],
            }
    finally:
        endpoint.close()
    return {**tally.as_dict(), "cases_seen": seen}


if __name__ == "__main__":
    part_of_fuzz(__file__)
