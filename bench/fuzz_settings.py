"""bench/fuzz.py's ``settings`` family: generated LLM settings (URLs, keys, models,
timeouts) through ``check_settings``.

A part of bench/fuzz.py (run that), not a benchmark of its own.
"""

from __future__ import annotations

import functools
import random
from typing import Any

from fuzz_common import Tally, classify, in_thread, part_of_fuzz


def fuzz_settings(rng: random.Random, n: int) -> dict[str, Any]:
    from screenpilot.planner.llm import check_settings

    tally = Tally()
    hosts = [
        "api.openai.com",
        "127.0.0.1:8000",
        "localhost",
        "dashscope.aliyuncs.com",
        "[::1]:8080",
        "é.example",
        "a b",
        "",
        "h:99999",
        "h:x",
        "[::1",
        "..",
        "h",
    ]
    for _ in range(n):
        scheme = rng.choice(["http://", "https://", "ftp://", "", "http:/", "HTTP://"])
        url = scheme + rng.choice(hosts) + rng.choice(["/v1", "", "/", "/v1?x=1", "\n", " "])
        if rng.random() < 0.2:
            url = "".join(chr(rng.randint(0, 0x3000)) for _ in range(rng.randint(0, 30)))
        key = rng.choice(["", " ", "sk-x", "\x00"])
        model = rng.choice(["", "gpt-4o-mini", " ", "m"])
        status, value = in_thread(
            functools.partial(
                check_settings,
                url,
                key,
                model,
                timeout=rng.choice([60.0, 0.0, -1.0]),
                deadline=rng.choice([60.0, 0.0]),
                max_retries=rng.choice([3, -1]),
            ),
            5,
        )
        tally.add(classify(status, value), f"{url!r}: {type(value).__name__}: {value}")
    return tally.as_dict()


if __name__ == "__main__":
    part_of_fuzz(__file__)
