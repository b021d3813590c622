"""The demonstration store on a real ChromaDB in tmp_path: round trip, model mixing,
JSONL export/import, other collections, concurrent writers, a killed writer, a
half-written index, a damaged ledger and a lock held by another process."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from pbd_helpers import WordEmbedder
from phone_fixtures import wait_until

from screenpilot.errors import DataError, StoreError
from screenpilot.model import Demonstration
from screenpilot.pbd.store import (
    DEMOS,
    INDEX_DIR,
    LEDGER_FILE,
    DemoRecord,
    DemoStore,
    Entry,
)

HELPERS = Path(__file__).with_name("pbd_helpers.py")
WIFI = DemoRecord(
    "Turn wifi on.",
    ("tap 'Settings'", "tap 'Network & internet'", "tap the 'Wi-Fi' switch"),
    app="com.android.settings",
    screen="1080x2400",
    source="recorded",
)
ALARM = DemoRecord(
    "create alarm at 10:30 am",
    ("tap 'Clock'", "tap 'add'", "type '10' into the 'Hour' field"),
    app="com.android.deskclock",
    screen="720x1600",
    source="recorded",
)


def open_store(path: Path, name: str = "words-test", **kw: float) -> DemoStore:
    return DemoStore.open(path, embedder=WordEmbedder(name), **kw)  # type: ignore[arg-type]


def worker(*args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(HELPERS.parent)}
    return subprocess.Popen(
        [sys.executable, str(HELPERS), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def test_round_trip(tmp_path: Path) -> None:
    store = open_store(tmp_path / "s")
    wifi_id = store.add(WIFI)
    alarm_id = store.add(ALARM)
    got = store.get(wifi_id)
    assert (got.instruction, got.steps, got.app, got.screen, got.source) == (
        WIFI.instruction,
        WIFI.steps,
        WIFI.app,
        WIFI.screen,
        WIFI.source,
    )
    assert got.language == "en" and got.created and got.id == wifi_id
    assert store.get(alarm_id[:6]).instruction == ALARM.instruction  # an id prefix will do
    assert [r.id for r in store.list()] == [wifi_id, alarm_id]
    found = store.search("please turn the wifi on", k=2, threshold=0.3)
    assert found and isinstance(found[0], Demonstration)
    assert found[0].instruction == "Turn wifi on." and found[0].steps == WIFI.steps
    assert found[0].score is not None and found[0].score >= 0.3
    assert all(d.instruction != ALARM.instruction for d in found)  # below the threshold
    assert (
        store.search("wifi", where={"app": "com.android.deskclock"}, k=1)[0].app
        == "com.android.deskclock"
    )
    store.remove(wifi_id)
    assert store.count() == 1
    with pytest.raises(StoreError, match="no demonstration"):
        store.get(wifi_id)
    store.close()
    again = open_store(tmp_path / "s")  # reopened: still there
    assert [r.instruction for r in again.list()] == [ALARM.instruction]


def test_chinese_demo_language(tmp_path: Path) -> None:
    store = open_store(tmp_path / "s")
    demo_id = store.add(Demonstration("给 Bob Lee 发短信：明天见", ("tap '信息'",), "messages"))
    assert store.get(demo_id).language == "zh"


def test_other_collections_share_the_store(tmp_path: Path) -> None:
    store = open_store(tmp_path / "s")
    store.add(WIFI)
    notes = store.collection("knowledge")
    [note_id] = notes.add(
        [
            Entry(
                "",
                "Wi-Fi lives under Network & internet",
                {"from": "explore"},
                {"app": "com.android.settings"},
            )
        ]
    )
    note = notes.get(note_id)
    assert note is not None and note.payload == {"from": "explore"}
    assert notes.search("where is wifi", k=1)[0].id == note_id
    assert {c.name: c.count for c in store.collections()} == {DEMOS: 1, "knowledge": 1}
    assert store.count() == 1
    with pytest.raises(StoreError, match="bad collection name"):
        store.collection("../x")
    with pytest.raises(StoreError, match="reserved"):
        notes.add([Entry("", "text", {}, {"_payload": "x"})])


def test_refuses_to_mix_models_until_reembedded(tmp_path: Path) -> None:
    open_store(tmp_path / "s", "model-a").add(WIFI)
    other = open_store(tmp_path / "s", "model-b")
    with pytest.raises(StoreError) as err:
        other.add(ALARM)
    assert "model-a" in err.value.message and "screenpilot demos reembed" in err.value.hint
    with pytest.raises(StoreError, match="cannot be mixed"):
        other.search("wifi")
    assert other.list()[0].instruction == WIFI.instruction  # reading needs no model
    assert other.reembed() == {DEMOS: 1}
    other.add(ALARM)
    assert other.search("turn wifi on", k=1)[0].instruction == WIFI.instruction
    assert other.collections()[0].model == "model-b"


def test_export_import_jsonl(tmp_path: Path) -> None:
    store = open_store(tmp_path / "a")
    ids = store.add_many([WIFI, ALARM])
    out = io.StringIO()
    assert store.export_jsonl(out) == 2
    lines = out.getvalue().splitlines()
    assert [json.loads(line)["id"] for line in lines] == ids
    target = open_store(tmp_path / "b")
    assert target.import_jsonl(lines, source="x.jsonl") == (2, 0)
    assert target.import_jsonl(lines) == (0, 2)  # the same ids again: skipped
    assert [(r.id, r.steps) for r in target.list()] == [(r.id, r.steps) for r in store.list()]
    with pytest.raises(DataError, match=r"line 2 of bad\.jsonl"):
        target.import_jsonl([lines[0].replace(ids[0], "fresh"), "{not json"], source="bad.jsonl")
    with pytest.raises(DataError, match="instruction"):
        target.import_jsonl(['{"steps": []}'])
    assert target.count() == 2  # nothing of a bad file is imported


def test_two_processes_write_concurrently(tmp_path: Path) -> None:
    path = tmp_path / "s"
    open_store(path).add(WIFI)
    procs = [worker("add", str(path), tag, "12") for tag in ("a", "b")]
    mine = open_store(path)
    reads = 0
    while any(p.poll() is None for p in procs):  # read while they write
        assert mine.count() >= 1
        reads += 1
    outs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), [o[1][-800:] for o in outs]
    ids = [line for out, _ in outs for line in out.split()]
    assert len(ids) == 24 and reads > 0
    assert mine.count() == 25
    assert {r.id for r in mine.list()} >= set(ids)
    assert "task b number 7" in [d.instruction for d in mine.search("task b number 7", k=3)]


def test_killed_writer_loses_nothing(tmp_path: Path) -> None:
    path = tmp_path / "s"
    open_store(path).add(WIFI)
    proc = worker("add", str(path), "k", "400")
    assert proc.stdout is not None
    committed = [proc.stdout.readline().strip() for _ in range(6)]
    proc.send_signal(signal.SIGKILL)  # in the middle of its next add, most likely
    proc.wait(timeout=30)
    store = open_store(path)
    ids = {r.id for r in store.list()}
    assert set(committed) <= ids
    for i in range(6):
        found = store.search(f"task k number {i}", k=3)
        assert f"task k number {i}" in [d.instruction for d in found]
    store.add(ALARM)
    assert store.count() == len(ids) + 1


def test_half_written_index_is_rebuilt(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "s"
    store = open_store(path)
    ids = store.add_many([WIFI, ALARM])
    store.close()
    # What a writer killed inside ChromaDB's flush leaves: the dirty mark and broken files.
    with sqlite3.connect(path / LEDGER_FILE) as db:
        db.execute("UPDATE meta SET value = '1' WHERE key = 'dirty'")
    for segment in (path / INDEX_DIR).iterdir():
        if segment.is_dir():
            with open(segment / "link_lists.bin", "wb") as f:
                f.truncate(1 << 40)  # sparse: a 1 TB file, as seen in the wild
            (segment / "data_level0.bin").write_bytes(b"\0" * 10)
    reopened = open_store(path)
    assert sorted(r.id for r in reopened.list()) == sorted(ids)
    assert reopened.backend.rebuilds == 1  # type: ignore[attr-defined]
    assert reopened.search("turn wifi on", k=1)[0].instruction == WIFI.instruction


def test_missing_index_is_rebuilt(tmp_path: Path) -> None:
    import shutil

    path = tmp_path / "s"
    store = open_store(path)
    store.add(WIFI)
    store.close()
    shutil.rmtree(path / INDEX_DIR)
    assert open_store(path).search("wifi on", k=1)[0].instruction == WIFI.instruction


def test_damaged_ledger_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "s"
    store = open_store(path)
    store.add(WIFI)
    store.close()
    garbage = b"this is not a database" * 100
    (path / LEDGER_FILE).write_bytes(garbage)
    for extra in ("-wal", "-shm"):
        (path / (LEDGER_FILE + extra)).unlink(missing_ok=True)
    with pytest.raises(StoreError) as err:
        open_store(path).list()
    assert "damaged" in err.value.message and "demos import" in err.value.hint
    assert err.value.exit_code == 6
    assert (path / LEDGER_FILE).read_bytes() == garbage  # left as it was


def test_lock_held_elsewhere_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "s"
    open_store(path).add(WIFI)
    proc = worker("lock", str(path), "20")
    assert proc.stdout is not None and proc.stdout.readline().strip() == "locked"
    try:
        with pytest.raises(StoreError) as err:
            open_store(path, lock_timeout=0.5).list()
        assert "busy" in err.value.message and "process dies" in err.value.hint
    finally:
        proc.kill()
        proc.wait(timeout=30)
    assert open_store(path, lock_timeout=10).count() == 1  # released with its process


@pytest.mark.slow
def test_chroma_server_store(tmp_path: Path) -> None:
    """store.host/store.port: the same API on a Chroma server (``chroma run``)."""
    import shutil
    import socket

    exe = shutil.which("chroma") or str(Path(sys.executable).with_name("chroma"))
    if not Path(exe).exists():
        pytest.skip("no `chroma` command to start a server")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = subprocess.Popen(
        [exe, "run", "--path", str(tmp_path / "srv"), "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    def connect() -> DemoStore:
        return DemoStore.open(host="127.0.0.1", port=port, embedder=WordEmbedder())

    def try_connect() -> DemoStore | None:
        try:
            return connect()
        except StoreError:
            return None

    try:
        store = wait_until(try_connect, 30, interval=0.3) or connect()  # the last try raises
        demo_id = store.add(WIFI)
        assert store.get(demo_id).steps == WIFI.steps
        assert store.search("turn wifi on", k=1)[0].instruction == WIFI.instruction
        with pytest.raises(StoreError, match="cannot be mixed"):
            open_other = DemoStore.open(
                host="127.0.0.1", port=port, embedder=WordEmbedder("model-b")
            )
            open_other.add(ALARM)
        store.remove(demo_id)
        assert store.count() == 0
    finally:
        server.terminate()
        server.wait(timeout=30)
    with pytest.raises(StoreError, match="cannot reach the Chroma server"):
        DemoStore.open(host="127.0.0.1", port=port)
