"""The two simulation tasks: `run_chunk` (pure, idempotent) and `merge` (the chord's callback).

Tasks are registered on a given Celery app by `register` (nothing is built at import time) and
called by name. They never wait on other tasks; `merge` retries until every chunk's tally is stored.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from celery import Celery, Task
from redis import Redis

from service.jobs.store import JobStore
from service.sim.simulator import simulator_for

RUN_CHUNK = "referee.sim.run_chunk"
MERGE = "referee.sim.merge"


@lru_cache(maxsize=8)
def _redis(url: str) -> Redis:
    return Redis.from_url(url, socket_connect_timeout=5)


def store_for(app: Celery) -> JobStore:
    """The job store on the app's Redis."""
    return JobStore(_redis(app.conf.referee_redis_url), app.conf.referee_job_ttl)


def run_chunk(task: Task, job_id: str, matchup: dict, chunk_index: int, trials: int, seed: int,
              ruleset: str = "tactical") -> dict:
    """Simulate chunk `chunk_index` of a job and store its tally once (skipped when cancelled)."""
    store = store_for(task.app)
    if store.cancelled(job_id):
        return {"chunk": chunk_index, "skipped": "cancelled"}
    store.start_chunk(job_id)
    if not store.has_part(job_id, chunk_index):
        tally = simulator_for(ruleset).run_chunk(matchup, chunk_index, trials, seed)
        store.save_part(job_id, chunk_index, tally)
    store.chunk_done(job_id, chunk_index, trials)
    return {"chunk": chunk_index, "trials": trials}


def merge(task: Task, _chunk_results: Any, job_id: str) -> dict:
    """Merge every chunk's tally into the job's result; retry while a chunk is still missing."""
    store = store_for(task.app)
    job = store.get(job_id)
    if job is None or job["state"] in ("cancelled", "failed") or store.cancelled(job_id):
        return {"job": job_id, "state": "cancelled"}
    parts = store.parts(job_id, job["chunks"])
    if any(part is None for part in parts):
        raise task.retry(countdown=1, max_retries=600)
    simulator = simulator_for(job["ruleset"])
    store.finish(job_id, "done", simulator.summarize(job["matchup"], simulator.merge(parts)))
    return {"job": job_id, "state": "done"}


def fail(task: Task, *args: Any, job_id: str) -> None:
    """Error callback of the chord: the job failed (a chunk raised)."""
    store_for(task.app).finish(job_id, "failed", error="a simulation chunk failed")


def register(app: Celery) -> None:
    """Register the tasks on `app` under their fixed names."""
    app.task(name=RUN_CHUNK, bind=True, acks_late=True)(run_chunk)
    app.task(name=MERGE, bind=True, acks_late=True)(merge)
    app.task(name=RUN_CHUNK.replace("run_chunk", "fail"), bind=True)(fail)
