"""A primary killed under load: step writes and stream readers on the cluster stack while one primary is
SIGKILLed and its replica takes over (issue 26, item 6).

Each encounter has one writer, which steps it with `If-Match` on the version it was last answered; so a
write acknowledged (201, version v) and then lost in the switch shows as the encounter standing below v
when it is read again (412 on the next write, or at the end), and the shortfall is the acknowledged writes
lost. Also counted: answers by status (503 while the shard has no primary, never 500), seconds from the
kill until a write on the killed shard succeeds again, and whether every stream reader (which resumes with
Last-Event-ID whenever its stream closes) ends with every event of its encounter's log.

`python -m tests.cluster.failover` (what `make cluster-test` prints) runs it on fresh stacks with
REFEREE_REDIS_WAIT_REPLICAS=1 and =0, and measures what WAIT costs a write.
"""
from __future__ import annotations

import argparse
import itertools
import statistics
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import requests
from redis.crc import key_slot

from service.sessions.keys import Keys
from tests.cluster.nodes import Node, Stack, start_cluster, start_stack
from tests.unit.sessions.conftest import KNIGHT, fighter

BANDIT = fighter("bandit-1", position={"x": 1, "y": 0}, facing=180)


@dataclass
class Report:
    acknowledged: int = 0
    lost: int = 0
    statuses: Counter = field(default_factory=Counter)
    during_switch: Counter = field(default_factory=Counter)  # answers between the kill and the first write back
    recovery_seconds: float | None = None  # from the kill to the first write on its shard after one failed
    failed_at: float | None = None  # when a write on the killed shard first failed after the kill
    promoted_seconds: float | None = None
    streams_complete: int = 0
    streams: int = 0
    victim_encounters: int = 0
    readyz: Counter = field(default_factory=Counter)  # (status, its `redis` check) from the kill to the end

    def lines(self, title: str) -> list[str]:
        return [f"{title}:",
                f"  acknowledged writes {self.acknowledged}, lost {self.lost}",
                f"  answers {dict(sorted(self.statuses.items()))}; during the switch "
                f"{dict(sorted(self.during_switch.items()))} (500s: {self.statuses.get(500, 0)})",
                f"  writes on the killed shard succeed again {self.recovery_seconds:.1f} s after the kill "
                f"(replica promoted, cluster_state:ok after {self.promoted_seconds:.1f} s)"
                if self.recovery_seconds is not None else "  no write on the killed shard failed" if self.failed_at is None
                else "  writes on the killed shard never came back",
                f"  answered 412 after a 503: {self.statuses.get(412, 0)} (the write had been applied; the "
                "writer read the version again, nothing lost)",
                f"  stream readers with every event at the end: {self.streams_complete} of {self.streams}",
                f"  /readyz meanwhile: {dict(self.readyz)}"]


class Writer(threading.Thread):
    """Steps one encounter in a loop through the API nodes in turn (If-Match: the version it was answered)."""

    def __init__(self, urls: list[str], encounter: dict, report: Report, lock: threading.Lock,
                 stop: threading.Event, killed: list[float], on_victim: bool):
        super().__init__(daemon=True)
        self.urls, self.encounter, self.report, self.lock, self.stop = urls, encounter, report, lock, stop
        self.killed, self.on_victim = killed, on_victim
        self.version, self.acknowledged = 1, 1
        self.session = requests.Session()

    def run(self) -> None:
        path, auth = self.encounter["links"]["self"], {"Authorization": f"Bearer {self.encounter['token']}"}
        for turn in itertools.count():
            if self.stop.is_set():
                return
            base = self.urls[turn % len(self.urls)]
            sent = time.monotonic()
            try:
                answer = self.session.post(base + path + "/segments", json={"seed": turn, "declarations": []},
                                           headers={**auth, "If-Match": f'"{self.version}"'}, timeout=10)
                status = answer.status_code
            except requests.RequestException:
                status = 0  # no answer at all (counted; never an acknowledged write)
            self._count(status)
            if status == 201:
                self.version = self.acknowledged = int(answer.json()["version"])
                self._recovered(sent)
            elif status != 0 and status != 503 and status != 201:
                self._reread(base, path, auth)
            else:
                time.sleep(0.05)

    def _reread(self, base: str, path: str, auth: dict) -> None:
        """The stored version (412: a write answered 503 was applied after all, or an acknowledged one lost)."""
        try:
            answer = self.session.get(base + path, headers=auth, timeout=10)
        except requests.RequestException:
            return
        if answer.status_code == 200:
            self.version = int(answer.json()["version"])
            self._lost(self.acknowledged - self.version)

    def _lost(self, count: int) -> None:
        if count > 0:
            with self.lock:
                self.report.lost += count
            self.acknowledged = self.version

    def _count(self, status: int) -> None:
        with self.lock:
            self.report.statuses[status] += 1
            if status == 201:
                self.report.acknowledged += 1
            if self.killed and self.report.recovery_seconds is None and self.on_victim:
                self.report.during_switch[status] += 1
                if status != 201 and self.report.failed_at is None:
                    self.report.failed_at = time.monotonic()

    def _recovered(self, sent: float) -> None:
        """A write sent after the shard's first failure succeeded (one answered before the kill but counted
        late by a slow thread does not count)."""
        if self.killed and self.on_victim:
            with self.lock:
                failed_at = self.report.failed_at
                if self.report.recovery_seconds is None and failed_at is not None and sent > failed_at:
                    self.report.recovery_seconds = time.monotonic() - self.killed[0]


class Reader(threading.Thread):
    """One stream, reopened with Last-Event-ID whenever it closes; remembers the last `seq` it got."""

    def __init__(self, url: str, encounter: dict, stop: threading.Event):
        super().__init__(daemon=True)
        self.url, self.encounter, self.stop, self.last = url, encounter, stop, 0

    def run(self) -> None:
        path, auth = self.encounter["links"]["self"], {"Authorization": f"Bearer {self.encounter['token']}"}
        while not self.stop.is_set():
            try:
                with requests.get(self.url + path + "/stream", headers={**auth, "Last-Event-ID": str(self.last)},
                                  stream=True, timeout=5) as answer:
                    pending = b""
                    while chunk := answer.raw.read1(65536):  # whatever has arrived (iter_lines waits for more)
                        *lines, pending = (pending + chunk).split(b"\n")
                        for line in lines:
                            if line.startswith(b"id: "):
                                self.last = max(self.last, int(line[4:]))
                        if self.stop.is_set():
                            return
            except requests.RequestException:
                pass
            time.sleep(0.2)


def _probe_readiness(url: str, report: Report, stop: threading.Event) -> None:
    """What /readyz answers, every 0.25 s until `stop`."""
    while not stop.is_set():
        try:
            answer = requests.get(url + "/readyz", timeout=5)
            checks = answer.json().get("checks", {})
            report.readyz[f"{answer.status_code} {checks.get('redis')}"] += 1
        except (requests.RequestException, ValueError):
            report.readyz["no answer"] += 1
        time.sleep(0.25)


def owner(stack: Stack, encounter: dict) -> int:
    """The port of the primary serving the encounter's slot."""
    slot = key_slot(Keys.of(encounter["id"]).main.encode())
    for first, last, primary, *_ in stack.cluster.primaries()[0].client().execute_command("CLUSTER SLOTS"):
        if first <= slot <= last:
            return int(primary[1])
    raise LookupError(f"no primary serves slot {slot}")


def last_seq(url: str, auth: dict) -> int:
    """The `seq` of an encounter's last logged event (0 with none)."""
    total = _read(url + "/events?limit=1", auth)["total"]
    return _read(url + f"/events?offset={total - 1}&limit=1", auth)["events"][-1]["seq"] if total else 0


def _read(url: str, auth: dict, seconds: float = 10.0) -> dict:
    """A GET answered 200 (retried for `seconds`: a node may still be learning the new topology)."""
    deadline = time.monotonic() + seconds
    while True:
        answer = requests.get(url, headers=auth, timeout=10)
        if answer.status_code == 200 or time.monotonic() > deadline:
            assert answer.status_code == 200, (answer.status_code, answer.text[:300])
            return answer.json()
        time.sleep(0.2)


def run(stack: Stack, encounters: int = 12, readers: int = 4, warmup: float = 2.0, after: float = 8.0) -> Report:
    """Writers on `encounters`, `readers` streams on the victim's encounters, the primary of the first
    encounter killed after `warmup` s, `after` s more of writes; then the tally."""
    report, lock, stop, done_reading, killed = Report(), threading.Lock(), threading.Event(), threading.Event(), []
    made = [requests.post(stack.urls[i % 2] + "/v1/encounters", json={"combatants": [KNIGHT, BANDIT]},
                          timeout=10).json() for i in range(encounters)]
    victim = next(node for node in stack.cluster.nodes if node.port == owner(stack, made[0]))
    replica = stack.cluster.replica_of(victim)
    mine = [owner(stack, encounter) == victim.port for encounter in made]
    report.victim_encounters = sum(mine)
    writers = [Writer(stack.urls, encounter, report, lock, stop, killed, flag) for encounter, flag in zip(made, mine)]
    watched = [encounter for encounter, flag in zip(made, mine) if flag][:readers]
    streams = [Reader(stack.urls[i % 2], encounter, done_reading) for i, encounter in enumerate(watched)]
    for thread in [*writers, *streams]:
        thread.start()
    time.sleep(warmup)
    stack.cluster.kill(victim)
    killed.append(time.monotonic())
    probe = threading.Thread(target=_probe_readiness, args=(stack.urls[0], report, stop), daemon=True)
    probe.start()
    try:
        stack.cluster.wait_promoted(replica, 30)
        report.promoted_seconds = time.monotonic() - killed[0]
    except TimeoutError:
        pass
    time.sleep(max(0.0, after - (time.monotonic() - killed[0])))
    stop.set()
    for writer in writers:
        writer.join(15)
    finals = {}
    for writer, encounter in zip(writers, made):  # what stands now against what was acknowledged
        path, auth = encounter["links"]["self"], {"Authorization": f"Bearer {encounter['token']}"}
        stored = _read(stack.urls[0] + path, auth)
        finals[encounter["id"]] = last_seq(stack.urls[0] + path, auth)
        writer.version = int(stored["version"])
        writer._lost(writer.acknowledged - writer.version)
    deadline = time.monotonic() + 5  # the readers catch up with the last writes
    while time.monotonic() < deadline and any(r.last < finals[r.encounter["id"]] for r in streams):
        time.sleep(0.1)
    done_reading.set()
    report.streams = len(streams)
    report.streams_complete = sum(r.last >= finals[r.encounter["id"]] for r in streams)
    return report


def throughput(stack: Stack, seconds: float = 10.0, threads: int = 8, encounters: int = 48) -> dict[str, object]:
    """Steps a second over both API nodes (`threads` clients, each stepping its own encounters in turn), and
    how the encounters spread over the shards (by hash slot)."""
    made = [requests.post(stack.urls[i % 2] + "/v1/encounters", json={"combatants": [KNIGHT, BANDIT]},
                          timeout=10).json() for i in range(encounters)]
    spread = Counter(owner(stack, encounter) for encounter in made)
    counts: Counter = Counter()
    end = time.monotonic() + seconds

    def step(mine: list[dict]) -> None:
        session = requests.Session()
        for turn in itertools.count():
            if time.monotonic() >= end:
                return
            encounter = mine[turn % len(mine)]
            answer = session.post(stack.urls[turn % 2] + encounter["links"]["self"] + "/segments",
                                  json={"seed": turn, "declarations": []},
                                  headers={"Authorization": f"Bearer {encounter['token']}"}, timeout=10)
            counts[answer.status_code] += 1

    workers = [threading.Thread(target=step, args=(made[i::threads],)) for i in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return {"steps per second": round(counts[201] / seconds, 1), "answers": dict(counts),
            "encounters per primary": sorted(spread.values())}


def simulation_seconds(stack: Stack, trials: int = 400_000) -> float:
    """Seconds from submitting a `trials`-trial tactical duel to its result (both workers)."""
    from tests.unit.sim.conftest import fighter as sim_fighter
    from tests.unit.sim.conftest import matchup

    body = {"ruleset": "tactical", "seed": 11, "trials": trials,
            "matchup": matchup([sim_fighter("a", 55, 35, 20)], [sim_fighter("b", 55, 35, 20)])}
    started = time.monotonic()
    location = requests.post(stack.urls[0] + "/v1/simulations", json=body, timeout=30).headers["Location"]
    while requests.get(stack.urls[1] + location, timeout=10).json()["state"] not in ("done", "failed"):
        time.sleep(0.1)
    return round(time.monotonic() - started, 1)


def wait_cost(workdir: Path, writes: int = 400) -> dict[str, float]:
    """Median and p99 ms of one encounter write (a step's commit script) on the cluster, with WAIT 1 and
    without, interleaved on the same encounters."""
    from service.sessions.connection import connect
    from service.sessions.repository import RedisEncounters

    cluster = start_cluster(workdir)
    try:
        timings: dict[str, list[float]] = {"wait": [], "nowait": []}
        stores = {"wait": RedisEncounters(lambda: connect(cluster.url, "", "cluster"), 600, wait=(1, 100)),
                  "nowait": RedisEncounters(lambda: connect(cluster.url, "", "cluster"), 600)}
        made = [stores["wait"].create("tactical", {"n": 0}) for _ in range(12)]
        for n in range(writes):
            for name, store in stores.items():
                encounter, token = made[n % len(made)]
                started = time.perf_counter()
                store.update(encounter.id, token, lambda current: ({"n": n}, current.declarations))
                timings[name].append((time.perf_counter() - started) * 1000)
    finally:
        cluster.close()
    return {f"{name} {stat}": round(value, 2) for name, values in timings.items()
            for stat, value in (("p50", statistics.median(values)),
                                ("p99", statistics.quantiles(values, n=100)[98]))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--encounters", type=int, default=24)
    parser.add_argument("--seconds", type=float, default=12.0)
    options = parser.parse_args()
    for replicas in ("1", "0"):
        with tempfile.TemporaryDirectory(prefix="referee-failover-") as tmp:
            stack = start_stack(Path(tmp), REFEREE_REDIS_WAIT_REPLICAS=replicas,
                                REFEREE_READINESS_CACHE_SECONDS="0.25")  # /readyz seen within the switch
            try:
                load = throughput(stack)
                print(f"steps through 2 API nodes with REFEREE_REDIS_WAIT_REPLICAS={replicas}: {load}", flush=True)
                if replicas == "1":
                    print(f"a 400,000-trial job on 2 workers: {simulation_seconds(stack)} s", flush=True)
                report = run(stack, options.encounters, after=options.seconds)
            finally:
                stack.close()
        print("\n".join(report.lines(f"failover with REFEREE_REDIS_WAIT_REPLICAS={replicas} "
                                     f"({options.encounters} encounters, {report.victim_encounters} on the "
                                     "killed primary)")), flush=True)
    with tempfile.TemporaryDirectory(prefix="referee-wait-") as tmp:
        print("encounter write latency on the cluster, ms:", wait_cost(Path(tmp)), flush=True)


if __name__ == "__main__":
    main()
