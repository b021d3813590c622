"""bench/fuzz.py's ``adbd`` family: the virtual phone as its own process, abused: 400 MB
written to a ``shell:sleep 60`` stream, 1,000 shells from one client, connections past
the cap, silent and half-sent connections, then generated packet sequences; its peak
memory (VmHWM) and whether it still answers.

A part of bench/fuzz.py (run that), not a benchmark of its own.
"""

from __future__ import annotations

import contextlib
import functools
import random
import socket
import struct
import threading
import time
from collections import Counter
from typing import Any

from fuzz_adbd_client import (
    A_CLSE,
    A_CNXN,
    A_OKAY,
    A_OPEN,
    A_SYNC,
    A_WRTE,
    answers,
    hello,
    memory_mb,
    packet,
    phone_process,
    read_packet,
    thread_count,
)
from fuzz_common import Tally, in_thread, part_of_fuzz


def flood(port: int, total: int, *, wait_okay: bool) -> dict[str, Any]:
    """Write ``total`` bytes to a `shell:sleep 60` stream (waiting for OKAY or not)."""
    sent, okays, closed_by_phone = 0, 0, False
    with hello(port, timeout=3) as sock:
        sock.sendall(packet(A_OPEN, 7, 0, b"shell:sleep 60\0"))
        msg = read_packet(sock)
        if msg is None or msg[0] != A_OKAY:
            return {"error": "not opened"}
        remote = msg[1]
        chunk = b"z" * (64 * 1024)
        replies: Counter[int] = Counter()
        drain = threading.Thread(target=lambda: _count_replies(sock, replies), daemon=True)
        if not wait_okay:
            drain.start()
        try:
            while sent < total:
                sock.sendall(packet(A_WRTE, 7, remote, chunk))
                sent += len(chunk)
                if wait_okay:
                    got = read_packet(sock)
                    if got is None or got[0] == A_CLSE:
                        closed_by_phone = True
                        break
                    okays += 1
        except TimeoutError:
            pass  # held back: no OKAY comes
        except OSError:
            closed_by_phone = True
        if not wait_okay:
            time.sleep(0.5)
            okays = replies[A_OKAY]
            closed_by_phone = replies[A_CLSE] > 0
    return {
        "bytes_offered": total,
        "bytes_sent": sent,
        "okays": okays,
        "stream_closed_by_phone": closed_by_phone,
    }


def _count_replies(sock: socket.socket, replies: Counter[int]) -> None:
    with contextlib.suppress(OSError):
        while True:
            msg = read_packet(sock)
            if msg is None:
                return
            replies[msg[0]] += 1


def _drain(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        while sock.recv(1 << 16):
            pass


def fuzz_adbd(rng: random.Random, n: int) -> dict[str, Any]:
    tally = Tally()
    figures: dict[str, Any] = {}
    with phone_process() as (proc, port, errors):
        time.sleep(1.0)
        figures["rss_start_mb"] = memory_mb(proc.pid)
        # 1. the 400 MB to a `shell:sleep 60` stream, without and with waiting
        figures["flood_no_wait"] = flood(port, 400 * 1024 * 1024, wait_okay=False)
        figures["flood_waiting_for_okay"] = flood(port, 400 * 1024 * 1024, wait_okay=True)
        figures["rss_after_floods_mb"] = memory_mb(proc.pid)
        # 2. 1,000 shells from one client, then connections past the cap
        opened = refused = 0
        with hello(port) as sock:
            for i in range(1, 1001):
                sock.sendall(packet(A_OPEN, i, 0, b"shell:sleep 60\0"))
            sock.settimeout(10)
            while opened + refused < 1000:
                msg = read_packet(sock)
                if msg is None:
                    break
                if msg[0] == A_OKAY and msg[2] <= 1000:
                    opened += 1
                elif msg[0] == A_CLSE and msg[1] == 0:
                    refused += 1
            figures["shells_1000"] = {
                "opened": opened,
                "refused": refused,
                "rss_mb": memory_mb(proc.pid),
                "threads": thread_count(proc.pid),
            }
        extra = []
        for _ in range(20):
            with contextlib.suppress(OSError):
                extra.append(hello(port, timeout=3))
        figures["connections_20_asked"] = {"accepted": len(extra)}
        for s in extra:
            s.close()
        # 3. silent and half-sent connections: closed after the timeouts
        silent = [socket.create_connection(("127.0.0.1", port), timeout=30) for _ in range(5)]
        half = []
        for _ in range(3):
            s = socket.create_connection(("127.0.0.1", port), timeout=30)
            s.sendall(packet(A_CNXN, 0x01000001, 4096, b"host::\0")[:10])
            half.append(s)
        closed = sum(_closed_within(s, 25) for s in silent + half)
        figures["silent_or_half_sent_closed"] = f"{closed} of {len(silent) + len(half)}"
        if closed < len(silent) + len(half):
            tally.add("untrue", "a silent or half-sent connection stayed open")
        # 3b. eight connections that shook hands and then say nothing hog the cap: a new
        # client gets in once they have been quiet past the handshake timeout (10 s)
        hogs = [hello(port) for _ in range(8)]
        time.sleep(11)
        figures["after_8_quiet_connections_a_new_client_answers"] = answers(port)
        if not figures["after_8_quiet_connections_a_new_client_answers"]:
            tally.add("untrue", "8 quiet connections locked new clients out")
        for s in hogs:
            s.close()
        # 4. generated packet sequences
        for i in range(n):
            seq = _random_sequence(rng)
            status, _ = in_thread(functools.partial(_play, port, seq), 30)
            if status == "hang":
                tally.add("hang", f"sequence {i}")
                continue
            if i % 10 == 9 or i == n - 1:
                alive = in_thread(lambda: answers(port), 30)
                if alive != ("ok", True):
                    tally.add("untrue", f"after sequence {i} the phone no longer answers")
                    continue
            tally.add("ok" if status == "ok" else "clean")
        figures["rss_end_mb"] = memory_mb(proc.pid)
        figures["peak_rss_mb"] = memory_mb(proc.pid, "VmHWM")
        figures["threads_end"] = thread_count(proc.pid)
        figures["still_answers"] = answers(port)
        tracebacks = [
            line for line in errors if "Traceback" in line or line.startswith("Exception in thread")
        ]
        for line in tracebacks:
            tally.add("traceback", line)
    return {**tally.as_dict(), **figures}


def _closed_within(sock: socket.socket, seconds: float) -> bool:
    sock.settimeout(seconds)
    try:
        while sock.recv(4096):
            pass
        return True
    except TimeoutError:
        return False
    except OSError:
        return True
    finally:
        sock.close()


def _random_sequence(rng: random.Random) -> list[bytes]:
    seq = []
    if rng.random() < 0.9:
        seq.append(
            packet(
                A_CNXN,
                rng.choice([0x01000000, 0x01000001, 0, 0xFFFFFFFF]),
                rng.choice([0, 1, 4096, 1 << 20, 0xFFFFFFFF]),
                b"host::\0",
            )
        )
    services = [
        b"shell:echo hi",
        b"shell:",
        b"shell,v2,raw:id",
        b"exec:cat",
        b"sync:",
        b"reboot:",
        b"nope:",
        b"shell:sleep 2",
        b"shell:" + b"x" * 4000,
        b"",
        b"shell:cat /dev/zero | head -c 100000",
        b"tcp:5555",
        b"\xff\xfe",
    ]
    for _ in range(rng.randint(1, 12)):
        command = rng.choice(
            [A_OPEN, A_OPEN, A_WRTE, A_WRTE, A_OKAY, A_CLSE, A_CNXN, A_SYNC, 0x12345678]
        )
        a0, a1 = rng.randint(0, 40), rng.choice([0, 1, 2, 3, rng.randint(0, 1 << 32 - 1)])
        if command == A_OPEN:
            data = rng.choice(services) + rng.choice([b"\0", b""])
        elif command == A_WRTE:
            data = rng.choice(
                [
                    b"",
                    b"ls\n",
                    b"exit\n",
                    b"STAT\x05\0\0\0/sdcard",
                    b"SEND" + struct.pack("<I", 8) + b"/x,33188",
                    rng.randbytes(rng.randint(1, 4096)),
                ]
            )
        else:
            data = rng.randbytes(rng.randint(0, 64)) if rng.random() < 0.3 else b""
        raw = packet(
            command, a0, a1, data, magic=None if rng.random() < 0.9 else rng.randint(0, 1 << 32 - 1)
        )
        if rng.random() < 0.05:
            raw = raw[: rng.randint(1, len(raw))]
        seq.append(raw)
    return seq


def _play(port: int, seq: list[bytes]) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        threading.Thread(target=lambda: _drain(sock), daemon=True).start()
        try:
            for raw in seq:
                sock.sendall(raw)
        except OSError:
            pass
        finally:  # a FIN, as a client that exits sends
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)


if __name__ == "__main__":
    part_of_fuzz(__file__)
