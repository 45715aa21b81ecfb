"""Redis filled to its maxmemory through the API (issue 22): 200-combatant steps on a 16 MB Redis
(noeviction, as shipped) until it refuses. Every write then answers 503 problem+json with Retry-After, reads,
calculators and the open stream go on, no process dies or restarts, and once encounters are ended writes
succeed again."""
from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import pytest
import requests
from redis import Redis

from service.sessions.connection import embedded_server
from tests.faults.conftest import TO_HIT, UNREACHABLE_LIMIT, Loop, army
from tests.faults.sse_client import SseClient
from tests.load.stack import start_gunicorn, stop, worker_pids

pytestmark = pytest.mark.slow


@pytest.fixture()
def small_redis_stack(tmp_path):
    redis_url, stop_redis = embedded_server(str(tmp_path / "redis.db"), ("16mb", "noeviction"))
    web, url = start_gunicorn(redis_url, tmp_path / "gunicorn.log", **UNREACHABLE_LIMIT)
    yield web, url, Redis.from_url(redis_url), tmp_path / "gunicorn.log"
    stop(web)
    stop_redis()


def test_a_full_redis_answers_503_kills_nothing_and_recovers(small_redis_stack):
    web, url, redis, log = small_redis_stack
    workers = _workers(web.pid, 2)
    combatants, declarations = army(200)
    encounters = [_create(url, combatants) for _ in range(3)]
    (first, first_auth), others = encounters[0], encounters[1:]
    stream = SseClient(first, first_auth["Authorization"].split()[1], since=0)
    assert stream.status == 200
    calculators = requests.Session()
    with Loop(lambda: calculators.post(url + "/v1/tactical/to-hit", json=TO_HIT, timeout=15).status_code) as calc:
        answers, last_seq = [], 0
        for turn in range(60):  # about 1.2 MB a step (log + undo snapshot): 16 MB is full well before
            encounter, auth = encounters[turn % 3]
            answer = _segment(encounter, auth, declarations)
            answers.append(answer.status_code)
            if answer.status_code != 201:
                break
            if encounter == first:
                last_seq = answer.json()["events"][-1]["seq"]
        assert answer.status_code == 503, answer.text
        small = 0  # a big write is refused while smaller ones still fit: fill up with small encounters
        while (created := _post(url, combatants[:20])).status_code == 201 and small < 2000:
            small += 1
        for refused in (answer, created):  # (at the bound, small writes pass or fail as buffers come and go)
            assert refused.status_code == 503, refused.text
            assert refused.headers["Content-Type"] == "application/problem+json"
            assert refused.headers["Retry-After"] == "30"
        info = redis.info("memory")
        assert info["used_memory"] <= info["maxmemory"] * 1.05  # the bound holds (noeviction refuses writes)

        assert _segment(first, first_auth, declarations).status_code == 503  # refused again, nothing applied
        assert requests.get(first, headers=first_auth, timeout=10).status_code == 200  # reads go on
        page = requests.get(first + "/events?limit=5", headers=first_auth, timeout=10)
        assert page.status_code == 200 and page.json()["total"] > 0, page.text
        assert stream.read_until(last_seq, 60)  # the open stream got every step that was stored

        for encounter, auth in others:  # ending encounters needs no memory, and frees it
            assert requests.delete(encounter, headers=auth, timeout=10).status_code == 200  # the final audit
        recovered = _segment(first, first_auth, declarations[:20])  # a smaller step: the audit keeps each state
        assert recovered.status_code == 201, recovered.text
        assert stream.read_until(recovered.json()["events"][-1]["seq"], 60)
    stream.close()
    assert set(Counter(outcome for _, outcome in calc.outcomes)) == {200}  # calculators never noticed
    assert web.poll() is None and sorted(worker_pids(web.pid)) == workers  # no process died or restarted
    assert redis.ping()
    text = Path(log).read_text()
    assert "Traceback" not in text and "WORKER TIMEOUT" not in text
    print(f"\n{answers.count(201)} big steps and {small} small encounters stored before Redis refused; "
          f"{len(calc.outcomes)} to-hit calls, all 200")


def _post(url: str, combatants: list[dict]) -> requests.Response:
    return requests.post(url + "/v1/encounters", json={"combatants": combatants}, timeout=30)


def _create(url: str, combatants: list[dict]) -> tuple[str, dict]:
    answer = _post(url, combatants)
    assert answer.status_code == 201, answer.text
    body = answer.json()
    return url + body["links"]["self"], {"Authorization": f"Bearer {body['token']}"}


def _segment(encounter: str, auth: dict, declarations: list[dict]) -> requests.Response:
    return requests.post(encounter + "/segments", json={"seed": 7, "declarations": declarations}, headers=auth,
                         timeout=60)


def _workers(master: int, count: int) -> list[int]:
    """The master's `count` workers, once all have started."""
    deadline = time.monotonic() + 30
    while len(found := sorted(worker_pids(master))) < count and time.monotonic() < deadline:
        time.sleep(0.1)
    return found
