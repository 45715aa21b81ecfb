"""The simulation task `turn`, the chunk it plays, the merge a job ends with, and the lost-chunk sweeper.

A message on the queue carries no job: it is a turn. The worker that takes it asks the job store for the
chunk that is fairly due (`JobStore.take`: clients in turn, each client's jobs oldest first) and, when more
chunks are queued, sends the next turn before playing its own, so the workers fan a job out and the
request that submitted it sends one message whatever its size. There is no chord: the chunk that completes
a job merges it, and every chunk holds a lease in Redis while it runs. A worker that dies stops renewing
its leases; the sweeper every worker runs (`Sweeper`) queues such chunks again within a lease, and sends a
turn if chunks are queued while the broker holds none. While a chunk runs, its lease thread also watches
the job: once it is deleted or has ended the chunk stops at its next step (`service.sim.stopping`), as it
does past twice its estimated CPU (the job then fails, naming the limit), and as its worker begins to shut
down (it is handed back to the queue at once: `service.jobs.shutdown`). Redis calls are retried with backoff
through a short outage (`patiently`).
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
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import OutOfMemoryError
from redis.exceptions import TimeoutError as RedisTimeout

from service.jobs.shutdown import STOPPING
from service.jobs.store import TERMINAL, JobStore
from service.sessions.cluster import UNAVAILABLE
from service.sessions.connection import connect
from service.sim.chunks import plan
from service.sim.cost import UNMEASURED, Cost
from service.sim.simulator import simulator_for
from service.sim.stopping import Stopped, watched

TURN = "referee.sim.turn"
RUN_CHUNK = "referee.sim.run_chunk"
MERGE = "referee.sim.merge"
FAIL = "referee.sim.fail"
TRANSIENT = (RedisConnectionError, RedisTimeout, OutOfMemoryError, OperationalError, ConnectionError,
             *UNAVAILABLE)  # a cluster shard switching over too
RETRY_DELAYS = (0.2, 0.5, 1, 2, 4, 8, 15, 30)  # about a minute in all
WATCH_EVERY = 0.2  # seconds between a running chunk's looks at its job (a deleted job stops within this)
CPU_SLACK = 2.0  # a chunk is stopped past this many times its estimated CPU (plus a second)
log = logging.getLogger("referee.jobs")
T = TypeVar("T")


@lru_cache(maxsize=8)
def _redis(url: str, mode: str = "single") -> Redis:
    return connect(url, "", mode, 5, 10)


def store_for(app: Celery) -> JobStore:
    """The job store on the app's Redis (or Redis Cluster)."""
    return JobStore(_redis(app.conf.referee_redis_url, app.conf.get("referee_redis_mode") or "single"),
                    app.conf.referee_job_ttl)


def patiently(call: Callable[[], T], delays: tuple[float, ...] = RETRY_DELAYS) -> T:
    """`call()`, retried after each of `delays` seconds while Redis is unreachable (or full)."""
    for delay in delays:
        try:
            return call()
        except TRANSIENT as error:
            log.warning("Redis unavailable (%s); retrying in %s s", error, delay)
            time.sleep(delay)
    return call()


class OverCpu(Stopped):
    """A chunk ran past its CPU limit."""


class WorkerStopping(Stopped):
    """The chunk's worker is shutting down: the chunk goes back to the queue."""


class Lease:
    """While chunk `index` runs: renews its lease every third of its length, and looks at its job every
    WATCH_EVERY seconds; `check` (the chunk's checkpoint) raises Stopped once the job is gone or ended,
    OverCpu once the chunk's thread has used `cpu_limit` seconds, and WorkerStopping once its worker is."""

    def __init__(self, store: JobStore, job_id: str, index: int, seconds: int, cpu_limit: float = float("inf")):
        self.store, self.job_id, self.index, self.seconds = store, job_id, index, seconds
        self.cpu_limit = cpu_limit
        self.stopped = threading.Event()
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True, name=f"lease-{job_id}-{index}")

    def __enter__(self) -> "Lease":
        self._cpu_start = time.thread_time()
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._done.set()
        self._thread.join()

    def check(self) -> None:
        if self.stopped.is_set():
            raise Stopped(f"job {self.job_id} was deleted or ended")
        if time.thread_time() - self._cpu_start > self.cpu_limit:
            raise OverCpu(f"chunk {self.index} ran past {self.cpu_limit:.1f} s of CPU")
        if STOPPING.is_set():
            raise WorkerStopping(f"chunk {self.index}'s worker is shutting down")

    def _watch(self) -> None:
        renewed = time.monotonic()
        while not self._done.wait(WATCH_EVERY):
            try:
                if self.store.state(self.job_id) in (None, *TERMINAL):
                    self.stopped.set()
                if time.monotonic() - renewed >= self.seconds / 3:
                    self.store.renew(self.job_id, self.index, self.seconds)
                    renewed = time.monotonic()
            except TRANSIENT:
                pass  # the next beat tries again; a lease lost meanwhile only means the chunk may run twice


def turn(task: Task) -> dict:
    """Play the chunk that is fairly due (nothing when none is queued); send the next turn first if more are."""
    store = store_for(task.app)
    if STOPPING.is_set():
        return {"idle": "the worker is shutting down"}
    taken = patiently(lambda: store.take(task.app.conf.referee_job_lease))
    if taken is None:
        return {"idle": True}
    job_id, index, more = taken
    if more:
        send_turn(task.app, quietly=True)
    return play(task.app, store, job_id, index)


def run_chunk(task: Task, job_id: str, matchup: dict, chunk_index: int, trials: int, seed: int,
              ruleset: str = "tactical") -> dict:
    """Chunk `chunk_index` of a job, as a message of an older version named it (not queued fairly)."""
    store = store_for(task.app)
    patiently(lambda: store.claim(job_id, chunk_index, task.app.conf.referee_job_lease))
    return play(task.app, store, job_id, chunk_index)


def play(app: Celery, store: JobStore, job_id: str, index: int) -> dict:
    """Simulate chunk `index` of a job and store its tally once (skipped when the job is gone or ended;
    stopped within WATCH_EVERY and a step when it goes or ends meanwhile); the chunk that completes the job
    merges it. Redis away for longer than every retry: the chunk is left to its lease (the sweeper queues
    it again)."""
    job = patiently(lambda: store.get(job_id))
    if job is None or job["state"] in TERMINAL:
        store.release(job_id, index)
        return {"chunk": index, "skipped": "ended" if job else "unknown"}
    trials = plan(job["trials"], job["chunk_size"])[index]
    try:
        with Lease(store, job_id, index, app.conf.referee_job_lease, _cpu_limit(job, trials)) as lease:
            done = _play(store, job, index, trials, lease)
    except OverCpu as error:
        log.error("chunk %s of job %s stopped: %s", index, job_id, error)
        _fail(store, job_id, f"a simulation chunk ran past its CPU limit: {error}")
        return {"chunk": index, "stopped": str(error)}
    except WorkerStopping:
        return _hand_back(app, store, job, index)
    except Stopped:
        store.release(job_id, index)
        return {"chunk": index, "stopped": "the job was deleted or ended"}
    except TRANSIENT:
        raise
    except Exception as error:
        log.exception("chunk %s of job %s failed", index, job_id)
        _fail(store, job_id, f"a simulation chunk failed: {type(error).__name__}")
        raise
    if done >= job["chunks"]:
        patiently(lambda: merge_job(store, job_id))
    return {"chunk": index, "trials": trials}


def _hand_back(app: Celery, store: JobStore, job: dict, index: int) -> dict:
    """Give a chunk its stopping worker will not finish back to the queue, and send a turn for it (another
    worker takes it now; with none, the next one to start)."""
    handed = patiently(lambda: store.hand_back(job["id"], index, job.get("client", "")))
    if handed:
        log.warning("chunk %s of job %s handed back to the queue: the worker is shutting down", index, job["id"])
        send_turn(app, quietly=True)
    return {"chunk": index, "handed_back": handed}


def _fail(store: JobStore, job_id: str, why: str) -> None:
    patiently(lambda: store.finish(job_id, "failed", error=why))


def _play(store: JobStore, job: dict, index: int, trials: int, lease: Lease) -> int:
    """Run the chunk under the lease's watch unless its tally is already stored; chunks done after it."""
    job_id = job["id"]
    if not patiently(lambda: store.is_done(job_id, index)):
        with watched(lease.check):
            tally = simulator_for(job["ruleset"]).run_chunk(job["matchup"], index, trials, job["seed"])
        _, done = patiently(lambda: store.save(job_id, index, trials, tally))
    else:
        done = patiently(lambda: store.chunks_done(job_id))
    patiently(lambda: store.release(job_id, index))
    return done


def _cpu_limit(job: dict, trials: int) -> float:
    """CPU_SLACK times the chunk's estimate, plus a second (no limit for a job recorded without a cost)."""
    if "engine" not in job:
        return float("inf")
    rates = simulator_for(job["ruleset"]).rates.get(job["engine"], UNMEASURED)
    cost = Cost(job["engine"], job["combatants"], job["steps"], rates)
    return CPU_SLACK * cost.chunk_seconds(trials) + 1.0


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
    """Error callback of an old chord: the job failed unless it already ended."""
    store_for(task.app).finish(job_id, "failed", error="a simulation chunk failed")


def requeue_lost(app: Celery, store: JobStore) -> list[tuple[str, int]]:
    """Queue again every chunk whose worker died while running it, forget jobs that ended, and send a turn
    when chunks are queued but the broker holds no turn. (job, chunk) queued again."""
    again = []
    for job_id in store.active():
        job = store.get(job_id)
        if job is None or job["state"] in TERMINAL:
            store.forget_active(job_id)
            continue
        for index in store.requeue_lost(job_id, job.get("client", "")):
            log.warning("chunk %s of job %s lost its worker; queued again", index, job_id)
            again.append((job_id, index))
    if again or (store.queued() and not _turns_waiting(app)):
        send_turn(app)
    return again


def _turns_waiting(app: Celery) -> int:
    """Messages waiting on the broker's queue (the Redis transport keeps them in a list named after it)."""
    return int(_redis(app.conf.broker_url).llen(app.conf.task_default_queue))


def send_turn(app: Celery, quietly: bool = False) -> None:
    """Queue one turn (`quietly`: a broker refusing it is logged, and the sweeper sends one later)."""
    try:
        app.send_task(TURN, ignore_result=True)
    except Exception:
        if not quietly:
            raise
        log.warning("could not queue the next turn; the sweeper will", exc_info=True)


class Sweeper:
    """A daemon thread in a worker that calls `requeue_lost` every `every` seconds."""

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
                requeue_lost(self.app, store_for(self.app))
            except TRANSIENT:
                log.debug("sweep for lost chunks skipped: Redis unreachable")  # the next sweep tries again
            except Exception:  # noqa: BLE001 - a sweep must never end the worker
                log.warning("sweep for lost chunks failed", exc_info=True)


def register(app: Celery) -> None:
    """Register the tasks on `app` under their fixed names (results are not stored: nothing reads them)."""
    app.task(name=TURN, bind=True, acks_late=True, ignore_result=True)(turn)
    app.task(name=RUN_CHUNK, bind=True, acks_late=True, ignore_result=True)(run_chunk)
    app.task(name=MERGE, bind=True, acks_late=True, ignore_result=True)(merge)
    app.task(name=FAIL, bind=True, ignore_result=True)(fail)
