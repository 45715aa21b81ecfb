"""A worker told to stop hands its running chunk back (service.jobs.shutdown): the word reaches a pool process,
the chunk stops at its next step, goes back to the queue first in line, and the job's progress counts it.
The whole path through `make run` and a real Ctrl-C is tests/integration/test_make_run.py."""
from __future__ import annotations

import os
import signal
import time

import billiard
import pytest
from redis import Redis

from service.jobs import shutdown, submit, tasks
from service.jobs.celery_app import make_celery
from service.jobs.redis_server import embedded_server
from service.jobs.store import JobStore, progress
from tests.integration.test_jobs_worker import MATCHUP

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def jobs(tmp_path_factory):
    url, stop = embedded_server(str(tmp_path_factory.mktemp("redis") / "stopping.db"))
    yield make_celery(url), JobStore(Redis.from_url(url))
    stop()


@pytest.fixture()
def stopping():
    shutdown.STOPPING.set()
    yield
    shutdown.STOPPING.clear()


def test_a_chunk_of_a_stopping_worker_goes_back_to_the_queue_first(jobs, stopping):
    celery, store = jobs
    submit.submit(celery, store, MATCHUP, 2000, seed=5, chunk_size=1000)
    job_id, index, _ = store.take(10)
    assert tasks.play(celery, store, job_id, index) == {"chunk": index, "handed_back": True}
    record = store.get(job_id)
    assert record["trials_done"] == 0 and progress(record)["chunks_requeued"] == 1
    assert store.take(10)[:2] == (job_id, index)  # before chunk 1, which was never handed out
    assert store.hand_back(job_id, index, "") and store.get(job_id)["requeued"] == 2  # counted each time
    store.delete(store.get(job_id))


def test_a_done_chunk_or_an_ended_job_is_not_handed_back(jobs):
    celery, store = jobs
    submit.submit(celery, store, MATCHUP, 1000, seed=5, chunk_size=1000)
    job_id, index, _ = store.take(10)
    store.save(job_id, index, 1000, {"trials": 1000})
    assert not store.hand_back(job_id, index, "")
    store.finish(job_id, "failed", error="test")
    assert not store.hand_back(job_id, index, "") and "requeued" not in store.get(job_id)
    store.delete(store.get(job_id))


def _wait_for_the_word() -> None:
    shutdown.listen()
    os.kill(os.getppid(), signal.SIGUSR1)  # listening now
    deadline = time.monotonic() + 10
    while not shutdown.STOPPING.wait(0.05):
        if time.monotonic() > deadline:
            os._exit(1)
    os._exit(0)


def test_the_main_process_passes_the_word_to_its_pool_processes():
    ready = []
    previous = signal.signal(signal.SIGUSR1, lambda *_: ready.append(1))
    try:
        child = billiard.Process(target=_wait_for_the_word)
        child.start()
        deadline = time.monotonic() + 10
        while not ready and time.monotonic() < deadline:
            time.sleep(0.02)
        shutdown.begin()
        child.join(10)
    finally:
        signal.signal(signal.SIGUSR1, previous)
        shutdown.STOPPING.clear()
    assert child.exitcode == 0
