"""adbd under abuse (issue 20): flow control per stream, caps on streams and connections,
idle and half-sent connections closed. Each case runs its own daemon with small limits
and asserts through the daemon's own counters (``AdbDaemon.stats()``), never wall-clock
time or process memory."""

from __future__ import annotations

import socket
import struct
import time
from collections.abc import Iterator

import pytest
from phone_fixtures import wait_until

from screenpilot.simulator.adbd import (
    A_CLSE,
    A_CNXN,
    A_OKAY,
    A_OPEN,
    A_WRTE,
    HEADER,
    MAX_PAYLOAD,
    AdbDaemon,
    Limits,
    Message,
    pack_message,
    unpack_header,
)
from screenpilot.simulator.phone import VirtualPhone

PAYLOAD = 4096
WINDOW = 16 * 1024


@pytest.fixture()
def daemon(request: pytest.FixtureRequest) -> Iterator[AdbDaemon]:
    limits = getattr(request, "param", None) or Limits(
        window=WINDOW,
        max_payload=PAYLOAD,
        max_streams=4,
        max_connections=3,
        handshake_timeout=0.5,
        packet_timeout=0.5,
        idle_timeout=0.5,
    )
    adbd = AdbDaemon(VirtualPhone(), limits=limits).start()
    yield adbd
    adbd.stop()


def send(sock: socket.socket, msg: Message) -> None:
    sock.sendall(pack_message(msg, checksum=False))


def recv_exact(sock: socket.socket, n: int) -> bytes:
    buf = b""
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise ConnectionError("closed")
        buf += chunk
    return buf


def read_message(sock: socket.socket) -> Message:
    command, arg0, arg1, length = unpack_header(recv_exact(sock, HEADER.size), MAX_PAYLOAD)
    return Message(command, arg0, arg1, recv_exact(sock, length))


def connect(adbd: AdbDaemon, max_payload: int = MAX_PAYLOAD) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", adbd.port), timeout=5)
    send(sock, Message(A_CNXN, 0x01000001, max_payload, b"host::\0"))
    answer = read_message(sock)
    assert answer.command == A_CNXN
    return sock


def open_stream(sock: socket.socket, local: int, service: bytes) -> Message:
    send(sock, Message(A_OPEN, local, 0, service + b"\0"))
    return read_message(sock)


def hung_up(sock: socket.socket, timeout: float = 10.0) -> bool:
    """Whether the daemon closes ``sock`` (reads until EOF, dropping what comes)."""
    sock.settimeout(timeout)
    try:
        while sock.recv(65536):
            pass
    except TimeoutError:
        return False
    except OSError:
        return True
    return True


def wait_for(adbd: AdbDaemon, key: str, at_least: int = 1, timeout: float = 10.0) -> int:
    wait_until(lambda: adbd.stats().get(key, 0) >= at_least, timeout)
    return adbd.stats().get(key, 0)


def test_announced_payload_is_the_limit(daemon: AdbDaemon) -> None:
    sock = socket.create_connection(("127.0.0.1", daemon.port), timeout=5)
    send(sock, Message(A_CNXN, 0x01000001, MAX_PAYLOAD, b"host::\0"))
    assert read_message(sock).arg1 == PAYLOAD
    sock.close()


def test_a_flood_that_ignores_okay_closes_its_stream(daemon: AdbDaemon) -> None:
    """The issue's case: megabytes written to a `shell:sleep 60` stream, never waiting for
    OKAY. The stream is closed once past its window; the daemon never buffers more."""
    sock = connect(daemon)
    opened = open_stream(sock, 7, b"shell:sleep 60")
    assert opened.command == A_OKAY
    chunk = b"x" * PAYLOAD
    sent = 0
    try:
        for _ in range(200):  # 800 KiB, 50 windows' worth
            send(sock, Message(A_WRTE, 7, opened.arg0, chunk))
            sent += len(chunk)
    except OSError:
        pass
    assert wait_for(daemon, "streams closed: wrote past the window") == 1
    stats = daemon.stats()
    assert stats["peak buffered bytes"] <= WINDOW + PAYLOAD < sent
    assert stats["buffered bytes"] == 0
    sock.settimeout(5)
    replies = []
    while True:
        msg = read_message(sock)
        replies.append(msg.command)
        if msg.command == A_CLSE and msg.arg0 == opened.arg0:
            break
    assert replies.count(A_OKAY) < WINDOW // PAYLOAD + 1  # OKAYs stopped at the window
    sock.close()


def test_a_client_that_waits_for_okay_is_held_at_the_window(daemon: AdbDaemon) -> None:
    sock = connect(daemon)
    opened = open_stream(sock, 3, b"shell:sleep 60")
    sock.settimeout(1.0)
    accepted = 0
    with pytest.raises(TimeoutError):
        for _ in range(100):
            send(sock, Message(A_WRTE, 3, opened.arg0, b"y" * PAYLOAD))
            assert read_message(sock).command == A_OKAY
            accepted += PAYLOAD
    assert WINDOW - PAYLOAD <= accepted <= WINDOW
    assert daemon.stats()["buffered bytes"] <= WINDOW + PAYLOAD
    assert daemon.stats().get("streams closed: wrote past the window", 0) == 0
    sock.close()


def test_okay_held_back_goes_once_the_service_reads() -> None:
    """An interactive shell reads what was sent: the held OKAY is then sent, and a command
    sent past a full window still runs."""
    limits = Limits(window=64, max_payload=256)
    adbd = AdbDaemon(VirtualPhone(), limits=limits).start()
    try:
        sock = connect(adbd)
        opened = open_stream(sock, 1, b"shell:")
        assert opened.command == A_OKAY
        sock.settimeout(5)
        send(sock, Message(A_WRTE, 1, opened.arg0, b"echo " + b"a" * 100 + b"\n"))
        got = b""
        okays = 0
        while b"a" * 100 not in got:
            msg = read_message(sock)
            if msg.command == A_OKAY:
                okays += 1
            elif msg.command == A_WRTE:
                got += msg.data
                send(sock, Message(A_OKAY, 1, opened.arg0))
        assert okays == 1
        sock.close()
    finally:
        adbd.stop()


def test_streams_per_connection_are_capped(daemon: AdbDaemon) -> None:
    """The issue's case: 1,000 shells from one client. Past ``max_streams`` an OPEN is
    refused; threads stay bounded; a refused client can still open one after closing one."""
    sock = connect(daemon)
    answers = [open_stream(sock, i, b"shell:") for i in range(1, 41)]
    accepted = [a for a in answers if a.command == A_OKAY]
    assert len(accepted) == 4
    assert all(a.command == A_CLSE for a in answers[4:])
    stats = daemon.stats()
    assert stats["streams refused: too many open"] == 36
    assert stats["streams"] == 4 and stats["threads"] <= 1 + 4
    send(sock, Message(A_CLSE, 1, accepted[0].arg0))
    deadline = time.monotonic() + 5
    wait_until(lambda: daemon.stats()["streams"] <= 3, 5)
    while True:  # the daemon's CLSE for the one we closed
        again = open_stream(sock, 99, b"shell:echo ok")
        if again.command == A_OKAY:
            break
        assert time.monotonic() < deadline
    sock.close()


@pytest.mark.parametrize("daemon", [Limits(max_connections=3, handshake_timeout=60)], indirect=True)
def test_connections_per_client_are_capped(daemon: AdbDaemon) -> None:
    kept = [connect(daemon) for _ in range(3)]
    extra = socket.create_connection(("127.0.0.1", daemon.port), timeout=5)
    assert hung_up(extra)
    assert wait_for(daemon, "connections refused: too many from one client") == 1
    assert daemon.stats()["peak connections from one client"] == 3
    for sock in kept:
        sock.close()
    extra.close()


@pytest.mark.parametrize(
    "daemon", [Limits(max_connections=3, handshake_timeout=0.3)], indirect=True
)
def test_at_the_cap_the_connection_quiet_longest_makes_room(daemon: AdbDaemon) -> None:
    """A client holding connections it never uses cannot lock the adb server out: once
    they have been quiet past the handshake timeout, a new one takes the quietest's place."""
    hogs = [connect(daemon) for _ in range(3)]
    for sock in hogs:  # the quiet ones must outlast 0.3 s
        sock.settimeout(0.4)
        with pytest.raises(TimeoutError):
            sock.recv(1)
    newcomer = connect(daemon)  # answered: it got in
    assert open_stream(newcomer, 1, b"shell:echo in").command == A_OKAY
    assert daemon.stats()["connections evicted: quiet longest, at the cap"] == 1
    assert sum(hung_up(sock, timeout=0.5) for sock in hogs) == 1
    newcomer.close()
    for sock in hogs:
        sock.close()


@pytest.mark.parametrize(
    "sent, why",
    [
        (b"", "closed: no CNXN"),  # connects, says nothing
        (
            HEADER.pack(A_CNXN, 0x01000001, 4096, 10, 0, A_CNXN ^ 0xFFFFFFFF)[:10],
            "closed: half-sent packet",
        ),  # half a header
        (
            HEADER.pack(A_CNXN, 0x01000001, 4096, 10, 0, A_CNXN ^ 0xFFFFFFFF) + b"host",
            "closed: half-sent packet",
        ),  # header, part of its data
    ],
)
def test_silent_and_half_sent_connections_are_closed(
    daemon: AdbDaemon, sent: bytes, why: str
) -> None:
    sock = socket.create_connection(("127.0.0.1", daemon.port), timeout=5)
    sock.sendall(sent)
    assert hung_up(sock)
    assert wait_for(daemon, why) == 1
    sock.close()


def test_idle_connection_is_closed_but_a_busy_one_is_not(daemon: AdbDaemon) -> None:
    idle = connect(daemon)
    busy = connect(daemon)
    opened = open_stream(busy, 1, b"shell:")  # an interactive shell, waiting
    assert opened.command == A_OKAY
    assert hung_up(idle)
    assert wait_for(daemon, "closed: idle") == 1
    send(busy, Message(A_WRTE, 1, opened.arg0, b"echo alive\n"))
    busy.settimeout(5)
    got = b""
    while b"alive" not in got:
        msg = read_message(busy)
        if msg.command == A_WRTE:
            got += msg.data
            send(busy, Message(A_OKAY, 1, opened.arg0))
    busy.close()
    idle.close()


def test_garbage_after_a_good_packet_closes_only_that_connection(daemon: AdbDaemon) -> None:
    bad = connect(daemon)
    bad.sendall(struct.pack("<6I", 1, 2, 3, 4, 5, 6))
    assert hung_up(bad)
    good = connect(daemon)
    assert open_stream(good, 1, b"shell:echo fine").command == A_OKAY
    good.close()
    bad.close()
