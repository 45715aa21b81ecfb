"""The simulation task `run_chunk` (pure, idempotent), the merge it ends with, and the lost-chunk sweeper.

Tasks are registered on a given Celery app by `register` (nothing is built at import time) and called by
name. There is no chord: the chunk that completes a job merges it (so no result backend, chord counter or
error callback can fail or overwrite a job), and every chunk holds a lease in Redis while it runs. A
worker that dies stops renewing its leases; the sweeper every worker runs (`Sweeper`) finds such chunks
within a lease and sends them again, so a job never waits for the broker's visibility timeout.
Redis calls a chunk makes are retried with backoff through a short outage (`patiently`).
"""
from __future__ import annotations

import logging
import threading
import time
from functools import lru_cache
from typing import Any, Callable, TypeVar

from celery import Celery, Task
from kombu.exceptions import OperationalError
from redis import Redis
from redis.exceptions import ConnectionError as RedisConnectionError, TimeoutError as RedisTimeout

from service.jobs.store import TERMINAL, JobStore
from service.sim.chunks import plan
from service.sim.simulator import simulator_for

RUN_CHUNK = "referee.sim.run_chunk"
MERGE = "referee.sim.merge"
FAIL = "referee.sim.fail"
TRANSIENT = (RedisConnectionError, RedisTimeout, OperationalError, ConnectionError)
RETRY_DELAYS = (0.2, 0.5, 1, 2, 4, 8, 15, 30)  # about a minute in all
log = logging.getLogger("referee.jobs")
T = TypeVar("T")


@lru_cache(maxsize=8)
def _redis(url: str) -> Redis:
    return Redis.from_url(url, socket_connect_timeout=5, socket_timeout=10)


def store_for(app: Celery) -> JobStore:
    """The job store on the app's Redis."""
    return JobStore(_redis(app.conf.referee_redis_url), app.conf.referee_job_ttl)


def patiently(call: Callable[[], T], delays: tuple[float, ...] = RETRY_DELAYS) -> T:
    """`call()`, retried after each of `delays` seconds while Redis is unreachable."""
    for delay in delays:
        try:
            return call()
        except TRANSIENT as error:
            log.warning("Redis unreachable (%s); retrying in %s s", error, delay)
            time.sleep(delay)
    return call()


class Lease:
    """Holds chunk `index`'s lease while the chunk runs: renewed on a thread every third of its length."""

    def __init__(self, store: JobStore, job_id: str, index: int, seconds: int):
        self.store, self.job_id, self.index, self.seconds = store, job_id, index, seconds
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._renew, daemon=True, name=f"lease-{job_id}-{index}")

    def __enter__(self) -> "Lease":
        patiently(lambda: self.store.claim(self.job_id, self.index, self.seconds))
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        self._thread.join()

    def _renew(self) -> None:
        while not self._stop.wait(self.seconds / 3):
            try:
                self.store.renew(self.job_id, self.index, self.seconds)
            except TRANSIENT:
                pass  # the next beat tries again; a lease lost meanwhile only means the chunk may run twice


def run_chunk(task: Task, job_id: str, matchup: dict, chunk_index: int, trials: int, seed: int,
              ruleset: str = "tactical") -> dict:
    """Simulate chunk `chunk_index` of a job and store its tally once (skipped when the job is cancelled,
    ended or unknown); the chunk that completes the job merges it. Redis away for longer than every
    in-process retry: the task is retried later (its lease lapses, so a sweeper may send it first)."""
    try:
        return _run_chunk(task, job_id, matchup, chunk_index, trials, seed, ruleset)
    except TRANSIENT as error:
        raise task.retry(exc=error, countdown=10, max_retries=30)


def _run_chunk(task: Task, job_id: str, matchup: dict, chunk_index: int, trials: int, seed: int,
               ruleset: str) -> dict:
    store = store_for(task.app)
    job = patiently(lambda: store.get(job_id))
    if job is None or job["state"] in TERMINAL or patiently(lambda: store.cancelled(job_id)):
        return {"chunk": chunk_index, "skipped": "ended" if job else "unknown"}
    try:
        with Lease(store, job_id, chunk_index, task.app.conf.referee_job_lease):
            patiently(lambda: store.start_chunk(job_id))
            if not patiently(lambda: store.has_part(job_id, chunk_index)):
                tally = simulator_for(ruleset).run_chunk(matchup, chunk_index, trials, seed)
                patiently(lambda: store.save_part(job_id, chunk_index, tally))
            _, done = patiently(lambda: store.chunk_done(job_id, chunk_index, trials))
            patiently(lambda: store.release(job_id, chunk_index))
    except TRANSIENT:
        raise
    except Exception as error:
        log.exception("chunk %s of job %s failed", chunk_index, job_id)
        patiently(lambda: store.finish(job_id, "failed", error=f"a simulation chunk failed: {type(error).__name__}"))
        raise
    if done >= job["chunks"]:
        patiently(lambda: merge_job(store, job_id))
    return {"chunk": chunk_index, "trials": trials}


def merge_job(store: JobStore, job_id: str) -> str:
    """Merge every chunk's tally into the job's result once all are stored; the job's state after."""
    job = store.get(job_id)
    if job is None or job["state"] in TERMINAL:
        return job["state"] if job else "unknown"
    parts = store.parts(job_id, job["chunks"])
    if any(part is None for part in parts):
        return job["state"]
    simulator = simulator_for(job["ruleset"])
    store.finish(job_id, "done", simulator.summarize(job["matchup"], simulator.merge(parts)))
    return "done"


def merge(task: Task, _chunk_results: Any = None, job_id: str = "") -> dict:
    """Merge a job (kept for messages queued by a version that ended jobs with a chord callback)."""
    return {"job": job_id, "state": merge_job(store_for(task.app), job_id)}


def fail(task: Task, *args: Any, job_id: str) -> None:
    """Error callback of an old chord: the job failed unless it already ended (a cancel stays a cancel)."""
    store_for(task.app).finish(job_id, "failed", error="a simulation chunk failed")


def resend_lost(app: Celery, store: JobStore) -> list[tuple[str, int]]:
    """Send again every chunk whose worker died while running it; forget jobs that ended. (job, chunk) sent."""
    sent = []
    for job_id in store.active():
        job = store.get(job_id)
        if job is None or job["state"] in TERMINAL:
            store.forget_active(job_id)
            continue
        sizes = plan(job["trials"], job["chunk_size"])
        for index in store.lost_chunks(job_id):
            log.warning("chunk %s of job %s lost its worker; sending it again", index, job_id)
            send_chunk(app, job_id, job["matchup"], index, sizes[index], job["seed"], job["ruleset"])
            sent.append((job_id, index))
    return sent


def send_chunk(app: Celery, job_id: str, matchup: dict, index: int, trials: int, seed: int, ruleset: str) -> None:
    """Queue chunk `index` of a job (its task id is known in advance, so cancelling needs no lookup)."""
    app.send_task(RUN_CHUNK, args=(job_id, matchup, index, trials, seed, ruleset), task_id=chunk_task_id(job_id, index),
                  ignore_result=True)


def chunk_task_id(job_id: str, index: int) -> str:
    """The task id of chunk `index`."""
    return f"{job_id}-chunk-{index}"


class Sweeper:
    """A daemon thread in a worker that calls `resend_lost` every `every` seconds."""

    def __init__(self, app: Celery, every: float):
        self.app, self.every = app, every
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True, name="referee-sweeper")

    def start(self) -> "Sweeper":
        self.thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            try:
                resend_lost(self.app, store_for(self.app))
            except TRANSIENT:
                log.debug("sweep for lost chunks skipped: Redis unreachable")  # the next sweep tries again
            except Exception:  # noqa: BLE001 - a sweep must never end the worker
                log.warning("sweep for lost chunks failed", exc_info=True)


def register(app: Celery) -> None:
    """Register the tasks on `app` under their fixed names (results are not stored: nothing reads them)."""
    app.task(name=RUN_CHUNK, bind=True, acks_late=True, ignore_result=True)(run_chunk)
    app.task(name=MERGE, bind=True, acks_late=True, ignore_result=True)(merge)
    app.task(name=FAIL, bind=True, ignore_result=True)(fail)
