"""The service on a real Redis Cluster (issue 26): 3 primaries + 3 replicas, a plain Redis broker, two API
nodes (gunicorn, StreamWorker) and two Celery workers, all on 127.0.0.1 (tests/cluster/nodes.py).

The encounter and simulation tests that run on one Redis run here unchanged, their requests alternating
between the two API nodes (tests/cluster/client.py): every ruleset's steps and undo, each ruleset's own
encounter test, readers beside a writer, the streams under gunicorn, a stream opened right before a step,
the smoting simulations. Then what only a cluster has: a stream on node A fed by steps written through node
B (sharded pub/sub), If-Match races over both nodes, a 400,000-trial job over both workers, /readyz on the
cluster's state, the worker refusing a cluster broker, and a primary killed under writes and streams
(the longer measurement is `make cluster-test`). Skipped, saying why, without redis-server 7+ and
redis-tools (`.ci/run` installs them).
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time

import pytest
import requests
from redis.crc import key_slot

from service.sessions.keys import Keys
from tests.cluster import failover
from tests.cluster.client import Nodes
from tests.cluster.nodes import ROOT, missing, start_stack
from tests.integration import test_ars_magica_service as ars_magica
from tests.integration import test_readers_beside_writers as readers
from tests.integration import test_runequest_house_service as runequest_house
from tests.integration import test_smoting_simulation as smoting
from tests.integration import test_stream_before_step as before_step
from tests.integration import test_streams_gunicorn as streams
from tests.integration import test_tactical_body_check_service as body_check
from tests.integration import test_war_and_combat_service as war_and_combat
from tests.unit.api import test_encounter_steps as steps
from tests.unit.sim.conftest import fighter, matchup

MISSING = missing()
pytestmark = [pytest.mark.slow, pytest.mark.skipif(MISSING is not None, reason=str(MISSING))]
DUEL = {"ruleset": "tactical", "seed": 11, "matchup": matchup([fighter("a", 55, 35, 20)], [fighter("b", 55, 35, 20)])}


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    stack = start_stack(tmp_path_factory.mktemp("cluster"), REFEREE_SSE_MAX_SECONDS="30",
                        REFEREE_SSE_HEARTBEAT_SECONDS="1", REFEREE_STREAMS_PER_CLIENT="200",
                        REFEREE_STREAMS_PER_ENCOUNTER="3", REFEREE_READINESS_CACHE_SECONDS="0.25")
    yield stack
    stack.close()


@pytest.fixture()
def nodes(stack):
    return Nodes(stack.urls)


@pytest.fixture()
def client(nodes):
    return nodes.test_client()


def test_readyz_says_the_cluster_is_ok_on_both_nodes(stack):
    for url in stack.urls:
        deadline, answer = time.monotonic() + 60, None
        while time.monotonic() < deadline:  # the workers answer pings once they are up
            answer = requests.get(url + "/readyz", timeout=10)
            if answer.status_code == 200:
                break
            time.sleep(0.5)
        assert answer.status_code == 200, answer.text
        assert answer.json()["checks"] == {"redis": "ok", "worker": "ok"}


# --- the single-Redis tests, unchanged, on the cluster ------------------------------------------------
@pytest.mark.parametrize("ruleset", sorted(steps.ENCOUNTERS))
def test_every_ruleset_steps_and_undoes(client, ruleset):
    steps.test_three_steps_stand_at_three_and_an_undo_at_two_naming_the_third(client, ruleset)


def test_war_and_combat_encounter(client):
    war_and_combat.test_an_encounter_runs_three_rounds_with_undo_and_events(client)


def test_ars_magica_encounter(client):
    ars_magica.test_an_encounter_plays_three_rounds_in_redis(client)


def test_runequest_house_encounter(client):
    runequest_house.test_an_encounter_runs_rounds_undoes_and_keeps_events(client)


def test_tactical_body_check(client):
    body_check.test_a_body_check_segment_is_stored_logged_and_undone(client)


def test_readers_beside_a_writer(nodes):
    readers.test_a_writer_with_the_current_version_never_fails_beside_polling_readers(nodes)


def test_streams_under_gunicorn(stack):
    url = stack.urls[0]
    streams.test_open_streams_take_no_thread_from_the_api_and_all_get_every_event(url)
    streams.test_a_stream_resumes_after_last_event_id_from_the_log(url)
    streams.test_streams_past_the_encounter_cap_get_429_problem_json(url)
    streams.test_head_of_a_stream_answers_at_once_without_a_body(url)


@pytest.mark.parametrize("ruleset", sorted(steps.ENCOUNTERS))
def test_a_stream_opened_right_before_a_step(stack, ruleset, monkeypatch):
    monkeypatch.setattr(before_step, "TRIES", 5)
    before_step.test_a_stream_opened_right_before_a_step_gets_that_steps_events_every_time(stack.urls[1], ruleset)


def test_smoting_simulations(nodes):
    smoting.test_a_smoting_matchup_runs_on_the_worker(nodes)
    smoting.test_a_stored_smoting_encounter_can_be_simulated(nodes)


# --- what only a cluster has --------------------------------------------------------------------------
@pytest.mark.parametrize("ruleset", sorted(steps.ENCOUNTERS))
def test_a_stream_on_one_node_gets_the_steps_written_through_the_other(stack, ruleset):
    a, b = stack.urls
    created = requests.post(b + "/v1/encounters", json={"ruleset": ruleset, **steps.ENCOUNTERS[ruleset]},
                            timeout=10).json()
    path, auth = created["links"]["self"], {"Authorization": f"Bearer {created['token']}"}
    done = threading.Event()
    reader = failover.Reader(a, created, done)
    reader.start()
    try:
        for seed in (1, 2, 3):
            assert requests.post(b + path + "/segments", json={"seed": seed, "declarations": []}, headers=auth,
                                 timeout=10).status_code == 201
        assert requests.post(b + path + "/undo", headers=auth, timeout=10).status_code == 200
        final = failover.last_seq(b + path, auth)
        deadline = time.monotonic() + 5
        while reader.last < final and time.monotonic() < deadline:
            time.sleep(0.02)
        assert reader.last == final
    finally:
        done.set()


def test_a_slot_moved_to_another_shard_is_followed_by_writes_and_streams(stack):
    """MOVED: both API nodes knew the old owner; their next writes are sent again to the new one, and the
    stream's sharded subscription (unsubscribed by the old owner) is made again on the new one."""
    a, b = stack.urls
    created = requests.post(a + "/v1/encounters", json=steps.ENCOUNTERS["tactical"], timeout=10).json()
    path, auth = created["links"]["self"], {"Authorization": f"Bearer {created['token']}"}
    done = threading.Event()
    reader = failover.Reader(a, created, done)
    reader.start()
    try:
        assert requests.post(b + path + "/segments", json={"seed": 1, "declarations": []}, headers=auth,
                             timeout=10).status_code == 201
        slot = key_slot(Keys.of(created["id"]).main.encode())
        owner = failover.owner(stack, created)
        stack.cluster.move_slot(slot, next(node for node in stack.cluster.primaries() if node.port != owner))
        for url in (a, b, a):
            answer = requests.post(url + path + "/segments", json={"seed": 2, "declarations": []}, headers=auth,
                                   timeout=10)
            assert answer.status_code == 201, answer.text
        assert failover.owner(stack, created) != owner
        final = failover.last_seq(b + path, auth)
        deadline = time.monotonic() + 10
        while reader.last < final and time.monotonic() < deadline:
            time.sleep(0.05)
        assert reader.last == final
    finally:
        done.set()


def test_racing_writers_over_both_nodes_give_one_winner_per_version(stack):
    created = requests.post(stack.urls[0] + "/v1/encounters", json=steps.ENCOUNTERS["tactical"], timeout=10).json()
    path, auth = created["links"]["self"], {"Authorization": f"Bearer {created['token']}"}
    for version in (1, 2, 3):
        gate, answers = threading.Barrier(20), []

        def write(n: int) -> None:
            session = requests.Session()
            gate.wait(10)
            answers.append(session.post(stack.urls[n % 2] + path + "/segments", json={"seed": n, "declarations": []},
                                        headers={**auth, "If-Match": f'"{version}"'}, timeout=10).status_code)

        threads = [threading.Thread(target=write, args=(n,)) for n in range(20)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(20)
        assert sorted(answers) == [201] + [412] * 19, answers
    assert requests.get(stack.urls[1] + path, headers=auth, timeout=10).json()["version"] == 4


def test_a_400000_trial_simulation_runs_on_the_workers(client):
    queued = client.post("/v1/simulations", json={**DUEL, "trials": 400_000})
    assert queued.status_code == 202, queued.get_json()
    deadline, job = time.monotonic() + 180, {}
    while time.monotonic() < deadline:
        job = client.get(queued.headers["Location"]).get_json()
        if job["state"] in ("done", "failed", "cancelled"):
            break
        time.sleep(0.25)
    assert job["state"] == "done", job
    assert job["result"]["trials"] == 400_000 and job["progress"]["trials_done"] == 400_000


def test_the_worker_refuses_a_broker_on_the_cluster(stack):
    node = stack.cluster.url.split(",")[0]
    env = {**os.environ, "REDIS_URL": stack.cluster.url, "REFEREE_REDIS_MODE": "cluster", "REFEREE_BROKER_URL": node}
    ran = subprocess.run([sys.executable, "-c", "import service.worker"], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=60)
    assert ran.returncode != 0 and "is a Redis Cluster node" in ran.stderr, ran.stderr[-500:]


def test_a_primary_killed_under_writes_and_streams_loses_no_acknowledged_write(stack):
    report = failover.run(stack, encounters=8, readers=2, warmup=1.5, after=5.0)
    print("\n".join(report.lines("failover")))
    victim = next(node for node in stack.cluster.nodes if node.process.poll() is not None)
    stack.cluster.restart(victim)  # it rejoins as a replica: the cluster is whole again
    stack.cluster.wait_synced()
    assert report.lost == 0 and report.statuses.get(500, 0) == 0, report
    assert (report.recovery_seconds or 0) < 15 and (report.recovery_seconds is not None or report.failed_at is None), report
    assert set(report.statuses) <= {201, 503, 0, 412}, report
    assert report.streams_complete == report.streams, report


def test_slots_without_a_primary_make_readyz_503_and_their_writes_503_never_500(stack):
    primary = stack.cluster.primaries()[0]
    replica = stack.cluster.replica_of(primary)
    stack.cluster.kill(replica)
    stack.cluster.kill(primary)  # a third of the slots has no node left: CLUSTERDOWN there until they return
    try:
        deadline, answer = time.monotonic() + 30, None
        while time.monotonic() < deadline:
            answer = requests.get(stack.urls[0] + "/readyz", timeout=10)
            if answer.json()["checks"]["redis"].startswith("cluster_state:fail"):
                break  # the others marked the pair failed (node timeout, then their votes)
            time.sleep(0.2)
        assert answer.status_code == 503 and answer.headers["Content-Type"] == "application/problem+json"
        served = re.fullmatch(r"cluster_state:fail, (\d+) of 16384 slots served", answer.json()["checks"]["redis"])
        assert served and 10_000 < int(served.group(1)) < 16384, answer.json()  # a third of the slots are out
        created = [requests.post(stack.urls[n % 2] + "/v1/encounters", json=steps.ENCOUNTERS["tactical"], timeout=30)
                   for n in range(12)]
        statuses = {response.status_code for response in created}  # 201 on the slots still served
        assert 503 in statuses and statuses <= {201, 503}, [r.status_code for r in created]
        assert all(r.headers["Retry-After"] == "2" for r in created if r.status_code == 503)
    finally:
        stack.cluster.restart(primary)
        stack.cluster.restart(replica)
        stack.cluster.wait_synced()
    assert requests.get(stack.urls[1] + "/readyz", timeout=10).json()["checks"]["redis"] == "ok"
