"""A worker told to stop (SIGTERM, or Ctrl-C in a terminal) hands its running chunks back to the queue at once.

Celery's warm shutdown waits for the task in hand to end, and a simulation chunk can run for many seconds:
long enough for whoever stops the worker (`make run`, a container runtime) to kill it, and its chunk would
then sit silent until its lease lapsed and a sweeper on some later worker found it. Instead, the worker's
main process, as it begins to shut down, sets `STOPPING` and passes the word to its pool processes (SIGUSR2:
Celery's prefork children ignore SIGINT and die of SIGTERM; SIGUSR1 is billiard's soft time limit). A chunk
sees it at its next checkpoint (`service.jobs.tasks.Lease.check`) and is given back to the job's queue,
first in line, its progress counting it (`chunks_requeued`).
"""
from __future__ import annotations

import os
import signal
import threading
from typing import Any

STOPPING = threading.Event()
RELAY = signal.SIGUSR2


def listen(**_: Any) -> None:
    """In a pool process (or the solo pool's own): the relayed signal sets STOPPING (`worker_process_init`)."""
    STOPPING.clear()
    signal.signal(RELAY, lambda *_: STOPPING.set())


def begin(**_: Any) -> None:
    """In the worker's main process as it starts shutting down (`worker_shutting_down`): set STOPPING here
    (threads and solo pools run chunks in this process) and relay it to every pool process."""
    STOPPING.set()
    from billiard.process import active_children

    for child in active_children():
        if child.pid and child.pid != os.getpid():
            try:
                os.kill(child.pid, RELAY)
            except ProcessLookupError:
                pass
