"""Open event streams cost no request threads under gunicorn as deploy/ runs it (issue 11, item 1).

One worker with two threads: on plain gthread, two open streams took both threads and a third request
(here /healthz and a calculator) waited until a stream ended. With StreamWorker the streams are written
by the worker's hub, so 40 of them leave every thread to the API, and each still gets every event.
"""
from __future__ import annotations

import threading
import time

import pytest
import requests

from service.sessions.connection import embedded_server
from tests.load.stack import start_gunicorn, stop
from tests.unit.sessions.conftest import KNIGHT, fighter

STREAMS = 40
BANDIT = fighter("bandit-1", position={"x": 1, "y": 0}, facing=180)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("streams")
    redis_url, stop_redis = embedded_server(str(tmp / "redis.db"))
    web, url = start_gunicorn(redis_url, tmp / "gunicorn.log", GUNICORN_WORKERS="1", GUNICORN_THREADS="2",
                              GUNICORN_WORKER_CONNECTIONS="8", REFEREE_RATE_LIMIT="off",
                              REFEREE_SSE_MAX_SECONDS="30", REFEREE_SSE_HEARTBEAT_SECONDS="1",
                              REFEREE_STREAMS_PER_CLIENT="100", REFEREE_STREAMS_PER_ENCOUNTER="3")
    yield url
    stop(web)
    stop_redis()


def new_encounter(url: str) -> tuple[str, dict]:
    body = requests.post(url + "/v1/encounters", json={"combatants": [KNIGHT, BANDIT]}, timeout=10).json()
    return url + body["links"]["self"], {"Authorization": f"Bearer {body['token']}"}


class Listener(threading.Thread):
    """One open stream, recording what it receives."""

    def __init__(self, url: str, auth: dict, last_event_id: int | None = None):
        super().__init__(daemon=True)
        self.url, self.headers, self.text, self.status = url, dict(auth), "", None
        if last_event_id is not None:
            self.headers["Last-Event-ID"] = str(last_event_id)
        self.opened = threading.Event()

    def run(self) -> None:
        try:
            with requests.get(self.url + "/stream", headers=self.headers, stream=True, timeout=30) as response:
                self.status = response.status_code
                self.opened.set()
                while chunk := response.raw.read1(65536):  # whatever has arrived, not a fixed amount
                    self.text += chunk.decode()
        except requests.RequestException:
            pass
        finally:
            self.opened.set()


def test_open_streams_take_no_thread_from_the_api_and_all_get_every_event(server):
    encounters = [new_encounter(server) for _ in range(STREAMS // 2)]
    listeners = [Listener(url, auth) for url, auth in encounters for _ in range(2)]
    for listener in listeners:
        listener.start()
    for listener in listeners:
        assert listener.opened.wait(10)
    assert {listener.status for listener in listeners} == {200}
    started = time.monotonic()
    assert requests.get(server + "/healthz", timeout=5).status_code == 200
    assert requests.post(server + "/v1/tactical/to-hit", json={"av": 60, "dv": 45}, timeout=5).status_code == 200
    assert time.monotonic() - started < 1.0
    sent = {}
    for url, auth in encounters:
        sent[url] = requests.post(url + "/segments", json={"seed": 4}, headers=auth, timeout=10).json()["events"]
        assert requests.post(url + "/undo", headers=auth, timeout=10).status_code == 200
        assert requests.delete(url, headers=auth, timeout=10).status_code == 200
    for listener in listeners:
        listener.join(10)
        assert not listener.is_alive()  # the end event closed it
        seqs = [int(line[4:]) for line in listener.text.splitlines() if line.startswith("id: ")]
        assert seqs == [e["seq"] for e in sent[listener.url]] + [len(sent[listener.url]) + 1]
        assert "event: undo" in listener.text and listener.text.endswith('event: end\ndata: {"type": "end"}\n\n')


def test_a_stream_resumes_after_last_event_id_from_the_log(server):
    url, auth = new_encounter(server)
    events = requests.post(url + "/segments", json={"seed": 9}, headers=auth, timeout=10).json()["events"]
    listener = Listener(url, auth, last_event_id=events[0]["seq"])
    listener.start()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and f"id: {events[-1]['seq']}\n" not in listener.text:
        time.sleep(0.05)
    seqs = [int(line[4:]) for line in listener.text.splitlines() if line.startswith("id: ")]
    assert seqs == [e["seq"] for e in events[1:]]
    requests.delete(url, headers=auth, timeout=10)
    listener.join(10)


def test_streams_past_the_encounter_cap_get_429_problem_json(server):
    url, auth = new_encounter(server)
    listeners = [Listener(url, auth) for _ in range(3)]
    for listener in listeners:
        listener.start()
        assert listener.opened.wait(10) and listener.status == 200
    refused = requests.get(url + "/stream", headers=auth, timeout=10)
    assert refused.status_code == 429 and refused.headers["Content-Type"] == "application/problem+json"
    assert "3 open event streams" in refused.json()["detail"] and refused.headers["Retry-After"]
    requests.delete(url, headers=auth, timeout=10)
    for listener in listeners:
        listener.join(10)
    again = Listener(*new_encounter(server))  # closed streams give their places back
    again.start()
    assert again.opened.wait(10) and again.status == 200


def test_head_of_a_stream_answers_at_once_without_a_body(server):
    url, auth = new_encounter(server)
    started = time.monotonic()
    response = requests.head(url + "/stream", headers=auth, timeout=5)
    assert (response.status_code, response.headers["Content-Type"].split(";")[0]) == (200, "text/event-stream")
    assert time.monotonic() - started < 2


SIMULATION = {"trials": 100, "matchup": {"sides": [
    {"name": "a", "combatants": [fighter("a", side="a")]}, {"name": "b", "combatants": [fighter("b", side="b")]}]}}


def test_simulation_progress_streams_take_no_thread_either(server):
    import socket
    from urllib.parse import urlsplit

    parts, clients = urlsplit(server), []
    for _ in range(3):  # no Celery worker here: each job stays queued and its streams keep polling it
        created = requests.post(server + "/v1/simulations", json=SIMULATION, timeout=30)
        assert created.status_code == 202, created.text
        for _ in range(3):  # the per-encounter cap (3 in this fixture) applies per job
            client = socket.create_connection((parts.hostname, parts.port), timeout=10)
            client.sendall(f"GET {created.json()['links']['stream']} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            clients.append(client)
    for client in clients:
        received = b""
        while b"event: progress" not in received and (chunk := client.recv(4096)):
            received += chunk
        assert received.startswith(b"HTTP/1.1 200") and b"event: progress" in received
    started = time.monotonic()
    assert requests.get(server + "/healthz", timeout=5).status_code == 200
    assert requests.post(server + "/v1/tactical/to-hit", json={"av": 60, "dv": 45}, timeout=5).status_code == 200
    assert time.monotonic() - started < 1.0
    for client in clients:
        client.close()
