"""Nothing the service sends to Redis spans two hash slots, so all of it runs on a Redis Cluster (issue 26).

Two checks. Statically: every Lua script under service/ names each key it touches as `KEYS[...]` (a
cluster routes a script by its declared keys; one that builds a key name from ARGV works on one Redis and
fails, or works by luck of placement, on a cluster). Dynamically: a workload of every store (encounters
through the API with API keys, rate limits, the encounter cap and a stream; simulation jobs through
submit, chunks, the sweeper, the job cap and cancel) runs on a real Redis recorded with MONITOR, and every
command, every MULTI/EXEC block and every script is checked: one slot each, and a script's own calls
stay on its declared keys' slot.
"""
from __future__ import annotations

import ast
import re
import socket
import threading
import time
from pathlib import Path

import pytest
from redis import Redis
from redis.crc import key_slot
from redis.exceptions import ResponseError

from service.api.http.auth import create_key
from service.app import create_app
from service.jobs import submit
from service.jobs.celery_app import make_celery
from service.jobs.store import Caps, JobStore, OverCap
from service.jobs.tasks import merge_job, requeue_lost
from service.sessions.connection import connect, embedded_server
from tests.cluster.nodes import missing, start_cluster
from tests.app_config import isolated_config
from tests.unit.sessions.conftest import KNIGHT, fighter
from tests.unit.sim.conftest import fighter as sim_fighter
from tests.unit.sim.conftest import matchup

DUEL = matchup([sim_fighter("a", 55, 35, 20)], [sim_fighter("b", 55, 35, 20)])
SERVICE = Path(__file__).resolve().parents[2] / "service"
KEY = re.compile(r"^KEYS\[[\w\s+-]+\]$")
ALL_KEYS = {"DEL", "EXISTS", "UNLINK", "MGET", "TOUCH", "SUNION", "SINTER", "SDIFF", "RENAME"}
NO_KEY = {"TIME", "PING", "ECHO"}


def scripts() -> dict[str, str]:
    """Every string constant under service/ that is a Lua script, by where it is."""
    found = {}
    for path in SERVICE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and "redis.call(" in node.value:
                found[f"{path.relative_to(SERVICE)}:{node.lineno}"] = node.value
    return found


def arguments(text: str) -> list[str]:
    """The top-level comma-separated arguments of a Lua call's argument text."""
    parts, depth, current = [], 0, ""
    for char in text:
        depth += char in "([{"
        depth -= char in ")]}"
        if char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += char
    return [*parts, current.strip()] if current.strip() else parts


def undeclared(script: str) -> list[str]:
    """The calls of `script` whose key (or channel) is not a KEYS[...] entry."""
    bad = []
    for line in script.splitlines():
        for command, rest in re.findall(r"redis\.p?call\(\s*'(\w+)'\s*,?(.*)", line):
            command = command.upper()
            args = arguments(rest[: _closing(rest)])
            if command in NO_KEY or not args:
                continue
            checked = args if command in ALL_KEYS else args[:1]
            bad += [f"{command} {arg}" for arg in checked if not KEY.match(arg)]
    return bad


def _closing(text: str) -> int:
    depth = 0
    for index, char in enumerate(text):
        depth += char == "("
        if char == ")":
            if depth == 0:
                return index
            depth -= 1
    return len(text)


# Scripts that build key names from a prefix argument: the job queue's, whose every key carries the `{jobs}`
# hash tag (service.sessions.keys.JOBS), so what they build is on their declared keys' slot (the recorded
# workload below checks that: a cluster refuses a script that touches another slot).
BUILDS_KEYS_FROM_THE_JOB_PREFIX = "jobs/lua.py"


def test_every_script_touches_only_the_keys_it_declares():
    found = scripts()
    assert len(found) >= 6  # the encounter commit and delete, the job scripts, stream admission
    bad = {where: undeclared(source) for where, source in found.items()
           if undeclared(source) and not where.startswith(BUILDS_KEYS_FROM_THE_JOB_PREFIX)}
    assert bad == {}


def test_the_scanner_catches_a_key_built_from_argv():
    assert undeclared("redis.call('EXISTS', ARGV[1] .. index)") == ["EXISTS ARGV[1] .. index"]
    assert undeclared("redis.call('DEL', KEYS[1], ARGV[2])") == ["DEL ARGV[2]"]
    assert undeclared("redis.call('HSET', KEYS[1], unpack(ARGV, 2))") == []


# --- the recorded workload -----------------------------------------------------------------------------
class Recorder(threading.Thread):
    """MONITOR on its own connection: every command the server runs, as (client, [args])."""

    def __init__(self, host: str, port: int):
        super().__init__(daemon=True)
        self.sock = socket.create_connection((host, port))
        self.sock.sendall(b"MONITOR\r\n")
        self.lines: list[tuple[str, list[bytes]]] = []
        self.ready = threading.Event()

    def run(self) -> None:
        buffer = b""
        while True:
            try:
                data = self.sock.recv(65536)
            except OSError:
                return
            if not data:
                return
            buffer += data
            *complete, buffer = buffer.split(b"\r\n")
            for line in complete:
                if line == b"+OK":
                    self.ready.set()
                elif line.startswith(b"+"):
                    self.lines.append(parse_monitor(line[1:]))

    def stop(self) -> None:
        self.sock.close()


def parse_monitor(line: bytes) -> tuple[str, list[bytes]]:
    """`1.2 [0 127.0.0.1:5] "SET" "k" "v"` -> ("127.0.0.1:5", [b"SET", b"k", b"v"]); "lua" for a script's calls."""
    head, _, rest = line.partition(b"] ")
    client = head.rpartition(b" ")[2].decode()
    args, position = [], 0
    while position < len(rest):
        if rest[position:position + 1] != b'"':
            position += 1
            continue
        out, position = bytearray(), position + 1
        while rest[position:position + 1] != b'"':
            if rest[position:position + 1] == b"\\":
                nxt = rest[position + 1:position + 2]
                if nxt == b"x":
                    out.append(int(rest[position + 2:position + 4], 16))
                    position += 4
                    continue
                out += {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"a": b"\a", b"b": b"\b"}.get(nxt, nxt)
                position += 2
                continue
            out += rest[position:position + 1]
            position += 1
        args.append(bytes(out))
        position += 1
    return client, args


def keys_of(redis: Redis, args: list[bytes]) -> list[bytes]:
    """The keys of one command as the server finds them (and a published channel)."""
    if args[0].upper() in {b"PUBLISH", b"SPUBLISH"}:
        return [args[1]]
    try:
        return [key if isinstance(key, bytes) else key.encode() for key in redis.command_getkeys(*args)]
    except ResponseError:
        return []


def slots(keys: list[bytes]) -> set[int]:
    return {key_slot(key) for key in keys}


def check(redis: Redis, recorded: list[tuple[str, list[bytes]]]) -> list[str]:
    """What a cluster would refuse, or run only by luck, in the recorded commands."""
    problems: list[str] = []
    declared: list[bytes] | None = None
    transactions: dict[str, list[bytes]] = {}
    for client, args in recorded:
        name = args[0].upper()
        if client == "lua":
            keys = keys_of(redis, args)
            stray = [key for key in keys if declared is None or slots([key]) - slots(declared)]
            if stray:
                problems.append(f"a script's {name.decode()} touches {stray}, off its declared keys' slot")
            continue
        if name == b"MULTI":
            transactions[client] = []
            continue
        if name in {b"EXEC", b"DISCARD"}:
            block = transactions.pop(client, [])
            if len(slots(block)) > 1:
                problems.append(f"a MULTI/EXEC block spans slots: {block}")
            continue
        keys = keys_of(redis, args)
        declared = keys if name in {b"EVAL", b"EVALSHA"} else declared
        if len(slots(keys)) > 1:
            problems.append(f"{name.decode()} spans slots: {keys}")
        if client in transactions:
            transactions[client] += keys
    return problems


def play_encounters(app, key: str) -> None:
    """Every encounter operation, the encounter cap's pruning and a stream, through the API."""
    client, headers = app.test_client(), {"X-API-Key": key}
    made = [client.post("/v1/encounters", headers=headers,
                        json={"combatants": [KNIGHT, fighter("bandit-1", position={"x": 1, "y": 0})]}).json
            for _ in range(2)]
    for body in made:
        assert "token" in body, body
    auth = {**headers, "Authorization": f"Bearer {made[0]['token']}"}
    path = made[0]["links"]["self"]
    assert client.put(path + "/declarations", headers=auth, json={"declarations": [
        {"combatant": "knight", "action": "attack", "target": "bandit-1"}]}).status_code == 200
    assert client.post(path + "/segments", headers=auth, json={"seed": 3}).status_code == 201
    assert client.post(path + "/combatants", headers=auth, json=fighter("bandit-2")).status_code == 201
    assert client.put(path + "/combatants/bandit-2", headers=auth,
                      json=fighter("bandit-2", dodge_dv=25)).status_code == 200
    assert client.delete(path + "/combatants/bandit-2", headers=auth).status_code in (200, 204)
    assert client.get(path + "/events", headers=auth).status_code == 200
    assert client.put(path + "/dice", headers=auth, json={"client_seed": "ours"}).status_code in (200, 409)
    assert client.post(path + "/dice/reveal", headers=auth).status_code == 200
    assert client.get(path + "/audit", headers=auth).status_code == 200
    assert client.post(path + "/segments", headers=auth, json={"seed": 4}).status_code == 201
    assert client.post(path + "/undo", headers=auth).status_code == 200
    stream = client.get(path + "/stream", headers={**auth, "Last-Event-ID": "0"})
    assert b"event:" in stream.data  # the stream caught up from the log, then ended after its 1 s
    assert client.get(path, headers=auth).status_code == 200
    assert client.delete(path, headers=auth).status_code == 200
    other = made[1]
    extra = client.post("/v1/encounters", headers=headers, json={"combatants": [KNIGHT]})
    assert extra.status_code == 201  # the cap (2) pruned the deleted encounter first
    over = client.post("/v1/encounters", headers=headers, json={"combatants": [KNIGHT]})
    assert over.status_code == 429
    client.delete(other["links"]["self"], headers={**headers, "Authorization": f"Bearer {other['token']}"})


def play_jobs(redis_url: str, broker_url: str, mode: str = "single") -> None:
    """Submit (to the job cap, which prunes), take chunks fairly, save, a lost chunk queued again, a chunk
    handed back, merge, finish, delete, and the older claim path."""
    celery = make_celery(redis_url, lease_seconds=1, broker_url=broker_url, redis_mode=mode)
    store, caps = JobStore(connect(redis_url, "", mode), ttl=60), Caps(jobs=2)
    jobs = [submit.submit(celery, store, DUEL, 200, seed=1, chunk_size=100, client="c", caps=caps)
            for _ in range(2)]
    with pytest.raises(OverCap):
        submit.submit(celery, store, DUEL, 200, seed=1, chunk_size=100, client="c", caps=caps)
    job_id, index, _ = store.take(1)
    store.renew(job_id, index, 1)
    assert store.save(job_id, index, 100, {"trials": 100})[0] == 1
    store.release(job_id, index)
    lost = store.take(1)  # its worker "dies": the lease lapses and the sweep queues the chunk again
    time.sleep(1.1)
    assert lost[:2] in requeue_lost(celery, store)
    assert store.queued() and store.is_done(job_id, index) and store.chunks_done(job_id) == 1
    assert store.parts(job_id, 2)[index] == {"trials": 100}
    again = store.take(1)  # a stopping worker gives it back at once
    assert store.hand_back(again[0], again[1], "c") and store.take(1)[:2] == again[:2]
    store.claim(job_id, 1 - index, 1)
    store.finish(job_id, "failed", error="recorded")
    assert merge_job(store, job_id) == "failed" and store.state(job_id) == "failed"
    store.delete(store.get(jobs[1]["id"]))
    assert submit.submit(celery, store, DUEL, 100, seed=2, client="c", caps=caps)["state"] == "queued"


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    """A Redis for the stores and a Redis for the Celery broker (whose commands are not the stores')."""
    tmp = tmp_path_factory.mktemp("slots")
    redis_url, stop = embedded_server(str(tmp / "store.db"))
    broker_url, stop_broker = embedded_server(str(tmp / "broker.db"))
    yield redis_url, broker_url
    stop_broker()
    stop()


def test_no_command_script_or_transaction_spans_two_slots(servers):
    redis_url, broker_url = servers
    redis = Redis.from_url(redis_url)
    where = redis.connection_pool.connection_kwargs
    recorder = Recorder(where["host"], where["port"])
    try:
        recorder.start()
        assert recorder.ready.wait(5)
        key = create_key(redis, "acme")
        app = create_app(isolated_config(redis_url=redis_url, api_keys_required=True, limits_in_testing=True,
                                         rate_limit="1000/minute", max_encounters_per_client=2,
                                         sse_max_seconds=1))
        play_encounters(app, key)
        play_jobs(redis_url, broker_url)
        time.sleep(0.2)
    finally:
        recorder.stop()
    recorded = list(recorder.lines)
    commands = {args[0].upper() for _, args in recorded}
    assert {b"EVALSHA", b"MULTI", b"INCRBY", b"ZADD", b"HGET", b"SUBSCRIBE", b"MGET"} <= commands, commands
    assert check(redis, recorded) == []


def test_the_checker_catches_what_a_cluster_would_refuse(servers):
    recorded = [("c", [b"MULTI"]), ("c", [b"SET", b"{a}x", b"1"]), ("c", [b"SET", b"{b}y", b"1"]), ("c", [b"EXEC"]),
                ("c", [b"EVALSHA", b"0" * 40, b"1", b"{a}x"]), ("lua", [b"GET", b"{a}y"]), ("lua", [b"GET", b"{b}y"]),
                ("c", [b"MGET", b"{a}x", b"{b}x"]), ("c", [b"SET", b"{a}x", b"2"])]
    problems = check(Redis.from_url(servers[0]), recorded)
    assert [problem.split(" ")[0] for problem in problems] == ["a", "a", "MGET"], problems


# --- the same workload on a real Redis Cluster --------------------------------------------------------------
@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    reason = missing()
    if reason:
        pytest.skip(reason)
    cluster = start_cluster(tmp_path_factory.mktemp("cluster"))
    yield cluster
    cluster.close()


def test_on_a_cluster_every_command_stays_on_one_slot_and_streams_use_sharded_pub_sub(cluster):
    """A cluster refuses what spans slots, so the workload passing is proof in itself; each primary's MONITOR
    also shows writes followed by WAIT and messages sent with SPUBLISH to SSUBSCRIBEd connections."""
    recorders = [Recorder("127.0.0.1", node.port) for node in cluster.primaries()]
    try:
        for recorder in recorders:
            recorder.start()
            assert recorder.ready.wait(5)
        key = create_key(connect(cluster.url, "", "cluster"), "acme")
        app = create_app(isolated_config(redis_url=cluster.url, redis_mode="cluster", broker_url=cluster.broker_url,
                                         api_keys_required=True, limits_in_testing=True, rate_limit="1000/minute",
                                         max_encounters_per_client=2, sse_max_seconds=1))
        play_encounters(app, key)
        play_jobs(cluster.url, cluster.broker_url, "cluster")
        time.sleep(0.2)
    finally:
        for recorder in recorders:
            recorder.stop()
    commands = set()
    for recorder, node in zip(recorders, cluster.primaries()):
        assert check(node.client(), list(recorder.lines)) == []
        commands |= {args[0].upper() for _, args in recorder.lines}
    assert {b"EVALSHA", b"WAIT", b"SPUBLISH", b"SSUBSCRIBE", b"MULTI"} <= commands, commands
    assert not {b"PUBLISH", b"SUBSCRIBE"} & commands
