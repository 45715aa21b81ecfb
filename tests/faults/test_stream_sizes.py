"""Streams for any step size (issue 22, item 6), on gunicorn as deployed (StreamWorker, one worker):
a 200-combatant step of over a megabyte (more than twice the stream's 512 KiB buffer) reaches a stream whole,
and six streams catching up on a 100,000-event log at once leave the worker's peak memory nearly where it was.
"""
from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

import pytest
import requests
from redis import Redis

from tests.faults.conftest import UNREACHABLE_LIMIT, army
from tests.faults.sse_client import SseClient
from tests.load.stack import start_stack, worker_pids

pytestmark = pytest.mark.slow

LOG_EVENTS = 100_000
def create(url: str, combatants: list[dict]) -> tuple[str, str]:
    answer = requests.post(url + "/v1/encounters", json={"combatants": combatants}, timeout=30)
    assert answer.status_code == 201, answer.text
    body = answer.json()
    return url + body["links"]["self"], body["token"]


def memory_kb(pid: int, field: str) -> int:
    """VmRSS or VmHWM (the peak resident size since the process started) of `pid`, in kB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise LookupError(field)


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time `pid` has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    running = start_stack(tmp_path_factory.mktemp("stream-sizes"), worker=False,
                          **{**UNREACHABLE_LIMIT, "GUNICORN_WORKERS": "1",
                             "REFEREE_MAX_LOG_BYTES": str(64 * 1024 * 1024)})
    yield running
    running.close()


def test_a_200_combatant_step_of_over_a_megabyte_is_streamed_whole(stack):
    combatants, declarations = army(200)
    encounter, token = create(stack.url, combatants)
    stream = SseClient(encounter, token, since=0, rcvbuf=16384)  # a small window: the server must wait on it
    assert stream.status == 200
    answer = requests.post(encounter + "/segments", json={"seed": 7, "declarations": declarations},
                           headers={"Authorization": f"Bearer {token}"}, timeout=60)
    assert answer.status_code == 201, answer.text
    events = answer.json()["events"]
    sse_bytes = sum(len(f"id: {e['seq']}\nevent: {e['type']}\ndata: {json.dumps(e)}\n\n") for e in events)
    assert sse_bytes > 2 * 512 * 1024  # the step is more than twice the stream's buffer
    time.sleep(2)  # the client reads nothing for a while: the socket fills, the rest waits in the log
    assert stream.read_until(events[-1]["seq"], 60, chunk=16384)
    stream.close()
    assert stream.events == [(e["seq"], e["type"]) for e in events]  # every event, in order, nothing else
    print(f"\n200-combatant step: {len(events)} events, {sse_bytes / 1024:.0f} KiB of SSE, streamed whole")


def test_six_catch_ups_of_a_100k_event_log_leave_the_worker_memory_bounded(stack):
    encounter, token = create(stack.url, army(2)[0])
    encounter_id = encounter.rsplit("/", 1)[1]
    log_bytes = fill_log(Redis.from_url(stack.redis_url), encounter_id, LOG_EVENTS)
    worker = worker_pids(stack.processes[-1].pid)[0]
    before, cpu_before = memory_kb(worker, "VmRSS"), cpu_seconds(worker)
    streams, done = [], []

    def follow(stream: SseClient) -> None:
        done.append(stream.read_until(LOG_EVENTS, 120))

    started = time.monotonic()
    streams = [SseClient(encounter, token, since=0) for _ in range(6)]
    readers = [threading.Thread(target=follow, args=(stream,)) for stream in streams]
    for reader in readers:
        reader.start()
    healthz = []
    while any(reader.is_alive() for reader in readers):
        began = time.monotonic()
        assert requests.get(stack.url + "/healthz", timeout=5).status_code == 200
        healthz.append(time.monotonic() - began)
        time.sleep(0.2)
    seconds = time.monotonic() - started
    peak, cpu = memory_kb(worker, "VmHWM"), cpu_seconds(worker) - cpu_before
    for stream in streams:
        stream.close()
    assert done == [True] * 6
    for stream in streams:
        assert [ident for ident, _ in stream.events] == list(range(1, LOG_EVENTS + 1))
    growth_mb = (peak - before) / 1024
    print(f"\n6 catch-ups of {LOG_EVENTS:,} events ({log_bytes / 2**20:.1f} MiB of log) in {seconds:.1f} s: "
          f"worker RSS {before / 1024:.0f} MiB before, peak {peak / 1024:.0f} MiB (+{growth_mb:.1f} MiB), "
          f"{cpu:.1f} s of worker CPU; "
          f"/healthz max {max(healthz) * 1000:.0f} ms over {len(healthz)} probes")
    assert growth_mb < 40  # the whole log at once took ~130 MiB a stream before paging


def fill_log(redis: Redis, encounter_id: str, count: int) -> int:
    """Give the encounter a log of `count` events straight in Redis (as 100,000 writes would leave it)."""
    main, events = f"referee:enc:{{{encounter_id}}}", f"referee:enc:{{{encounter_id}}}:events"
    total = 0
    for start in range(1, count + 1, 5000):
        batch = [json.dumps({"type": "tick", "segment": seq // 100 + 1, "seq": seq, "pad": "x" * 40},
                            separators=(",", ":")) for seq in range(start, min(start + 5000, count + 1))]
        total += sum(map(len, batch))
        redis.rpush(events, *batch)
    redis.hset(main, mapping={"seq": count, "log_bytes": total})
    return total
