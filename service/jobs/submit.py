"""Start and cancel simulation jobs: validate, record, then send a chord of chunks with a merge callback."""
from __future__ import annotations

import random
import uuid
from typing import Any

from celery import Celery, chord, group

from service.jobs.store import JobStore
from service.jobs.tasks import MERGE, RUN_CHUNK
from service.sim.chunks import DEFAULT_CHUNK, plan
from service.sim.simulator import simulator_for

FAIL = RUN_CHUNK.replace("run_chunk", "fail")


def submit(celery: Celery, store: JobStore, matchup: dict[str, Any], trials: int, seed: int | None = None,
           chunk_size: int | None = None, tenant: str | None = None, ruleset: str = "tactical") -> dict[str, Any]:
    """Queue a job of `trials` fights of `matchup` under `ruleset`; returns its record (id, state, seed,
    chunks)."""
    simulator_for(ruleset).check(matchup)
    seed = random.SystemRandom().randrange(2**63) if seed is None else seed
    chunk_size = chunk_size or DEFAULT_CHUNK
    sizes = plan(trials, chunk_size)
    job_id = uuid.uuid4().hex
    store.create(job_id, matchup, trials, seed, chunk_size, len(sizes), tenant, ruleset)
    header = group(celery.signature(RUN_CHUNK, args=(job_id, matchup, i, n, seed, ruleset),
                                    task_id=chunk_task_id(job_id, i)) for i, n in enumerate(sizes))
    callback = celery.signature(MERGE, kwargs={"job_id": job_id})
    callback.link_error(celery.signature(FAIL, kwargs={"job_id": job_id}))
    chord(header, app=celery)(callback)
    return store.get(job_id) or {}


def cancel(celery: Celery, store: JobStore, job: dict[str, Any]) -> None:
    """Flag the job cancelled (chunks not yet started skip their work) and revoke its chunk tasks."""
    store.cancel(job["id"])
    celery.control.revoke([chunk_task_id(job["id"], i) for i in range(job["chunks"])])


def chunk_task_id(job_id: str, index: int) -> str:
    """The task id of chunk `index` (known in advance, so cancelling needs no lookup)."""
    return f"{job_id}-chunk-{index}"
