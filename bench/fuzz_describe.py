"""bench/fuzz.py's ``describe`` family: generated images (1x1 to 1080x3000, strips a few
pixels wide) and generated broken files through ``vision.pipeline.analyse``; then the CLI
on /dev/zero, a FIFO, a huge sparse file, a folder, a batch, and (``--full``) a
1080x60000 long screenshot.

A part of bench/fuzz.py (run that), not a benchmark of its own.
"""

from __future__ import annotations

import functools
import io
import json
import os
import random
import struct
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from fuzz_common import Tally, classify, cli, cli_kind, in_thread, part_of_fuzz


def gen_image(rng: random.Random) -> tuple[str, np.ndarray]:
    shape = rng.choice(["tiny", "strip", "wide", "small", "phone"])
    if shape == "tiny":
        w, h = rng.randint(1, 20), rng.randint(1, 40)
    elif shape == "strip":
        w, h = rng.randint(1, 24), rng.randint(60, 4000)
    elif shape == "wide":
        w, h = rng.randint(60, 3000), rng.randint(1, 24)
    elif shape == "small":
        w, h = rng.randint(8, 400), rng.randint(8, 900)
    else:
        w, h = rng.choice([(360, 800), (540, 1200), (1080, 2400), (720, 3000), (1080, 1080)])
    seed = rng.randrange(1 << 30)
    gen = np.random.default_rng(seed)
    fill = rng.choice(["noise", "flat", "stripes", "blocks", "text"])
    if fill == "noise":
        pixels = (gen.random((h, w, 3)) * 255).astype(np.uint8)
    elif fill == "flat":
        pixels = np.full((h, w, 3), rng.randrange(256), np.uint8)
    elif fill == "stripes":
        pixels = np.zeros((h, w, 3), np.uint8)
        pixels[:: max(1, h // rng.randint(1, 40))] = 255
    elif fill == "blocks":
        pixels = np.full((h, w, 3), 245, np.uint8)
        for _ in range(rng.randint(1, 12)):
            y, x = rng.randrange(h), rng.randrange(w)
            pixels[y : y + rng.randint(1, 200), x : x + rng.randint(1, 400)] = gen.integers(
                0, 255, 3, dtype=np.uint8
            )
    else:
        from PIL import Image, ImageDraw

        image = Image.new("RGB", (w, h), "white")
        draw = ImageDraw.Draw(image)
        for y in range(0, h, max(12, h // 12)):
            draw.text(
                (rng.randint(0, max(0, w // 4)), y),
                rng.choice(["Wi-Fi", "Settings", "Network & internet", "OK", "设置", "Cancel"]),
                fill="black",
                font_size=rng.randint(8, 60),
            )
        pixels = np.asarray(image)
    return f"{w}x{h} {fill}", pixels


def gen_broken_file(rng: random.Random, folder: Path, n: int) -> tuple[str, Path]:
    from PIL import Image

    path = folder / f"broken-{n}.{rng.choice(['png', 'jpg', 'webp', 'bmp', 'gif'])}"
    kind = rng.choice(["random", "truncated", "flipped", "html", "empty", "json", "header"])
    good = io.BytesIO()
    Image.new("RGB", (rng.randint(8, 300), rng.randint(8, 300)), "white").save(
        good, format=rng.choice(["PNG", "JPEG", "WEBP", "BMP", "GIF"])
    )
    data = good.getvalue()
    if kind == "random":
        blob = rng.randbytes(rng.randint(1, 5000))
    elif kind == "truncated":
        blob = data[: rng.randint(1, max(1, len(data) - 1))]
    elif kind == "flipped":
        raw = bytearray(data)
        for _ in range(rng.randint(1, 20)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
        blob = bytes(raw)
    elif kind == "html":
        blob = b"<!DOCTYPE html><html><body>" + b"x" * rng.randint(0, 500) + b"</body></html>"
    elif kind == "empty":
        blob = b""
    elif kind == "json":
        blob = json.dumps({"image": "nope"}).encode()
    else:  # a PNG header announcing an absurd size
        blob = (
            b"\x89PNG\r\n\x1a\n"
            + struct.pack(">I", 13)
            + b"IHDR"
            + struct.pack(">II", rng.choice([0, 1, 70000, 2**31 - 1]), rng.choice([0, 1, 70000]))
            + bytes(9)
        )
    path.write_bytes(blob)
    return f"{kind} {path.suffix}", path


def fuzz_describe(rng: random.Random, n: int, work: Path, full: bool) -> dict[str, Any]:
    from screenpilot.vision.pipeline import analyse

    tally = Tally()
    stages_all = ["ocr", "detect", "icons", "blocks"]
    for i in range(n):
        if i % 4 == 3:
            what, path = gen_broken_file(rng, work, i)
            status, value = in_thread(functools.partial(analyse, path, stages=stages_all), 120)
        else:
            what, pixels = gen_image(rng)
            stages = (
                stages_all
                if pixels.shape[0] * pixels.shape[1] <= 400_000 or rng.random() < 0.2
                else ["blocks", "detect"]
            )
            status, value = in_thread(
                functools.partial(analyse, pixels, stages=stages, ocr_threshold=0.9), 180
            )
        kind = classify(status, value)
        tally.add(kind, f"{what}: {type(value).__name__}: {value}")
    special = describe_cli_cases(work, full)
    return {"generated": tally.as_dict(), "cli": special}


def describe_cli_cases(work: Path, full: bool) -> dict[str, Any]:
    """The issue's describe cases through the real CLI."""
    from PIL import Image, ImageDraw

    tally = Tally()
    results: dict[str, Any] = {}
    fifo = work / "x.png"
    if not fifo.exists():
        os.mkfifo(fifo)
    huge = work / "huge.png"
    with huge.open("wb") as f:
        f.truncate(300 * 1024 * 1024)  # sparse
    narrow = []
    for w, h in ((8, 100), (12, 300), (16, 120)):
        p = work / f"narrow-{w}x{h}.png"
        Image.fromarray((np.random.default_rng(w).random((h, w, 3)) * 255).astype(np.uint8)).save(p)
        narrow.append(p)
    good = work / "good.png"
    Image.new("RGB", (540, 1200), "white").save(good)
    folder = work / "folder"
    folder.mkdir(exist_ok=True)
    Image.new("RGB", (200, 400), "white").save(folder / "a.png")
    if not (folder / "pipe.png").exists():
        os.mkfifo(folder / "pipe.png")
    link = work / "zero.png"
    if not link.is_symlink():
        link.symlink_to("/dev/zero")
    cases: list[tuple[str, list[str], int, Callable[[str, str], str]]] = [
        ("/dev/zero", ["/dev/zero"], 4, lambda o, e: "" if "character device" in e else e),
        ("FIFO x.png", [str(fifo)], 4, lambda o, e: "" if "FIFO" in e else e),
        ("symlink to /dev/zero", [str(link)], 4, lambda o, e: "" if "device" in e else e),
        ("300 MB sparse file", [str(huge)], 4, lambda o, e: "" if "too large" in e else e),
        (
            "a folder with a FIFO in it",
            [str(folder)],
            4,
            lambda o, e: "" if "== " in o and "pipe.png" in e else "lost a file",
        ),
        ("missing file", [str(work / "none.png")], 4, lambda o, e: ""),
        *[(f"narrow {p.stem}", [str(p)], 0, lambda o, e: "") for p in narrow],
        (
            "batch: good, FIFO, zero, huge, narrow, missing",
            [str(good), str(fifo), "/dev/zero", str(huge), str(narrow[0]), str(work / "no.png")],
            4,
            lambda o, e: (
                ""
                if (o.count("== ") == 2 and "4 of 6 images" in e)
                else f"batch record: {o.count('== ')} described; {e[-200:]}"
            ),
        ),
    ]
    if full:
        tall = work / "tall-1080x60000.png"
        image = Image.new("RGB", (1080, 60000), "white")
        draw = ImageDraw.Draw(image)
        for y in range(100, 60000, 400):
            draw.text((60, y), f"Row {y} settings item", fill="black", font_size=40)
        image.save(tall)
        cases.append(("1080x60000 long screenshot", [str(tall)], 0, lambda o, e: ""))
    for name, files, want, check in cases:
        started = time.monotonic()
        rc, out, err = cli(["describe", *files], timeout=900 if "60000" in name else 120)
        kind, why = cli_kind(rc, err, want_rc=want)
        wrong = check(out, err) if kind in ("ok", "clean") else ""
        if wrong:
            kind, why = "untrue", wrong
        tally.add(kind, f"{name}: {why}")
        results[name] = {
            "end": kind,
            "exit": rc,
            "seconds": round(time.monotonic() - started, 1),
            "stderr": err.strip().splitlines()[-2:] if err.strip() else [],
        }
    return {**tally.as_dict(), "cases_seen": results}


if __name__ == "__main__":
    part_of_fuzz(__file__)
