"""Start and cancel simulation jobs: validate, record, send one task per chunk, then confirm the record."""
from __future__ import annotations

import random
import uuid
from typing import Any

from celery import Celery

from service.jobs.store import JobStore
from service.jobs.tasks import chunk_task_id, send_chunk
from service.sim.chunks import DEFAULT_CHUNK, plan
from service.sim.simulator import simulator_for

__all__ = ["TooManyJobs", "cancel", "chunk_task_id", "submit"]


class TooManyJobs(Exception):
    """The client already has `cap` jobs queued or running."""

    def __init__(self, cap: int):
        super().__init__(f"at most {cap} simulations may be queued or running per client; "
                         "wait for one to end or cancel one")
        self.cap = cap


def submit(celery: Celery, store: JobStore, matchup: dict[str, Any], trials: int, seed: int | None = None,
           chunk_size: int | None = None, tenant: str | None = None, ruleset: str = "tactical",
           client: str = "", max_jobs: int = 0) -> dict[str, Any]:
    """Queue a job of `trials` fights of `matchup` under `ruleset`; returns its record (id, state, seed,
    chunks). With `max_jobs`, a `client` holding that many jobs not yet ended gets TooManyJobs. If a chunk
    cannot be queued (the broker is down) the record is removed again and the error raised: no job is
    left `queued` that nothing will run."""
    simulator_for(ruleset).check(matchup)
    seed = random.SystemRandom().randrange(2**63) if seed is None else seed
    chunk_size = chunk_size or DEFAULT_CHUNK
    sizes = plan(trials, chunk_size)
    job_id = uuid.uuid4().hex
    if max_jobs and not store.admit(client, job_id, max_jobs):
        raise TooManyJobs(max_jobs)
    try:
        store.create(job_id, matchup, trials, seed, chunk_size, len(sizes), tenant, ruleset, client)
        for index, size in enumerate(sizes):
            send_chunk(celery, job_id, matchup, index, size, seed, ruleset)
        store.confirm(job_id)
    except Exception:
        try:
            store.discard(job_id, client)
        except Exception:  # noqa: BLE001 - Redis is down too: the record expires on its own (PENDING_TTL)
            pass
        raise
    return store.get(job_id) or {}


def cancel(celery: Celery, store: JobStore, job: dict[str, Any]) -> None:
    """Flag the job cancelled (chunks not yet started skip their work) and revoke its chunk tasks. It keeps
    the trials its finished chunks counted."""
    store.cancel(job["id"])
    celery.control.revoke([chunk_task_id(job["id"], i) for i in range(job["chunks"])])
