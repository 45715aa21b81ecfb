"""deploy/'s proxy (nginx with deploy/nginx/nginx.conf, Debian's package) in front of gunicorn, as
deploy/ runs it (issue 22 item 4).

Slowloris: 200 connections that send a header line every 2 s, kept at 200 (one the proxy cuts is opened
again), beside /healthz probes on fresh connections, as a kubelet sends them. Through the proxy every probe
answers within 100 ms; straight at gunicorn, for comparison, the slow clients hold every thread and the
probes wait. Also: event streams pass through as they are written, a body over the service's limit is
refused by the proxy as problem+json, and a forged X-Forwarded-For never becomes the client's address."""
from __future__ import annotations

import http.client
import socket
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import pytest
import requests

from tests.faults.conftest import ATTACKS, new_encounter
from tests.load.stack import NGINX, start_nginx, start_stack, stop

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(NGINX is None, reason="nginx is not installed (Debian: apt-get install nginx)")]
SLOW_CLIENTS = 200
LINE_EVERY = 2.0


@dataclass
class Slowloris:
    """`count` connections to `url` that never finish their request header: one header line per connection
    every `every` seconds; a connection the server closes is opened again, so `count` stay open."""

    url: str
    count: int
    every: float = LINE_EVERY
    reopened: int = 0
    sockets: list = field(default_factory=list)
    stopping: threading.Event = field(default_factory=threading.Event)

    def _open(self) -> socket.socket:
        parts = urlsplit(self.url)
        sock = socket.create_connection((parts.hostname, parts.port), timeout=2)
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: referee\r\n")
        return sock

    def _trickle(self) -> None:
        while not self.stopping.wait(self.every):
            for index, sock in enumerate(self.sockets):
                try:
                    sock.sendall(b"X-Slow: 1\r\n")
                except OSError:
                    sock.close()
                    self.sockets[index] = self._open()
                    self.reopened += 1

    @contextmanager
    def running(self):
        self.sockets = [self._open() for _ in range(self.count)]
        thread = threading.Thread(target=self._trickle, daemon=True)
        thread.start()
        try:
            time.sleep(0.5)
            yield self
        finally:
            self.stopping.set()
            thread.join(10)
            for sock in self.sockets:
                sock.close()


def probe(url: str, timeout: float) -> float | None:
    """Seconds one GET /healthz took on a new connection, or None if it failed or took over `timeout`."""
    parts = urlsplit(url)
    started = time.perf_counter()
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    try:
        connection.request("GET", "/healthz")
        if connection.getresponse().status != 200:
            return None
    except OSError:
        return None
    finally:
        connection.close()
    return time.perf_counter() - started


def probes(url: str, count: int, timeout: float, pause: float = 0.1) -> list[float | None]:
    found = []
    for _ in range(count):
        found.append(probe(url, timeout))
        time.sleep(pause)
    return found


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    """gunicorn as deploy/ runs it behind the proxy: one trusted X-Forwarded-For hop, an IP rate limit
    counted exactly (under 10,000 a window), two workers of four threads."""
    running = start_stack(tmp_path_factory.mktemp("proxy"), worker=False, GUNICORN_WORKERS="2",
                          REFEREE_PROXY_HOPS="1", REFEREE_IP_RATE_LIMIT="5000/minute")
    yield running
    running.close()


@pytest.fixture(scope="module")
def proxy(stack, tmp_path_factory):
    process, url = start_nginx(tmp_path_factory.mktemp("nginx"), stack.url)
    yield url
    stop(process)


def test_healthz_through_the_proxy_answers_within_100_ms_beside_200_slow_header_clients(proxy):
    with Slowloris(proxy, SLOW_CLIENTS).running() as attack:
        seen = probes(proxy, 100, timeout=2)  # about 12 s: past the proxy's 10 s header timeout
        assert len(attack.sockets) == SLOW_CLIENTS
    assert None not in seen, seen
    seconds = sorted(seen)
    p99 = seconds[int(0.99 * (len(seconds) - 1))]
    print(f"\nthrough nginx, {SLOW_CLIENTS} slow-header clients: /healthz p50 {seconds[len(seconds) // 2] * 1000:.1f} ms, "
          f"p99 {p99 * 1000:.1f} ms, max {seconds[-1] * 1000:.1f} ms over {len(seen)} probes; {attack.reopened} "
          "slow connections cut by the proxy and reopened")
    assert p99 < 0.1, seconds


def test_an_event_stream_passes_through_as_it_is_written(proxy):
    encounter, auth = new_encounter(proxy)
    with requests.get(encounter + "/stream", headers={**auth, "Accept": "text/event-stream"}, stream=True,
                      timeout=10) as stream:
        assert stream.status_code == 200 and stream.headers["Content-Type"].startswith("text/event-stream")
        answer = requests.post(encounter + "/segments", json={"seed": 3, "declarations": ATTACKS}, headers=auth,
                               timeout=10)
        assert answer.status_code == 201, answer.text
        last, started, seen = answer.json()["events"][-1]["seq"], time.monotonic(), []
        for line in stream.iter_lines():
            if line.startswith(b"id: "):
                seen.append(int(line[4:]))
                if seen[-1] == last:
                    break
        assert seen[-1] == last and time.monotonic() - started < 5  # live, not held until the stream ends


def test_a_body_over_the_service_limit_is_refused_by_the_proxy_as_problem_json(proxy):
    answer = requests.post(proxy + "/v1/tactical/to-hit", data=b"{" + b" " * 262_144 + b"}",
                           headers={"Content-Type": "application/json"}, timeout=10)
    assert answer.status_code == 413 and answer.headers["Content-Type"] == "application/problem+json"
    assert answer.json()["status"] == 413
    fits = requests.post(proxy + "/v1/tactical/to-hit", data=b'{"av": 60, "dv": 45}' + b" " * 262_000,
                         headers={"Content-Type": "application/json"}, timeout=10)
    assert fits.status_code == 200, fits.text


def remaining(url: str, **headers: str) -> int:
    answer = requests.post(url + "/v1/tactical/to-hit", json={"av": 60, "dv": 45}, headers=headers, timeout=10)
    assert answer.status_code == 200, answer.text
    return int(answer.headers["RateLimit-Remaining"])


def test_a_forged_x_forwarded_for_is_not_the_client_address(proxy, stack):
    """The proxy appends the address it sees; with one trusted hop the service (rate limits, per-client caps,
    logs) takes that last entry, so a client naming another address still counts as itself."""
    for _ in range(3):  # the rate-limit window is fixed: tried again if it turned over in between
        counts = [remaining(proxy), remaining(proxy, **{"X-Forwarded-For": "203.0.113.9"}), remaining(proxy)]
        if counts == sorted(counts, reverse=True):
            break
    assert counts == [counts[0], counts[0] - 1, counts[0] - 2]  # one window: the sender's own
    assert remaining(stack.url, **{"X-Forwarded-For": "198.51.100.7"}) == 4999  # what the proxy prevents


def test_straight_at_gunicorn_the_same_clients_hold_every_thread(stack):
    """Informational: what the proxy prevents (gunicorn reads a header on one of its threads, for as long
    as the client takes)."""
    with Slowloris(stack.url, SLOW_CLIENTS).running():
        seen = probes(stack.url, 5, timeout=1, pause=0.2)
    answered = [s for s in seen if s is not None]
    print(f"\nstraight at gunicorn (2 workers x 4 threads), {SLOW_CLIENTS} slow-header clients: "
          f"{len(answered)} of {len(seen)} /healthz probes answered within 1 s")
