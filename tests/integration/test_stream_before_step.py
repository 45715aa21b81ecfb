"""A stream opened the README's way right before a step never misses that step (issue 24, item 4).

The README backgrounds `curl -N .../stream?token=...` and resolves a step at once: which of the two the
server handles first depends on how soon the background curl starts. Before the default was "replay the
log from its start", the step often won (its events were logged before the stream read where the log
stood) and the stream never sent them. Here, for every ruleset, 20 tries each: the stream is opened from
another thread 0-38 ms after the step's request leaves (as a background process starts), so the two
arrive in either order; the stream must then deliver every event of that step, in order.
"""
from __future__ import annotations

import socket
import threading
import time
from urllib.parse import urlsplit

import pytest
import requests

from service.sessions.connection import embedded_server
from tests.load.stack import start_gunicorn, stop
from tests.unit.api.test_encounter_steps import ENCOUNTERS

TRIES = 20


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("stream-race")
    redis_url, stop_redis = embedded_server(str(tmp / "redis.db"))
    web, url = start_gunicorn(redis_url, tmp / "gunicorn.log", GUNICORN_WORKERS="1", GUNICORN_THREADS="4",
                              REFEREE_RATE_LIMIT="off", REFEREE_SSE_MAX_SECONDS="30",
                              REFEREE_STREAMS_PER_CLIENT="200")
    yield url
    stop(web)
    stop_redis()


def open_stream_like_curl(server: str, path: str, token: str) -> socket.socket:
    """`curl -s -N "$B/v1/encounters/$ID/stream?token=$TOKEN" &`: the request is sent, nothing is awaited."""
    parts = urlsplit(server)
    sock = socket.create_connection((parts.hostname, parts.port), timeout=10)
    sock.sendall(f"GET {path}/stream?token={token} HTTP/1.1\r\nHost: x\r\nAccept: */*\r\n\r\n".encode())
    return sock


def read_until(sock: socket.socket, marker: bytes, seconds: float = 3.0) -> bytes:
    """What the stream sent until `marker` arrived (or `seconds` passed)."""
    received, deadline = b"", time.monotonic() + seconds
    while marker not in received and time.monotonic() < deadline:
        sock.settimeout(max(deadline - time.monotonic(), 0.01))
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            break
        if not chunk:
            break
        received += chunk
    return received


@pytest.mark.parametrize("ruleset", sorted(ENCOUNTERS))
def test_a_stream_opened_right_before_a_step_gets_that_steps_events_every_time(server, ruleset):
    delivered = 0
    for attempt in range(TRIES):
        created = requests.post(server + "/v1/encounters", json={"ruleset": ruleset, **ENCOUNTERS[ruleset]},
                                timeout=10).json()
        path, token = created["links"]["self"], created["token"]
        auth = {"Authorization": f"Bearer {token}"}
        opened: list[socket.socket] = []
        background = threading.Timer(attempt % 5 * 0.0095, lambda: opened.append(
            open_stream_like_curl(server, path, token)))
        background.start()
        step = requests.post(server + path + "/segments", json={"seed": attempt, "declarations": []},
                             headers=auth, timeout=10)
        background.join(10)
        assert step.status_code == 201, step.text
        events = step.json()["events"]
        try:
            text = read_until(opened[0], f"id: {events[-1]['seq']}\n".encode()).decode()
        finally:
            opened[0].close()
        seqs = [int(line[4:]) for line in text.splitlines() if line.startswith("id: ")]
        delivered += seqs == [event["seq"] for event in events]
        requests.delete(server + path, headers=auth, timeout=10)
    assert delivered == TRIES
